"""Training data for SymT-E (paper, "Training data" and "Contrastive objective").

A sample: a training task uniformly at random, then a goal distance uniformly among those that
occur in its state space, then a state at that distance uniformly (the C++ sampler does these two
steps), with its h* as the regression target. Dead ends (h* = inf) are never sampled: the sampler
draws among finite distances only. Each sample is turned into a pair (X, X') of the same state and
goal under two object renamings:

* ``rename-one``: X keeps a fixed renaming (object i -> token i), X' is random;
* ``rename-both``: both random;
* ``off``: only X, with a random renaming (names are always fully randomised in training).

With ``ranking`` on, each sampled state that has both an optimal successor (h* one less) and a
non-optimal one (h* not less, or a dead end) also contributes one of each, drawn at random and
renamed like X, as a *sibling pair* for the ranking loss (``symt.train``): greedy best-first search
needs the optimal successor to score below its siblings more than it needs exact values. Siblings
with a finite h* are regression targets too.

Every batch is a pure function of ``(seed, step)``, which makes ``--resume`` exact.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from .errors import StateLimitError, SymtError
from .pddl import Domain, GroundTask, ground, parse_domain, parse_problem
from .statespace import StateSpace, expand
from .tokens import (
    EncodedTask,
    Signature,
    check_vocabulary,
    collate,
    domain_signature,
    encode_task,
    identity_assignment,
    rename,
)

RENAME_MODES = ("rename-one", "rename-both", "off")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any tuple of values (stable across runs and platforms)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@dataclass
class TaskData:
    name: str
    split: str
    size: int
    problem_file: Path
    encoded: EncodedTask
    space: StateSpace | None
    """None when the state space is larger than the expansion limit (no h* available)."""

    @property
    def task(self) -> GroundTask:
        return self.encoded.task


@dataclass
class Dataset:
    """The tasks of a generated dataset folder (``symt generate``), grounded and expanded."""

    root: Path
    domain: Domain
    signature: Signature
    tasks: dict[str, list[TaskData]]

    def split(self, name: str) -> list[TaskData]:
        return self.tasks.get(name, [])


def load_dataset(
    root: Path,
    splits: Iterable[str] = ("train", "validation"),
    max_states: int = 2_000_000,
    vocab_size: int = 123,
    expand_splits: Iterable[str] = ("train", "validation"),
    progress: bool = True,
) -> Dataset:
    """Ground every task of ``splits``; expand those of ``expand_splits`` (training must fit)."""
    manifest_path = root / "manifest.json"
    if not manifest_path.exists():
        raise SymtError(f"{root}: no manifest.json (make one with `symt generate`)")
    manifest = json.loads(manifest_path.read_text())
    domain = parse_domain(root / "domain.pddl")
    signature = domain_signature(domain)
    wanted = set(splits)
    expand_set = set(expand_splits)
    entries = [e for e in manifest if e["split"] in wanted]
    tasks: dict[str, list[TaskData]] = {}
    for entry in tqdm(entries, desc=f"loading {root.name}", unit="task", disable=not progress):
        problem_file = root / entry["file"]
        task = ground(domain, parse_problem(problem_file, domain))
        check_vocabulary(len(task.objects), vocab_size, f"task {problem_file}")
        space = None
        if entry["split"] in expand_set:
            try:
                space = expand(task, max_states=max_states)
            except StateLimitError:
                if entry["split"] == "train":
                    raise SymtError(
                        f"training task {problem_file} has more than {max_states:,} states; "
                        "training needs the full state space (raise --max-states or drop the task)"
                    ) from None
        tasks.setdefault(entry["split"], []).append(
            TaskData(entry["name"], entry["split"], int(entry["size"]), problem_file,
                     encode_task(task, signature, domain), space)
        )
    if not tasks.get("train") and "train" in wanted:
        raise SymtError(f"{root}: the dataset has no training tasks")
    return Dataset(root, domain, signature, tasks)


def random_tokens(rng: np.random.Generator, count: int, vocab_size: int) -> np.ndarray:
    """``count`` distinct object tokens from ``0..vocab_size-1``, uniformly at random."""
    if vocab_size <= 4096:
        # The draw that table-vocabulary recipes were trained with; kept so that they reproduce.
        return rng.permutation(vocab_size)[:count]
    return rng.choice(vocab_size, size=count, replace=False)


@dataclass
class Batch:
    pred: torch.Tensor
    args: torch.Tensor
    mask: torch.Tensor
    target: torch.Tensor
    """h* of every row: the B sampled states first, then the sibling rows (``inf`` for dead ends)."""
    renamed: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None
    """(pred, args, mask) of X' for the B sampled states, same positions; None without contrast."""
    sibling_pairs: torch.Tensor | None = None
    """[K, 2] row indices (optimal successor, other successor) for the ranking loss."""

    @property
    def num_sampled(self) -> int:
        """B: the rows that are sampled states (the rest are siblings)."""
        return self.target.shape[0] - (0 if self.sibling_pairs is None else 2 * self.sibling_pairs.shape[0])

    def to(self, device: torch.device) -> Batch:
        move = lambda t: t.to(device, non_blocking=True)  # noqa: E731
        return Batch(move(self.pred), move(self.args), move(self.mask), move(self.target),
                     tuple(move(t) for t in self.renamed) if self.renamed else None,
                     move(self.sibling_pairs) if self.sibling_pairs is not None else None)


