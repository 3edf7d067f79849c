"""Goal phrasings: other ways to state the same goal, exact over a task's reachable states.

People state one goal in many ways. A Blocksworld tower goal may list the base's ``(ontable x)``
or leave it out (the ``on`` atoms force it), add ``(clear top)`` or ``(handempty)``, or not. The
reachable goal states are the same, so h* is the same in every state, but a learned heuristic sees
other goal tokens and, trained on one generator's phrasing only, may no longer work (issue 32).

With a task's whole state space at hand, every phrasing with the same goal states is known
exactly, without any knowledge of the domain:

* the *goal closure* is the set of fluent atoms true in every reachable goal state: every atom a
  phrasing may state (the original goal atoms among them);
* a subset ``S`` of the closure is an *equivalent phrasing* when no reachable non-goal state
  satisfies all of ``S``, i.e. when every non-goal state violates at least one atom of ``S`` (a
  hitting-set condition, checked with one counter per non-goal state).

:meth:`GoalPhrasings.sample` draws phrasings anywhere between the whole closure (the goal state spelt
out) and a minimal one (every implied atom left out): training on them (``symt train
--goal-phrasing``) teaches the model that they mean the same, with the exact h* labels it had.
Goals are compared over *reachable* states only, which is what a search from the task's initial
state can meet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from .statespace import StateSpace


def fluent_columns(space: StateSpace, fluents: np.ndarray) -> np.ndarray:
    """bool ``[num_states, len(fluents)]``: whether each fluent of ``fluents`` holds in each state.

    Read from the packed states column by column, so that a task with many fluents never needs a
    full state-by-fluent matrix."""
    packed = space.packed_states
    columns = np.empty((space.num_states, len(fluents)), dtype=bool)
    for j, f in enumerate(np.asarray(fluents, dtype=np.int64)):
        columns[:, j] = (packed[:, f // 64] >> np.uint64(f % 64)) & np.uint64(1) != 0
    return columns


def goal_closure(space: StateSpace) -> np.ndarray:
    """The sorted fluent indices true in every reachable goal state (empty without one)."""
    goals = space.goal_states
    if len(goals) == 0:
        return np.zeros(0, dtype=np.int64)
    packed = space.packed_states[goals]
    common = np.bitwise_and.reduce(packed, axis=0)
    bits = np.unpackbits(common.view(np.uint8), bitorder="little")[: space.num_fluents]
    return np.flatnonzero(bits).astype(np.int64)


@dataclass
class GoalPhrasings:
    """What is needed to draw equivalent phrasings of one task's goal."""

    closure: np.ndarray
    """Fluent indices true in every reachable goal state."""
    violations: np.ndarray
    """bool ``[non-goal states, len(closure)]``: the closure atoms each non-goal state lacks."""

    @staticmethod
    def of(space: StateSpace) -> GoalPhrasings | None:
        """The phrasings of ``space``'s goal; None when no goal state is reachable."""
        closure = goal_closure(space)
        if len(space.goal_states) == 0:
            return None
        non_goal = np.ones(space.num_states, dtype=bool)
        non_goal[space.goal_states] = False
        violations = ~fluent_columns(space, closure)[non_goal]
        # A non-goal state that satisfied the whole closure would satisfy the goal (the goal's
        # positive atoms lie in the closure); only a negative goal atom can make it a non-goal.
        if len(violations) and not violations.any(axis=1).all():
            return None
        return GoalPhrasings(closure, violations)

    def is_equivalent(self, atoms: np.ndarray) -> bool:
        """Whether the closure atoms ``atoms`` (fluent indices) have exactly the task's goal states."""
        if not np.isin(atoms, self.closure).all():
            return False
        columns = np.searchsorted(self.closure, atoms)
        return bool(self.violations[:, columns].any(axis=1).all()) if len(self.violations) else True

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A random equivalent phrasing (sorted fluent indices).

        Starting from the whole closure, the atoms are visited in random order and each is left out
        with probability ``q`` (itself uniform in [0, 1] per phrasing) if the rest still excludes
        every non-goal state; so phrasings range from the spelt-out goal state (q near 0) to a
        minimal one (q near 1)."""
        drop_probability = rng.random()
        order = rng.permutation(len(self.closure))
        return self._leave_out(order, lambda: rng.random() < drop_probability)

    def minimal(self, order: np.ndarray | None = None) -> np.ndarray:
        """A minimal equivalent phrasing: closure atoms left out in ``order`` (default: index
        order) while the rest still excludes every non-goal state."""
        return self._leave_out(range(len(self.closure)) if order is None else order, lambda: True)

    def _leave_out(self, order: Iterable[int], wanted: Callable[[], bool]) -> np.ndarray:
        """The closure less the atoms (columns, visited in ``order``) for which ``wanted()`` is
        true and whose removal still leaves every non-goal state excluded by another atom."""
        keep = np.ones(len(self.closure), dtype=bool)
        counts = self.violations.sum(axis=1)  # closure atoms still kept that each non-goal state lacks
        for column in order:
            if not wanted():
                continue
            lacking = self.violations[:, column]
            if np.any(counts[lacking] == 1):
                continue  # some non-goal state is excluded by this atom alone
            keep[column] = False
            counts -= lacking
        return self.closure[keep]
