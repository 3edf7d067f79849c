"""Which states a Spanner search evaluated were dead ends, and how a model valued them.

Question: when `symt-first-lazy` stalls on an IPC 2023 Spanner task, is it searching among dead
ends the model values like live states? Spanner's dead ends are known by construction: links lead
one way from the shed to the gate, a spanner tightens one nut and is used up, so a state can
reach the goal exactly when the usable spanners the man carries plus the spanners lying at his
location or ahead of it are at least the loose nuts. This script applies that count, written from
the domain's rules and independent of symt, to each state of a ``SYMT_TRACE`` file (the plugin
writes every state it evaluates with its raw value, in evaluation order). It tells the man from the
spanners and nuts by the names the IPC 2023 generator gives them (``spanner…``, ``nut…``), so it is
a probe for that collection's tasks::

    SYMT_TRACE=trace.tsv fast-downward --overall-time-limit 30s --alias symt-first-lazy \\
        spanner/domain.pddl spanner/testing/medium/p01.pddl
    python benchmarks/experiments/spanner_trace_dead_ends.py spanner/testing/medium/p01.pddl trace.tsv

It prints the share of dead ends among the evaluations, by tenths of the trace, and the share of
(dead end, live state) pairs among the evaluated states whose dead end has the higher value.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ATOM = re.compile(r"(\w[\w-]*)\(([^)]*)\)")


def location_order(problem: Path) -> dict[str, int]:
    """Each location's place on the one-way path of ``problem``'s ``link`` facts (the shed 0)."""
    links = dict(re.findall(r"\(\s*link\s+([\w-]+)\s+([\w-]+)\s*\)", problem.read_text().lower()))
    starts = set(links) - set(links.values())
    if len(starts) != 1:
        raise SystemExit(f"error: {problem}: the links do not form one path")
    order, place = {}, starts.pop()
    while place is not None and place not in order:
        order[place] = len(order)
        place = links.get(place)
    return order


def is_dead_end(atoms: str, order: dict[str, int]) -> bool:
    """Whether the state (atoms as the trace writes them, ``pred(a, b)`` joined by ``;``) has fewer
    usable spanners within the man's reach than loose nuts."""
    at: dict[str, str] = {}
    usable, carried, loose = set(), set(), 0
    for name, args in ATOM.findall(atoms):
        objects = [a.strip() for a in args.split(",")]
        if name == "at":
            at[objects[0]] = objects[1]
        elif name == "usable":
            usable.add(objects[0])
        elif name == "carrying":
            carried.add(objects[1])
        elif name == "loose":
            loose += 1
    men = [o for o, place in at.items() if place in order and not o.startswith(("spanner", "nut"))]
    spanners_here = {o for o in at if o.startswith("spanner")}
    if len(men) != 1:
        raise SystemExit(f"error: a traced state without exactly one man: {atoms[:120]}")
    reach = order[at[men[0]]]
    within = {s for s in spanners_here if order.get(at[s], -1) >= reach} | carried
    return len(within & usable) < loose


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", type=Path, help="the Spanner problem the trace was written for")
    parser.add_argument("trace", type=Path, help="a SYMT_TRACE file (value TAB atoms per line)")
    args = parser.parse_args(argv)
    order = location_order(args.problem)
    values, dead = [], []
    for number, line in enumerate(args.trace.open(), 1):
        value, tab, atoms = line.rstrip("\n").partition("\t")
        if not tab:
            print(f"error: {args.trace}:{number}: not 'value TAB atoms'", file=sys.stderr)
            return 2
        values.append(float(value))
        dead.append(is_dead_end(atoms, order))
    v, d = np.array(values), np.array(dead, dtype=bool)
    tenths = np.array_split(d, 10)
    print(f"{len(v):,} evaluations, {int(d.sum()):,} of them dead ends (first: evaluation {int(np.argmax(d)) + 1 if d.any() else '-'})")
    print("dead-end share by tenth of the trace: " + " ".join(f"{t.mean():.2f}" for t in tenths if len(t)))
    if d.any() and (~d).any():
        rng = np.random.default_rng(0)  # at most 2,000 of each, so that the pairs stay few
        dv = rng.choice(v[d], size=min(2000, int(d.sum())), replace=False)
        lv = rng.choice(v[~d], size=min(2000, int((~d).sum())), replace=False)
        gap = dv[:, None] - lv[None, :]
        higher = np.mean(np.where(gap == 0, 0.5, (gap > 0).astype(float)))
        print(f"dead end valued higher than a live state: {higher:.2f} of the pairs; least value: "
              f"dead ends {v[d].min():.2f}, live {v[~d].min():.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
