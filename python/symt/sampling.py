"""Training batches for SymT-E (paper, "Training data" and "Contrastive objective"), drawn from
the tasks :mod:`symt.data` loads.

A sample: a training task uniformly at random, then a goal distance uniformly among those that
occur in its state space, then a state at that distance uniformly (the C++ sampler does these two
steps), with its h* as the regression target. Dead ends (h* = inf) are not sampled so (the sampler
draws among finite distances only), only by ``dead_end_states`` below. Each sample is turned into a pair (X, X') of the same state and
goal under two object renamings:

* ``rename-one``: X keeps a fixed renaming (object i -> token i), X' is random;
* ``rename-both``: both random;
* ``off``: only X, with a random renaming (names are always fully randomised in training).

With ``ranking`` on, each sampled state that has both an optimal successor (h* one less) and a
non-optimal one (h* not less, or a dead end) also contributes one of each, drawn at random and
renamed alike by a fresh random renaming, as a *sibling pair* for the ranking loss
(``symt.training.trainer``): greedy best-first search needs the optimal successor to score below its
siblings more than it needs exact values. Siblings with a finite h* are regression targets too.

Plan-labelled tasks (:class:`symt.data.PlanLabels`): a satisficing plan's labels are upper bounds,
which the regression treats as such (only predictions above them are penalised:
``Batch.upper_bound``). Only optimal plans give sibling pairs, because there the plan's next state
is at least as close to the goal as any sibling, while a satisficing plan's next step may be worse
than a sibling. Sampling: with probability ``plan_weight`` a batch slot draws a plan-labelled task,
otherwise an exhaustive one (each uniformly), and then a plan position uniformly — the plan
analogue of the uniform goal distance.

With ``dead_end_bound`` on, a dead-end sibling (``inf``) is no longer left to the ranking alone: it
is labelled with its task's largest finite h* plus one as a *lower bound* (``Batch.lower_bound``:
only predictions below it are penalised). A dead end's true h* is infinite, so the bound is exact as
a bound; it tells the model that a dead end lies beyond every state of its task that can still
reach the goal, which the ranking's one-step margin over the optimal sibling does not. Domains
where most reachable states are dead ends (IPC Floortile 93.7 %, Sokoban 81.5 %) have most of
their sibling pairs end in one.

With ``goal_phrasing`` p > 0, a sampled exhaustive task is shown with probability p under another
phrasing of its goal with the same reachable goal states (``TaskData.goal_phrasings``), drawn from a
fixed set of phrasings per task; h* and the sibling pairs are unchanged, so the labels stay exact.
The state, its renamed copy and its siblings share the phrasing.

With ``dead_end_states`` q > 0, a batch slot that drew an exhaustive task with dead ends samples,
with probability q, one of its dead ends uniformly instead of a state that reaches the goal, under
the same lower bound as a dead-end sibling (its task's largest finite h* plus one). Siblings alone
show the model only the dead ends one step from a state that can still reach the goal; a search
that follows a relaxation's preferred operators past that step meets the dead ends below it
(Spanner: the man at the gate tightening nuts with too few spanners), whose values then fall as
the goal count falls, like a live state's (``benchmarks/results/training/ipc_models.md``).

Every batch is a pure function of ``(seed, step)``, which makes ``--resume`` exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from .data import TaskData, derive_seed
from .errors import SymtError
from .statespace import StateSpace
from .tokens import collate, identity_assignment, rename

RENAME_MODES = ("rename-one", "rename-both", "off")
DEFAULT_PLAN_WEIGHT = 0.25
"""Share of batch slots drawn from plan-labelled tasks when a dataset has both kinds."""


NO_STATES = np.empty(0, dtype=np.int64)
"""An empty list of state ids (a task's dead ends when none are drawn)."""


def random_tokens(rng: np.random.Generator, count: int, vocab_size: int) -> np.ndarray:
    """``count`` distinct object tokens from ``0..vocab_size-1``, uniformly at random."""
    if vocab_size <= 4096:
        # The draw that table-vocabulary recipes were trained with; kept so that they reproduce.
        return rng.permutation(vocab_size)[:count]
    return rng.choice(vocab_size, size=count, replace=False)


@dataclass
class Batch:
    """A training or validation batch: token rows ``pred [R,N]``, ``args [R,N,m]`` and ``mask [R,N]``
    (True for a real atom) of the sampled states and their siblings, with their h* targets, and the
    renamed copies X' for the contrastive loss."""

    pred: torch.Tensor
    args: torch.Tensor
    mask: torch.Tensor
    target: torch.Tensor
    """h* of every row: the B sampled states first, then the sibling rows (``inf``: a dead end,
    ``nan``: unknown; neither is regressed)."""
    renamed: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None
    """(pred, args, mask) of X' for the B sampled states, same positions; None without contrast."""
    sibling_pairs: torch.Tensor | None = None
    """[K, 2] row indices (optimal successor, other successor) for the ranking loss."""
    upper_bound: torch.Tensor | None = None
    """bool per row: the target is only an upper bound on h* (satisficing plans); None: all exact."""
    lower_bound: torch.Tensor | None = None
    """bool per row: the target is only a lower bound on h* (a dead-end sibling under
    ``dead_end_bound``, a sampled dead end under ``dead_end_states``); None: none is."""

    @property
    def num_sampled(self) -> int:
        """B: the rows that are sampled states (the rest are siblings)."""
        return self.target.shape[0] - (0 if self.sibling_pairs is None else 2 * self.sibling_pairs.shape[0])

    def to(self, device: torch.device) -> Batch:
        """A copy of the batch with every tensor on ``device`` (non-blocking copies)."""
        move = lambda t: t.to(device, non_blocking=True)  # noqa: E731
        optional = lambda t: move(t) if t is not None else None  # noqa: E731
        return Batch(move(self.pred), move(self.args), move(self.mask), move(self.target),
                     tuple(move(t) for t in self.renamed) if self.renamed else None,
                     optional(self.sibling_pairs), optional(self.upper_bound), optional(self.lower_bound))

    def pin_memory(self) -> Batch:
        """The batch in page-locked memory (torch's DataLoader calls this), so that the copy to a
        GPU can overlap the step before it."""
        pin = lambda t: t.pin_memory() if t is not None else None  # noqa: E731
        return Batch(pin(self.pred), pin(self.args), pin(self.mask), pin(self.target),
                     tuple(pin(t) for t in self.renamed) if self.renamed else None,
                     pin(self.sibling_pairs), pin(self.upper_bound), pin(self.lower_bound))


def length_groups(tasks: list[TaskData], count: int) -> list[np.ndarray]:
    """Indices of ``tasks`` ordered by their number of atoms (fixed plus fluent), in ``count``
    groups of about equal size (none for ``count`` 1: no grouping)."""
    if count < 1:
        raise SymtError(f"the number of length buckets must be at least 1 (got {count})")
    if count == 1 or not tasks:
        return []
    lengths = [len(t.encoded.fixed_rows) + len(t.encoded.fluent_rows) for t in tasks]
    return [group for group in np.array_split(np.argsort(lengths, kind="stable"), count) if len(group)]


def draw_from_one_group(rng: np.random.Generator, groups: list[np.ndarray], probabilities: np.ndarray,
                        count: int) -> np.ndarray:
    """``count`` task indices from one of ``groups``, chosen with its share of ``probabilities``
    and drawn within it by them: each index has the same chance as a draw from ``probabilities``
    itself, while a batch's tasks differ less in length (less padding on a GPU)."""
    mass = np.array([probabilities[group].sum() for group in groups])
    members = groups[int(rng.choice(len(groups), p=mass / mass.sum()))]
    within = probabilities[members]
    return members[rng.choice(len(members), size=count, p=within / within.sum())]


class PairSampler:
    """Draws training batches of (X, X', h*) as the paper describes."""

    def __init__(self, tasks: list[TaskData], vocab_size: int, mode: str, seed: int, ranking: bool = False,
                 plan_weight: float = DEFAULT_PLAN_WEIGHT, task_size_power: float = 0.0,
                 goal_phrasing: float = 0.0, length_buckets: int = 1, dead_end_bound: bool = False,
                 dead_end_states: float = 0.0):
        if mode not in RENAME_MODES:
            raise SymtError(f"unknown rename mode '{mode}' (choose from {', '.join(RENAME_MODES)})")
        self.tasks = [t for t in tasks if t.space is not None and t.space.max_finite_hstar >= 0]
        self.plan_tasks = [t for t in tasks if t.plan is not None]
        if not self.tasks and not self.plan_tasks:
            raise SymtError("no training task has a reachable goal")
        if not 0 <= plan_weight <= 1:
            raise SymtError(f"the plan weight must lie in [0, 1] (got {plan_weight})")
        self.plan_weight = plan_weight if self.tasks and self.plan_tasks else float(not self.tasks)
        if task_size_power < 0:
            raise SymtError(f"the task size power must not be negative (got {task_size_power})")
        # The paper draws training tasks uniformly; a positive power draws a task with probability
        # proportional to size**power, so that the largest training tasks, the nearest to the
        # sizes a model is tested on, are seen more often.
        self.task_size_power = task_size_power
        weights = np.array([max(1, t.size) for t in self.tasks], dtype=np.float64) ** task_size_power
        self.task_probabilities = weights / weights.sum() if self.tasks else None
        if length_buckets < 1:
            raise SymtError(f"the number of length buckets must be at least 1 (got {length_buckets})")
        # Length buckets (GPU training): the tasks, ordered by their number of atoms, in
        # ``length_buckets`` groups of about equal size; a batch draws all its exhaustive tasks from
        # one group, chosen with the group's share of the drawing probability, so each sample is
        # drawn from the same distribution as without buckets while a batch's rows differ less in
        # length and pad less.
        self.buckets = length_groups(self.tasks, length_buckets)
        if not 0 <= goal_phrasing <= 1:
            raise SymtError(f"the goal-phrasing probability must lie in [0, 1] (got {goal_phrasing})")
        self.goal_phrasing = goal_phrasing
        self.dead_end_bound = dead_end_bound
        if not 0 <= dead_end_states <= 1:
            raise SymtError(f"the share of dead-end states must lie in [0, 1] (got {dead_end_states})")
        self.dead_end_states = dead_end_states
        # Per exhaustive task, its dead ends' state ids (found once, when first drawn).
        self._dead_ends: dict[int, np.ndarray] = {}
        self.vocab_size = vocab_size
        self.mode = mode
        self.seed = seed
        self.ranking = ranking

    @staticmethod
    def sibling_pair(space: StateSpace, state: int, rng: np.random.Generator) -> tuple[int, int] | None:
        """(an optimal successor, a non-optimal successor) of ``state``, or None if it lacks either."""
        if space.steps[state] <= 0:
            return None
        offsets = space.transition_offsets
        targets = space.transition_targets[offsets[state] : offsets[state + 1]]
        optimal = space.optimal_transitions(state)
        good, bad = targets[optimal], targets[~optimal]
        if len(good) == 0 or len(bad) == 0:
            return None
        chosen = int(good[rng.integers(len(good))])
        if len(space.action_costs):
            # With action costs a successor off every cheapest plan may still be nearer the goal
            # (reached by a dear action): only those at least one unit farther than the chosen
            # one make a pair that the margin-1 ranking loss and the regression agree on. Without
            # costs every non-optimal successor is (h* is consistent), and nothing is filtered.
            bad = bad[space.hstar[bad] >= space.hstar[chosen] + 1]
            if len(bad) == 0:
                return None
        return chosen, int(bad[rng.integers(len(bad))])

    def siblings(self, data: TaskData, position: int, rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
        """The sibling pair [(facts, label) of the closer successor, (facts, label) of the other] of
        the state at ``position`` (a state id, or a plan position), or [] when there is none."""
        if not self.ranking:
            return []
        if data.plan is None:
            space = data.space
            assert space is not None
            pair = self.sibling_pair(space, position, rng)
            return [(space.state_facts(s), float(space.hstar[s])) for s in pair] if pair else []
        plan = data.plan
        if not plan.exact or position == plan.length or not plan.siblings[position]:
            return []
        other = plan.siblings[position][rng.integers(len(plan.siblings[position]))]
        return [(plan.states[position + 1], float(plan.remaining[position + 1])), (other, math.nan)]

    def dead_ends(self, data: TaskData) -> np.ndarray:
        """The state ids of ``data``'s dead ends (h* = inf), increasing."""
        found = self._dead_ends.get(id(data))
        if found is None:
            assert data.space is not None
            found = self._dead_ends[id(data)] = np.flatnonzero(~np.isfinite(data.space.hstar))
        return found

    def task_ids(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` indices into the exhaustive tasks: uniform (the paper's draw) or size-weighted."""
        if self.buckets:
            assert self.task_probabilities is not None
            return draw_from_one_group(rng, self.buckets, self.task_probabilities, count)
        if self.task_size_power == 0 or not self.tasks:
            # A dataset of plan-labelled tasks alone still draws here, to keep its batches as before.
            return rng.integers(max(1, len(self.tasks)), size=count)
        return rng.choice(len(self.tasks), size=count, p=self.task_probabilities)

    def batch(self, step: int, batch_size: int) -> Batch:
        """The batch of ``step``: ``batch_size`` sampled states (with X' and sibling pairs as the
        rename mode and ``ranking`` ask), a pure function of ``(seed, step)``."""
        rng = np.random.default_rng(derive_seed(self.seed, "batch", step))
        if self.plan_weight == 0:  # the paper's sampler, draw for draw
            chosen = [self.tasks[i] for i in self.task_ids(rng, batch_size)]
        else:
            from_plan = rng.random(batch_size) < self.plan_weight
            plan_ids = rng.integers(len(self.plan_tasks), size=batch_size)
            ids = self.task_ids(rng, batch_size)
            chosen = [self.plan_tasks[p] if f else self.tasks[i] for f, p, i in zip(from_plan, plan_ids, ids)]
        rows, rows_renamed, targets, upper, lower = [], [], [], [], []
        sibling_rows: list[np.ndarray] = []
        sibling_targets: list[float] = []
        sibling_bounds: list[bool] = []
        for slot, data in enumerate(chosen):
            fixed, fluent = data.encoded.fixed_rows, None
            if self.goal_phrasing > 0 and data.goal_phrasings:
                # Drawn only when asked for, so that the batches of runs without it stay as they were.
                rephrase, which = rng.random() < self.goal_phrasing, rng.integers(len(data.goal_phrasings))
                if rephrase:
                    fixed = data.goal_phrasings[which]
                    # A model that marks achieved goals reads them by the goal it is shown.
                    fluent = data.goal_phrasing_fluents[which] if data.goal_phrasing_fluents else None
            dead_end = False
            if data.plan is None:
                assert data.space is not None
                # Drawn only when asked for, so that the batches of runs without it stay as they were.
                dead_ends = self.dead_ends(data) if self.dead_end_states > 0 else NO_STATES
                dead_end = len(dead_ends) > 0 and rng.random() < self.dead_end_states
                if dead_end:
                    position = int(dead_ends[rng.integers(len(dead_ends))])
                    target = float(data.space.max_finite_hstar + 1)  # a lower bound: the h* is inf
                else:
                    position = data.space.sampler(derive_seed(self.seed, "state", step, slot)).sample_state()
                    target = float(data.space.hstar[position])
                facts = data.space.state_facts(position)
            else:  # a plan position uniformly: the plan's analogue of a uniform goal distance
                position = int(rng.integers(data.plan.length + 1))
                facts, target = data.plan.states[position], float(data.plan.remaining[position])
            state_rows = data.encoded.state_rows(facts, fixed, fluent)
            n = data.encoded.num_objects
            if self.mode == "rename-one":
                first = identity_assignment(n)
            else:
                first = random_tokens(rng, n, self.vocab_size)
            rows.append(rename(state_rows, first, self.vocab_size))
            if self.mode != "off":
                second = random_tokens(rng, n, self.vocab_size)
                rows_renamed.append(rename(state_rows, second, self.vocab_size))
            targets.append(target)
            upper.append(data.plan is not None and not data.plan.exact)
            lower.append(dead_end)
            siblings = [] if dead_end else self.siblings(data, position, rng)
            # Both siblings share one renaming, drawn afresh: with Rename-One's fixed X naming
            # they would double the share of rows in that naming, and a model that leans on it
            # meets unseen tokens on tasks with more objects than any training task.
            pair_names = random_tokens(rng, n, self.vocab_size) if siblings else first
            for sibling_facts, sibling_target in siblings:
                sibling_rows.append(rename(data.encoded.state_rows(sibling_facts, fixed, fluent), pair_names,
                                               self.vocab_size))
                bound = self.dead_end_bound and sibling_target == math.inf
                if bound:
                    assert data.space is not None  # plan siblings are never dead ends (nan)
                    sibling_target = float(data.space.max_finite_hstar + 1)
                sibling_targets.append(sibling_target)
                sibling_bounds.append(bound)
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
        # Siblings are never upper bounds: only optimal plans give them.
        upper_bound = torch.tensor(upper + [False] * len(sibling_rows)) if self.plan_tasks else None
        lower_bound = (torch.tensor(lower + sibling_bounds) if self.dead_end_bound or self.dead_end_states > 0
                       else None)
        return Batch(pred, args, mask, target, renamed, pairs, upper_bound, lower_bound)

    def hstar_statistics(self, samples: int = 4096) -> tuple[float, float]:
        """Mean and variance of h* under the sampling distribution (for scaling and schedules)."""
        values = []
        exhaustive_samples = round(samples * (1 - self.plan_weight))
        for i, data in enumerate(self.tasks):
            space = data.space
            assert space is not None
            share = (exhaustive_samples // len(self.tasks) if self.task_size_power == 0
                     else round(exhaustive_samples * float(self.task_probabilities[i])))
            states = space.sampler(derive_seed(self.seed, "stats", i)).sample_states(max(1, share))
            values.append(space.hstar[states])
        if self.plan_tasks and self.plan_weight > 0:
            rng = np.random.default_rng(derive_seed(self.seed, "plan-stats"))
            plans = [t.plan for t in self.plan_tasks if t.plan is not None]
            lengths = np.array([plan.length for plan in plans])
            drawn = rng.integers(len(plans), size=max(1, samples - exhaustive_samples))
            # A uniform number of actions left of a uniform plan, and what they cost.
            left = rng.integers(lengths[drawn] + 1)
            values.append(np.array([plans[k].remaining[lengths[k] - r] for k, r in zip(drawn, left, strict=True)],
                                   dtype=np.float64))
        all_values = np.concatenate(values)
        return float(all_values.mean()), float(all_values.var())


def fixed_validation_batches(
    tasks: list[TaskData], vocab_size: int, seed: int, samples: int, batch_size: int
) -> list[Batch]:
    """A fixed sample of validation states (same for every epoch), randomly renamed, with sibling
    pairs (rows after ``num_sampled``) for the ranking accuracy: from the expanded tasks, and the
    states along optimal plans (exact h*; a plan's next state against another successor, which is
    at best as near the goal, so a tie there counts as a miss)."""
    usable = [t for t in tasks if (t.space is not None and t.space.max_finite_hstar >= 0)
              or (t.plan is not None and t.plan.exact)]
    if not usable:
        return []
    sampler = PairSampler(usable, vocab_size, "off", derive_seed(seed, "validation"), ranking=True)
    return [sampler.batch(i, batch_size) for i in range(max(1, samples // batch_size))]
