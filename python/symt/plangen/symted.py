"""SymT-ED: the SymT-E encoder plus a weight-shared, position-free decoder that writes plans.

* Encoder: SymT-E's (one token per atom, no positional encodings, one shared layer applied
  ``n_layers`` times).
* Decoder: one shared layer applied ``n_layers`` times; causal self-attention without positional
  encodings (NoPE: causal masking alone tells positions apart), cross-attention to the encoder's
  atoms, feed-forward; a linear head over the plan vocabulary (:mod:`.vocab`).
* ``forward(..., return_internals=True)`` returns every attention map (encoder self, decoder self,
  decoder cross) and every encoder and decoder layer's first ``k`` hidden dimensions, for the
  contrastive loss.
* ``decode(...)`` runs the decoder on new tokens given a cache of earlier keys and values, so that
  generation costs one token's work per step; it gives the same logits as a full pass.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..model import AtomEncoder, scale_residual_init, weight_decay_groups
from ..model_config import LOG_LENGTH_REFERENCE, ModelConfig


@dataclass
class SymTEDConfig:
    """The architecture of a SymT-ED model: the encoder's sizes and object vocabulary, the plan
    vocabulary of the decoder and whether object tokens are tied; stored in its plan-generator file."""

    num_predicates: int
    max_arity: int
    num_tokens: int
    """Decoder input tokens (plan vocabulary incl. <BOS>, <EOS>, <PAD>)."""
    num_outputs: int
    vocab_size: int = 123
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 4
    d_ff: int = 128
    d_embed: int = 32
    dropout: float = 0.0
    k: int = 32
    layer_norm: bool = False
    scaled_residual_init: bool = False
    """GPT-2's smaller initial residual projections (``symt.model_config.ModelConfig``), in the encoder
    and the decoder: the paper preset's logits otherwise reach 50,000 within 25 steps."""
    num_schemas: int = 0
    """A: the first A plan tokens are action schemas, the next ``vocab_size`` objects."""
    tie_objects: bool = True
    """Object tokens share one embedding between the encoder's atoms, the decoder's input and the
    output layer (object logits are scores against the object embeddings), as GPT-2 ties its input
    and output embeddings, so that a renamed object is the same vector everywhere. Not in the
    paper. On by default: it keeps the copy from input to output one mechanism for all objects
    instead of one output row per object token, each seen as a target once in V renamings. At
    vocabulary 20 (Gripper, no contrastive loss, one seed, 600 steps) token accuracy was 0.46
    tied against 0.44 untied: no clear gain there; the larger vocabularies (123) are where it
    should matter. ``symt train-plans --untied-objects`` trains the paper's untied variant."""

    attention_bias: str = "none"
    """The encoder's shared-object, object-slots or object-distance attention bias
    (:attr:`ModelConfig.attention_bias`): an atom attends more to the atoms that share an object
    with it, the relation every plan step reads (where the robot is against where the balls are)."""
    achieved_goals: bool = False
    """The encoder reads fluent atoms that are goal atoms as their own predicates
    (:attr:`symt.tokens.Signature.achieved_goals`; the model file's signature says so too)."""
    attention_scale: str = "fixed"
    """``log-length``: the encoder's queries (:attr:`ModelConfig.attention_scale`) and the decoder's
    cross-attention queries are multiplied by a learned s_h times ln of the atoms they attend to, so
    that attention to the one atom that matters (the robot's cell) does not fade on tasks many times
    the training size; ``fixed``, the paper's, by default."""
    graph_predicates: list[int] | None = None
    """With the ``object-distance`` bias: the static relations whose atoms are the object graph's
    edges (:attr:`ModelConfig.graph_predicates`)."""
    graph_slots: list[list[int]] | None = None
    """With the ``object-distance`` bias: the argument slots each of ``graph_predicates`` links
    (:attr:`ModelConfig.graph_slots`; None: every slot, as files written before it)."""
    max_distance: int = 64
    """With the ``object-distance`` bias: graph distances beyond this read as this
    (:attr:`ModelConfig.max_distance`)."""

    def to_dict(self) -> dict:
        """The fields as a plain dict (``SymTEDConfig(**d)`` rebuilds the config)."""
        return asdict(self)

    def encoder_config(self) -> ModelConfig:
        """The :class:`~symt.model_config.ModelConfig` of the encoder (a table object vocabulary, no
        readout)."""
        return ModelConfig(self.num_predicates, self.max_arity, self.vocab_size, self.d_model,
                           self.n_heads, self.n_layers, self.d_ff, self.d_embed, self.dropout, self.k,
                           layer_norm=self.layer_norm, scaled_residual_init=self.scaled_residual_init,
                           attention_bias=self.attention_bias, achieved_goals=self.achieved_goals,
                           attention_scale=self.attention_scale, graph_predicates=self.graph_predicates,
                           graph_slots=self.graph_slots, max_distance=self.max_distance)


