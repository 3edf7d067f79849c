"""Explicit state spaces of grounded tasks: reachable states, transitions, h*, and sampling.

The work is done by the C++ core (``symt._core``); this module converts a
:class:`~symt.pddl.task.GroundTask` to flat arrays, wraps the result, and provides
:func:`python_reference_bfs`, a deliberately straightforward pure-Python expansion that serves as
the benchmark baseline and as an independent cross-check in the tests.

Conventions (shared by the C++ core and the reference):

* states are numbered in forward breadth-first order from the initial state (id 0), expanding
  the applicable actions of a state in increasing action id;
* transitions whose successor equals the state (self-loops) are skipped; parallel transitions
  (different actions, same target) are all kept, since they are different plans;
* h* is the unit-cost goal distance; dead ends (no goal reachable) have ``h* = inf``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Sequence

import numpy as np

from symt import _core
from symt.errors import DEFAULT_MAX_STATES, StateLimitError
from symt.pddl.task import GroundTask

__all__ = [
    "DEFAULT_MAX_STATES",
    "Sampler",
    "StateSpace",
    "default_memory_limit",
    "limit_process_memory",
    "expand",
    "python_reference_bfs",
]


_BYTES_PER_TRANSITION = 12
"""Forward graph (action + target, int32 each) plus the reverse graph built for h* (int32)."""


def default_memory_limit() -> int:
    """The default bound on the expander's memory: 60% of physical memory (4 GiB if unknown)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 << 30
    return int(total * 0.6)


def limit_process_memory(max_bytes: int) -> None:
    """Cap this process's address space at ``max_bytes``, so that everything a command does
    (parsing and grounding as well as the expander, whose own guard counts only its tables)
    stops with a MemoryError at the stated limit instead of growing until the system kills it.
    Only lowers an existing limit; a no-op where the platform has no ``resource`` module."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = max_bytes if hard == resource.RLIM_INFINITY else min(max_bytes, hard)
    if soft == resource.RLIM_INFINITY or wanted < soft:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def _csr(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (int64, ``len(lists) + 1``) and concatenated values (int32) of a list of lists."""
    lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    values = np.fromiter((f for x in lists for f in x), dtype=np.int32, count=int(offsets[-1]))
    return offsets, values


class Sampler:
    """Deterministic random draws over a :class:`StateSpace` (xoshiro256** seeded by ``seed``).

    The same seed gives the same sequence of results on every platform.
    """

    def __init__(self, space: StateSpace, seed: int) -> None:
        self._space = space
        self._impl = _core.Sampler(space._impl, seed & 0xFFFFFFFFFFFFFFFF)

    def sample_state(self) -> int:
        """A state id: goal distance uniform over the finite h* values, then uniform in the layer."""
        return int(self._impl.sample_state())

    def sample_states(self, n: int) -> np.ndarray:
        """``n`` draws of :meth:`sample_state` as an int32 array."""
        return self._impl.sample_states(n)

    def random_optimal_plan(self, state_id: int) -> list[int]:
        """A uniformly random optimal plan (action ids) from ``state_id``; ``[]`` for a goal.

        Raises ``ValueError`` for a dead-end state and ``IndexError`` for an unknown id.
        """
        return list(self._impl.random_optimal_plan(state_id))


