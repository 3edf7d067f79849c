"""The paper's decoding strategies (Appendix D) over one interface for every plan generator.

A generator opens a :class:`DecoderSession` on a state (encoded with the task's canonical
object tokens, :func:`symt.tokens.canonical_assignment`); ``step(token)`` feeds one token and returns the logits of the next one over
the plan vocabulary (:mod:`.vocab`). On top of that:

* ``greedy``: the most likely token until ``<EOS>``; the plan is then parsed and simulated, and
  fails as malformed, inapplicable or not reaching the goal;
* ``applicable`` (applicability-filtered): only tokens that extend the action being written
  towards an action applicable in the simulated state are allowed; each completed action is
  applied; decoding stops when the simulated state satisfies the goal;
* ``regrounding``: as ``applicable``, but after every completed action the new state is encoded
  afresh and a new one-action sequence is decoded from ``<BOS>``. The next action is then a
  function of the state alone, so two deviations from the paper's pseudo-code, both as in
  SymT-E's greedy guidance (:mod:`symt.plan`): actions whose successor is the state itself
  (Gripper's ``move rooma rooma``) are masked, since choosing one would repeat forever; and a
  revisited state ends decoding at once ("loop"), where the paper's loop would run on to the
  token cap and fail all the same.

Every strategy stops after ``max_tokens`` generated tokens (500, as in the paper).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import SymtError
from ..pddl.task import GroundTask
from ..tokens import EncodedTask
from .vocab import ActionTokenIndex, PlanVocabulary

MAX_TOKENS = 500
STRATEGIES = ("greedy", "applicable", "regrounding", "regrounding-unvisited")
"""``regrounding-unvisited`` is symt's, not the paper's: regrounding that never returns to a state
it has been in (the most likely applicable action whose successor is new), where the paper's
regrounding would cycle to the token cap (here it stops at the first revisit)."""


class ContextFull(Exception):
    """A model's context ran out while generating (PlanGPT's learned positions): decoding stops
    there like at the token cap, with this message as its reason."""


class DecoderSession(Protocol):
    """A plan generator's decoder on one encoded state: fed tokens one at a time, it returns the
    logits of the next."""

    def step(self, token: int) -> np.ndarray:
        """Feed ``token``; the logits of the next token (length ``vocab.num_outputs``). May raise
        :class:`ContextFull`."""
        ...


class PlanGenerator(Protocol):
    """What the decoding strategies need of a plan generator (SymT-ED, PlanGPT): its plan
    vocabulary and a decoder session on a state."""

    vocab: PlanVocabulary
    plan_prefix: int
    """Actions per training target (0: whole plans)."""

    def session(self, encoded: EncodedTask, state: frozenset[int]) -> DecoderSession:
        """A fresh decoder on ``state`` (true fluent indices) of ``encoded``'s task, before
        ``<BOS>``."""
        ...


@dataclass
class GenerationResult:
    """The outcome of decoding a plan: its actions, whether they solve the task, why decoding
    stopped, and how many tokens it generated."""

    actions: list[int]
    """Ground action ids of ``task.actions``, in order (the valid prefix when decoding failed)."""
    solved: bool
    reason: str
    tokens: int
    """Generated tokens (``<EOS>`` included)."""

    def labels(self, task: GroundTask) -> list[str]:
        """The plan's actions as labels of ``task`` (``(name arg ..)``, as plan files write them)."""
        return [task.actions[a].label() for a in self.actions]


def _best(logits: np.ndarray, allowed: set[int] | None, vocab: PlanVocabulary) -> int:
    scores = np.array(logits, dtype=np.float64, copy=True)
    scores[vocab.bos] = -np.inf  # <BOS> only ever starts a sequence
    if allowed is not None:
        keep = np.full(scores.shape, -np.inf)
        index = np.fromiter(allowed, dtype=np.int64)
        keep[index] = scores[index]
        scores = keep
    return int(np.argmax(scores))


def _simulate(task: GroundTask, actions: list[int]) -> tuple[list[int], str | None, frozenset[int]]:
    state = frozenset(task.init)
    for position, action_id in enumerate(actions):
        action = task.actions[action_id]
        if not task.applicable(action, state):
            return actions[:position], f"inapplicable action {position + 1}: {action.label()}", state
        state = task.apply(action, state)
    return actions, None, state