def _heads(x: Tensor, n_heads: int) -> Tensor:
    b, t, d = x.shape
    return x.view(b, t, n_heads, d // n_heads).transpose(1, 2)


class DecoderLayer(nn.Module):
    """Causal self-attention, cross-attention, feed-forward; residuals; optional pre-norm."""

    def __init__(self, d: int, n_heads: int, d_ff: int, dropout: float, layer_norm: bool,
                 log_length: bool = False):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d // n_heads
        self.self_qkv = nn.Linear(d, 3 * d)
        self.self_out = nn.Linear(d, d)
        self.cross_q = nn.Linear(d, d)
        self.cross_kv = nn.Linear(d, 2 * d)
        self.cross_out = nn.Linear(d, d)
        self.ff1 = nn.Linear(d, d_ff)
        self.ff2 = nn.Linear(d_ff, d)
        self.dropout = nn.Dropout(dropout)
        make_norm = (lambda: nn.LayerNorm(d)) if layer_norm else nn.Identity
        self.norm1, self.norm2, self.norm3 = make_norm(), make_norm(), make_norm()
        self.log_length = log_length
        if log_length:  # as SharedLayer's: fixed attention for a query over LOG_LENGTH_REFERENCE atoms
            self.cross_scale = nn.Parameter(torch.full((n_heads,), 1.0 / math.log(LOG_LENGTH_REFERENCE)))

    def memory_keys(self, memory: Tensor) -> tuple[Tensor, Tensor]:
        """Cross-attention keys and values of the encoder output (the same for every layer pass)."""
        k, v = self.cross_kv(memory).chunk(2, dim=-1)
        return _heads(k, self.n_heads), _heads(v, self.n_heads)

    def _attend(self, q: Tensor, k: Tensor, v: Tensor, bias: Tensor) -> tuple[Tensor, Tensor]:
        attention = (q @ k.transpose(-2, -1) / math.sqrt(self.head_dim) + bias).softmax(dim=-1)
        return self.dropout(attention) @ v, attention

    def forward(
        self, x: Tensor, memory_kv: tuple[Tensor, Tensor], memory_bias: Tensor,
        past: tuple[Tensor, Tensor] | None, memory_log_n: Tensor | None = None,
    ) -> tuple[Tensor, Tensor, Tensor, tuple[Tensor, Tensor]]:
        """``x``: the new positions [B,T,d]; ``past``: keys/values of earlier positions;
        ``memory_log_n`` [B]: ln of the encoder's atoms, read with ``log_length``.

        Returns (x, self-attention [B,h,T,T_all], cross-attention [B,h,T,N], new keys/values).
        """
        b, t, d = x.shape
        q, k, v = self.self_qkv(self.norm1(x)).chunk(3, dim=-1)
        q, k, v = _heads(q, self.n_heads), _heads(k, self.n_heads), _heads(v, self.n_heads)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        total = k.shape[2]
        # New position i (absolute total - t + i) sees every earlier position and itself.
        causal = torch.ones(t, total, dtype=torch.bool, device=x.device).tril(diagonal=total - t)
        bias = torch.zeros(t, total, dtype=x.dtype, device=x.device).masked_fill(~causal, float("-inf"))
        context, self_attention = self._attend(q, k, v, bias)
        x = x + self.dropout(self.self_out(context.transpose(1, 2).reshape(b, t, d)))
        cq = _heads(self.cross_q(self.norm2(x)), self.n_heads)
        if self.log_length and memory_log_n is not None:
            cq = cq * (self.cross_scale[None, :, None, None] * memory_log_n[:, None, None, None]).to(cq.dtype)
        context, cross_attention = self._attend(cq, memory_kv[0], memory_kv[1], memory_bias)
        x = x + self.dropout(self.cross_out(context.transpose(1, 2).reshape(b, t, d)))
        x = x + self.dropout(self.ff2(F.gelu(self.ff1(self.norm3(x)))))
        return x, self_attention, cross_attention, (k, v)


@dataclass
class DecoderCache:
    """What incremental decoding keeps: encoder keys/values and each layer pass's self keys/values."""

    memory_kv: tuple[Tensor, Tensor]
    memory_bias: Tensor
    past: list[tuple[Tensor, Tensor]]
    memory_log_n: Tensor | None = None
    """[B]: ln of each sample's real atoms (the cross-attention's keys), for ``log-length``."""

    @property
    def length(self) -> int:
        return self.past[0][0].shape[2] if self.past else 0


class SymTED(nn.Module):
    """The SymT-ED plan generator: SymT-E's atom encoder and a weight-shared decoder with a head
    over the plan vocabulary."""

    def __init__(self, config: SymTEDConfig):
        super().__init__()
        self.config = config
        self.k = min(config.k, config.d_model)
        self.n_layers = config.n_layers
        self.encoder = AtomEncoder(config.encoder_config())
        self.token_embedding = nn.Embedding(config.num_tokens, config.d_model)
        if config.tie_objects:
            self.object_in = nn.Linear(config.d_embed, config.d_model)
            self.object_out = nn.Linear(config.d_model, config.d_embed)
        self.decoder_layer = DecoderLayer(config.d_model, config.n_heads, config.d_ff, config.dropout,
                                          config.layer_norm, config.attention_scale == "log-length")
        self.final_norm = nn.LayerNorm(config.d_model) if config.layer_norm else nn.Identity()
        self.head = nn.Linear(config.d_model, config.num_outputs)
        if config.scaled_residual_init:  # three residual additions per decoder application
            layer = self.decoder_layer
            scale_residual_init([layer.self_out, layer.cross_out, layer.ff2], 3 * config.n_layers)


    def optimizer_groups(self, weight_decay: float) -> list[dict]:
        """AdamW parameter groups: ``weight_decay`` on weight matrices only
        (:func:`symt.model.weight_decay_groups`)."""
        return weight_decay_groups(self, weight_decay)

    def num_parameters(self) -> int:
        """The number of trainable values (tied object embeddings counted once)."""
        return sum(p.numel() for p in self.parameters())

    def encode(self, pred: Tensor, args: Tensor, mask: Tensor, return_internals: bool = False
               ) -> tuple[Tensor, Tensor, list[Tensor], list[Tensor]]:
        """Encoder output [B,N,d], the key bias for attending to it, attention maps, hidden[:k]."""
        return self.encoder.encode(pred, args, mask, return_internals)

    def start(self, memory: Tensor, memory_bias: Tensor) -> DecoderCache:
        """An empty decoder cache for the encoder output ``memory`` [B,N,d] and its key bias
        (:meth:`encode`); :meth:`decode` fills it."""
        # memory_bias is [B,1,1,N]: 0 for a real atom, -inf for padding.
        atoms = (memory_bias[:, 0, 0, :] == 0).sum(dim=-1).clamp(min=1).float()
        return DecoderCache(self.decoder_layer.memory_keys(memory), memory_bias, [], atoms.log())

    def decode(self, tokens: Tensor, cache: DecoderCache, return_internals: bool = False
               ) -> tuple[Tensor, list[Tensor], list[Tensor], list[Tensor]]:
        """Logits [B,T,outputs] of new ``tokens`` [B,T]; extends ``cache`` in place."""
        x = self.embed_tokens(tokens)
        self_maps: list[Tensor] = []
        cross_maps: list[Tensor] = []
        hiddens: list[Tensor] = []
        new_past = []
        for layer in range(self.n_layers):
            past = cache.past[layer] if cache.past else None
            x, self_attention, cross_attention, kv = self.decoder_layer(x, cache.memory_kv, cache.memory_bias, past,
                                                                        cache.memory_log_n)
            new_past.append(kv)
            if return_internals:
                self_maps.append(self_attention)
                cross_maps.append(cross_attention)
                hiddens.append(x[..., : self.k])
        cache.past = new_past
        return self.logits(self.final_norm(x)), self_maps, cross_maps, hiddens

    def _object_range(self) -> tuple[int, int]:
        start = self.config.num_schemas
        return start, start + self.config.vocab_size

    def embed_tokens(self, tokens: Tensor) -> Tensor:
        """Decoder inputs [B,T,d] of plan tokens [B,T]; with ``tie_objects`` an object token is its
        encoder object embedding, projected to ``d_model``."""
        x = self.token_embedding(tokens)
        if not self.config.tie_objects:
            return x
        start, end = self._object_range()
        is_object = (tokens >= start) & (tokens < end)
        objects = self.object_in(self.encoder.object_embedding((tokens - start).clamp(0, self.config.vocab_size - 1)))
        return torch.where(is_object[..., None], objects, x)

    def logits(self, x: Tensor) -> Tensor:
        """Output logits [..., num_outputs] of decoder states ``x`` [..., d]; with ``tie_objects`` the
        object logits are scaled scores against the encoder's object embeddings."""
        scores = self.head(x)
        if not self.config.tie_objects:
            return scores
        start, end = self._object_range()
        # Scaled like an attention score, so that object logits start as small as the others.
        objects = (self.object_out(x) @ self.encoder.object_embedding.weight[: self.config.vocab_size].T
                   / math.sqrt(self.config.d_embed))
        return torch.cat([scores[..., :start], objects, scores[..., end:]], dim=-1)

    def forward(self, pred: Tensor, args: Tensor, mask: Tensor, tokens: Tensor,
                return_internals: bool = False) -> tuple[Tensor, dict[str, list[Tensor]]]:
        """Teacher-forced logits [B,T,outputs] for decoder inputs ``tokens`` (<BOS> + plan[:-1])."""
        memory, bias, enc_att, enc_hid = self.encode(pred, args, mask, return_internals)
        logits, self_att, cross_att, dec_hid = self.decode(tokens, self.start(memory, bias), return_internals)
        internals = {"encoder_attention": enc_att, "encoder_hidden": enc_hid,
                     "decoder_self_attention": self_att, "decoder_cross_attention": cross_att,
                     "decoder_hidden": dec_hid}
        return logits, internals


def plan_contrastive_terms(a: dict[str, list[Tensor]], b: dict[str, list[Tensor]], atom_mask: Tensor,
                           token_mask: Tensor) -> tuple[Tensor, Tensor]:
    """L_att and L_hid over every attention map and every encoder and decoder layer (batch mean).

    ``atom_mask`` [B,N] marks real atoms, ``token_mask`` [B,T] real decoder positions; padded
    queries and keys are left out so that padding never counts.
    """
    batch = atom_mask.shape[0]
    # In fp32 whatever the forward pass's precision (see symt.training.losses.contrastive_terms).
    a = {name: [x.float() for x in maps] for name, maps in a.items()}
    b = {name: [x.float() for x in maps] for name, maps in b.items()}
    am = atom_mask.float()
    tm = token_mask.float()
    pairs = {
        "encoder_attention": am[:, None, :, None] * am[:, None, None, :],
        "decoder_self_attention": tm[:, None, :, None] * tm[:, None, None, :],
        "decoder_cross_attention": tm[:, None, :, None] * am[:, None, None, :],
    }
    att = sum(((x - y) ** 2 * pairs[name]).sum()
              for name in pairs for x, y in zip(a[name], b[name]))
    hid = sum(((x - y) ** 2 * am[..., None]).sum() for x, y in zip(a["encoder_hidden"], b["encoder_hidden"]))
    hid = hid + sum(((x - y) ** 2 * tm[..., None]).sum() for x, y in zip(a["decoder_hidden"], b["decoder_hidden"]))
    return att / batch, hid / batch