class StateSpace:
    """The reachable state space of a grounded task, with h* (wraps the C++ object)."""

    def __init__(self, impl: _core.StateSpace) -> None:
        self._impl = impl
        self._hstar: np.ndarray | None = None

    @property
    def num_states(self) -> int:
        return int(self._impl.num_states)

    @property
    def num_transitions(self) -> int:
        """Transitions without self-loops, parallel transitions counted separately."""
        return int(self._impl.num_transitions)

    @property
    def num_fluents(self) -> int:
        return int(self._impl.num_fluents)

    @property
    def num_actions(self) -> int:
        return int(self._impl.num_actions)

    @property
    def words_per_state(self) -> int:
        return int(self._impl.words_per_state)

    @property
    def hstar(self) -> np.ndarray:
        """float64 h* per state, ``inf`` for dead ends (computed once, read-only)."""
        if self._hstar is None:
            h = self._impl.hstar
            h.setflags(write=False)
            self._hstar = h
        return self._hstar

    @property
    def hstar_int(self) -> np.ndarray:
        """int32 h* per state (zero-copy), ``2**31 - 1`` for dead ends."""
        return self._impl.hstar_int

    @property
    def max_finite_hstar(self) -> int:
        """The largest finite h* (-1 when no goal state is reachable)."""
        return int(self._impl.max_finite_hstar)

    @property
    def steps(self) -> np.ndarray:
        """int32 per state (zero-copy): the fewest actions among its cheapest plans, ``2**31 - 1``
        for dead ends; h* itself where every action costs 1. Optimal plans (those the sampler
        draws and counts) are the cheapest plans with the fewest steps, and the distance layers
        (:meth:`states_at_distance`) are layers of steps, so that zero-cost actions, which can
        repeat for free, still give finitely many optimal plans."""
        return self._impl.steps

    @property
    def max_finite_steps(self) -> int:
        """The largest finite :attr:`steps` (-1 when no goal state is reachable)."""
        return int(self._impl.max_finite_steps)

    @property
    def action_costs(self) -> np.ndarray:
        """int32 cost of each action (zero-copy); empty when every action costs 1."""
        return self._impl.action_costs

    def optimal_transitions(self, state_id: int) -> np.ndarray:
        """A bool per transition of a state (in :meth:`successors` order): whether it starts an
        optimal plan (one step fewer and, with action costs, exactly its action's cost cheaper)."""
        begin, end = self.transition_offsets[state_id], self.transition_offsets[state_id + 1]
        targets = self.transition_targets[begin:end]
        steps = self.steps
        optimal = (steps[targets] == steps[state_id] - 1) & (steps[state_id] != np.iinfo(np.int32).max)
        costs = self.action_costs
        if len(costs):
            hstar = self.hstar_int.astype(np.int64)
            optimal &= hstar[targets] + costs[self.transition_actions[begin:end]] == hstar[state_id]
        return optimal

    @property
    def goal_states(self) -> np.ndarray:
        """int32 ids of the goal states, increasing."""
        return self._impl.goal_states

    @property
    def packed_states(self) -> np.ndarray:
        """uint64 ``[num_states, words_per_state]`` zero-copy view; fluent f is bit f%64 of word f//64."""
        return self._impl.packed_states

    @property
    def transition_offsets(self) -> np.ndarray:
        """int64 CSR offsets: the transitions of s are ``[offsets[s], offsets[s + 1])``."""
        return self._impl.transition_offsets

    @property
    def transition_actions(self) -> np.ndarray:
        """int32 action id per transition (zero-copy)."""
        return self._impl.transition_actions

    @property
    def transition_targets(self) -> np.ndarray:
        """int32 target state id per transition (zero-copy)."""
        return self._impl.transition_targets

    @property
    def bytes_per_state(self) -> float:
        """Memory of the packed states plus the dedup hash table, per state."""
        return float(self._impl.state_storage_bytes) / max(1, self.num_states)

    @property
    def memory_bytes(self) -> int:
        """Total memory held: states, hash table (peak), transitions, h*, layers, plan counts."""
        return int(self._impl.memory_bytes)

    @property
    def seconds(self) -> float:
        """Wall time of the expansion (forward BFS, backward BFS, plan counts)."""
        return float(self._impl.seconds)

    def state_facts(self, state_id: int) -> np.ndarray:
        """The sorted int32 fluent indices true in a state."""
        return self._impl.state_facts(state_id)

    def state_set(self, state_id: int) -> frozenset[int]:
        """The state as a frozenset of fluent indices (the :class:`GroundTask` representation)."""
        return frozenset(int(f) for f in self._impl.state_facts(state_id))

    def successors(self, state_id: int) -> tuple[np.ndarray, np.ndarray]:
        """``(action ids, target state ids)`` of a state's transitions, by increasing action id."""
        actions, targets = self._impl.successors(state_id)
        return actions, targets

    def states_at_distance(self, distance: int) -> np.ndarray:
        """The ids (increasing) of the states ``distance`` :attr:`steps` from the goal (``h* ==
        distance`` where every action costs 1)."""
        offsets = self._impl.layer_offsets
        if distance < 0 or distance + 1 >= len(offsets):
            return np.zeros(0, dtype=np.int32)
        return self._impl.layer_states[offsets[distance] : offsets[distance + 1]]

    def num_optimal_plans(self, state_id: int) -> float:
        """The number of optimal plans from a state (0 for dead ends, 1 for goals), as a float."""
        return float(np.exp(self._impl.log_num_optimal_plans(state_id)))

    def log_num_optimal_plans(self, state_id: int) -> float:
        """Natural log of :meth:`num_optimal_plans` (``-inf`` for dead ends); never overflows."""
        return float(self._impl.log_num_optimal_plans(state_id))

    def sampler(self, seed: int) -> Sampler:
        """A deterministic :class:`Sampler` for this space."""
        return Sampler(self, seed)

    def __repr__(self) -> str:
        return (
            f"StateSpace(num_states={self.num_states}, num_transitions={self.num_transitions}, "
            f"hstar_init={self.hstar[0] if self.num_states else None})"
        )


