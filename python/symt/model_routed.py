"""SymT-E with object-routed attention: a cost per state linear in its atoms (issue 65).

SymT-E's encoder lets every atom attend to every atom, so a state's cost grows with the square of
its atoms (22 ms a state on Visitall 11x11, most of it attention). Here atoms never attend to each
other directly. Each application of the shared layer routes information atom -> object -> atom
through one token per object and a few global tokens:

1. every object token attends to the atoms it is an argument of (the key carries the argument slot
   it holds there), to its *context token* (below) and to the global tokens;
2. every atom attends to its arguments' object tokens (again with their slots), to itself and to
   the global tokens;
3. every global token attends to every atom, to the global tokens and to the context's global
   tokens.

Each kind of token (atom, object, global) has its own query/key/value projection, output
projection and feed-forward; the one layer is applied ``n_layers`` times, as in SymT-E. A layer
costs O(atom slots + objects + globals x atoms): linear in the state.

With ``attention_scale="log-length"`` the queries of object and global tokens are multiplied by
s_h · ln(n), n the keys each may attend to (scalable softmax; a room of Gripper reads every ball).

*Context.* As with SymT-E's context attention, the atoms of context predicates (static, type and,
unless they are read with the state, goal atoms) go through the same layers on their own, with
their own object and global tokens. A state's pass reads that context only through each object's
context token and the context's global tokens, at every layer, so the context is encoded once per
task (:meth:`RoutedSymTE.encode_context`) and a state costs only its fluent atoms and their
objects (:meth:`RoutedSymTE.forward_states`); :meth:`RoutedSymTE.forward` computes the same values
from all atoms at once. An object that is in no context atom has no context token.

*Object links* (``object_links``). A state's objects are related by context atoms (``connected``
cells, a package and its goal location), which a state's pass does not see: without links its
objects exchange information only through the global tokens. With links, each object token also
attends to the state's other objects it shares a context atom with, the key and value offset by
the atom's predicate and the two argument slots (:func:`symt.model_objects.context_links`, cached with the context;
:func:`symt.model_objects.resolve_links` per state). A state then costs also the context atoms among its
objects, still linear in the state.

*Symmetry.* Nothing depends on positions or on the order of atoms or objects; objects enter by their
identity embeddings exactly as in SymT-E (a learned table or hashed codes), so the paper's
contrastive loss applies unchanged: its attention maps are each atom's attention over its
arguments, itself and the global tokens; its hidden states are the atoms'.

*Local models* (``global_tokens`` 0): a token reads only what lies within ``n_layers`` steps of it,
so a state's value can be updated from its parent's (``symt.model_local``).
The readout is SymT-E's (the sum over atoms of their first ``k`` hidden dimensions, or per atom
then summed), over fluent and context atoms alike.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .model import SymTE
from .model_config import ATTENTIONS, ModelConfig
from .model_objects import (
    Routes,
    context_links,
    global_log_keys_of,
    object_log_keys_of,
    resolve_links,
)
from .model_routed_layer import RoutedLayer


class RoutedSymTE(SymTE):
    """SymT-E with the object-routed layer in place of full attention (``attention="objects"``);
    the embedding of atoms and objects and the readout are SymT-E's."""

    def __init__(self, config: ModelConfig):
        if config.dead_end_head:
            raise ValueError("the objects attention has no dead-end head (it reads full attention's pooled features)")
        super().__init__(config)
        for option, value, plain in (("attention_bias", config.attention_bias, "none"),
                                     ("layer_norm", config.layer_norm, False),
                                     ("recall", config.recall, False),
                                     ("context_keys", config.context_keys, "all")):
            if value != plain:
                raise ValueError(f"the objects attention has no {option} {value} "
                                 "(it relates atoms only through their objects)")
        if config.type_predicates:
            raise ValueError("the objects attention does not fold types (type atoms stay atoms)")
        if config.global_tokens < 0:
            raise ValueError(f"the objects attention needs zero or more global tokens, not {config.global_tokens}")
        if config.object_links and config.context_predicates is None:
            raise ValueError("object links read the task's context atoms: they need a context "
                             "(without one, the context atoms are in the state's pass already)")
        self.object_links = config.object_links
        self.layer = RoutedLayer(config)  # type: ignore[assignment]
        self.object_projection = nn.Linear(config.d_embed, config.d_model)
        # Row 0: the context pass's global tokens at the start; row 1: a state's. Without global
        # tokens one unread row: frozen TorchScript cannot load a file with an empty constant.
        self.global_tokens = config.global_tokens
        self.global_start = nn.Parameter(torch.randn(2, max(config.global_tokens, 1), config.d_model) * 0.02)

    def start_objects(self, routes: Routes) -> Tensor:
        """The object tokens [O,d] before the first layer: their identity embeddings."""
        return self.object_projection(self.object_embedding(routes.object_token))

    def run(
        self, pred: Tensor, args: Tensor, mask: Tensor, context: int,
        context_keys: Tensor | None, context_objects: list[Tensor], context_globals: list[Tensor],
        collect: bool, links: Tensor, parent: list[Tensor], keep_layers: bool,
    ) -> tuple[Tensor, Tensor, list[Tensor], list[Tensor], list[Tensor], list[Tensor], list[Tensor], list[Tensor]]:
        """One pass of the routed layers over the atoms ``mask`` selects. ``context``: 0 for the
        context pass; 1 for a state pass against a context cache shared by every state (keys
        ``context_keys`` are tokens), 2 against one context per state (keys are state * space +
        token). ``context_objects`` / ``context_globals``: per layer, the context's object and
        global keys and values stacked [2,...] (empty for the context pass). Returns the atom
        states, and per layer the object and global keys and values stacked [2,...] (what a state
        pass reads of a context), the atoms' attention maps and hidden[:k] (with ``collect``); after the
        atom states, the pass's object keys (``Routes.object_key``, what a state pass looks up).
        ``links``: the context's object links (:func:`symt.model_objects.context_links`; [3,0] for none).

        ``parent`` (empty: none): a parent's atom states after every layer [L,B,N,d], which atoms
        keep them [L,B,N], its object states [L,O,d] (this pass's order) and which objects keep them
        [L,O]: after each layer those tokens take the parent's states (:meth:`layer_terms`). With
        ``keep_layers`` the last two outputs are the atom and object states after every layer."""
        routes = Routes(args, mask, self.vocab_size)
        object_links = resolve_links(routes, context, links, self.vocab_size)
        context_rows = torch.zeros_like(routes.object_key)
        has_context = context != 0 and context_keys is not None and context_keys.numel() > 0
        if has_context and context_keys is not None:
            lookup = routes.object_token if context == 1 else routes.object_key
            context_rows = torch.searchsorted(context_keys, lookup).clamp(max=context_keys.numel() - 1)
            routes.has_context = context_keys[context_rows] == lookup
        x = self.embed(pred, args)
        y = self.start_objects(routes)
        z = self.global_start[min(context, 1)][None].expand(pred.shape[0], -1, -1).narrow(1, 0, self.global_tokens)
        layer_ = self.layer
        b, n, m = args.shape
        g = z.shape[1]
        h, hd = layer_.n_heads, layer_.head_dim
        # What every application of the one layer reads the same way, computed once per pass: the
        # edges' and links' key and value offsets, the keys each query may not read, the scales.
        edge_offsets, link_offsets = layer_.edge_and_link_offsets(routes, object_links)
        present = routes.slot_object >= 0
        atom_closed = ~torch.cat([present, torch.ones(b, n, 1 + g, dtype=torch.bool, device=pred.device)],
                                 dim=2)[..., None]
        global_closed = ~torch.cat([mask, torch.ones(b, g, dtype=torch.bool, device=pred.device)], dim=1)[:, None, None]
        # Each token's queries, keys and values are computed once per update and read by every
        # gather that follows, until the token changes.
        qa, kva = layer_.split(layer_.atom_qkv(x))
        qo, kvo = layer_.split(layer_.object_qkv(y))
        qg, kvg = layer_.split(layer_.global_qkv(z))
        objects_kv: list[Tensor] = []
        globals_kv: list[Tensor] = []
        attentions: list[Tensor] = []
        hiddens: list[Tensor] = []
        atom_layers: list[Tensor] = []
        object_layers: list[Tensor] = []
        from_parent = len(parent) == 4
        read_context_globals = context != 0 and len(context_globals) > 0
        # ``log-length``: the number of keys each token attends to is fixed within the pass.
        object_log_keys = torch.zeros(0, device=pred.device)
        global_log_keys = torch.zeros(0, device=pred.device)
        if layer_.log_length:
            object_log_keys = object_log_keys_of(routes, object_links, g, has_context)
            global_log_keys = global_log_keys_of(
                mask, g + (context_globals[0].shape[2] if read_context_globals else 0))
        object_scale = layer_.object_query_scale(object_log_keys)
        global_scale = layer_.global_query_scale(global_log_keys)
        for layer in range(self.n_layers):
            context_kv: Tensor | None = None
            if context == 0:  # what a state pass reads of this context, as [2,...] (the cache's layout)
                objects_kv.append(kvo.transpose(0, 1))
                globals_kv.append(kvg.permute(2, 0, 1, 3, 4))
            elif has_context:
                context_kv = context_objects[layer][:, context_rows].transpose(0, 1)
            y = layer_.gather_objects(y, qo, kva.reshape(b * n, 2, h, hd), kvg, routes, context_kv, object_links,
                                      kvo, object_scale, edge_offsets, link_offsets)
            if from_parent:  # the objects the change has not reached yet are as in the parent
                y = torch.where(parent[3][layer][:, None], parent[2][layer].to(y.dtype), y)
            qo, kvo = layer_.split(layer_.object_qkv(y))
            x, attention = layer_.gather_atoms(x, qa, kva, kvo, kvg, routes, atom_closed)
            if from_parent:
                x = torch.where(parent[1][layer][..., None], parent[0][layer].to(x.dtype), x)
            if keep_layers:
                atom_layers.append(x)
                object_layers.append(y)
            if collect:
                attentions.append(attention)
                hiddens.append(x[..., : self.k])
            if layer + 1 == self.n_layers:
                break  # the readout reads the atoms: the last global update would go unread
            qa, kva = layer_.split(layer_.atom_qkv(x))
            if g > 0:  # a local model has none: what a token reads lies within n_layers hops of it
                globals_: Tensor | None = context_globals[layer] if read_context_globals else None
                z = layer_.gather_globals(z, qg, kvg, kva, global_closed, globals_, global_scale)
                qg, kvg = layer_.split(layer_.global_qkv(z))
        return x, routes.object_key, objects_kv, globals_kv, attentions, hiddens, atom_layers, object_layers

    def forward(
        self, pred: Tensor, args: Tensor, mask: Tensor, return_internals: bool = False
    ) -> tuple[Tensor, list[Tensor], list[Tensor]]:
        """h for each state ([B]) from all its atoms: the context pass on each state's context
        atoms, then the state pass on its other atoms; with ``return_internals`` also the atoms'
        attention maps and hidden[:k], context and state atoms each from their own pass."""
        context = self.is_context[pred] & mask
        fluent = mask & ~context
        x_context, keys, objects_kv, globals_kv, att_c, hid_c, _, _ = self.run(
            pred, args, context, 0, None, [], [], return_internals, self.no_links(pred), [], False)
        links = context_links(pred, args, context, self.vocab_size) if self.object_links else self.no_links(pred)
        x_state, _, _, _, att_s, hid_s, _, _ = self.run(pred, args, fluent, 2, keys, objects_kv, globals_kv,
                                                     return_internals, links, [], False)
        x = torch.where(context[..., None], x_context, x_state)
        at = context[:, None, :, None]
        attentions = [torch.where(at, a, b) for a, b in zip(att_c, att_s)]
        hiddens = [torch.where(context[..., None], a, b) for a, b in zip(hid_c, hid_s)]
        return self.pool_and_read_out(x, mask, None, fluent), attentions, hiddens

    def no_links(self, like: Tensor) -> Tensor:
        """No object links ([3,0] on ``like``'s device)."""
        return torch.zeros(3, 0, dtype=torch.long, device=like.device)

    def encode_context(  # type: ignore[override]
        self, pred: Tensor, args: Tensor
    ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """The cache of a task's context atoms (``pred`` [C], ``args`` [C,m]): the object tokens
        that are in them [Oc] (sorted), their keys and values at every layer [L,2,Oc,heads,
        head_dim], the context's global tokens' [L,2,G,heads,head_dim], the context atoms'
        share of the readout's sum, and the object links of the context atoms [3,L] (tokens;
        :func:`symt.model_objects.context_links`; [3,0] without ``object_links``). Computed once per task; see
        :meth:`forward_states`."""
        mask = torch.ones(1, pred.shape[0], dtype=torch.bool, device=pred.device)
        # One state (0), so its object keys are the object tokens.
        x, keys, objects_kv, globals_kv, _, _, _, _ = self.run(pred[None], args[None], mask, 0, None, [], [], False,
                                                               self.no_links(pred), [], False)
        features = x[0, :, : self.k]
        share = self.read_out_atoms(features).sum().reshape(1) if self.atom_readout else features.sum(dim=0)
        links = context_links(pred[None], args[None], mask, self.vocab_size) if self.object_links \
            else self.no_links(pred)
        return keys, torch.stack(objects_kv), torch.stack(globals_kv)[:, :, 0], share, links

    def state_pass(
        self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor, links: Tensor,
        pred: Tensor, args: Tensor, mask: Tensor,
    ) -> Tensor:
        """The final atom states [B,N,d] of states' fluent atoms against the context cache."""
        objects = [context_objects[layer] for layer in range(context_objects.shape[0])]
        globals_ = [context_globals[layer][:, None] for layer in range(context_globals.shape[0])]
        x, _, _, _, _, _, _, _ = self.run(pred, args, mask, 1, context_keys, objects, globals_, False, links, [], False)
        return x

    def layer_terms(
        self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor, links: Tensor,
        pred: Tensor, args: Tensor, mask: Tensor, parent: list[Tensor],
    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """A local model's state pass with every layer's token states, from which a successor is
        computed (``symt.model_local``): the atoms' terms [B,N,t], their states after every layer
        [L,B,N,d], the objects' [L,O,d] and the objects' keys [O] (state · (vocab_size + 1) + token,
        sorted). ``parent``: empty, or a parent's layers and which tokens keep them (:meth:`run`)."""
        objects = [context_objects[layer] for layer in range(context_objects.shape[0])]
        globals_ = [context_globals[layer][:, None] for layer in range(context_globals.shape[0])]
        x, object_key, _, _, _, _, atom_layers, object_layers = self.run(
            pred, args, mask, 1, context_keys, objects, globals_, False, links, parent, True)
        return self.atom_terms(x, mask), torch.stack(atom_layers), torch.stack(object_layers), object_key

    def forward_states(  # type: ignore[override]
        self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor, share: Tensor,
        links: Tensor, pred: Tensor, args: Tensor, mask: Tensor,
    ) -> Tensor:
        """h [B] of states given by their fluent atoms only (``pred``, ``args``, ``mask`` as in
        :meth:`forward`) and the task's context cache (:meth:`encode_context`): the same values as
        :meth:`forward` on fluent and context atoms together."""
        x = self.state_pass(context_keys, context_objects, context_globals, links, pred, args, mask)
        return self.pool_and_read_out(x, mask, share)

    def local_weights(self) -> dict[str, Tensor]:
        """The weights a state pass of a local model reads, by their parameter names, its shape
        (``n_heads``, ``n_layers``, ``k``, ``atom_readout``, ``log_length``, as 0-d tensors) and
        the readout's ``target_scale`` (:meth:`value_of_terms`):
        what the plugin's own pass (``cpp/src/local_net.cc``) computes with instead of
        :meth:`layer_terms`."""
        layer = self.layer
        weights = {"layer.slot_in": layer.slot_in, "layer.slot_out": layer.slot_out,
                   "layer.link_offsets": layer.link_offsets,
                   "layer.object_length_scale": layer.object_length_scale,
                   "readout.0.weight": self.readout[0].weight, "readout.0.bias": self.readout[0].bias,
                   "readout.2.weight": self.readout[2].weight, "readout.2.bias": self.readout[2].bias}
        for name, linear in (("atom_qkv", layer.atom_qkv), ("object_qkv", layer.object_qkv),
                             ("atom_out", layer.atom_out), ("object_out", layer.object_out),
                             ("atom_ff.up", layer.atom_ff.up), ("atom_ff.down", layer.atom_ff.down),
                             ("object_ff.up", layer.object_ff.up), ("object_ff.down", layer.object_ff.down)):
            weights["layer." + name + ".weight"] = linear.weight
            weights["layer." + name + ".bias"] = linear.bias
        # The shape of the pass, as numbers beside the weights: what the C++ pass needs is in one place.
        weights["n_heads"] = torch.tensor(float(layer.n_heads))
        weights["n_layers"] = torch.tensor(float(self.n_layers))
        weights["k"] = torch.tensor(float(self.k))
        weights["atom_readout"] = torch.tensor(1.0 if self.atom_readout else 0.0)
        weights["log_length"] = torch.tensor(1.0 if layer.log_length else 0.0)
        weights["target_scale"] = self.target_scale.reshape(())
        return {name: tensor.float() for name, tensor in weights.items()}

    def atom_starts(self, pred: Tensor, args: Tensor) -> Tensor:
        """The states [R,d] before the first layer of atoms ``pred`` [R], ``args`` [R,m]."""
        return self.embed(pred[None], args[None])[0].float()

    def object_starts(self, tokens: Tensor) -> Tensor:
        """The states [T,d] before the first layer of object tokens ``tokens`` [T]."""
        return self.object_projection(self.object_embedding(tokens)).float()

    def atom_terms(self, x: Tensor, mask: Tensor) -> Tensor:
        """Each atom's term [B,N,t] of the readout's sum (0 where not ``mask``) from the final atom
        states ``x`` [B,N,d]: its first ``k`` features (pooled readout) or its value (per-atom
        readout, t = 1); :meth:`value_of_terms` of their sum is :meth:`pool_and_read_out`'s h."""
        features = x[..., : self.k].float()
        terms = self.read_out_atoms(features)[..., None] if self.atom_readout else features
        return terms * mask[..., None].to(terms.dtype)

    def value_of_terms(self, total: Tensor, share: Tensor) -> Tensor:
        """h [B] of states whose atoms' terms (:meth:`atom_terms`) sum to ``total`` [B,t], with
        the context's ``share`` of the readout (:meth:`encode_context`)."""
        if self.atom_readout:
            return (total[:, 0] + share.float().sum()) * self.target_scale
        return self.read_out(total + share.float())


def heuristic_model(config: ModelConfig) -> SymTE:
    """The SymT-E network that ``config.attention`` names: full attention (the paper) or routed."""
    if config.attention not in ATTENTIONS:
        raise ValueError(f"unknown attention '{config.attention}' (choose from {', '.join(ATTENTIONS)})")
    return RoutedSymTE(config) if config.attention == "objects" else SymTE(config)
