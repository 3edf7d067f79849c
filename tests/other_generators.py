"""Tasks as another generator writes them: held-out test data that no symt generator made (issue 32).

Deliberately independent of symt (no import from it) and written in other habits than
``symt.generators``, after the classic IPC generators:

* **Blocksworld** (after ``bwstates``/IPC 2000 style tasks): blocks ``b1 .. bn`` declared in order;
  the initial state is built by placing the blocks in random order, each on the table or on top
  of a random existing tower (not uniform over states); the goal is
  - ``tower``: one tower of all blocks stated by its ``on`` atoms only (the base's ``ontable``
    left out, as many hand-written and generated tasks do), or
  - ``towers``: two to four towers, each stated in full by its ``on`` atoms, its base's ``ontable``
    and its top's ``clear``, as the IPC 2023 learning-track tasks do.
* **Logistics** (after the IPC 1998 ``logistics`` generator): ``c`` cities of ``s`` locations each
  (the first one the airport), one truck per city, ``a`` airplanes at random airports, and ``p``
  packages at random locations with a random goal location each; objects declared by kind.

Run as a script to write tasks into a folder::

    python tests/other_generators.py blocksworld --sizes 9 20 --out DIR [--style tower] [--seed 1]
    python tests/other_generators.py logistics --sizes 7 15 --out DIR [--cities 4 --airplanes 2]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def blocksworld_task(n: int, rng: random.Random, style: str = "tower", name: str | None = None) -> str:
    """A Blocksworld task of ``n >= 2`` blocks in ``style`` (``tower`` or ``towers``) as PDDL text."""
    blocks = [f"b{i}" for i in range(1, n + 1)]
    while True:
        towers: list[list[str]] = []
        for block in rng.sample(blocks, n):
            choice = rng.randrange(len(towers) + 1)
            if choice == len(towers):
                towers.append([block])
            else:
                towers[choice].append(block)
        order = rng.sample(blocks, n)
        if style == "tower":
            goal_towers = [order]
        else:
            cuts = sorted(rng.sample(range(1, n), rng.randint(1, min(3, n - 1))))
            goal_towers = [order[i:j] for i, j in zip([0, *cuts], [*cuts, n], strict=True)]
        goal = []
        for tower in goal_towers:
            goal += [f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:], strict=False)]
            if style == "towers":
                goal += [f"(ontable {tower[0]})", f"(clear {tower[-1]})"]
        init = ["(handempty)"]
        for tower in towers:
            init.append(f"(ontable {tower[0]})")
            init += [f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:], strict=False)]
            init.append(f"(clear {tower[-1]})")
        if not set(goal) <= set(init):
            break
    return (f"(define (problem {name or f'bw-{n}'})\n  (:domain blocks)\n  (:objects {' '.join(blocks)})\n"
            f"  (:init\n    {' '.join(init)})\n  (:goal\n    (and {' '.join(goal)})))\n")


def logistics_task(packages: int, rng: random.Random, cities: int = 3, city_size: int = 2,
                   airplanes: int = 1, name: str | None = None) -> str:
    """A Logistics task in the IPC 1998 generator's manner as PDDL text."""
    city = [f"c{i}" for i in range(1, cities + 1)]
    locations = {c: [f"l{i}-{k}" for k in range(1, city_size + 1)] for i, c in enumerate(city, start=1)}
    airports = [locations[c][0] for c in city]
    trucks = [f"t{i}" for i in range(1, cities + 1)]
    planes = [f"a{i}" for i in range(1, airplanes + 1)]
    parcels = [f"p{i}" for i in range(1, packages + 1)]
    every_location = [loc for c in city for loc in locations[c]]
    init = [f"(city {c})" for c in city]
    for c in city:
        for loc in locations[c]:
            init += [f"(location {loc})", f"(in-city {loc} {c})"]
    init += [f"(airport {a})" for a in airports]
    for truck, c in zip(trucks, city, strict=True):
        init += [f"(truck {truck})", f"(at {truck} {rng.choice(locations[c])})"]
    for plane in planes:
        init += [f"(airplane {plane})", f"(at {plane} {rng.choice(airports)})"]
    goal = []
    for parcel in parcels:
        start = rng.choice(every_location)
        init += [f"(package {parcel})", f"(at {parcel} {start})"]
        goal.append(f"(at {parcel} {rng.choice([loc for loc in every_location if loc != start])})")
    objects = city + every_location + trucks + planes + parcels
    return (f"(define (problem {name or f'logistics-{packages}'})\n  (:domain logistics)\n"
            f"  (:objects {' '.join(objects)})\n  (:init\n    {' '.join(init)})\n"
            f"  (:goal\n    (and {' '.join(goal)})))\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("domain", choices=["blocksworld", "logistics"])
    parser.add_argument("--sizes", type=int, nargs=2, required=True, metavar=("FROM", "TO"),
                        help="blocks or packages, one task per size")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--style", default="tower", choices=["tower", "towers"])
    parser.add_argument("--cities", type=int, default=3)
    parser.add_argument("--airplanes", type=int, default=1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for size in range(args.sizes[0], args.sizes[1] + 1):
        rng = random.Random(f"{args.domain}-{args.seed}-{size}")
        if args.domain == "blocksworld":
            name = f"other-bw-{args.style}-{size}"
            text = blocksworld_task(size, rng, args.style, name)
        else:
            name = f"other-logistics-c{args.cities}-a{args.airplanes}-{size}"
            text = logistics_task(size, rng, args.cities, 2, args.airplanes, name)
        (args.out / f"{name}.pddl").write_text(text)
        print(args.out / f"{name}.pddl")


if __name__ == "__main__":
    main()