def expand(
    task: GroundTask,
    max_states: int = DEFAULT_MAX_STATES,
    *,
    max_transitions: int | None = None,
    max_memory_bytes: int | None = None,
) -> StateSpace:
    """Expands the reachable state space of ``task`` and computes h*: the cost to the goal where
    the task's actions cost other than 1 (:attr:`GroundAction.cost`; a Dijkstra search), else the
    number of steps.

    ``max_states`` bounds the number of reachable states. ``max_memory_bytes`` (default:
    :func:`default_memory_limit`) bounds the memory of states, hash table and transition graph;
    it is checked before every allocation, so an oversized task fails with
    :class:`~symt.errors.StateLimitError` rather than being killed. ``max_transitions`` defaults
    to the number of transitions that fit in that memory (12 bytes each). The GIL is released
    while expanding.
    """
    if max_states < 1:
        raise ValueError("max_states must be at least 1")
    if max_memory_bytes is None:
        max_memory_bytes = default_memory_limit()
    if max_transitions is None:
        max_transitions = max(1, max_memory_bytes // _BYTES_PER_TRANSITION)
    actions = task.actions
    pre_pos = _csr([a.pre_pos for a in actions])
    pre_neg = _csr([a.pre_neg for a in actions])
    add = _csr([a.add for a in actions])
    delete = _csr([a.delete for a in actions])
    impl = _core.expand(
        num_fluents=task.num_fluents,
        pre_pos_offsets=pre_pos[0],
        pre_pos=pre_pos[1],
        pre_neg_offsets=pre_neg[0],
        pre_neg=pre_neg[1],
        add_offsets=add[0],
        add=add[1],
        del_offsets=delete[0],
        del_=delete[1],
        init=np.asarray(task.init, dtype=np.int32),
        goal_pos=np.asarray(task.goal_pos, dtype=np.int32),
        goal_neg=np.asarray(task.goal_neg, dtype=np.int32),
        goal_possible=bool(task.solvable_by_statics),
        # Unit costs go as none: the C++ side then runs its breadth-first search.
        costs=np.asarray([a.cost for a in actions] if any(a.cost != 1 for a in actions) else [], dtype=np.int32),
        max_states=int(max_states),
        max_transitions=int(max_transitions),
        max_memory_bytes=int(max_memory_bytes),
    )
    return StateSpace(impl)


def optimal_plan_length(domain: object, problem: object, max_states: int) -> int | None:
    """The optimal plan length of a task (domain and problem as objects or file paths) by full
    expansion, or None when the space exceeds ``max_states`` or the task is unsolvable."""
    from symt.pddl import ground

    try:
        space = expand(ground(domain, problem), max_states=max_states)
    except StateLimitError:
        return None
    h = float(space.hstar[0])
    return None if np.isinf(h) else int(h)


def _reference_expand(
    task: GroundTask, max_states: int
) -> tuple[list[frozenset[int]], list[list[tuple[int, int]]], list[float]]:
    """Pure-Python BFS: states in BFS order, successor lists ``(action, target)``, and h*."""
    index: dict[frozenset[int], int] = {}
    states: list[frozenset[int]] = []
    edges: list[list[tuple[int, int]]] = []
    init = frozenset(task.init)
    index[init] = 0
    states.append(init)
    queue: deque[int] = deque([0])
    while queue:
        s = queue.popleft()
        state = states[s]
        out: list[tuple[int, int]] = []
        for a, action in enumerate(task.actions):
            if not task.applicable(action, state):
                continue
            succ = task.apply(action, state)
            if succ == state:
                continue
            t = index.get(succ)
            if t is None:
                if len(states) >= max_states:
                    raise StateLimitError(
                        f"state space exceeds the limit of {max_states:,} states "
                        "(raise --max-states)"
                    )
                t = len(states)
                index[succ] = t
                states.append(succ)
                queue.append(t)
            out.append((a, t))
        edges.append(out)
    predecessors: list[list[int]] = [[] for _ in states]
    for s, out in enumerate(edges):
        for _, t in out:
            predecessors[t].append(s)
    hstar = [float("inf")] * len(states)
    back: deque[int] = deque()
    for s, state in enumerate(states):
        if task.is_goal(state):
            hstar[s] = 0.0
            back.append(s)
    while back:
        t = back.popleft()
        for s in predecessors[t]:
            if hstar[s] == float("inf"):
                hstar[s] = hstar[t] + 1
                back.append(s)
    return states, edges, hstar


def python_reference_bfs(
    task: GroundTask, max_states: int = DEFAULT_MAX_STATES
) -> tuple[int, int, float]:
    """A straightforward pure-Python expansion: ``(states, transitions, h*(init))``.

    Frozenset states, a dict for duplicate detection, and a loop over all actions per state;
    same conventions as :func:`expand`. It is the benchmark baseline and a cross-check.
    """
    states, edges, hstar = _reference_expand(task, max_states)
    return len(states), sum(len(out) for out in edges), hstar[0]
