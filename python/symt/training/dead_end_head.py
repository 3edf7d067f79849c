"""A dead-end head fitted to a trained SymT-E model's frozen features (``symt dead-end-head``).

The model's h stays exactly as trained; the head (``ModelConfig.dead_end_head``) reads the same
pooled features and says whether a state is a dead end. It is fitted on states of the training
tasks whose h* the expander computed: from every exhaustively expanded task with dead ends, up to
N dead ends and up to N live states (uniformly, seeded; the two classes weighted alike), each under
a fresh random renaming of its object tokens as training draws them. The features are computed
once; the head is then fitted full-batch on them, standardised (the pooled features are sums over
atoms, tens to hundreds in size, which left a head trained beside the encoder at its base rate:
``benchmarks/results/training/ipc_models.md``, "A dead-end head for Spanner"), and the
standardisation is folded into its first layer exactly.

Before the final fit on every task, the head is fitted without the quarter of the tasks with the
most objects and measured on them: the share of their dead ends it marks (recall) and of their
live states it marks (false dead ends), since a search meets tasks larger than any training task
and a live state marked dead is never expanded.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ..data import TaskData, derive_seed, load_dataset
from ..errors import SymtError
from ..model import SymTE
from ..sampling import random_tokens
from ..tokens import collate, rename


@dataclass
class HeadFit:
    """What :func:`fit_dead_end_head` measured: states used, held-out rates, and the final fit's."""

    tasks: int
    dead_ends: int
    live_states: int
    held_out_tasks: int
    held_out_objects: list[int]
    held_out_recall: float
    held_out_false: float
    validation_recall: float
    validation_false: float
    train_recall: float
    train_false: float


