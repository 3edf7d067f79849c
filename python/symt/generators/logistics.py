"""Logistics problems parameterised by the number of goals ``g`` (= number of packages).

Structure (our choice; the paper does not give one):

* ``2`` cities when ``g <= 7``, ``3`` cities when ``g >= 8``;
* every city has ``2`` locations, exactly one of which is an airport;
* one truck per city, one airplane;
* every package starts at a uniformly random location and must end at a uniformly random
  *different* location (one ``(at package location)`` goal atom per package);
* each truck starts at a random location of its own city, the airplane at a random airport.

With 2 cities a package can be at 4 locations or in 3 vehicles, so there are at most
``7**g * 2 * 2 * 2`` states: 134,456 for ``g = 5`` (the largest training size) and 941,192 for
``g = 6`` (validation), small enough to expand the whole state space.

Style ``wide`` (:data:`STYLES`, issue 32: ratios other generators make and the paper's never does):
``4`` cities and ``2`` airplanes whatever ``g``, so that small tasks have more vehicles than packages.
A package then has 8 locations and 6 vehicles to be in, and the trucks and airplanes 256 placements:
``14**g * 256`` states, 702,464 for ``g = 3`` but 138 M for the paper's largest training size 5, so
its extra training tasks (``symt generate logistics --styles wide``) have 1-3 packages
(:data:`STYLE_TRAINING_SIZES`).

Styles ``three-cities`` (``3`` cities, ``1`` airplane: ``24 * 10**g`` states, 240,000 for ``g = 4``,
so its training tasks have 1-4 packages) and ``two-airplanes`` (``2`` cities, ``2`` airplanes:
``16 * 8**g`` states, 524,288 for ``g = 5``, the paper's training sizes) vary one count at a time
with as many packages as the paper's training tasks, where ``wide`` varies both with few packages.

The initial state lists the type predicates ``package truck airplane airport location city``
(airports are also ``location``s) and ``(in-city location city)`` for every location.
"""

from __future__ import annotations

import itertools
import random

from symt.generators._problem import Atom, Problem

PDDL_DOMAIN = "logistics"

LOCATIONS_PER_CITY = 2
"""Locations per city; location 0 of every city is its airport."""

NUM_AIRPLANES = 1

STYLES: tuple[str, ...] = ("paper", "wide", "three-cities", "two-airplanes")
"""Task styles, the paper's first (see the module docstring)."""
STYLE_SHAPES: dict[str, tuple[int, int]] = {"wide": (4, 2), "three-cities": (3, 1), "two-airplanes": (2, 2)}
"""Cities and airplanes of each style other than the paper's, whatever the number of packages."""
STYLE_TRAINING_SIZES: dict[str, tuple[int, ...]] = {"wide": (1, 2, 3), "three-cities": (1, 2, 3, 4)}
"""Sizes of a style's extra training tasks where the training split's are too large to expand."""


def num_cities(g: int) -> int:
    """Number of cities used for ``g`` packages."""
    return 2 if g <= 7 else 3


def num_distinct(g: int, style: str = "paper") -> int | None:
    """Number of distinct tasks up to renaming, or ``None`` when not computed."""
    return None


def generate(g: int, rng: random.Random, style: str = "paper") -> Problem:
    """A Logistics problem with ``g >= 1`` packages (see the module docstring)."""
    if g < 1:
        raise ValueError("logistics needs at least 1 package")
    if style not in STYLES:
        raise ValueError(f"unknown logistics style {style!r} (choose from {', '.join(STYLES)})")
    nc, num_airplanes = (num_cities(g), NUM_AIRPLANES) if style == "paper" else STYLE_SHAPES[style]
    # A location is (city, kind); kind 0 is the airport.
    all_locs = [(c, k) for c in range(nc) for k in range(LOCATIONS_PER_CITY)]
    truck_pos = [rng.randrange(LOCATIONS_PER_CITY) for _ in range(nc)]  # kind within own city
    plane_pos = [rng.randrange(nc) for _ in range(num_airplanes)]  # city of its airport
    packages: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for _ in range(g):
        start = rng.choice(all_locs)
        goal_loc = rng.choice([loc for loc in all_locs if loc != start])
        packages.append((start, goal_loc))

    city = [f"city{c}" for c in range(nc)]

    def loc_name(loc: tuple[int, int]) -> str:
        c, k = loc
        return f"airport{c}" if k == 0 else f"loc{c}-{k}"

    trucks = [f"truck{c}" for c in range(nc)]
    planes = [f"plane{a}" for a in range(num_airplanes)]
    pkgs = [f"pkg{i}" for i in range(g)]

    init: list[Atom] = [("city", c) for c in city]
    for loc in all_locs:
        init.append(("location", loc_name(loc)))
        if loc[1] == 0:
            init.append(("airport", loc_name(loc)))
        init.append(("in-city", loc_name(loc), city[loc[0]]))
    for c, t in enumerate(trucks):
        init += [("truck", t), ("at", t, loc_name((c, truck_pos[c])))]
    for a, p in enumerate(planes):
        init += [("airplane", p), ("at", p, loc_name((plane_pos[a], 0)))]
    for p, (start, _) in zip(pkgs, packages, strict=True):
        init += [("package", p), ("at", p, loc_name(start))]
    goal: list[Atom] = [
        ("at", p, loc_name(dest)) for p, (_, dest) in zip(pkgs, packages, strict=True)
    ]

    objects = city + [loc_name(loc) for loc in all_locs] + trucks + planes + pkgs
    return Problem(
        objects=objects,
        init=init,
        goal=goal,
        key=_canonical_key(nc, truck_pos, plane_pos, packages),
        info={"cities": nc, "locations_per_city": LOCATIONS_PER_CITY, "airplanes": num_airplanes,
              **({} if style == "paper" else {"style": style})},
    )


def _canonical_key(
    nc: int,
    truck_pos: list[int],
    plane_pos: list[int],
    packages: list[tuple[tuple[int, int], tuple[int, int]]],
) -> tuple[object, ...]:
    """Identify a task up to renaming: minimise over city permutations (which carry their
    locations and trucks along); packages and airplanes are compared as sorted multisets."""
    best: tuple[object, ...] | None = None
    for perm in itertools.permutations(range(nc)):

        def m(loc: tuple[int, int], perm: tuple[int, ...] = perm) -> tuple[int, int]:
            return (perm[loc[0]], loc[1])

        trucks = [0] * nc
        for c in range(nc):
            trucks[perm[c]] = truck_pos[c]
        key = (
            tuple(sorted((m(s), m(d)) for s, d in packages)),
            tuple(trucks),
            tuple(sorted(perm[c] for c in plane_pos)),
        )
        if best is None or key < best:
            best = key
    assert best is not None
    return best