class PairSampler:
    """Draws training batches of (X, X', h*) as the paper describes."""

    def __init__(self, tasks: list[TaskData], vocab_size: int, mode: str, seed: int, ranking: bool = False):
        if mode not in RENAME_MODES:
            raise SymtError(f"unknown rename mode '{mode}' (choose from {', '.join(RENAME_MODES)})")
        self.tasks = [t for t in tasks if t.space is not None and t.space.max_finite_hstar >= 0]
        if not self.tasks:
            raise SymtError("no training task has a reachable goal")
        self.vocab_size = vocab_size
        self.mode = mode
        self.seed = seed
        self.ranking = ranking

    def sibling_pair(self, space: StateSpace, state: int, rng: np.random.Generator) -> tuple[int, int] | None:
        """(an optimal successor, a non-optimal successor) of ``state``, or None if it lacks either."""
        distance = space.hstar[state]
        if distance <= 0:
            return None
        offsets = space.transition_offsets
        targets = space.transition_targets[offsets[state] : offsets[state + 1]]
        optimal = space.hstar[targets] == distance - 1
        good, bad = targets[optimal], targets[~optimal]
        if len(good) == 0 or len(bad) == 0:
            return None
        return int(good[rng.integers(len(good))]), int(bad[rng.integers(len(bad))])

    def batch(self, step: int, batch_size: int) -> Batch:
        rng = np.random.default_rng(derive_seed(self.seed, "batch", step))
        task_ids = rng.integers(len(self.tasks), size=batch_size)
        rows, rows_renamed, targets = [], [], []
        sibling_rows: list[np.ndarray] = []
        sibling_targets: list[float] = []
        for slot, task_id in enumerate(task_ids):
            data = self.tasks[task_id]
            space = data.space
            assert space is not None
            state = space.sampler(derive_seed(self.seed, "state", step, slot)).sample_state()
            state_rows = data.encoded.state_rows(space.state_facts(state))
            n = data.encoded.num_objects
            if self.mode == "rename-one":
                first = identity_assignment(n)
            else:
                first = random_tokens(rng, n, self.vocab_size)
            rows.append(rename(state_rows, first, self.vocab_size))
            if self.mode != "off":
                second = random_tokens(rng, n, self.vocab_size)
                rows_renamed.append(rename(state_rows, second, self.vocab_size))
            targets.append(float(space.hstar[state]))
            pair = self.sibling_pair(space, state, rng) if self.ranking else None
            if pair is not None:
                for sibling in pair:
                    sibling_rows.append(rename(data.encoded.state_rows(space.state_facts(sibling)),
                                               first, self.vocab_size))
                    sibling_targets.append(float(space.hstar[sibling]))
        # One collate for X, siblings and X', so that all share one padded length.
        pred, args, mask = collate(rows + sibling_rows + rows_renamed, self.vocab_size)
        primary = len(rows) + len(sibling_rows)
        renamed = (pred[primary:], args[primary:], mask[primary:]) if rows_renamed else None
        pred, args, mask = pred[:primary], args[:primary], mask[:primary]
        pairs = None
        if self.ranking:
            first_row = len(rows) + 2 * np.arange(len(sibling_rows) // 2)
            pairs = torch.from_numpy(np.stack([first_row, first_row + 1], axis=1).reshape(-1, 2))
        target = torch.tensor(targets + sibling_targets, dtype=torch.float32)
        return Batch(pred, args, mask, target, renamed, pairs)

    def hstar_statistics(self, samples: int = 4096) -> tuple[float, float]:
        """Mean and variance of h* under the sampling distribution (for scaling and schedules)."""
        values = []
        for i, data in enumerate(self.tasks):
            space = data.space
            assert space is not None
            states = space.sampler(derive_seed(self.seed, "stats", i)).sample_states(
                max(1, samples // len(self.tasks))
            )
            values.append(space.hstar[states])
        all_values = np.concatenate(values)
        return float(all_values.mean()), float(all_values.var())


def fixed_validation_batches(
    tasks: list[TaskData], vocab_size: int, seed: int, samples: int, batch_size: int
) -> list[Batch]:
    """A fixed sample of validation states (same for every epoch), randomly renamed, with sibling
    pairs (rows after ``num_sampled``) for the ranking accuracy."""
    expandable = [t for t in tasks if t.space is not None and t.space.max_finite_hstar >= 0]
    if not expandable:
        return []
    sampler = PairSampler(expandable, vocab_size, "off", derive_seed(seed, "validation"), ranking=True)
    return [sampler.batch(i, batch_size) for i in range(max(1, samples // batch_size))]