def task_states(task: TaskData, per_task: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Up to ``per_task`` dead ends of ``task`` and up to ``per_task`` live states (state ids,
    labels; uniformly, without repeats)."""
    space = task.space
    assert space is not None
    dead = np.flatnonzero(~np.isfinite(space.hstar))
    live = np.flatnonzero(np.isfinite(space.hstar))
    dead = rng.choice(dead, min(per_task, len(dead)), replace=False)
    live = rng.choice(live, min(per_task, len(live)), replace=False)
    return np.concatenate([dead, live]), np.concatenate([np.ones(len(dead)), np.zeros(len(live))])


@torch.no_grad()
def pooled_features(model: SymTE, tasks: list[TaskData], per_task: int, seed: int, count: bool = False,
                    batch_size: int = 64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frozen model's pooled features [S,k] of the sampled states of ``tasks`` (``count``: of
    their fluents only), their labels (1: dead end) and the index of each state's task."""
    vocab = model.config.vocab_size
    features, labels, owners = [], [], []
    for index, task in enumerate(tasks):
        rng = np.random.default_rng(derive_seed(seed, "dead-end-head", index))
        states, dead = task_states(task, per_task, rng)
        assert task.space is not None
        rows = [rename(task.encoded.state_rows(task.space.state_facts(int(state))),
                       random_tokens(rng, task.encoded.num_objects, vocab), vocab) for state in states]
        for start in range(0, len(rows), batch_size):
            pred, args, mask = collate(rows[start:start + batch_size], vocab)
            x, _, _, _ = model.encode(pred, args, mask)
            atoms = model.token_mask(pred, mask)
            features.append(model.pool(x, model.fluents(pred, atoms) if count else atoms, None).numpy())
        labels.append(dead)
        owners.append(np.full(len(states), index))
    if not labels or not sum(len(label) for label in labels):
        raise SymtError("no training task has both dead ends and live states to fit a dead-end head on")
    return np.concatenate(features), np.concatenate(labels), np.concatenate(owners)


def train_head(head: torch.nn.Sequential, features: np.ndarray, labels: np.ndarray, seed: int,
               steps: int = 500, lr: float = 3e-3) -> None:
    """Fit ``head`` (Linear, GELU, Linear; or one Linear) full-batch to ``labels`` on ``features``,
    standardised, then fold the standardisation into its first layer so that it reads the raw
    pooled features.
    ``steps``: on Spanner's shipped model, held out on its 21 largest training tasks (23-28
    objects), 300 and 1,000 steps marked 0.010 and 0.007 of their live states dead, 3,000 steps
    0.108 (it learns the training sizes); every dead end was marked at all three."""
    x = torch.from_numpy(features).float()
    y = torch.from_numpy(labels).float()
    mean, std = x.mean(dim=0), x.std(dim=0).clamp(min=1e-6)
    if head[0].bias is None:  # a pure count: scaled, not centred (the fold would need a constant)
        mean = torch.zeros_like(mean)
    torch.manual_seed(derive_seed(seed, "dead-end-head-init"))
    for layer in head:
        if isinstance(layer, torch.nn.Linear):
            layer.reset_parameters()
    optimizer = torch.optim.AdamW(head.parameters(), lr=lr, weight_decay=1e-4)
    z = (x - mean) / std
    # Dead ends and live states weigh alike, however many of each the tasks gave.
    balance = (y == 0).sum().clamp(min=1) / (y == 1).sum().clamp(min=1)
    for _ in range(steps):
        optimizer.zero_grad()
        F.binary_cross_entropy_with_logits(head(z).squeeze(-1), y, pos_weight=balance).backward()
        optimizer.step()
    with torch.no_grad():  # W (x - m) / s + b = (W / s) x + (b - W m / s)
        first = head[0]
        if first.bias is not None:
            first.bias -= first.weight @ (mean / std)
        first.weight /= std


def rates(head: torch.nn.Sequential, features: np.ndarray, labels: np.ndarray, threshold: float) -> tuple[float, float]:
    """(share of dead ends the head marks, share of live states it marks) at ``threshold``."""
    if len(labels) == 0:
        return math.nan, math.nan
    with torch.no_grad():
        marked = (torch.sigmoid(head(torch.from_numpy(features).float()).squeeze(-1)) > threshold).numpy()
    dead = labels == 1
    return (float(marked[dead].mean()) if dead.any() else math.nan,
            float(marked[~dead].mean()) if (~dead).any() else math.nan)


def fit_dead_end_head(checkpoint_path: Path, data: Path, out: Path, per_task: int = 100, seed: int = 0,
                      threshold: float = 0.5, linear: bool = False, count: bool = False,
                      progress: bool = True) -> HeadFit:
    """Fit a dead-end head to the frozen model of ``checkpoint_path`` on the dataset ``data`` and
    write the model with it to ``out`` (a training checkpoint, for ``symt export``); ``linear``:
    one linear layer (``ModelConfig.dead_end_linear``); ``count``: one without a constant on the
    fluents' sum (``ModelConfig.dead_end_count``)."""
    from ..export import load_checkpoint_model
    from .base import save_atomic

    if not 0 < threshold < 1:
        raise SymtError(f"--threshold must lie in (0, 1) (got {threshold})")
    model, checkpoint = load_checkpoint_model(checkpoint_path)
    if model.atom_readout or type(model) is not SymTE:
        raise SymtError(f"{checkpoint_path}: a dead-end head reads the pooled readout of full attention; "
                        "this model has another")
    dataset = load_dataset(data, splits=("train", "validation"), vocab_size=model.config.vocab_size,
                           progress=progress)
    if checkpoint.get("signature") != dataset.signature.to_json():
        raise SymtError(f"{checkpoint_path}: the model was trained on another domain signature than {data}")
    split_tasks = {split: [t for t in dataset.split(split)
                           if t.space is not None and np.isfinite(t.space.hstar).any()
                           and not np.isfinite(t.space.hstar).all()]
                   for split in ("train", "validation")}
    tasks = split_tasks["train"]
    config = copy.deepcopy(model.config)
    config.dead_end_head, config.dead_end_threshold, config.dead_end_linear = True, threshold, linear
    config.dead_end_count = count
    try:
        headed = SymTE(config)
    except ValueError as error:  # the model checks which of its options go together
        raise SymtError(f"{checkpoint_path}: this head does not fit the model: {error}") from error
    # A head the model already has is replaced, whatever its shape: only the encoder and h's readout carry over.
    headed.load_state_dict({name: value for name, value in model.state_dict().items()
                            if not name.startswith("dead_end.")}, strict=False)
    headed.eval()
    features, labels, owners = pooled_features(model, tasks, per_task, seed, count)
    val_features, val_labels, _ = (pooled_features(model, split_tasks["validation"], per_task, seed + 1, count)
                                   if split_tasks["validation"] else (np.zeros((0, model.k)), np.zeros(0), None))

    # Size generalisation first: fitted without the quarter of the tasks with the most objects.
    sizes = np.array([t.encoded.num_objects for t in tasks])
    large = np.argsort(sizes, kind="stable")[len(tasks) - max(1, len(tasks) // 4):]
    held = np.isin(owners, large)
    if held.all():
        raise SymtError(f"{data}: too few training tasks with dead ends to hold some out ({len(tasks)})")
    train_head(headed.dead_end, features[~held], labels[~held], seed)
    held_recall, held_false = rates(headed.dead_end, features[held], labels[held], threshold)

    train_head(headed.dead_end, features, labels, seed)
    train_recall, train_false = rates(headed.dead_end, features, labels, threshold)
    val_recall, val_false = rates(headed.dead_end, val_features, val_labels, threshold)
    fit = HeadFit(tasks=len(tasks), dead_ends=int(labels.sum()), live_states=int((labels == 0).sum()),
                  held_out_tasks=len(large), held_out_objects=[int(sizes[large].min()), int(sizes[large].max())],
                  held_out_recall=held_recall, held_out_false=held_false, validation_recall=val_recall,
                  validation_false=val_false, train_recall=train_recall, train_false=train_false)
    written = dict(checkpoint)
    written["model_config"] = config.to_dict()
    written["model"] = headed.state_dict()
    written["dead_end_fit"] = {"source": str(checkpoint_path), "data": str(data), "per_task": per_task,
                               "seed": seed, "threshold": threshold, **fit.__dict__}
    written.pop("optimizer", None)  # a head fitted apart: the run's optimiser state is not this model's
    save_atomic(written, out)
    return fit
