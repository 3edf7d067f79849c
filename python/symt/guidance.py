"""Greedy heuristic guidance: SymT-E plans without search, as in the paper (Appendix D).

From the current state apply the applicable action whose successor has the lowest predicted h
(ties: the first action in the task's order), no backtracking, at most 500 steps. One deviation
from the paper's pseudo-code: actions whose successor *is* the current state (e.g. Gripper's
``(move rooma rooma)``, allowed by the domain) are skipped. Picking one can never make progress
and, being deterministic, would repeat it forever.

A run that comes back to a state it has been in stops there as failed ("loop"): the model's values
are a function of the state and ties go to the first action, so from a revisited state the run
would take the same steps again and again until the step limit. The verdict is the paper's; only
the wasted evaluations are saved (on large Visitall grids a looping run costs minutes).

Used by the trainer (validation coverage) and by :mod:`symt.plan` (the ``heuristic`` strategy).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import torch

from .errors import SymtError
from .formats import CACHE_FIXED, CACHE_NONE, CACHE_STATIC
from .pddl import Domain, GroundTask
from .tokens import (
    EncodedTask,
    Signature,
    check_vocabulary,
    collate,
    encode_task,
    rename,
)

Evaluator = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]
"""(pred [B,N], args [B,N,m], mask [B,N]) -> h [B]."""

MAX_STEPS = 500
"""The paper's cap on the actions of a search-free plan."""


@dataclass
class PlanResult:
    """The outcome of greedy guidance on one task: the actions taken (indices into the task's
    actions), whether they reach the goal, why generation stopped, and how many states the model
    valued."""

    actions: list[int]
    solved: bool
    reason: str
    """Why generation stopped: "goal reached", "step limit (500) reached", "loop: ...",
    "dead end: ..."."""
    evaluations: int

    def labels(self, task: GroundTask) -> list[str]:
        """The plan's actions as labels of ``task`` (``(name arg ..)``, as plan files write them)."""
        return [task.actions[a].label() for a in self.actions]


BATCH_SCORES = 1 << 24
"""At most this many attention scores (rows × padded length²) in one forward pass of
:meth:`StateEvaluator.value_rows`. A pass holds its attention scores and bias, [rows, heads or
channels, length, length] floats, many times over: 200 rows of a 121-cell Visitall state (484
atoms) took 3.6 GB with an object-distance model in one pass and 1.1 GB in passes of this
budget (64 MiB a head or channel); greedy guidance over every second extrapolation task in
lockstep (110 tasks, about 400 rows a step) held 14–16 GiB before."""


