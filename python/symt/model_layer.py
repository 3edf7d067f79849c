"""SymT-E's shared layer: self-attention and feed-forward with residuals, applied ``n_layers``
times by :class:`symt.model.AtomEncoder`.

Beside plain attention (:meth:`SharedLayer.mix`) it holds what the model's options add to the
attention logits (the object bias: shared objects, argument slots, graph distances, from
``symt.model_objects``'s channels), the log-length query scale, and the pass of a state over a
cached context restricted to the context atoms each state atom shares an object with
(:meth:`SharedLayer.mix_sparse`, ``context_keys="shared-object"``), and keys pooled per object
(:meth:`SharedLayer.forward`'s ``pool``, ``context_keys="object-means"``).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .model_config import ATTENTION_BIASES, ATTENTION_SCALES, LOG_LENGTH_REFERENCE, ModelConfig
from .model_objects import DISTANCE_CHANNELS

SPARSE_PAIR_CHUNK = 2048
"""Pairs of state and context atoms per piece of :meth:`SharedLayer.mix_sparse` (512 KiB of
gathered keys at width 64): of 512, 2,048 and all at once, 2,048 computed the logits of IPC Rovers
medium p22's 43,000 pairs fastest (4.2, 5.3 and 23 ms on a loaded machine)."""


