"""The SymT-E losses besides the regression to h*: the paper's contrastive terms L_att and L_hid
(:func:`contrastive_terms`) and the sibling ranking loss L_rank (:func:`ranking_loss`).

``L_rank`` compares sibling pairs of sampled states (``symt.sampling``): an optimal successor should
score below a non-optimal one. ``hinge``: ``max(0, m + h(s_opt) - h(s_other))`` with margin
``m = 1`` where both h* are known (they differ by at least one step, so h* itself has zero
ranking loss and the two terms never pull against each other) and ``m = 0`` for a sibling of an
optimal plan (it may tie); ``logistic``: ``softplus(h(s_opt) - h(s_other))``, which keeps pushing
the pair apart however far it is. ``symt.training.trainer`` weighs and schedules them.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

RANK_LOSSES = ("hinge", "logistic")
"""The kinds of :func:`ranking_loss` (``symt train --rank-loss``)."""


def contrastive_terms(
    attentions: list[Tensor],
    attentions_renamed: list[Tensor],
    hiddens: list[Tensor],
    hiddens_renamed: list[Tensor],
    mask: Tensor,
) -> tuple[Tensor, Tensor]:
    """The paper's L_att and L_hid, averaged over the batch.

    L_att sums (alpha_ij - alpha'_ij)^2 over every attention map (all layers, all heads) and every
    (query, key) pair of real atoms; L_hid sums ||H^(l)[:k] - H'^(l)[:k]||^2 over layers and real
    atoms. Token positions correspond between X and X' because only object names differ.
    """
    batch = mask.shape[0]
    # In fp32 whatever the forward pass's precision: the two copies' values are close, and their
    # difference in bf16 would be mostly rounding. Padding queries are masked; padding keys have
    # weight 0 in both copies. (Maps may have other keys than atoms: the objects attention's are an
    # atom's arguments, itself and the global tokens.)
    pair_mask = mask[:, None, :, None].float()
    token_mask = mask[..., None].float()
    att = sum(((a.float() - b.float()) ** 2 * pair_mask).sum() for a, b in zip(attentions, attentions_renamed))
    hid = sum((((a.float() - b.float()) ** 2) * token_mask).sum() for a, b in zip(hiddens, hiddens_renamed))
    return att / batch, hid / batch


def ranking_loss(h: torch.Tensor, target: torch.Tensor, pairs: torch.Tensor, kind: str) -> torch.Tensor:
    """The mean ranking loss over sibling pairs (rows of ``pairs``: closer successor, other)."""
    gap = h[pairs[:, 0]] - h[pairs[:, 1]]
    if kind == "logistic":
        return F.softplus(gap).mean()
    margin = (~torch.isnan(target[pairs[:, 1]])).to(h.dtype)  # 0 where the sibling's h* is unknown
    return F.relu(margin + gap).mean()
