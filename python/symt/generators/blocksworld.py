"""Blocksworld problems: a uniformly random initial state and a single-tower goal.

* **Initial state**: drawn *exactly uniformly* over all blocksworld states with the hand empty,
  i.e. over all ways to arrange ``n`` labelled blocks into an unordered set of towers (OEIS
  A000262: 1, 3, 13, 73, 501, ...). The tower containing the lowest-numbered remaining block has
  ``k`` blocks in ``C(n-1, k-1) * k! * a(n-k)`` of the ``a(n)`` states, so we draw ``k`` with that
  weight (exact big-integer arithmetic), pick its other members and their order uniformly, and
  recurse on the rest.
* **Goal**: all ``n`` blocks in one tower, the order a uniformly random permutation, written as
  the ``n - 1`` atoms ``(on upper lower)`` plus ``(ontable bottom)``. The ``ontable`` atom is
  implied by the ``on`` atoms (the bottom block carries a block, so it can be neither held nor on
  another block), but stating it makes the goal a complete description of the target tower.
* A task whose initial state already satisfies the goal is rejected and resampled.

Other goal styles (:data:`STYLES`, issue 32: goals as other generators and people write them;
the paper's splits use ``tower`` only):

* ``towers``: the goal is itself a uniformly random arrangement of all blocks into towers (often
  several), each stated by its ``on`` atoms and its base's ``ontable``;
* ``partial``: only a random subset of 2..n-1 blocks is in the goal, arranged uniformly at random
  into towers among themselves; each base's ``ontable`` is stated or not at random (unlike in a
  complete goal, it is then a real requirement, not an implied one).
* ``stacks``: tall towers at both ends, as the IPC 2023 generator draws them (its tasks start from
  one 18-block tower or a few of 8-12, and ask for a few tall ones): the initial state and the goal
  are each all blocks cut into 1..3 towers (the count uniform, the cut points and the order of the
  blocks uniformly random), every goal tower stated by its ``on`` atoms and its base's
  ``ontable``, and its top's ``clear`` with probability 1/2 (IPC states it; it is implied). Its
  extra training tasks are 6-8 blocks (:data:`STYLE_TRAINING_SIZES`): an 8-block state space
  (695,417 states, 394,353 of them with the hand empty) still expands in seconds.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise
from math import comb, factorial

from symt.generators._problem import Atom, Problem

PDDL_DOMAIN = "blocks"

STYLES: tuple[str, ...] = ("tower", "towers", "partial", "stacks")
"""Goal styles, the paper's first (see the module docstring)."""

STYLE_TRAINING_SIZES: dict[str, tuple[int, ...]] = {"stacks": (6, 7, 8)}
"""Sizes of a style's extra training tasks where they differ from the training split's (4, 6, 7)."""

MAX_STACKS = 3
"""The most towers at either end of a ``stacks`` task."""

Tower = list[int]
"""Blocks of one tower, bottom first."""


@cache
def num_states(n: int) -> int:
    """Number of blocksworld states of ``n`` labelled blocks with the hand empty (A000262)."""
    if n == 0:
        return 1
    return sum(tower_weight(n, k) for k in range(1, n + 1))


def tower_weight(n: int, k: int) -> int:
    """Number of ``n``-block states in which a fixed block lies in a tower of ``k`` blocks."""
    return comb(n - 1, k - 1) * factorial(k) * num_states(n - k)


def sample_state(n: int, rng: random.Random) -> list[Tower]:
    """Draw a hand-empty state of blocks ``0..n-1`` uniformly at random, as a list of towers."""
    remaining = list(range(n))
    towers: list[Tower] = []
    while remaining:
        m = len(remaining)
        r = rng.randrange(num_states(m))
        k = 1
        while True:
            w = tower_weight(m, k)
            if r < w:
                break
            r -= w
            k += 1
        first, rest = remaining[0], remaining[1:]
        members = [first, *rng.sample(rest, k - 1)]
        rng.shuffle(members)
        towers.append(members)
        chosen = set(members)
        remaining = [b for b in remaining if b not in chosen]
    return towers


def sample_stacks(n: int, rng: random.Random) -> list[Tower]:
    """Blocks ``0..n-1`` in random order cut into 1..:data:`MAX_STACKS` towers (``stacks`` style)."""
    order = list(range(n))
    rng.shuffle(order)
    count = rng.randint(1, min(MAX_STACKS, n))
    cuts = sorted(rng.sample(range(1, n), count - 1))
    return [order[i:j] for i, j in zip([0, *cuts], [*cuts, n], strict=True)]


def canonical_state(towers: list[Tower]) -> tuple[tuple[int, ...], ...]:
    """A hashable form of a state that ignores the order in which towers are listed."""
    return tuple(sorted(tuple(t) for t in towers))


def state_atoms(towers: list[Tower], names: list[str]) -> list[Atom]:
    """The hand-empty state of ``towers`` as atoms: per tower its base's ``ontable``, its ``on``
    atoms bottom up and its top's ``clear``."""
    atoms: list[Atom] = [("handempty",)]
    for tower in towers:
        atoms.append(("ontable", names[tower[0]]))
        atoms.extend(("on", names[upper], names[lower]) for lower, upper in pairwise(tower))
        atoms.append(("clear", names[tower[-1]]))
    return atoms


