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
renamed alike by a fresh random renaming, as a *sibling pair* for the ranking loss
(``symt.training.trainer``): greedy best-first search needs the optimal successor to score below its
siblings more than it needs exact values. Siblings with a finite h* are regression targets too.

Training tasks too large to expand can be labelled by a plan instead (``symt ipc-dataset``; the
manifest's ``labels``): ``optimal-plan`` (from A* with an admissible heuristic) labels the i-th
state of an n-step plan with n - i, which is its h*; ``satisficing-plan`` labels it with an upper
bound on h*, which the regression treats as one (only predictions above it are penalised:
``Batch.upper_bound``). The successors of plan states that are not the plan's next state are
siblings without a label (``nan``, no regression); only optimal plans give sibling pairs, because
there the plan's next state is at least as close to the goal as any sibling, while a satisficing
plan's next step may be worse than a sibling. Sampling: with probability ``plan_weight`` a batch
slot draws a plan-labelled task, otherwise an exhaustive one (each uniformly), and then a plan
position uniformly — the plan analogue of the uniform goal distance.

With ``dead_end_bound`` on, a dead-end sibling (``inf``) is no longer left to the ranking alone: it
is labelled with its task's largest finite h* plus one as a *lower bound* (``Batch.lower_bound``:
only predictions below it are penalised). A dead end's true h* is infinite, so the bound is exact as
a bound; it tells the model that a dead end lies beyond every state of its task that can still
reach the goal, which the ranking's one-step margin over the optimal sibling does not. Domains
where most reachable states are dead ends (IPC Floortile 93.7 %, Sokoban 81.5 %) have most of
their sibling pairs end in one.

With ``goal_phrasing`` p > 0, a sampled exhaustive task is shown with probability p under another
phrasing of its goal with the same reachable goal states (:mod:`symt.phrasing`: implied atoms left
out or added, such as a Blocksworld tower's base ``ontable`` or the top's ``clear``), drawn from a
fixed set of phrasings per task; h* and the sibling pairs are unchanged, so the labels stay exact.
The state, its renamed copy and its siblings share the phrasing.

Every batch is a pure function of ``(seed, step)``, which makes ``--resume`` exact.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from .errors import StateLimitError, SymtError
from .pddl import Domain, GroundTask, ground, parse_domain, parse_problem
from .pddl.validate import read_plan, validate_plan
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
LABELS = ("exhaustive", "optimal-plan", "satisficing-plan")
"""How a manifest entry's states are labelled (``labels``; ``exhaustive`` when absent)."""
DEFAULT_PLAN_WEIGHT = 0.25


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any tuple of values (stable across runs and platforms)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@dataclass
class TaskData:
    """One task of a dataset: its manifest entry, its encoding and, where it was expanded or comes
    with a plan, the labels training and validation read (its state space or its plan)."""

    name: str
    split: str
    size: int
    problem_file: Path
    encoded: EncodedTask
    space: StateSpace | None
    """None when the state space is larger than the expansion limit (no h* available)."""
    plan: PlanLabels | None = None
    """States along a plan, for a training task labelled by a plan instead of its state space."""
    goal_phrasings: list[np.ndarray] = field(default_factory=list)
    """Alternatives to ``encoded.fixed_rows`` that state the goal in other, equivalent ways
    (:func:`attach_goal_phrasings`); empty unless training asks for them."""

    @property
    def task(self) -> GroundTask:
        return self.encoded.task


@dataclass
class PlanLabels:
    """The states of a plan with their remaining plan cost, and the other successors of each."""

    states: list[np.ndarray]
    """Sorted fluent indices of s_0 .. s_n (s_n a goal state)."""
    siblings: list[list[np.ndarray]]
    """For s_0 .. s_{n-1}: the successors other than s_{i+1} (no self-loops, no duplicates)."""
    exact: bool
    """True for an optimal plan: remaining costs are h*; else upper bounds."""
    remaining: np.ndarray
    """float64 for s_0 .. s_n: the cost of the rest of the plan (its length where actions cost 1)."""

    @property
    def length(self) -> int:
        return len(self.states) - 1


