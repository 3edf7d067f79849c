"""SymT-E: the symmetry-aware heuristic transformer (paper, "Architectures").

* one token per atom: concat(E[pred], E[obj_1..obj_m]) -> one linear layer (no positional
  encodings, so the output is invariant to atom order);
* object identities either from a learned table of ``vocab_size`` embeddings (the paper) or, with
  ``object_identity="hashed"``, from fixed pseudo-random codes of the object token
  (:class:`symt.model_objects.HashedObjectCodes`): nothing to learn per token, so no vocabulary limit in practice;
* an encoder whose single layer's weights (:class:`symt.model_layer.SharedLayer`) are applied
  ``n_layers`` times, without layer norm by default;
* readout: an MLP on the sum over atom tokens of the first ``k`` hidden dimensions of the last
  layer, giving a scalar h;
* optionally (``context_predicates``, issue 15) a *state-independent context*: the atoms that are
  the same in every state of a task (static, type and goal atoms) attend only among themselves,
  so their keys and values at every layer are computed once per task (:meth:`SymTE.encode_context`)
  and a state costs only its fluent atoms against all atoms (:meth:`SymTE.forward_states`), not
  all atoms squared. Attention stays free of positions, so the model stays permutation-equivariant;
* optionally (``type_predicates``, issue 15, "fewer tokens") *type atoms folded into objects*:
  an object's ``type:<t>`` atoms are not tokens of their own; the embedding of each of its types
  is added to the object's embedding wherever it is an argument, so a typed task has one token per
  atom of its domain's predicates. The inputs stay the same (type atoms are dropped inside), so
  every caller and the plugin feed a folded model as any other.

* optionally (``attention_bias``) an *object bias* on the attention logits, from the atoms'
  object tokens compared for equality (renaming leaves it unchanged): atoms sharing an object,
  argument slots holding one object, and how far apart two atoms' objects are in the task's graph
  of static relations (``symt.model_objects``; the options in ``ModelConfig.attention_bias``).

``forward(..., return_internals=True)`` also returns every attention map and every layer's first
``k`` hidden dimensions, which the contrastive loss (:func:`symt.training.losses.contrastive_terms`)
compares between renamed copies. The options are :class:`symt.model_config.ModelConfig`'s; the
module written for Fast Downward wraps the network in ``symt.export``.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .model_config import CONTEXT_KEYS, OBJECT_IDENTITIES, READOUTS, ModelConfig
from .model_layer import SPARSE_PAIR_CHUNK, SharedLayer
from .model_objects import (
    HashedObjectCodes,
    context_atoms_by_object,
    context_objects,
    distance_channels,
    graph_edges,
    object_distances,
    shared_context_pairs,
    shared_object_channels,
    shared_objects,
    slot_mask,
)

CONTEXT_CHUNK_SCORES = 1 << 22
"""At most this many attention scores per head and bias channel in one piece of
:meth:`SymTE.encode_context` (16 MiB in float32)."""


class AtomEncoder(nn.Module):
    """The symmetry-aware encoder shared by SymT-E and SymT-ED: atom tokens, one shared layer
    applied ``n_layers`` times, no positional encodings."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.k = min(config.k, config.d_model)
        self.n_layers = config.n_layers
        self.vocab_size = config.vocab_size  # object tokens from here on are padding
        num_ids = (3 if config.achieved_goals else 2) * config.num_predicates
        self.pred_embedding = nn.Embedding(num_ids, config.d_embed)
        if config.object_identity == "table":
            self.object_embedding: nn.Module = nn.Embedding(config.vocab_size + 1, config.d_embed)  # + pad
        elif config.object_identity == "hashed":
            self.object_embedding = HashedObjectCodes(config.d_embed, config.vocab_size)
        else:
            raise ValueError(f"unknown object identity '{config.object_identity}' "
                             f"(choose from {', '.join(OBJECT_IDENTITIES)})")
        self.atom_projection = nn.Linear((1 + config.max_arity) * config.d_embed, config.d_model)
        self.layer = SharedLayer(config)
        self.recall = config.recall
        self.recall_norm = nn.LayerNorm(config.d_model) if config.recall else nn.Identity()
        if config.scaled_residual_init:
            scale_residual_init([self.layer.out, self.layer.ff2], 2 * config.n_layers)
        self.context_attention = config.context_predicates is not None
        if config.context_keys not in CONTEXT_KEYS:
            raise ValueError(f"unknown context keys '{config.context_keys}' (choose from {', '.join(CONTEXT_KEYS)})")
        self.sparse_context = config.context_keys == "shared-object"
        self.pair_chunk = SPARSE_PAIR_CHUNK  # an attribute: TorchScript reads no globals
        if self.sparse_context and (not self.context_attention
                                    or config.attention_bias not in ("none", "shared-object")):
            raise ValueError("context keys 'shared-object' need a context (context attention) and the "
                             f"attention bias 'none' or 'shared-object', not '{config.attention_bias}'")
        self.object_context = config.context_keys == "object-means"
        if self.object_context and not self.context_attention:
            raise ValueError("context keys 'object-means' need a context (context attention)")
        # Not persistent: derived from the config, so checkpoints of either kind load unchanged.
        self.register_buffer("is_context", predicate_mask(config.context_predicates, num_ids, "context"),
                             persistent=False)
        self.fold_types = bool(config.type_predicates)
        self.register_buffer("is_type", predicate_mask(config.type_predicates, num_ids, "type"), persistent=False)
        self.register_buffer("is_graph", predicate_mask(config.graph_predicates, num_ids, "graph"),
                             persistent=False)
        self.register_buffer("graph_links", slot_mask(config.graph_predicates, config.graph_slots, num_ids,
                                                      config.max_arity), persistent=False)
        self.max_distance = config.max_distance
        self.directed_graph = config.directed_graph
        self.distance_over_graph = config.distance_over_graph

    def shared_object_logits(self, query_args: Tensor, key_args: Tensor, log_n: Tensor) -> Tensor | None:
        """The shared-object (and object-slots) channels [B,P,Nq,Nk] of query atoms against key
        atoms (:func:`symt.model_objects.shared_object_channels`); None without an object bias."""
        if not self.layer.shared_object:
            return None
        return shared_object_channels(shared_objects(query_args, key_args, self.vocab_size, self.layer.object_slots),
                                      log_n)

    def object_distances(self, pred: Tensor, args: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
        """One task's object graph over ``graph_predicates``: its object tokens [O] and their
        distances [O,O] (:func:`symt.model_objects.object_distances`)."""
        edges = graph_edges(pred, args, mask, self.is_graph, self.graph_links, self.vocab_size)
        return object_distances(edges, self.vocab_size, self.max_distance, self.directed_graph)

    def object_bias_channels(self, pred: Tensor, args: Tensor, mask: Tensor, log_n: Tensor,
                             key_args: Tensor | None = None) -> Tensor | None:
        """The object bias's channels [B,P,N,K] of every atom against every key of a batch
        (:meth:`object_channels`; the keys ``key_args`` [B,K,m], by default the atoms ``args``),
        with ``object-distance`` each state's in its own object graph. None without an object bias."""
        if key_args is None:
            key_args = args
        if not self.layer.object_distance:
            return self.shared_object_logits(args, key_args, log_n)
        parts: list[Tensor] = []
        edges = graph_edges(pred[0], args[0], mask[0], self.is_graph, self.graph_links, self.vocab_size)
        objects, distances = object_distances(edges, self.vocab_size, self.max_distance, self.directed_graph)
        for b in range(args.shape[0]):
            # The states of one task (the plugin's batches) share their graph: searched once.
            if b > 0:
                other = graph_edges(pred[b], args[b], mask[b], self.is_graph, self.graph_links,
                                        self.vocab_size)
                if not torch.equal(other, edges):
                    edges = other
                    objects, distances = object_distances(edges, self.vocab_size, self.max_distance, self.directed_graph)
            one = self.object_channels(objects, distances, args[b:b + 1], key_args[b:b + 1], log_n[b:b + 1])
            assert one is not None  # object-distance has an object bias
            parts.append(one)
        return torch.cat(parts)

    def object_channels(self, objects: Tensor, distances: Tensor, query_args: Tensor,
                        key_args: Tensor, log_n: Tensor) -> Tensor | None:
        """The object bias's channels [B,P,Nq,Nk] of query atoms against key atoms of one task
        (``query_args`` [B,Nq,m], ``key_args`` [B,Nk,m], ``log_n`` [B,Nq]) given its object graph
        (``objects``, ``distances``: :meth:`object_distances`): :meth:`shared_object_logits`, then
        :func:`symt.model_objects.distance_channels` with ``object-distance``. None without an object bias."""
        if not self.layer.object_distance:
            return self.shared_object_logits(query_args, key_args, log_n)
        # The shared-object mask serves both: an object is at 0 from itself in the distances.
        masks = shared_objects(query_args, key_args, self.vocab_size, self.layer.object_slots)
        distance = distance_channels(objects, distances, query_args, key_args, masks[0], log_n, self.vocab_size,
                                     self.distance_over_graph)
        return torch.cat([shared_object_channels(masks, log_n), distance], dim=1)

    def token_mask(self, pred: Tensor, mask: Tensor) -> Tensor:
        """The atoms that are tokens: ``mask`` less the type atoms of a type-folding model."""
        return mask & ~self.is_type[pred] if self.fold_types else mask

    def folded_types(self, pred: Tensor, args: Tensor, mask: Tensor) -> Tensor:
        """[B,N,m,d_embed]: for every argument slot, the sum of the type embeddings of the
        object there, read off the batch's own type atoms (zero without folding or for padding)."""
        b, n, m = args.shape
        is_type = (self.is_type[pred] & mask).to(self.atom_projection.weight.dtype)
        vectors = self.pred_embedding(pred) * is_type.unsqueeze(-1)  # [B,N,d_embed]
        # A type atom's only argument is its object; padding tokens never equal a real object.
        same = args.reshape(b, n * m, 1) == args[:, None, :, 0]  # [B, N*m, N]
        return (same.to(vectors.dtype) @ vectors).view(b, n, m, -1)

    def embed(self, pred: Tensor, args: Tensor, types: Tensor | None = None) -> Tensor:
        """Atom tokens [B,N,d]; ``types`` [B,N,m,d_embed] is added to the object embeddings."""
        b, n = pred.shape
        objects = self.object_embedding(args)
        if types is not None:
            objects = objects + types
        parts = [self.pred_embedding(pred).unsqueeze(2), objects]
        return self.atom_projection(torch.cat(parts, dim=2).reshape(b, n, self.atom_projection.in_features))

    def encode(
        self, pred: Tensor, args: Tensor, mask: Tensor, return_internals: bool = False
    ) -> tuple[Tensor, Tensor, list[Tensor], list[Tensor]]:
        """Atom states [B,N,d], the key bias for attending to them (0 for atoms, -inf for padding,
        [B,1,1,N]), and with ``return_internals`` every attention map and every layer's hidden[:k].
        A type-folding model takes its type atoms out of ``mask`` (:meth:`token_mask`) itself."""
        types = self.folded_types(pred, args, mask) if self.fold_types else None
        mask = self.token_mask(pred, mask)
        x = self.embed(pred, args, types)
        key_bias = torch.zeros(mask.shape, dtype=x.dtype, device=x.device)
        key_bias = key_bias.masked_fill(~mask, float("-inf"))[:, None, None, :]
        bias = key_bias
        key_args: Tensor | None = None
        pool: Tensor | None = None
        # Atoms each query may attend to: those its context mask leaves it, else every real atom.
        if self.context_attention:
            context = self.is_context[pred] & mask
            blocked = (context[:, :, None] & ~context[:, None, :]) | ~mask[:, None, :]
            if self.sparse_context:  # a state atom sees the context atoms it shares an object with
                shared = shared_objects(args, args, self.vocab_size, False)[0]
                blocked = blocked | (~context[:, :, None] & context[:, None, :] & ~shared)
            if self.object_context:  # a state atom sees the context's objects instead of its atoms
                object_rows, pool = context_objects(args, context, self.vocab_size)
                key_args = torch.cat([args, object_rows], dim=1)
                state = mask & ~context
                real_object = pool.sum(dim=-1) > 0  # [B,O]
                blocked = blocked | (state[:, :, None] & context[:, None, :])
                blocked = torch.cat([blocked, context[:, :, None] | ~real_object[:, None, :]], dim=2)
            bias = torch.zeros(blocked.shape, dtype=x.dtype, device=x.device)
            bias = bias.masked_fill(blocked, float("-inf"))[:, None]
            visible = (~blocked).sum(dim=2)
        else:
            visible = mask.sum(dim=1, keepdim=True).expand(mask.shape)
        log_n = visible.clamp(min=1).float().log()
        # Once for all applications of the shared layer, as encode_context and forward_states do.
        bias = self.layer.add_object_bias(bias, self.object_bias_channels(pred, args, mask, log_n, key_args))
        attentions: list[Tensor] = []
        hiddens: list[Tensor] = []
        embedded = x
        for _ in range(self.n_layers):
            x, attention = self.layer(self.layer_input(x, embedded), bias, return_internals, log_n, pool)
            x = self.recall_norm(x)
            if return_internals:
                attentions.append(attention)
                hiddens.append(x[..., : self.k])
        return x, key_bias, attentions, hiddens

    def layer_input(self, x: Tensor, embedded: Tensor) -> Tensor:
        """What one application of the shared layer reads: the atom states ``x``, plus the atom
        embeddings ``embedded`` with ``recall`` (whose output :attr:`recall_norm` then normalises)."""
        return x + embedded if self.recall else x

    def num_parameters(self) -> int:
        """The number of trainable values (hashed object codes are buffers, not counted)."""
        return sum(p.numel() for p in self.parameters())

    def optimizer_groups(self, weight_decay: float) -> list[dict]:
        """AdamW parameter groups: ``weight_decay`` on weight matrices only (:func:`weight_decay_groups`)."""
        return weight_decay_groups(self, weight_decay)


def predicate_mask(ids: list[int] | None, num_ids: int, what: str) -> Tensor:
    """[num_ids] bool, True at ``ids`` (a config's ``context_predicates``, ``type_predicates`` or
    ``graph_predicates``); a ``ValueError`` for an id out of range (a damaged file's config)."""
    mask = torch.zeros(num_ids, dtype=torch.bool)
    for i in ids or []:
        if not isinstance(i, int) or not 0 <= i < num_ids:
            raise ValueError(f"{what} predicate id {i!r} is not one of the model's 0..{num_ids - 1}")
        mask[i] = True
    return mask


def scale_residual_init(projections: list[nn.Linear], branches: int) -> None:
    """Shrink the initial weights of the projections that write into the residual stream by
    1/sqrt(``branches``), the number of residual additions in a forward pass (GPT-2's scheme)."""
    with torch.no_grad():
        for projection in projections:
            projection.weight.mul_(1.0 / math.sqrt(branches))


def weight_decay_groups(module: nn.Module, weight_decay: float) -> list[dict]:
    """AdamW parameter groups of ``module``: weight decay on weight matrices; none on biases,
    norms and embeddings, whose rows for rare tokens would otherwise shrink between their uses.
    Each model owns its groups through an ``optimizer_groups`` method, as in nanoGPT."""
    decay, no_decay = [], []
    for name, parameter in module.named_parameters():
        (decay if parameter.dim() >= 2 and "embedding" not in name else no_decay).append(parameter)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


class SymTE(AtomEncoder):
    """The heuristic model: the atom encoder and a readout MLP on the sum over atoms of the last
    layer's first ``k`` hidden dimensions, giving an estimate of h* per state."""

    def __init__(self, config: ModelConfig):
        super().__init__(config)
        if config.readout not in READOUTS:
            raise ValueError(f"unknown readout '{config.readout}' (choose from {', '.join(READOUTS)})")
        self.atom_readout = config.readout == "atoms"
        self.context_chunk_scores = CONTEXT_CHUNK_SCORES  # an attribute: TorchScript reads no globals
        self.readout = nn.Sequential(
            nn.Linear(self.k, config.readout_hidden),
            nn.GELU(),
            nn.Linear(config.readout_hidden, 1),
        )
        if config.zero_readout:
            nn.init.zeros_(self.readout[2].weight)
            nn.init.zeros_(self.readout[2].bias)
        self.register_buffer("target_scale", torch.tensor(float(config.target_scale)))
        self.has_dead_end_head = config.dead_end_head
        if config.dead_end_head and self.atom_readout:
            raise ValueError("a dead-end head reads the pooled features: it needs the pooled readout")
        if config.dead_end_linear and not config.dead_end_head:
            raise ValueError("dead_end_linear shapes a dead-end head: it needs dead_end_head")
        if config.dead_end_count and not config.dead_end_head:
            raise ValueError("dead_end_count shapes a dead-end head: it needs dead_end_head")
        if config.dead_end_count and not self.context_attention:
            raise ValueError("dead_end_count counts the state's fluents apart from the task's context: "
                             "it needs context attention")
        if not 0 < config.dead_end_threshold < 1:
            raise ValueError(f"dead_end_threshold must lie in (0, 1) (got {config.dead_end_threshold})")
        # Empty without a head: TorchScript compiles every branch, so the attribute must exist.
        if not config.dead_end_head:
            self.dead_end = nn.Sequential()
        elif config.dead_end_linear or config.dead_end_count:
            self.dead_end = nn.Sequential(nn.Linear(self.k, 1, bias=not config.dead_end_count))
        else:
            self.dead_end = nn.Sequential(nn.Linear(self.k, config.readout_hidden), nn.GELU(),
                                          nn.Linear(config.readout_hidden, 1))
        self.dead_end_logit = math.log(config.dead_end_threshold / (1 - config.dead_end_threshold))
        self.dead_end_counts_fluents = config.dead_end_count
        self.marks_dead_ends = False
        """Set by ``symt export``: h = +inf where the head's logit exceeds the threshold. Off in
        training and validation, which read the logits themselves (:meth:`forward_with_dead_ends`)."""

    def forward(
        self, pred: Tensor, args: Tensor, mask: Tensor, return_internals: bool = False
    ) -> tuple[Tensor, list[Tensor], list[Tensor]]:
        """h for each state ([B]); with ``return_internals`` also attention maps and hidden[:k]."""
        x, _, attentions, hiddens = self.encode(pred, args, mask, return_internals)
        mask = self.token_mask(pred, mask)
        fluents = self.fluents(pred, mask) if self.dead_end_counts_fluents else None
        return self.pool_and_read_out(x, mask, None, fluents), attentions, hiddens

    def fluents(self, pred: Tensor, mask: Tensor) -> Tensor:
        """The atoms of ``mask`` that are not context atoms (all of them without context attention)."""
        return mask & ~self.is_context[pred] if self.context_attention else mask

    @torch.jit.unused
    def forward_with_dead_ends(
        self, pred: Tensor, args: Tensor, mask: Tensor, return_internals: bool = False
    ) -> tuple[Tensor, Tensor, list[Tensor], list[Tensor]]:
        """:meth:`forward` plus the dead-end head's logits [B] (training; a model with the head)."""
        x, _, attentions, hiddens = self.encode(pred, args, mask, return_internals)
        mask = self.token_mask(pred, mask)
        pooled = self.pool(x, mask, None)
        logits = self.dead_end_logits(x, pooled, self.fluents(pred, mask))
        return self.read_out(pooled), logits, attentions, hiddens

    def dead_end_logits(self, x: Tensor, pooled: Tensor, fluents: Tensor) -> Tensor:
        """The dead-end head's logits [B]: of ``pooled``, or of the sum over ``fluents`` alone for
        a ``dead_end_count`` head."""
        return self.dead_end(self.pool(x, fluents, None) if self.dead_end_counts_fluents else pooled).squeeze(-1)

    def pool(self, x: Tensor, mask: Tensor, context: Tensor | None) -> Tensor:
        """The pooled readout's input [B,k]: the sum of the real atoms' first ``k`` hidden
        dimensions, plus a task's cached ``context`` share."""
        pooled = (x[..., : self.k].float() * mask.unsqueeze(-1).float()).sum(dim=1)
        return pooled if context is None else pooled + context.float()

    def pool_and_read_out(self, x: Tensor, mask: Tensor, context: Tensor | None,
                          fluents: Tensor | None = None) -> Tensor:
        """h [B] of atom states ``x`` [B,N,d] (``mask``: the real ones) plus a task's cached
        ``context`` share (:meth:`encode_context`): pooled then read out, or with the ``atoms``
        readout read out per atom then summed; +inf where an exported model's dead-end head fires.
        ``fluents``: the atoms of ``mask`` a ``dead_end_count`` head counts (default ``mask``, as
        for a cached context, where ``x`` holds the fluents only)."""
        weights = mask.unsqueeze(-1).float()
        if self.atom_readout:
            per_atom = self.read_out_atoms(x[..., : self.k].float())
            h = (per_atom * weights.squeeze(-1)).sum(dim=1)
            if context is not None:
                h = h + context.float().sum()
            return h * self.target_scale
        pooled = self.pool(x, mask, context)
        h = self.read_out(pooled)
        if self.has_dead_end_head and self.marks_dead_ends:
            dead = self.dead_end_logits(x, pooled, mask if fluents is None else fluents) > self.dead_end_logit
            h = h.masked_fill(dead, float("inf"))
        return h

    def read_out_atoms(self, features: Tensor) -> Tensor:
        """The ``atoms`` readout's unscaled value of each atom ([..., k] -> [...]); in fp32 under
        bf16 autocast, for the reason :meth:`read_out` gives (the terms of a sum each lose 8 bits)."""
        if not torch.jit.is_scripting():
            if torch.is_autocast_enabled(features.device.type):
                return self._read_out_atoms_fp32(features)
        return self.readout(features).squeeze(-1)

    @torch.jit.unused
    def _read_out_atoms_fp32(self, features: Tensor) -> Tensor:
        with torch.autocast(features.device.type, enabled=False):
            return self.readout(features.float()).squeeze(-1)

    def read_out(self, pooled: Tensor) -> Tensor:
        """h [B] from the pooled hidden dimensions [B,k]. Under bf16 autocast (GPU training) the
        readout MLP runs in fp32 as elementwise products, which autocast leaves alone: bf16 keeps 8
        significant bits, so a value near 100 would move in steps of 0.5, coarser than the one-step
        margin of the ranking loss; the MLP is a negligible share of the work. (Exported models,
        scripted, keep the plain MLP: TorchScript compiles only the branch it can.)"""
        if not torch.jit.is_scripting():
            if torch.is_autocast_enabled(pooled.device.type):
                first, last = self.readout[0], self.readout[2]
                hidden = F.gelu((pooled.unsqueeze(-1) * first.weight.t()).sum(dim=1) + first.bias)
                return ((hidden * last.weight[0]).sum(dim=-1) + last.bias[0]) * self.target_scale
        return self.readout(pooled).squeeze(-1) * self.target_scale

    def encode_context(self, pred: Tensor, args: Tensor
                       ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
        """The cache of a task's context atoms (``pred`` [C], ``args`` [C,m], all of context
        predicates): their keys and values at every layer, each [L,heads,C',head_dim], their
        share of the readout's sum ([k] pooled features, or [1] the ``atoms`` readout's summed
        values), and the table [V',d_embed] of every object token's folded
        type embeddings (one zero row without folding; its last row is zero, for objects without
        type atoms and padding), and the cached atoms' object tokens [C',m] (for the
        ``shared-object`` bias between a state's atoms and the context's), and the task's object
        graph (:meth:`object_distances`: its object tokens [O] and distances [O,O], for the
        ``object-distance`` bias; empty without it), and with ``context_keys`` ``shared-object``
        the cached atoms by object (:func:`symt.model_objects.context_atoms_by_object`: object tokens [O], offsets [O+1], atoms
        [E]; empty otherwise), its keys and values then [L,C',heads*head_dim]. C' = C less the type atoms of a type-folding
        model. With ``context_keys`` ``object-means`` the keys, values and rows are the context's objects'
        instead of its atoms' (:func:`symt.model_objects.context_objects`; [L,heads,O,head_dim] and
        [O,m]), which :meth:`forward_states` reads as it reads atoms. Computed once per task."""
        objects = torch.zeros(0, dtype=args.dtype, device=args.device)
        distances = torch.zeros(0, 0, device=args.device)
        empty_long = torch.zeros(0, dtype=torch.long, device=args.device)
        if self.layer.object_distance:  # the graph's edges are static atoms, all in the context
            objects, distances = self.object_distances(pred, args, torch.ones_like(pred, dtype=torch.bool))
        table = torch.zeros(1, self.pred_embedding.embedding_dim, device=pred.device)
        types: Tensor | None = None
        if self.fold_types:
            is_type = self.is_type[pred]
            owners = args[:, 0][is_type]
            if owners.numel() > 0:
                table = torch.zeros(int(owners.max()) + 2, table.shape[1], device=pred.device)
                table = table.index_add(0, owners, self.pred_embedding(pred[is_type]))
            keep = ~is_type
            pred, args = pred[keep], args[keep]
            types = self.table_types(table, args)[None]
        x = self.embed(pred[None], args[None], types)
        num_atoms = pred.shape[0]
        no_bias = torch.zeros(1, 1, 1, num_atoms, dtype=x.dtype, device=x.device)
        log_n = torch.full((1, num_atoms), math.log(max(num_atoms, 1)), device=x.device)
        # The object bias is [channels, C, C]: Miconic's hard tasks have 20,000 static atoms, whose
        # bias in one piece needs gigabytes. Queries go in chunks of at most CONTEXT_CHUNK_SCORES
        # scores per channel (the whole context at once where it fits), their bias made per chunk.
        chunk = max(1, self.context_chunk_scores // max(num_atoms, 1))
        keys: list[Tensor] = []
        values: list[Tensor] = []
        embedded = x
        for _ in range(self.n_layers):
            x = self.layer_input(x, embedded)
            q, k, v = self.layer.heads(x)
            q = self.layer.scale_queries(q, log_n)
            keys.append(k[0])
            values.append(v[0])
            parts: list[Tensor] = []
            for start in range(0, num_atoms, chunk):
                end = min(start + chunk, num_atoms)
                shared = self.object_channels(objects, distances, args[None, start:end], args[None],
                                              log_n[:, start:end])
                bias = self.layer.add_object_bias(no_bias, shared)
                parts.append(self.layer.mix(x[:, start:end], q[:, :, start:end], k, v, bias))
            if len(parts) > 0:  # none for an empty context, whose x stays as it is
                x = self.recall_norm(torch.cat(parts, dim=1))
        features = x[0, :, : self.k]
        share = self.read_out_atoms(features).sum().reshape(1) if self.atom_readout else features.sum(dim=0)
        by_object, offsets, atoms = (context_atoms_by_object(args, self.vocab_size) if self.sparse_context
                                     else (empty_long, empty_long, empty_long))
        stacked_keys, stacked_values = torch.stack(keys), torch.stack(values)
        if self.object_context:  # one key per object, [L,heads,O,head_dim]: the state's pass is unchanged
            object_rows, pool = context_objects(args[None], torch.ones_like(pred[None], dtype=torch.bool),
                                                self.vocab_size)
            weights = pool[0].to(stacked_keys.dtype)
            stacked_keys, stacked_values = weights @ stacked_keys, weights @ stacked_values
            args = object_rows[0]
        if self.sparse_context:  # rows per atom, [L, C', heads*head_dim]: what mix_sparse gathers
            layers, heads, _, head_dim = stacked_keys.shape
            stacked_keys = stacked_keys.transpose(1, 2).reshape(layers, num_atoms, heads * head_dim).contiguous()
            stacked_values = stacked_values.transpose(1, 2).reshape(layers, num_atoms, heads * head_dim).contiguous()
        return (stacked_keys, stacked_values, share, table, args, objects, distances, by_object, offsets, atoms)

    @staticmethod
    def table_types(table: Tensor, args: Tensor) -> Tensor:
        """[..., m, d_embed]: the folded type embeddings of ``args``' objects from
        :meth:`encode_context`'s table; tokens past it (padding, untyped objects) get its zero last row."""
        last = table.shape[0] - 1
        return table[torch.where(args < last, args, torch.full_like(args, last))]

    def forward_states(
        self, keys: Tensor, values: Tensor, pooled_context: Tensor, type_table: Tensor,
        context_args: Tensor, objects: Tensor, distances: Tensor, by_object: Tensor, offsets: Tensor,
        atoms: Tensor, pred: Tensor, args: Tensor, mask: Tensor,
    ) -> Tensor:
        """h [B] of states given by their fluent atoms only (``pred``, ``args``, ``mask`` as in
        :meth:`forward`) and the task's context cache (:meth:`encode_context`): the same values
        as :meth:`forward` on fluent and context atoms together, for a context-attention model."""
        x = self.embed(pred, args, self.table_types(type_table, args) if self.fold_types else None)
        if self.sparse_context:
            return self.forward_states_sparse(keys, values, pooled_context, by_object, offsets, atoms, x,
                                              args, mask)
        b = x.shape[0]
        num_context = keys.shape[2]
        bias = torch.zeros(b, num_context + pred.shape[1], dtype=x.dtype, device=x.device)
        bias[:, num_context:] = bias[:, num_context:].masked_fill(~mask, float("-inf"))
        bias = bias[:, None, None, :]
        log_n = (mask.sum(dim=1, keepdim=True) + num_context).clamp(min=1).float().log().expand(mask.shape)
        key_args = torch.cat([context_args.expand(b, -1, -1), args], dim=1)
        bias = self.layer.add_object_bias(
            bias, self.object_channels(objects, distances, args, key_args, log_n))
        embedded = x
        for layer in range(self.n_layers):
            x = self.layer_input(x, embedded)
            q, k, v = self.layer.heads(x)
            q = self.layer.scale_queries(q, log_n)
            k = torch.cat([keys[layer].expand(b, -1, -1, -1), k], dim=2)
            v = torch.cat([values[layer].expand(b, -1, -1, -1), v], dim=2)
            x = self.recall_norm(self.layer.mix(x, q, k, v, bias))
        return self.pool_and_read_out(x, mask, pooled_context)

    def forward_states_sparse(self, keys: Tensor, values: Tensor, pooled_context: Tensor, by_object: Tensor,
                              offsets: Tensor, atoms: Tensor, x: Tensor, args: Tensor, mask: Tensor) -> Tensor:
        """:meth:`forward_states` of a ``context_keys`` ``shared-object`` model: each state atom
        attends to the state's atoms and to the cached context atoms it shares an object with
        (:func:`symt.model_objects.shared_context_pairs`), which is all that :meth:`encode` lets it see, at the cost
        of those pairs (:meth:`symt.model_layer.SharedLayer.mix_sparse`)."""
        b, n = mask.shape
        num_context = keys.shape[1]
        pair_query, pair_key = shared_context_pairs(by_object, offsets, atoms, num_context, args, self.vocab_size)
        shared_count = torch.bincount(pair_query, minlength=b * n).view(b, n)
        log_n = (mask.sum(dim=1, keepdim=True) + shared_count).clamp(min=1).float().log()
        bias = torch.zeros(b, n, dtype=x.dtype, device=x.device).masked_fill(~mask, float("-inf"))[:, None, None, :]
        bias = self.layer.add_object_bias(bias, self.shared_object_logits(args, args, log_n))
        # Every pair shares an object: the object bias's channel 0 is the query's ln n there.
        pair_bias = (self.layer.object_bias[None, :] * log_n.reshape(-1)[pair_query][:, None]
                     if self.layer.shared_object else torch.zeros(1, 1, device=x.device))
        embedded = x
        for layer in range(self.n_layers):
            x = self.layer_input(x, embedded)
            q, k, v = self.layer.heads(x)
            q = self.layer.scale_queries(q, log_n)
            x = self.recall_norm(self.layer.mix_sparse(x, q, k, v, bias, keys[layer], values[layer],
                                                       pair_query, pair_key, pair_bias, self.pair_chunk))
        return self.pool_and_read_out(x, mask, pooled_context)