class StateEvaluator:
    """Evaluates many states of one task in one forward pass (identity object renaming).

    ``fluent_only``: ``evaluate`` takes a state's fluent atoms alone, because it holds the task's
    static, type and goal atoms already (a context-attention model's cached context), or its
    fluent atoms and ``state_fixed`` (the goal atoms, for a model that caches only static and type
    atoms).
    """

    def __init__(self, encoded: EncodedTask, evaluate: Evaluator, vocab_size: int,
                 device: torch.device | str = "cpu", batch_size: int = 512, fluent_only: bool = False,
                 state_fixed: np.ndarray | None = None, max_scores: int = BATCH_SCORES):
        self.encoded = encoded
        self.evaluate = evaluate
        self.vocab_size = vocab_size
        self.device = torch.device(device)
        self.batch_size = batch_size
        self.max_scores = max_scores
        self.assignment = encoded.assignment
        self.fluent_only = fluent_only
        self.state_fixed = state_fixed
        self.count = 0

    def rows(self, state: frozenset[int]) -> np.ndarray:
        """The token rows of ``state`` (its true fluent indices) under the task's canonical object tokens: its
        fluent atoms (and ``state_fixed``) with ``fluent_only``, else with the task's fixed atoms."""
        facts = sorted(state)
        if not self.fluent_only:
            rows = self.encoded.state_rows(facts)
        elif self.state_fixed is None:
            rows = self.encoded.fluent_rows[facts]
        else:
            rows = np.concatenate([self.encoded.fluent_rows[facts], self.state_fixed], axis=0)
        return rename(rows, self.assignment, self.vocab_size)

    def __call__(self, states: list[frozenset[int]]) -> np.ndarray:
        self.count += len(states)
        return self.value_rows([self.rows(state) for state in states])

    @torch.inference_mode()
    def value_rows(self, rows: list[np.ndarray]) -> np.ndarray:
        """The model's values of token rows (:meth:`rows`, of this or another task of the same
        model), in forward passes of at most ``batch_size`` rows and ``max_scores`` attention
        scores (rows × the longest row's length², at least one row a pass)."""
        values: list[np.ndarray] = []
        longest = max((len(row) for row in rows), default=1)
        per_pass = max(1, min(self.batch_size, self.max_scores // max(1, longest) ** 2))
        for start in range(0, len(rows), per_pass):
            pred, args, mask = (t.to(self.device) for t in collate(rows[start : start + per_pass], self.vocab_size))
            values.append(self.evaluate(pred, args, mask).float().cpu().numpy())
        return np.concatenate(values) if values else np.zeros(0)


def loop_reason(first: int, now: int) -> str:
    """Why a search-free run stopped on a revisit: the state after step ``now`` is the one after
    step ``first`` (0: the initial state)."""
    return (f"loop: the state after step {now} is the one after step {first}; "
            "the same choices would repeat until the step limit")


GOAL_REACHED = "goal reached"


def next_choices(task: GroundTask, state: frozenset[int], steps: int, seen: dict[frozenset[int], int],
                 max_steps: int) -> tuple[str | None, list[int], list[frozenset[int]]]:
    """The stop rules of a search-free run shared by both runners, in order: the goal, the step
    limit, a revisit (``seen``: state -> the step it was first reached at, updated here), a dead
    end. (why it stops, [], []) or (None, the applicable actions that change the state, their
    successors) to choose from."""
    if task.is_goal(state):
        return GOAL_REACHED, [], []
    if steps >= max_steps:
        return f"step limit ({max_steps}) reached", [], []
    if seen.setdefault(state, steps) != steps:
        return loop_reason(seen[state], steps), [], []
    applicable, successors = changing_successors(task, state)
    if not applicable:
        return "dead end: no applicable action", [], []
    return None, applicable, successors


def changing_successors(task: GroundTask, state: frozenset[int]) -> tuple[list[int], list[frozenset[int]]]:
    """The applicable actions of ``state`` whose successor differs from it, and those successors
    (an action that leaves the state as it is can never make progress; see the module notes)."""
    applicable, successors = [], []
    for index in task.applicable_actions(state):
        successor = task.apply(task.actions[index], state)
        if successor != state:
            applicable.append(index)
            successors.append(successor)
    return applicable, successors


def greedy_heuristic_guidance(
    task: GroundTask, evaluator: StateEvaluator, max_steps: int = MAX_STEPS
) -> PlanResult:
    """The paper's Algorithm "Greedy Heuristic Guidance" (no backtracking, no cycle avoidance),
    stopped at its first revisited state with the failure the step limit would report later."""
    state = frozenset(task.init)
    plan: list[int] = []
    seen: dict[frozenset[int], int] = {}
    while True:
        reason, applicable, successors = next_choices(task, state, len(plan), seen, max_steps)
        if reason is not None:
            return PlanResult(plan, reason == GOAL_REACHED, reason, evaluator.count)
        values = evaluator(successors)
        best = int(np.argmin(values))
        plan.append(applicable[best])
        state = successors[best]


def greedy_best_first(task: GroundTask, evaluator: StateEvaluator, max_expansions: int) -> tuple[PlanResult, int]:
    """Eager greedy best-first search on the model's values (Fast Downward's ``eager_greedy``:
    duplicates dropped, ties by insertion order, the successors of an expansion valued in one
    call), at most ``max_expansions`` expansions; (the result, expansions). What the trainer's
    ``coverage_search="gbfs"`` measures: how the model guides the search users run, where greedy
    guidance without backtracking fails on every plateau."""
    start = frozenset(task.init)
    parents: dict[frozenset[int], tuple[frozenset[int], int] | None] = {start: None}

    def plan_to(state: frozenset[int]) -> list[int]:
        actions = []
        while (link := parents[state]) is not None:
            state, action = link
            actions.append(action)
        return actions[::-1]

    if task.is_goal(start):
        return PlanResult([], True, "goal reached", evaluator.count), 0
    queue = [(float(evaluator([start])[0]), 0, start)]
    inserted = 1
    expansions = 0
    while queue:
        if expansions >= max_expansions:
            return PlanResult([], False, f"expansion limit ({max_expansions}) reached", evaluator.count), expansions
        _, _, state = heapq.heappop(queue)
        expansions += 1
        applicable, successors = changing_successors(task, state)
        new = [(action, successor) for action, successor in zip(applicable, successors, strict=True)
               if successor not in parents]
        for action, successor in new:
            parents[successor] = (state, action)
            if task.is_goal(successor):
                return PlanResult(plan_to(successor), True, "goal reached", evaluator.count), expansions
        if new:
            for (_, successor), value in zip(new, evaluator([s for _, s in new]), strict=True):
                heapq.heappush(queue, (float(value), inserted, successor))
                inserted += 1
    return PlanResult([], False, "search space exhausted", evaluator.count), expansions


def greedy_guidance_lockstep(
    tasks: list[GroundTask], evaluators: list[StateEvaluator], max_steps: int = MAX_STEPS,
) -> list[PlanResult]:
    """:func:`greedy_heuristic_guidance` on many tasks at once, for a GPU: every task takes its
    steps in lockstep and the successors of all unfinished tasks are valued in one forward pass
    (evaluators must share one model; a context-attention evaluator, whose cache belongs to its
    task, is called alone). The same choices as one task at a time, up to floating-point
    rounding between batch shapes."""
    states = [frozenset(task.init) for task in tasks]
    seen: list[dict[frozenset[int], int]] = [{} for _ in tasks]
    plans: list[list[int]] = [[] for _ in tasks]
    results: list[PlanResult | None] = [None] * len(tasks)
    while any(result is None for result in results):
        pending: list[tuple[int, list[int], list[frozenset[int]]]] = []
        for i, task in enumerate(tasks):
            if results[i] is not None:
                continue
            reason, applicable, successors = next_choices(task, states[i], len(plans[i]), seen[i], max_steps)
            if reason is not None:
                results[i] = PlanResult(plans[i], reason == GOAL_REACHED, reason, evaluators[i].count)
                continue
            pending.append((i, applicable, successors))
        if not pending:
            break
        shared = [entry for entry in pending if not evaluators[entry[0]].fluent_only]
        values: dict[int, np.ndarray] = {}
        if shared:
            rows = [evaluators[i].rows(state) for i, _, successors in shared for state in successors]
            all_values = evaluators[shared[0][0]].value_rows(rows)
            offset = 0
            for i, _, successors in shared:
                values[i] = all_values[offset : offset + len(successors)]
                offset += len(successors)
                evaluators[i].count += len(successors)
        for i, _, successors in pending:
            if i not in values:
                values[i] = evaluators[i](successors)
        for i, applicable, successors in pending:
            best = int(np.argmin(values[i]))
            plans[i].append(applicable[best])
            states[i] = successors[best]
    return [result for result in results if result is not None]


def exported_state_evaluator(
    module: Evaluator, meta: dict, domain: Domain, task: GroundTask, where: str | None = None,
    device: torch.device | str = "cpu",
) -> StateEvaluator:
    """A :class:`StateEvaluator` of ``task`` for an exported model and its ``symt.json``.

    ``where`` names the task in errors (default: the problem name), e.g. its file. A
    context-attention model's context is encoded here, once, under the caller's precision.
    """
    vocab_size = int(meta["vocab_size"])
    check_vocabulary(len(task.objects), vocab_size, f"task {where or task.problem_name}")
    encoded = encode_task(task, Signature.from_json(meta), domain)
    mode = int(getattr(module, "symt_context_cache", CACHE_NONE))
    if mode == CACHE_NONE:
        return StateEvaluator(encoded, module, vocab_size, device)
    if mode not in (CACHE_FIXED, CACHE_STATIC):
        raise SymtError(f"the model caches its task context in an unknown way (symt_context_cache {mode}); "
                        "a newer symt exported it")
    # A context-attention model (format 4 on): the task's static and type atoms, and its goal atoms
    # unless the model reads them with the state, are encoded once; each state sends its fluent
    # atoms (and the goal atoms), as in the plugin.
    fixed = rename(encoded.fixed_rows, encoded.assignment, vocab_size)
    state_fixed = None
    if mode == CACHE_STATIC:
        # The goal rows go with each state in object indices: StateEvaluator.rows renames them.
        is_goal = encoded.fixed_rows[:, 0] >= encoded.signature.num_predicates
        fixed, state_fixed = fixed[~is_goal], encoded.fixed_rows[is_goal]
    pred, args, _ = collate([fixed], vocab_size)
    with torch.inference_mode():
        cache = module.encode_context(pred[0].to(device), args[0].to(device))
    return StateEvaluator(encoded, partial(module.forward_states, *cache), vocab_size, device, fluent_only=True,
                          state_fixed=state_fixed)


def plan_with_exported_model(
    module: Evaluator, meta: dict, domain: Domain, task: GroundTask, max_steps: int = MAX_STEPS,
    where: str | None = None, precision: str = "fp32",
) -> PlanResult:
    """Greedy heuristic guidance on ``task`` with an exported model and its ``symt.json``.

    ``where`` names the task in errors (default: the problem name), e.g. its file; ``precision``
    is one of :data:`symt.export.PRECISIONS`.
    """
    from .export import precision_context

    with precision_context(precision):
        evaluator = exported_state_evaluator(module, meta, domain, task, where)
        return greedy_heuristic_guidance(task, evaluator, max_steps)