def greedy(generator: PlanGenerator, encoded: EncodedTask, max_tokens: int = MAX_TOKENS) -> GenerationResult:
    """Greedy decoding from the initial state: the most likely token until ``<EOS>`` or the token
    cap, then the plan is parsed and simulated; a failure keeps its executable prefix."""
    task = encoded.task
    vocab = generator.vocab
    index = ActionTokenIndex(task, vocab, encoded.assignment)
    session = generator.session(encoded, frozenset(task.init))
    tokens: list[int] = []
    stopped = None
    try:
        logits = session.step(vocab.bos)
        while True:
            if len(tokens) >= max_tokens:
                stopped = f"token cap ({max_tokens}) reached"
                break
            token = _best(logits, None, vocab)
            tokens.append(token)
            if token == vocab.eos:
                break
            logits = session.step(token)
    except ContextFull as full:
        stopped = str(full)
    if stopped:  # the executable prefix of what was written
        actions, _ = index.parse(tokens)
        return GenerationResult(_simulate(task, actions)[0], False, stopped, len(tokens))
    actions, problem = index.parse(tokens[:-1])
    if problem:
        return GenerationResult(_simulate(task, actions)[0], False, problem, len(tokens))
    valid, problem, state = _simulate(task, actions)
    if problem:
        return GenerationResult(valid, False, problem, len(tokens))
    if not task.is_goal(state):
        return GenerationResult(actions, False, "the plan ends before the goal holds", len(tokens))
    return GenerationResult(actions, True, "goal reached", len(tokens))


def filtered(generator: PlanGenerator, encoded: EncodedTask, reground: bool,
             max_tokens: int = MAX_TOKENS, unvisited: bool = False) -> GenerationResult:
    """Applicability-filtered decoding; with ``reground`` the state is re-encoded after each action,
    and with ``unvisited`` too only actions whose successor is a state not yet visited are allowed."""
    task = encoded.task
    vocab = generator.vocab
    index = ActionTokenIndex(task, vocab, encoded.assignment)
    state = frozenset(task.init)
    actions: list[int] = []
    count = 0
    visited = {state}
    try:
        session = generator.session(encoded, state)
        logits = session.step(vocab.bos)
        while not task.is_goal(state):
            applicable = index.applicable(state)
            if reground:
                applicable = [a for a in applicable if task.apply(task.actions[a], state) != state]
            if unvisited:
                applicable = [a for a in applicable if task.apply(task.actions[a], state) not in visited]
                if not applicable:
                    return GenerationResult(actions, False, "dead end: every applicable action leads to a "
                                            "visited state", count)
            if not applicable:
                return GenerationResult(actions, False, "dead end: no applicable action", count)
            prefix: tuple[int, ...] = ()
            while True:
                if count >= max_tokens:
                    return GenerationResult(actions, False, f"token cap ({max_tokens}) reached", count)
                token = _best(logits, index.allowed(applicable, prefix), vocab)
                count += 1
                prefix += (token,)
                action = index.complete(prefix)
                if action is not None:
                    break
                logits = session.step(token)
            actions.append(action)
            state = task.apply(task.actions[action], state)
            if reground:
                if state in visited:
                    return GenerationResult(actions, False, f"loop: the state after action {len(actions)} "
                                            "was visited before", count)
                visited.add(state)
                session = generator.session(encoded, state)
                logits = session.step(vocab.bos)
            else:
                logits = session.step(token)
    except ContextFull as full:
        return GenerationResult(actions, False, str(full), count)
    return GenerationResult(actions, True, "goal reached", count)


def generate(generator: PlanGenerator, encoded: EncodedTask, strategy: str,
             max_tokens: int = MAX_TOKENS) -> GenerationResult:
    """A plan for ``encoded``'s task by one of :data:`STRATEGIES`; ``ValueError`` for another, a
    :class:`~symt.errors.SymtError` for a strategy the model was not trained for (a model trained
    on plan prefixes writes no whole plans)."""
    prefix = generator.plan_prefix
    if prefix and strategy in ("greedy", "applicable"):  # both regroundings read first actions only
        raise SymtError(f"trained on the first {prefix} action(s) of each plan, it writes no whole plans: it "
                        f"plans by regrounding only (regrounding or regrounding-unvisited), not by {strategy} decoding")
    if strategy == "greedy":
        return greedy(generator, encoded, max_tokens)
    if strategy in ("applicable", "regrounding", "regrounding-unvisited"):
        return filtered(generator, encoded, strategy != "applicable", max_tokens, strategy == "regrounding-unvisited")
    raise ValueError(f"unknown decoding strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")