def plan_labels(task: GroundTask, plan_file: Path, exact: bool) -> PlanLabels:
    """Simulate ``plan_file`` on ``task``; a clear error when it is not a valid plan."""
    steps = read_plan(plan_file)
    check = validate_plan(task, steps)
    if not check.valid:
        raise SymtError(f"{plan_file}: not a plan for {task.problem_name}: {check.reason}")
    by_label = {(a.name, *a.args): a for a in task.actions}
    state = frozenset(task.init)
    states, siblings = [state], []
    costs = [by_label[label].cost for label in steps]
    for label in steps:
        following = task.apply(by_label[label], state)
        others = {task.apply(task.actions[i], state) for i in task.applicable_actions(state)}
        others -= {state, following}
        siblings.append([np.array(sorted(s), dtype=np.int64) for s in sorted(others, key=sorted)])
        states.append(following)
        state = following
    remaining = np.concatenate([np.cumsum(np.array(costs[::-1], dtype=np.float64))[::-1], [0.0]])
    return PlanLabels([np.array(sorted(s), dtype=np.int64) for s in states], siblings, exact, remaining)


def phrased_fixed_rows(encoded: EncodedTask, goal_fluents: np.ndarray) -> np.ndarray:
    """``encoded.fixed_rows`` with the fluent goal atoms replaced by ``goal_fluents`` (fluent
    indices); static goal atoms, static and type atoms are kept."""
    task = encoded.task
    num_goal = len(task.goal_atoms)
    rest = encoded.fixed_rows[: len(encoded.fixed_rows) - num_goal]
    goal_rows = encoded.fixed_rows[len(rest):]
    static_goal = goal_rows[[atom not in task.fluent_index for atom in task.goal_atoms]]
    fluent_goal = encoded.fluent_rows[np.asarray(goal_fluents, dtype=np.int64)].copy()
    fluent_goal[:, 0] += encoded.signature.num_predicates
    return np.concatenate([rest, static_goal, fluent_goal], axis=0)


def attach_goal_phrasings(tasks: Iterable[TaskData], count: int, seed: int) -> int:
    """Give every expanded task with a reachable goal ``count`` random equivalent phrasings of its
    goal (``TaskData.goal_phrasings``), each a pure function of ``seed`` and the task's name.
    Returns the number of tasks that got phrasings (a task with a negative goal gets none)."""
    from .phrasing import GoalPhrasings

    done = 0
    for data in tasks:
        if data.space is None or data.plan is not None:
            continue
        phrasings = GoalPhrasings.of(data.space)
        if phrasings is None:
            continue
        rng = np.random.default_rng(derive_seed(seed, "goal-phrasing", data.name))
        data.goal_phrasings = [phrased_fixed_rows(data.encoded, phrasings.sample(rng)) for _ in range(count)]
        done += 1
    return done


@dataclass
class Dataset:
    """The tasks of a generated dataset folder (``symt generate``), grounded and expanded."""

    root: Path
    domain: Domain
    signature: Signature
    tasks: dict[str, list[TaskData]]

    def split(self, name: str) -> list[TaskData]:
        """The tasks of split ``name`` (``train``, ``validation``, ...); empty when it has none or
        was not loaded."""
        return self.tasks.get(name, [])


def read_manifest(root: Path) -> list[dict]:
    """The entries of a dataset's ``manifest.json`` (``symt generate``, ``symt ipc-dataset``),
    checked: one error line for a missing, truncated or foreign file, never a traceback."""
    path = Path(root) / "manifest.json"
    if not path.exists():
        raise SymtError(f"{root}: no manifest.json (make one with `symt generate`)")
    try:
        entries = json.loads(path.read_text())
    except UnicodeDecodeError:
        raise SymtError(f"{path}: not a text file; remake the dataset (symt generate --force)") from None
    except json.JSONDecodeError as error:
        raise SymtError(f"{path}: not valid JSON ({error.msg} at line {error.lineno}); the file is damaged "
                        "or cut short: remake the dataset (symt generate --force)") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and {"split", "file"} <= e.keys() for e in entries):
        raise SymtError(f"{path}: not a symt dataset manifest (a list of tasks with 'split' and 'file')")
    return entries


