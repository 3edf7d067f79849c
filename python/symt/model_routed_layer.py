"""The object-routed layer of :class:`symt.model_routed.RoutedSymTE`: one application routes
information atom -> object -> atom through one token per object and a few global tokens (the
steps and their cost: :mod:`symt.model_routed`'s docstring). Its own module beside the model, as
SymT-E's :class:`symt.model_layer.SharedLayer` is beside :class:`symt.model.SymTE`.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .model_config import LOG_LENGTH_REFERENCE, ModelConfig
from .model_objects import Routes

NEG_INF = -1e30
"""A finite stand-in for -inf in the routing's own softmax: a masked score that never meets a real
one (every softmax here has a global token among its keys) and never makes a NaN."""


class FeedForward(nn.Module):
    """The position-wise MLP of one kind of token."""

    def __init__(self, d: int, d_ff: int):
        super().__init__()
        self.up = nn.Linear(d, d_ff)
        self.down = nn.Linear(d_ff, d)

    def forward(self, x: Tensor) -> Tensor:
        """The MLP's output for ``x`` [..., d]."""
        return self.down(F.gelu(self.up(x)))


class RoutedLayer(nn.Module):
    """One application of the routed layer: objects gather from atoms, atoms from objects,
    globals from atoms (see the module's docstring)."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        d, h, m = config.d_model, config.n_heads, config.max_arity
        if d % h:
            raise ValueError(f"d_model {d} is not divisible by n_heads {h}")
        self.n_heads = h
        self.head_dim = d // h
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.neg_inf = NEG_INF  # an attribute: TorchScript reads no globals
        self.atom_qkv = nn.Linear(d, 3 * d)
        self.object_qkv = nn.Linear(d, 3 * d)
        self.global_qkv = nn.Linear(d, 3 * d)
        self.atom_out = nn.Linear(d, d)
        self.object_out = nn.Linear(d, d)
        self.global_out = nn.Linear(d, d)
        self.atom_ff = FeedForward(d, config.d_ff)
        self.object_ff = FeedForward(d, config.d_ff)
        self.global_ff = FeedForward(d, config.d_ff)
        # Key and value offsets per argument slot, so that on(a b) reads a and b apart: the
        # first pair for an object reading an atom it sits in, the second for an atom reading
        # its argument. Small and random, so the slots differ from the first step.
        self.slot_in = nn.Parameter(torch.randn(2, m, d) * 0.02)
        self.slot_out = nn.Parameter(torch.randn(2, m, d) * 0.02)
        # ``log-length``: an object's and a global token's queries times s_h · ln(n), n the keys
        # they may attend to, which grow with the task (a room holds every ball of Gripper); an
        # atom's keys are its arguments, itself and the globals, the same number at every size.
        # Object links (``object_links``): key and value offsets per link type (the context atom's
        # predicate id and the two slots), so that connected(a b) and on(b a) read apart.
        num_ids = (3 if config.achieved_goals else 2) * config.num_predicates
        if config.object_links:
            self.link_offsets = nn.Parameter(torch.randn(2, num_ids * m * m, d) * 0.02)
        else:  # unused; not persistent, so checkpoints without links stay as they were. One row, not
            # none: frozen TorchScript folds a view of an empty tensor into a file it cannot load.
            self.register_buffer("link_offsets", torch.zeros(2, 1, d), persistent=False)
        self.log_length = config.attention_scale == "log-length"
        start = 1.0 / math.log(LOG_LENGTH_REFERENCE)
        if self.log_length:
            self.object_length_scale = nn.Parameter(torch.full((h,), start))
            self.global_length_scale = nn.Parameter(torch.full((h,), start))
        else:  # unused; not persistent, so checkpoints of fixed attention stay as they were
            self.register_buffer("object_length_scale", torch.zeros(h), persistent=False)
            self.register_buffer("global_length_scale", torch.zeros(h), persistent=False)

    def split(self, projected: Tensor) -> tuple[Tensor, Tensor]:
        """Queries [..., heads, head_dim] and keys and values stacked [..., 2, heads, head_dim] of a
        ``*_qkv`` projection [..., 3d], in float32 (the routing's sums and softmaxes stay in full
        precision under bf16 autocast). Keys and values travel together, so that one gather moves
        both (fewer, larger operations: a state's pass is bound by their number at small states)."""
        shape = list(projected.shape[:-1]) + [3, self.n_heads, self.head_dim]
        qkv = projected.float().view(shape)
        return qkv.select(-3, 0), qkv.narrow(-3, 1, 2)

    def offsets(self, offsets: Tensor) -> Tensor:
        """Key and value offsets [n, 2, heads, head_dim] of ``offsets`` [2, n, d] (per argument slot,
        or per link type), stacked as :meth:`split` stacks keys and values."""
        return offsets.float().view(2, -1, self.n_heads, self.head_dim).transpose(0, 1)

    def edge_and_link_offsets(self, routes: Routes, links: Tensor) -> tuple[Tensor, Tensor]:
        """The key and value offsets of every edge by its argument slot [E,2,heads,head_dim] and of
        every object link (``links`` [3,L]) by its type [L,2,heads,head_dim], as
        :meth:`gather_objects` reads them; the same in every application of the layer."""
        edges = self.offsets(self.slot_in)[routes.edge_slot]
        if links.shape[1] == 0:
            return edges, torch.zeros(0, 2, self.n_heads, self.head_dim, device=links.device)
        return edges, self.offsets(self.link_offsets)[links[2]]

    def object_query_scale(self, log_keys: Tensor) -> Tensor:
        """What an object's queries are multiplied by before the dot products [O or 1, heads, 1]:
        1/sqrt(head_dim), and with ``log-length`` s_h · ln(keys) (``log_keys`` [O],
        :func:`symt.model_objects.object_log_keys_of`)."""
        if self.log_length:
            return (self.object_length_scale[None, :] * log_keys[:, None])[..., None] * self.scale
        return torch.full((1, self.n_heads, 1), self.scale, device=log_keys.device)

    def global_query_scale(self, log_keys: Tensor) -> Tensor:
        """What a state's global tokens' queries are multiplied by [B or 1, 1, heads, 1]:
        1/sqrt(head_dim), and with ``log-length`` s_h · ln(keys) (``log_keys`` [B])."""
        if self.log_length:
            return (self.global_length_scale[None, :] * log_keys[:, None])[:, None, :, None] * self.scale
        return torch.full((1, 1, self.n_heads, 1), self.scale, device=log_keys.device)

    def gather_objects(
        self, y: Tensor, q: Tensor, kv_atoms: Tensor, kv_globals: Tensor, routes: Routes, context_kv: Tensor | None,
        links: Tensor, kv_objects: Tensor, query_scale: Tensor, edge_offsets: Tensor, link_offsets: Tensor,
    ) -> Tensor:
        """Object tokens ``y`` [O,d] (queries ``q`` [O,heads,head_dim]) after attending to their
        atoms (keys and values ``kv_atoms`` [B*N,2,heads,head_dim] through ``routes``, plus each
        edge's slot offsets ``edge_offsets`` [E,2,heads,head_dim]), to their state's global tokens
        (``kv_globals`` [B,G,2,heads,head_dim]), to their context tokens ([O,2,heads,head_dim],
        read where ``routes.has_context``; None: no context) and to the objects ``links`` [3,L]
        names (receiving object, sending object, link type; keys and values ``kv_objects``
        [O,2,heads,head_dim] plus ``link_offsets`` [L,2,heads,head_dim], the type's). The queries are
        multiplied by ``query_scale`` (:meth:`object_query_scale`).

        One softmax per object over its edges and links (a variable number per object: scattered),
        its state's globals and its context token; the maximum of all is subtracted before ``exp``."""
        o = y.shape[0]
        q = q * query_scale
        kv_edges = kv_atoms[routes.edge_atom] + edge_offsets  # [E,2,heads,head_dim]
        s_edges = (q[routes.edge_object] * kv_edges.select(1, 0)).sum(-1)  # [E,heads]
        kv_states = kv_globals[routes.object_batch]  # [O,G,2,heads,head_dim]
        s_globals = (q[:, None] * kv_states.select(2, 0)).sum(-1)  # [O,G,heads]
        if kv_globals.shape[1] > 0:
            top = s_globals.amax(dim=1)
        else:  # no global tokens (a local model): every object has an edge, which sets the maximum
            top = torch.full((o, self.n_heads), self.neg_inf, device=y.device)
        s_context = torch.full_like(top, self.neg_inf)
        if context_kv is not None:  # an object without a context token does not read the row it got
            s_context = torch.where(routes.has_context[:, None], (q * context_kv.select(1, 0)).sum(-1), s_context)
            top = torch.maximum(top, s_context)
        index = routes.edge_object[:, None].expand(-1, self.n_heads)
        top = top.scatter_reduce(0, index, s_edges, reduce="amax", include_self=True)
        has_links = links.shape[1] > 0  # none in a model without object links: skip their gathers
        receiving = links[0]
        kv_links = torch.zeros(0, 2, self.n_heads, self.head_dim, device=y.device)
        s_links = torch.zeros(0, self.n_heads, device=y.device)
        if has_links:
            kv_links = kv_objects[links[1]] + link_offsets
            s_links = (q[receiving] * kv_links.select(1, 0)).sum(-1)  # [L,heads]
            top = top.scatter_reduce(0, receiving[:, None].expand(-1, self.n_heads), s_links, reduce="amax",
                                     include_self=True)
        w_edges = (s_edges - top[routes.edge_object]).exp()
        w_globals = (s_globals - top[:, None]).exp()
        w_context = (s_context - top).exp()
        weight = (w_globals.sum(dim=1) + w_context).index_add(0, routes.edge_object, w_edges)
        mixed = (w_globals[..., None] * kv_states.select(2, 1)).sum(dim=1)
        if context_kv is not None:
            mixed = mixed + w_context[..., None] * context_kv.select(1, 1)
        mixed = mixed.index_add(0, routes.edge_object, w_edges[..., None] * kv_edges.select(1, 1))
        if has_links:
            w_links = (s_links - top[receiving]).exp()
            weight = weight.index_add(0, receiving, w_links)
            mixed = mixed.index_add(0, receiving, w_links[..., None] * kv_links.select(1, 1))
        mixed = (mixed / weight[..., None]).reshape(o, y.shape[1]).to(y.dtype)
        y = y + self.object_out(mixed)
        return y + self.object_ff(y)

    def gather_atoms(
        self, x: Tensor, q: Tensor, kv_self: Tensor, kv_objects: Tensor, kv_globals: Tensor, routes: Routes,
        closed: Tensor,
    ) -> tuple[Tensor, Tensor]:
        """Atom tokens ``x`` [B,N,d] (queries [B,N,heads,head_dim], keys and values ``kv_self``
        [B,N,2,heads,head_dim]) after attending to their arguments' object tokens (``kv_objects``
        [O,2,heads,head_dim] plus the slot's offsets), to themselves and to the global tokens
        (``kv_globals`` [B,G,2,heads,head_dim]); ``closed`` [B,N,m+1+G,1]: the keys an atom does not
        have (empty slots). Returns them and that attention [B,heads,N,m+1+G]. Scores per kind of
        key, one softmax over all: no [B,N,m+1+G,d] tensor."""
        b, n, d = x.shape
        m = routes.slot_object.shape[2]
        q = q * self.scale
        if kv_objects.shape[0] == 0:  # no atom has an argument: every slot is empty
            kv_objects = torch.zeros(1, 2, self.n_heads, self.head_dim, device=x.device)
        kv_args = kv_objects[routes.slot_index] + self.offsets(self.slot_out)  # [B,N,m,2,heads,head_dim]
        scores = torch.cat([(q[:, :, None] * kv_args.select(3, 0)).sum(-1), (q * kv_self.select(2, 0)).sum(-1)[:, :, None],
                            torch.einsum("bnhd,bghd->bngh", q, kv_globals.select(2, 0))], dim=2)
        attention = scores.masked_fill(closed, self.neg_inf).softmax(dim=2)  # [B,N,m+1+G,heads]
        mixed = (attention[:, :, :m, :, None] * kv_args.select(3, 1)).sum(dim=2)
        mixed = mixed + attention[:, :, m, :, None] * kv_self.select(2, 1)
        mixed = mixed + torch.einsum("bngh,bghd->bnhd", attention[:, :, m + 1:], kv_globals.select(2, 1))
        x = x + self.atom_out(mixed.reshape(b, n, d).to(x.dtype))
        x = x + self.atom_ff(x)
        return x, attention.permute(0, 3, 1, 2)

    def gather_globals(
        self, z: Tensor, q: Tensor, kv_globals: Tensor, kv_atoms: Tensor, closed: Tensor,
        context_globals: Tensor | None, query_scale: Tensor,
    ) -> Tensor:
        """Global tokens ``z`` [B,G,d] (queries [B,G,heads,head_dim], keys and values
        ``kv_globals`` [B,G,2,heads,head_dim]) after attending to each other, to the real atoms
        (keys and values ``kv_atoms`` [B,N,2,heads,head_dim]) and to
        the context's global tokens' keys and values (``context_globals`` [2,B or 1,Gc,heads,
        head_dim]); ``closed`` [B,1,1,N+G]: the padding among the atoms. The global tokens among the
        keys keep the softmax defined without atoms. The queries are multiplied by ``query_scale``
        (:meth:`global_query_scale`)."""
        b, g, d = z.shape
        q = q * query_scale
        keys = torch.cat([kv_atoms, kv_globals], dim=1)  # [B,N+G,2,heads,head_dim]
        scores = torch.einsum("bghd,bnhd->bhgn", q, keys.select(2, 0)).masked_fill(closed, self.neg_inf)
        values = keys.select(2, 1).transpose(1, 2)  # [B,heads,N+G,head_dim]
        if context_globals is not None:
            kc, vc = context_globals[0].expand(b, -1, -1, -1), context_globals[1].expand(b, -1, -1, -1)
            scores = torch.cat([scores, torch.einsum("bghd,bchd->bhgc", q, kc)], dim=3)
            values = torch.cat([values, vc.transpose(1, 2)], dim=2)
        mixed = scores.softmax(dim=-1) @ values  # [B,heads,G,head_dim]
        z = z + self.global_out(mixed.transpose(1, 2).reshape(b, g, d).to(z.dtype))
        return z + self.global_ff(z)