class SharedLayer(nn.Module):
    """Self-attention + feed-forward with residuals; optional (pre-)layer norm."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        d, h = config.d_model, config.n_heads
        if d % h:
            raise ValueError(f"d_model {d} is not divisible by n_heads {h}")
        self.n_heads = h
        self.head_dim = d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ff1 = nn.Linear(d, config.d_ff)
        self.ff2 = nn.Linear(config.d_ff, d)
        self.dropout = nn.Dropout(config.dropout)
        self.use_norm = config.layer_norm
        self.norm1 = nn.LayerNorm(d) if config.layer_norm else nn.Identity()
        self.norm2 = nn.LayerNorm(d) if config.layer_norm else nn.Identity()
        if config.attention_scale not in ATTENTION_SCALES:
            raise ValueError(f"unknown attention scale '{config.attention_scale}' "
                             f"(choose from {', '.join(ATTENTION_SCALES)})")
        self.log_length = config.attention_scale == "log-length"
        if self.log_length:
            self.length_scale = nn.Parameter(torch.full((h,), 1.0 / math.log(LOG_LENGTH_REFERENCE)))
        else:  # unused; not persistent, so checkpoints of fixed attention stay as they were
            self.register_buffer("length_scale", torch.zeros(h), persistent=False)
        if config.attention_bias not in ATTENTION_BIASES:
            raise ValueError(f"unknown attention bias '{config.attention_bias}' "
                             f"(choose from {', '.join(ATTENTION_BIASES)})")
        self.shared_object = config.attention_bias in ("shared-object", "object-slots", "object-distance")
        self.object_slots = config.attention_bias == "object-slots"
        if self.shared_object:
            self.object_bias = nn.Parameter(torch.ones(h))
        else:  # unused, and not persistent, as length_scale above
            self.register_buffer("object_bias", torch.zeros(h), persistent=False)
        self.object_distance = config.attention_bias == "object-distance"
        if self.object_distance:
            # e_h,1..3 (near distances, times ln n), the slope g_h, u_h (no path): DISTANCE_CHANNELS.
            self.distance_bias = nn.Parameter(torch.zeros(h, DISTANCE_CHANNELS))
        else:  # unused, and not persistent, as length_scale above
            self.register_buffer("distance_bias", torch.zeros(h, DISTANCE_CHANNELS), persistent=False)
        slot_pairs = config.max_arity * config.max_arity
        if self.object_slots:
            self.slot_bias = nn.Parameter(torch.zeros(h, slot_pairs))
        else:  # unused, and not persistent, as length_scale above
            self.register_buffer("slot_bias", torch.zeros(h, slot_pairs), persistent=False)

    def add_object_bias(self, bias: Tensor, shared: Tensor | None) -> Tensor:
        """``bias`` plus the object bias of ``shared`` ([B,P,Nq,Nk]; channel 0: ln n of the query
        where query and key share an object, else 0; with ``object-slots`` one more channel per
        pair of argument slots i, j: ln n where the query's i-th object is the key's j-th;
        :meth:`symt.model.AtomEncoder.shared_object_logits`): b_h times channel 0, plus c_h,ij times the
        slot channels. ``bias`` unchanged without an object bias. [B,heads,Nq,Nk] where added."""
        if not self.shared_object or shared is None:
            return bias
        weights = self.object_bias[:, None]
        if self.object_slots:
            weights = torch.cat([weights, self.slot_bias], dim=1)  # [heads, P]
        if self.object_distance:
            weights = torch.cat([weights, self.distance_bias], dim=1)
        # One batched matrix product over the flattened [P, Nq*Nk] channels: an einsum permuted
        # and copied them first, a third of a Miconic state's time in forward_states.
        b, p, nq, nk = shared.shape
        mixed = torch.matmul(weights.to(shared.dtype), shared.reshape(b, p, nq * nk))
        return bias + mixed.view(b, -1, nq, nk).to(bias.dtype)

    def heads(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Queries, keys and values of ``x`` [B,N,d], each [B,heads,N,head_dim]."""
        b, n, _ = x.shape
        qkv = self.qkv(self.norm1(x)).view(b, n, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        return qkv[0], qkv[1], qkv[2]

    def scale_queries(self, q: Tensor, log_n: Tensor | None) -> Tensor:
        """``q`` [B,heads,N,head_dim] times s_h · ln(n) per head and query with ``log-length``
        attention (``log_n`` [B,N]: ln of the number of atoms each query may attend to); else ``q``."""
        if not self.log_length or log_n is None:
            return q
        return q * (self.length_scale[None, :, None, None] * log_n[:, None, :, None]).to(q.dtype)

    def mix(self, x: Tensor, q: Tensor, k: Tensor, v: Tensor, bias: Tensor) -> Tensor:
        """The rest of the layer after :meth:`heads`: attention of ``q`` over ``k``/``v`` (which
        may hold more atoms than ``x``: a cached context), output projection, feed-forward."""
        b, n, d = x.shape
        context = F.scaled_dot_product_attention(
            q, k, v, attn_mask=bias, dropout_p=self.dropout.p if self.training else 0.0
        )
        return self.residual(x, context.transpose(1, 2).reshape(b, n, d))

    def residual(self, x: Tensor, attended: Tensor) -> Tensor:
        """The layer after attention: ``attended`` [B,N,d] (heads side by side) through the output
        projection into ``x``'s residual stream, then the feed-forward block."""
        x = x + self.dropout(self.out(attended))
        return x + self.dropout(self.ff2(F.gelu(self.ff1(self.norm2(x)))))

    def mix_sparse(self, x: Tensor, q: Tensor, k: Tensor, v: Tensor, bias: Tensor, context_keys: Tensor,
                   context_values: Tensor, pair_query: Tensor, pair_key: Tensor, pair_bias: Tensor,
                   chunk: int) -> Tensor:
        """:meth:`mix` for queries ``q`` [B,heads,N,head_dim] over two kinds of keys: the batch's own
        ``k``/``v`` (dense, ``bias`` [B,1|heads,N|1,N] as in :meth:`mix`) and, for each query, only
        some of a cached context's ``context_keys``/``context_values`` [C,heads*head_dim]: the pairs
        ``pair_query`` [P] (flat query index b*N+i) and ``pair_key`` [P] (context atom), with the
        logit bias ``pair_bias`` [P,heads]. One softmax over both (``context_keys`` ``shared-object``):
        the cost is the pairs, not N*C. The pairs go ``chunk`` at a time, so that their gathered
        keys and values stay in the cache (all at once, a pass at IPC Rovers medium p22 took 1.4
        times as long).
        Inference only (no dropout)."""
        b, h, n, hd = q.shape
        scale = 1.0 / math.sqrt(hd)
        dense = (q @ k.transpose(-2, -1)) * scale + bias  # [B,h,N,N]
        flat_q = q.permute(0, 2, 1, 3).reshape(b * n, h * hd)
        num_pairs = pair_query.shape[0]
        parts: list[Tensor] = []
        for start in range(0, num_pairs, chunk):
            queries = flat_q.index_select(0, pair_query[start:start + chunk]).view(-1, h, hd)
            keys = context_keys.index_select(0, pair_key[start:start + chunk]).view(-1, h, hd)
            parts.append((queries * keys).sum(dim=-1))
        sparse = (torch.cat(parts) if len(parts) > 0 else torch.zeros(0, h, dtype=q.dtype, device=q.device))
        sparse = sparse * scale + pair_bias.to(q.dtype)  # [P,h]
        top = dense.amax(dim=-1).permute(0, 2, 1).reshape(b * n, h)
        top = top.scatter_reduce(0, pair_query[:, None].expand(-1, h), sparse, "amax", include_self=True)
        # A query with no key at all (a state without atoms is all padding) keeps a finite maximum.
        top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
        dense_w = torch.exp(dense - top.view(b, n, h).permute(0, 2, 1)[..., None])
        sparse_w = torch.exp(sparse - top[pair_query])
        total = dense_w.sum(dim=-1).permute(0, 2, 1).reshape(b * n, h)
        total = total.index_add(0, pair_query, sparse_w)
        out = (dense_w @ v).permute(0, 2, 1, 3).reshape(b * n, h, hd)
        for start in range(0, num_pairs, chunk):
            values = context_values.index_select(0, pair_key[start:start + chunk]).view(-1, h, hd)
            out = out.index_add(0, pair_query[start:start + chunk], sparse_w[start:start + chunk, :, None] * values)
        out = out / total.clamp(min=1e-30)[..., None]
        return self.residual(x, out.reshape(b, n, h * hd))

    def forward(self, x: Tensor, bias: Tensor, need_weights: bool,
                log_n: Tensor | None = None, pool: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """``bias``: [B,1,1,N], [B,1,N,N] or [B,heads,N,N], 0 where a query may attend to a key and
        -inf where not (padding; a state atom for a context atom), plus the shared-object bias
        (:meth:`add_object_bias`, added once by the caller for every application of the layer);
        ``log_n`` as in :meth:`scale_queries`. ``pool`` [B,O,N] (``context_keys`` ``object-means``,
        :func:`symt.model_objects.context_objects`): O more keys and values after the atoms', each
        its row's weighted sum of the atoms' (``bias`` then [.., N, N+O]). Returns (x, attention)."""
        q, k, v = self.heads(x)
        q = self.scale_queries(q, log_n)
        if pool is not None:
            weights = pool[:, None].to(k.dtype)  # [B,1,O,N], the same for every head
            k = torch.cat([k, weights @ k], dim=2)
            v = torch.cat([v, weights @ v], dim=2)
        if not need_weights:
            return self.mix(x, q, k, v, bias), torch.zeros(0, device=x.device)
        b, n, d = x.shape
        attention = (q @ k.transpose(-2, -1) / math.sqrt(self.head_dim) + bias).softmax(dim=-1)
        x = x + self.dropout(self.out((self.dropout(attention) @ v).transpose(1, 2).reshape(b, n, d)))
        x = x + self.dropout(self.ff2(F.gelu(self.ff1(self.norm2(x)))))
        return x, attention
