"""The PlanGPT baseline: a GPT-2-style decoder-only transformer over symbol tokens.

Following the paper's description of PlanGPT (and its fair variant with fully randomised object
names): one token per predicate, object and action symbol, learned absolute position embeddings,
pre-norm GPT-2 blocks (torch's ``nn.MultiheadAttention`` with a causal mask, GELU MLP of width
4d), and the sequence

    <start> state atoms... <goal> goal atoms... <action> plan tokens... <EOS>

Atoms are sorted by predicate and then by the task's object order, which does not depend on the
renaming: X and its renamed copy X' then have the same token positions, which the contrastive
loss (the paper's ablation on PlanGPT) needs. The loss covers only plan tokens. The head predicts
plan-vocabulary tokens (:mod:`.vocab`), so the decoding strategies are shared with SymT-ED.
Generation runs the prompt once and then feeds one token at a time through a key/value cache
(``PlanGPT.extend``), as SymT-ED's decoder does.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..errors import SymtError
from ..model import weight_decay_groups
from .decoding import ContextFull
from .vocab import PlanVocabulary

START, GOAL, ACTION, PAD = 0, 1, 2, 3
NUM_SPECIAL = 4


@dataclass
class PlanGPTConfig:
    """The architecture of a PlanGPT model: its token counts, number of learned positions and
    transformer sizes; stored in its plan-generator file."""

    num_predicates: int
    num_plan_inputs: int
    num_outputs: int
    max_positions: int = 2048
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 4
    dropout: float = 0.0
    k: int = 32

    @property
    def num_tokens(self) -> int:
        return NUM_SPECIAL + self.num_predicates + self.num_plan_inputs

    def to_dict(self) -> dict:
        """The fields as a plain dict (``PlanGPTConfig(**d)`` rebuilds the config)."""
        return asdict(self)


def prompt_tokens(rows: np.ndarray, num_predicates: int, vocab: PlanVocabulary) -> list[int]:
    """``<start>`` state atoms ``<goal>`` goal atoms ``<action>`` from renamed token rows.

    ``rows`` are :meth:`EncodedTask.state_rows` after :func:`symt.tokens.rename` (object tokens,
    padding ``V``) in the encoder's order: fluent atoms, static and type atoms, goal atoms; goal
    rows carry predicate ids ``P..2P-1``. Sorting is by predicate only (stable), which keeps the
    task's atom order within a predicate.
    """
    plan_offset = NUM_SPECIAL + num_predicates
    state, goal = [], []
    for row in rows:
        predicate = int(row[0])
        objects = [plan_offset + vocab.object_token(int(t)) for t in row[1:] if t < vocab.vocab_size]
        is_goal = predicate >= num_predicates
        token = NUM_SPECIAL + (predicate - num_predicates if is_goal else predicate)
        (goal if is_goal else state).append((token, [token, *objects]))
    tokens = [START]
    for _, atom in sorted(state, key=lambda item: item[0]):
        tokens += atom
    tokens.append(GOAL)
    for _, atom in sorted(goal, key=lambda item: item[0]):
        tokens += atom
    return tokens + [ACTION]


class GPT2Block(nn.Module):
    """Pre-norm causal self-attention + MLP, as in GPT-2."""

    def __init__(self, d: int, n_heads: int, dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attention = nn.MultiheadAttention(d, n_heads, dropout=dropout, batch_first=True)
        self.norm2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d), nn.Dropout(dropout))

    def forward(self, x: Tensor, causal: Tensor, padding: Tensor, need_weights: bool) -> tuple[Tensor, Tensor | None]:
        """The block on ``x`` [B,T,d]; ``causal`` [T,T] and ``padding`` [B,T] are True where attention
        is blocked. Returns (x, per-head attention weights [B,heads,T,T], or None without ``need_weights``)."""
        h = self.norm1(x)
        out, weights = self.attention(h, h, h, attn_mask=causal, key_padding_mask=padding,
                                      need_weights=need_weights, average_attn_weights=False)
        x = x + out
        return x + self.mlp(self.norm2(x)), weights

    def extend(self, x: Tensor, past: tuple[Tensor, Tensor] | None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """The block on new positions ``x`` [B,T,d] after cached keys/values ``past`` (inference).

        The same weights and arithmetic as :meth:`forward` (``nn.MultiheadAttention``'s packed
        projections), one new position's work per generated token instead of the whole sequence.
        """
        attention = self.attention
        b, t, d = x.shape
        heads = attention.num_heads
        q, k, v = F.linear(self.norm1(x), attention.in_proj_weight, attention.in_proj_bias).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, heads, d // heads).transpose(1, 2) for z in (q, k, v))
        if past is not None:
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        total = k.shape[2]
        causal = torch.ones(t, total, dtype=torch.bool, device=x.device).tril(diagonal=total - t)
        context = F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
        x = x + attention.out_proj(context.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x)), (k, v)


class PlanGPT(nn.Module):
    """The PlanGPT decoder: token and learned position embeddings, GPT-2 blocks and a head over
    the plan vocabulary."""

    def __init__(self, config: PlanGPTConfig):
        super().__init__()
        self.config = config
        self.k = min(config.k, config.d_model)
        self.token_embedding = nn.Embedding(config.num_tokens, config.d_model)
        self.position_embedding = nn.Embedding(config.max_positions, config.d_model)
        self.dropout = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList(GPT2Block(config.d_model, config.n_heads, config.dropout)
                                    for _ in range(config.n_layers))
        self.final_norm = nn.LayerNorm(config.d_model)
        self.head = nn.Linear(config.d_model, config.num_outputs)


    def optimizer_groups(self, weight_decay: float) -> list[dict]:
        """AdamW parameter groups: ``weight_decay`` on weight matrices only
        (:func:`symt.model.weight_decay_groups`)."""
        return weight_decay_groups(self, weight_decay)

    def num_parameters(self) -> int:
        """The number of trainable values."""
        return sum(p.numel() for p in self.parameters())

    def plan_token(self, plan_token: int) -> int:
        """Input id of a plan-vocabulary token."""
        return NUM_SPECIAL + self.config.num_predicates + plan_token

    def forward(self, tokens: Tensor, padding: Tensor, return_internals: bool = False
                ) -> tuple[Tensor, dict[str, list[Tensor]]]:
        """Next-token logits [B,T,outputs] over the plan vocabulary; ``padding`` [B,T] True at pads."""
        b, t = tokens.shape
        if t > self.config.max_positions:
            raise SymtError(f"sequence of {t} tokens exceeds PlanGPT's {self.config.max_positions} positions")
        positions = torch.arange(t, device=tokens.device)
        x = self.dropout(self.token_embedding(tokens) + self.position_embedding(positions)[None])
        causal = torch.ones(t, t, dtype=torch.bool, device=tokens.device).triu(1)
        attentions: list[Tensor] = []
        hiddens: list[Tensor] = []
        for block in self.blocks:
            x, weights = block(x, causal, padding, return_internals)
            if return_internals:
                attentions.append(weights)
                hiddens.append(x[..., : self.k])
        return self.head(self.final_norm(x)), {"attention": attentions, "hidden": hiddens}

    def extend(self, tokens: Tensor, past: list[tuple[Tensor, Tensor]]) -> Tensor:
        """Logits [B,T,outputs] of new ``tokens`` [B,T] that follow the cached sequence ``past``
        (one (keys, values) per block, empty at first); extends ``past`` in place. No padding.
        Raises :class:`~.decoding.ContextFull` when the learned positions run out."""
        start = past[0][0].shape[2] if past else 0
        end = start + tokens.shape[1]
        if end > self.config.max_positions:
            raise ContextFull(f"context full: PlanGPT's {self.config.max_positions} positions are used up")
        positions = torch.arange(start, end, device=tokens.device)
        x = self.token_embedding(tokens) + self.position_embedding(positions)[None]
        cached = bool(past)
        for index, block in enumerate(self.blocks):
            x, kv = block.extend(x, past[index] if cached else None)
            if cached:
                past[index] = kv
            else:
                past.append(kv)
        return self.head(self.final_norm(x))


def gpt_contrastive_terms(a: dict[str, list[Tensor]], b: dict[str, list[Tensor]], mask: Tensor
                          ) -> tuple[Tensor, Tensor]:
    """L_att and L_hid for PlanGPT over real (non-pad) positions, batch mean."""
    # In fp32 whatever the forward pass's precision (see symt.training.losses.contrastive_terms).
    a = {name: [x.float() for x in maps] for name, maps in a.items()}
    b = {name: [x.float() for x in maps] for name, maps in b.items()}
    m = mask.float()
    pairs = m[:, None, :, None] * m[:, None, None, :]
    att = sum(((x - y) ** 2 * pairs).sum() for x, y in zip(a["attention"], b["attention"]))
    hid = sum(((x - y) ** 2 * m[..., None]).sum() for x, y in zip(a["hidden"], b["hidden"]))
    return att / mask.shape[0], hid / mask.shape[0]