def num_distinct(n: int, style: str = "tower") -> int | None:
    """Number of distinct ``n``-block tasks up to renaming (initial state relative to the goal
    order; the state that already satisfies the goal is excluded); None for the other styles."""
    return num_states(n) - 1 if style == "tower" else None


def generate(n: int, rng: random.Random, style: str = "tower") -> Problem:
    """A Blocksworld problem with ``n >= 2`` blocks (see the module docstring)."""
    if n < 2:
        raise ValueError("blocksworld needs at least 2 blocks (with 1 the goal always holds)")
    if style != "tower":
        return _generate_other_goal(n, rng, style)
    while True:
        towers = sample_state(n, rng)
        order = list(range(n))
        rng.shuffle(order)  # goal tower, bottom first
        if towers != [order]:
            break
    names = [f"b{i}" for i in range(n)]
    init = state_atoms(towers, names)
    goal: list[Atom] = [("ontable", names[order[0]])]
    goal.extend(("on", names[u], names[lo]) for lo, u in pairwise(order))
    # Up to renaming, a task is its initial state with blocks relabelled by goal position.
    position = {b: i for i, b in enumerate(order)}
    key = canonical_state([[position[b] for b in t] for t in towers])
    return Problem(
        objects=names,
        init=init,
        goal=goal,
        key=key,
        info={"num_towers": len(towers)},
    )


def _generate_other_goal(n: int, rng: random.Random, style: str) -> Problem:
    """A ``towers``, ``partial`` or ``stacks`` task (module docstring); ``partial`` needs ``n >= 3``."""
    if style not in STYLES:
        raise ValueError(f"unknown blocksworld goal style {style!r} (choose from {', '.join(STYLES)})")
    if style == "partial" and n < 3:
        raise ValueError("the partial goal style needs at least 3 blocks")
    names = [f"b{i}" for i in range(n)]
    while True:
        if style == "stacks":
            towers, goal_towers, goal = _stacks_task(n, rng, names)
        else:
            towers, goal_towers, goal = _random_goal_task(n, rng, names, style)
        init = state_atoms(towers, names)
        # Drawn again: a goal that already holds (an empty partial goal among them: single blocks
        # whose bases were left out).
        if not set(goal) <= set(init):
            break
    # Distinct as labelled tasks (a canonical form up to renaming is not needed at these counts).
    key = (style, canonical_state(towers), tuple(sorted(goal)))
    return Problem(objects=names, init=init, goal=goal, key=key,
                   info={"num_towers": len(towers), "style": style, "goal_towers": len(goal_towers)})


def _random_goal_task(n: int, rng: random.Random, names: list[str],
                      style: str) -> tuple[list[Tower], list[Tower], list[Atom]]:
    """The initial towers, the goal towers and the goal atoms of a ``towers`` or ``partial`` task
    (module docstring): a uniformly random state, and a uniformly random arrangement of all or of
    some blocks as the goal."""
    towers = sample_state(n, rng)
    if style == "towers":
        in_goal = list(range(n))
    else:
        in_goal = sorted(rng.sample(range(n), rng.randint(2, n - 1)))
    goal_towers = [[in_goal[i] for i in tower] for tower in sample_state(len(in_goal), rng)]
    stated_bases = [t[0] for t in goal_towers if style == "towers" or rng.random() < 0.5]
    goal: list[Atom] = [("ontable", names[b]) for b in stated_bases]
    for tower in goal_towers:
        goal.extend(("on", names[u], names[lo]) for lo, u in pairwise(tower))
    return towers, goal_towers, goal


def _stacks_task(n: int, rng: random.Random, names: list[str]) -> tuple[list[Tower], list[Tower], list[Atom]]:
    """The initial towers, the goal towers and the goal atoms of a ``stacks`` task (module docstring)."""
    towers = sample_stacks(n, rng)
    goal_towers = sample_stacks(n, rng)
    goal: list[Atom] = [("ontable", names[t[0]]) for t in goal_towers]
    for tower in goal_towers:
        goal.extend(("on", names[u], names[lo]) for lo, u in pairwise(tower))
    goal.extend(("clear", names[t[-1]]) for t in goal_towers if rng.random() < 0.5)
    return towers, goal_towers, goal


def tower_reversal_problem(n: int, name: str | None = None) -> str:
    """PDDL for n blocks in one tower b1 on b2 ... on bn with the reversed tower as the goal:
    the fixed Blocksworld task of the expander's benchmark and tests (all 4-operator states of
    n blocks are reachable from it)."""
    blocks = [f"b{i}" for i in range(1, n + 1)]
    init = ["(handempty)", f"(clear {blocks[0]})", f"(ontable {blocks[-1]})"]
    init += [f"(on {blocks[i]} {blocks[i + 1]})" for i in range(n - 1)]
    goal = [f"(on {blocks[i + 1]} {blocks[i]})" for i in range(n - 1)]
    return (
        f"(define (problem {name or f'blocks-{n}'}) (:domain blocks)\n"
        f"  (:objects {' '.join(blocks)})\n"
        f"  (:init {' '.join(init)})\n"
        f"  (:goal (and {' '.join(goal)})))\n"
    )
