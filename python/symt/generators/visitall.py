"""Visitall problems: visit every cell of a rectangular 4-connected grid.

A task with ``n`` cells uses an ``r x c`` grid with ``r * c = n`` and ``r <= c``; every such
factorisation is allowed (:func:`shapes`), so prime ``n`` gives a ``1 x n`` corridor. The shape is
drawn uniformly among the factorisations and the robot's start uniformly among the cells. The start
cell is initially visited; the goal is ``(visited x)`` for every cell. ``(connected x y)`` is
listed in both directions for every pair of orthogonally adjacent cells, and ``(place x)`` for
every cell. Cell names are opaque (``o1 .. oN`` after shuffling) and carry no coordinates.

Up to renaming a task is its shape plus the orbit of its start cell under the grid's symmetries
(4 for a non-square rectangle, 8 for a square); :func:`classes` lists these. The split driver
spreads the tasks of one size evenly over the shapes, and within a shape over the start orbits, so
the cheap ``1 x n`` corridors (which have the most start orbits) do not dominate.
"""

from __future__ import annotations

import random

from symt.generators._problem import Atom, Problem

PDDL_DOMAIN = "grid-visit-all"

Cell = tuple[int, int]


def shapes(n: int) -> list[tuple[int, int]]:
    """All grid shapes ``(rows, cols)`` with ``rows * cols = n`` and ``rows <= cols``."""
    return [(r, n // r) for r in range(1, n + 1) if n % r == 0 and r <= n // r]


def _symmetries(rows: int, cols: int, cell: Cell) -> list[Cell]:
    """Images of ``cell`` under the symmetry group of the ``rows x cols`` grid."""
    r, c = cell
    images = [(r, c), (rows - 1 - r, c), (r, cols - 1 - c), (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        images += [(c, r) for r, c in list(images)]
    return images


def start_orbit(rows: int, cols: int, cell: Cell) -> Cell:
    """Canonical representative of ``cell``'s orbit under the grid's symmetries."""
    return min(_symmetries(rows, cols, cell))


def classes(n: int) -> list[tuple[tuple[int, int], Cell]]:
    """Every distinct ``n``-cell task up to renaming, as ``((rows, cols), start orbit)`` keys.

    The first component is the task's *group* (its shape): the split driver balances tasks over
    shapes first and over start orbits within a shape second.
    """
    keys: list[tuple[tuple[int, int], Cell]] = []
    for rows, cols in shapes(n):
        orbits = {start_orbit(rows, cols, (r, c)) for r in range(rows) for c in range(cols)}
        keys.extend(((rows, cols), o) for o in sorted(orbits))
    return keys


def num_distinct(n: int) -> int:
    """Number of distinct ``n``-cell tasks up to renaming (shape and start orbit)."""
    return len(classes(n))


def generate(n: int, rng: random.Random) -> Problem:
    """A Visitall problem with ``n >= 1`` cells (see the module docstring)."""
    if n < 1:
        raise ValueError("visitall needs at least 1 cell")
    rows, cols = rng.choice(shapes(n))
    start = (rng.randrange(rows), rng.randrange(cols))

    def name(cell: Cell) -> str:
        return f"cell-{cell[0]}-{cell[1]}"

    cells = [(r, c) for r in range(rows) for c in range(cols)]
    init: list[Atom] = [("place", name(x)) for x in cells]
    for r, c in cells:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                init.append(("connected", name((r, c)), name((rr, cc))))
    init += [("at-robot", name(start)), ("visited", name(start))]
    goal: list[Atom] = [("visited", name(x)) for x in cells]
    return Problem(
        objects=[name(x) for x in cells],
        init=init,
        goal=goal,
        key=((rows, cols), start_orbit(rows, cols, start)),
        info={"rows": rows, "cols": cols},
    )
