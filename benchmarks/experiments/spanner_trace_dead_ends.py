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

With ``--model FILE`` (an exported symt model; ``--domain`` its domain file) the traced states are
valued again by that model, in Python, instead of the values the trace holds: the question becomes
how another model judges the states one search met. For a model with a dead-end head
(``symt dead-end-head``), whose value is +inf where the head fires, it also prints the share of
the dead ends and of the live states it marks, by tenths of the trace and of the dead ends by
their shortfall (loose nuts less usable spanners within reach) and by kind (the eight most
frequent triples of man's place, usable spanners within reach and loose nuts), and its verdict on
the trace's first state (the initial state); so it does for a trace written with such a model (its
pruned states are traced with value inf)::

    python benchmarks/experiments/spanner_trace_dead_ends.py spanner/testing/medium/p01.pddl trace.tsv \
        --model head.pt --domain spanner/domain.pddl
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
    return shortfall(atoms, order) > 0


def shortfall(atoms: str, order: dict[str, int]) -> int:
    """The state's loose nuts less its usable spanners within the man's reach (a dead end where
    positive: by how many spanners it falls short)."""
    _, within, loose = counts(atoms, order)
    return loose - within


def counts(atoms: str, order: dict[str, int]) -> tuple[int, int, int]:
    """The state's (man's place on the path, usable spanners within his reach, loose nuts)."""
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
    return reach, len(within & usable), loose


def model_values(model: Path, domain: Path, problem: Path, states: list[str], batch: int = 64) -> np.ndarray:
    """The exported ``model``'s values of the traced ``states`` (atoms as the trace writes them), by
    its forward pass on all atoms (symt and torch are imported here only)."""
    import torch

    from symt.export import load_exported
    from symt.pddl import ground, parse_domain, parse_problem
    from symt.tokens import Signature, collate, encode_task, rename

    module, meta = load_exported(model)
    parsed = parse_domain(domain)
    task = ground(parsed, parse_problem(problem, parsed))
    encoded = encode_task(task, Signature.from_json(meta), parsed)
    vocab = meta["vocab_size"]
    values: list[float] = []
    for start in range(0, len(states), batch):
        rows = []
        for atoms in states[start:start + batch]:
            facts = [task.fluent_index[(name.lower(), tuple(a.strip().lower() for a in args.split(",") if a.strip()))]
                     for name, args in ATOM.findall(atoms)]
            rows.append(rename(encoded.state_rows(facts), encoded.assignment, vocab))
        with torch.inference_mode():
            values.extend(float(value) for value in module(*collate(rows, vocab)))
    return np.array(values)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", type=Path, help="the Spanner problem the trace was written for")
    parser.add_argument("trace", type=Path, help="a SYMT_TRACE file (value TAB atoms per line)")
    parser.add_argument("--model", type=Path, help="value the traced states with this exported model instead")
    parser.add_argument("--domain", type=Path, help="the domain file (with --model)")
    args = parser.parse_args(argv)
    if args.model and not args.domain:
        parser.error("--model needs --domain")
    order = location_order(args.problem)
    values, described, states = [], [], []
    for number, line in enumerate(args.trace.open(), 1):
        value, tab, atoms = line.rstrip("\n").partition("\t")
        if not tab:
            print(f"error: {args.trace}:{number}: not 'value TAB atoms'", file=sys.stderr)
            return 2
        values.append(float(value))
        described.append(counts(atoms, order))
        states.append(atoms)
    v, described_states = np.array(values), np.array(described).reshape(-1, 3)
    gaps = described_states[:, 2] - described_states[:, 1]
    d = gaps > 0
    tenths = np.array_split(d, 10)
    print(f"{len(v):,} evaluations, {int(d.sum()):,} of them dead ends (first: evaluation {int(np.argmax(d)) + 1 if d.any() else '-'})")
    print("dead-end share by tenth of the trace: " + " ".join(f"{t.mean():.2f}" for t in tenths if len(t)))
    if args.model:
        v = model_values(args.model, args.domain, args.problem, states)
    marked = np.isinf(v)  # a dead-end head's +inf, in the trace or from --model
    if marked.any():
        by_tenth = [(m[~t].mean() if (~t).any() else float("nan"))
                    for m, t in zip(np.array_split(marked, 10), tenths)]
        name = args.model.name if args.model else "the traced model"
        print(f"{name} marks {marked[d].mean() if d.any() else float('nan'):.3f} of the dead ends and "
              f"{marked[~d].mean() if (~d).any() else float('nan'):.3f} of the live states dead; the first state "
              f"({'a dead end' if d[0] else 'live'}): {'marked' if marked[0] else 'not marked'}")
        print("live states marked dead by tenth of the trace: " + " ".join(f"{x:.2f}" for x in by_tenth))
        if d.any():
            print("dead ends marked by shortfall (loose nuts less usable spanners within reach; count, share): "
                  + ", ".join(f"{g}: {int((gaps == g).sum())}, {marked[gaps == g].mean():.2f}"
                              for g in np.unique(gaps[d])))
            kinds, inverse, sizes = np.unique(described_states[d], axis=0, return_inverse=True, return_counts=True)
            common = np.argsort(-sizes, kind="stable")[:8]
            print("the most frequent dead ends by (man's place, usable spanners within reach, loose nuts; count, share "
                  "marked): " + ", ".join(f"({', '.join(str(int(x)) for x in kinds[k])}): {int(sizes[k])}, "
                                          f"{marked[d][inverse.reshape(-1) == k].mean():.2f}" for k in common))
        d, v = d[~marked], v[~marked]  # the values below: of the states it leaves unmarked
        if not len(v):
            return 0
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