def check_task_file(path: Path, entry: dict) -> None:
    """Refuse a task file that is not the one its manifest entry describes (its ``sha256``, where
    the manifest has one): a file replaced or edited after the dataset was made would be trained
    on with the manifest's optimal lengths and labels of another task."""
    expected = entry.get("sha256")
    if expected is None:
        return
    try:
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise SymtError(f"{path}: cannot read a task of the dataset ({error.strerror})") from None
    if actual != expected:
        raise SymtError(f"{path}: differs from the task the dataset's manifest describes (sha256); it was "
                        "changed after the dataset was made: remake the dataset (symt generate --force)")


def load_dataset(
    root: Path,
    splits: Iterable[str] = ("train", "validation"),
    max_states: int = 2_000_000,
    vocab_size: int = 123,
    expand_splits: Iterable[str] = ("train", "validation"),
    progress: bool = True,
    achieved_goals: bool = False,
) -> Dataset:
    """Ground every task of ``splits``; expand those of ``expand_splits`` (training must fit).
    ``achieved_goals``: encode the tasks for a model that marks achieved goals (``symt.tokens``)."""
    manifest = read_manifest(root)
    domain = parse_domain(root / "domain.pddl")
    signature = dataclasses.replace(domain_signature(domain), achieved_goals=achieved_goals)
    wanted = set(splits)
    expand_set = set(expand_splits)
    entries = [e for e in manifest if e["split"] in wanted]
    tasks: dict[str, list[TaskData]] = {}
    for entry in tqdm(entries, desc=f"loading {root.name}", unit="task", disable=not progress):
        problem_file = root / entry["file"]
        check_task_file(problem_file, entry)
        task = ground(domain, parse_problem(problem_file, domain))
        check_vocabulary(len(task.objects), vocab_size, f"task {problem_file}")
        space = None
        labels = entry.get("labels", "exhaustive")
        if labels not in LABELS:
            raise SymtError(f"{root / 'manifest.json'}: task {entry['name']} has unknown labels '{labels}' "
                            f"(choose from {', '.join(LABELS)})")
        if labels != "exhaustive":
            plan = plan_labels(task, root / entry["plan_file"], exact=labels == "optimal-plan")
            tasks.setdefault(entry["split"], []).append(
                TaskData(entry["name"], entry["split"], int(entry["size"]), problem_file,
                         encode_task(task, signature, domain), None, plan))
            continue
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
    ``dead_end_bound``); None: none is."""

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
                 goal_phrasing: float = 0.0, length_buckets: int = 1, dead_end_bound: bool = False):
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
        rows, rows_renamed, targets, upper = [], [], [], []
        sibling_rows: list[np.ndarray] = []
        sibling_targets: list[float] = []
        sibling_bounds: list[bool] = []
        for slot, data in enumerate(chosen):
            fixed = data.encoded.fixed_rows
            if self.goal_phrasing > 0 and data.goal_phrasings:
                # Drawn only when asked for, so that the batches of runs without it stay as they were.
                rephrase, which = rng.random() < self.goal_phrasing, rng.integers(len(data.goal_phrasings))
                fixed = data.goal_phrasings[which] if rephrase else fixed
            if data.plan is None:
                assert data.space is not None
                position = data.space.sampler(derive_seed(self.seed, "state", step, slot)).sample_state()
                facts, target = data.space.state_facts(position), float(data.space.hstar[position])
            else:  # a plan position uniformly: the plan's analogue of a uniform goal distance
                position = int(rng.integers(data.plan.length + 1))
                facts, target = data.plan.states[position], float(data.plan.remaining[position])
            state_rows = data.encoded.state_rows(facts, fixed)
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
            siblings = self.siblings(data, position, rng)
            # Both siblings share one renaming, drawn afresh: with Rename-One's fixed X naming
            # they would double the share of rows in that naming, and a model that leans on it
            # meets unseen tokens on tasks with more objects than any training task.
            pair_names = random_tokens(rng, n, self.vocab_size) if siblings else first
            for sibling_facts, sibling_target in siblings:
                sibling_rows.append(rename(data.encoded.state_rows(sibling_facts, fixed), pair_names, self.vocab_size))
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
        lower_bound = torch.tensor([False] * len(rows) + sibling_bounds) if self.dead_end_bound else None
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
