"""Training data for SymT-E on disk: a dataset folder (``symt generate``, ``symt ipc-dataset``)
read, checked, grounded and labelled.

A task of the ``train`` and ``validation`` splits is expanded (its whole state space, with h* for
every state: :mod:`symt.statespace`). Training tasks too large to expand can be labelled by a plan
instead (the manifest's ``labels``): ``optimal-plan`` (from A* with an admissible heuristic) labels
the i-th state of an n-step plan with n - i, which is its h*; ``satisficing-plan`` labels it with an
upper bound on h*. The successors of plan states that are not the plan's next state are kept as
siblings without a label (:class:`PlanLabels`). A task can also carry other phrasings of its goal
with the same reachable goal states (:func:`attach_goal_phrasings`, :mod:`symt.phrasing`).

How training draws batches from these tasks: :mod:`symt.sampling`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .errors import StateLimitError, SymtError
from .pddl import Domain, GroundTask, ground, parse_domain, parse_problem
from .pddl.validate import read_plan, validate_plan
from .statespace import StateSpace, expand
from .tokens import (
    EncodedTask,
    Signature,
    check_vocabulary,
    domain_signature,
    encode_task,
)

LABELS = ("exhaustive", "optimal-plan", "satisficing-plan")
"""How a manifest entry's states are labelled (``labels``; ``exhaustive`` when absent)."""


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
    goal_phrasing_fluents: list[np.ndarray] = field(default_factory=list)
    """For a model that marks achieved goals, the fluent rows of each of :attr:`goal_phrasings`
    (``EncodedTask.fluent_rows_marked_for``: the phrased goal's atoms marked); empty otherwise."""

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
    fluent_goal = encoded.unmarked_fluent_rows[np.asarray(goal_fluents, dtype=np.int64)]
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
        goals = [phrasings.sample(rng) for _ in range(count)]
        data.goal_phrasings = [phrased_fixed_rows(data.encoded, goal) for goal in goals]
        if data.encoded.signature.achieved_goals:
            data.goal_phrasing_fluents = [data.encoded.fluent_rows_marked_for(goal) for goal in goals]
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
