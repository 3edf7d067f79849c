"""Which states a SymT-E heuristic values lowest in a failed search, and how far from the goal they are.

Question: when plain GBFS with a learned heuristic reaches a low value after a few expansions and
then fills the rest of its time with a plateau, what do the states on that plateau look like? The
plugin writes every state it evaluates, with the model's raw value, to the file named by
``SYMT_TRACE``; this reads such a trace and the task's goal and prints the lowest-valued states with
the goal atoms they miss and the atoms of goal predicates they hold beyond the goal (for Satellite,
images taken that no goal asks for), and a least-squares fit of the value over all traced states
against, per goal predicate, the goal atoms missing and the atoms held beyond the goal::

    SYMT_TRACE=trace.tsv fast-downward --overall-time-limit 5 domain.pddl p16.pddl \\
        --search "batch_eager_greedy([symt()])"
    python benchmarks/experiments/trace_goal_count.py domain.pddl p16.pddl trace.tsv
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import numpy as np

from symt.pddl.parser import parse_domain, parse_problem


def atom_text(predicate: str, terms: tuple[str, ...]) -> str:
    """An atom as the trace writes it: ``pred(a, b)``."""
    return f"{predicate}({', '.join(terms)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("domain", type=Path)
    parser.add_argument("problem", type=Path)
    parser.add_argument("trace", type=Path, help="a SYMT_TRACE file: value TAB atoms joined by ';'")
    parser.add_argument("--show", type=int, default=8, help="lowest-valued states to list (8)")
    args = parser.parse_args()
    problem = parse_problem(args.problem, parse_domain(args.domain))
    goal = {atom_text(lit.predicate, tuple(lit.terms)) for lit in problem.goal if not lit.negated}
    goal_predicates = {atom.split("(")[0] for atom in goal}
    rows = []
    for line in args.trace.read_text().splitlines():
        value, atoms = line.split("\t")
        held = set(atoms.split(";")) if atoms else set()
        extra = {a for a in held - goal if a.split("(")[0] in goal_predicates}
        rows.append((float(value), sorted(goal - held), sorted(extra)))
    predicates = sorted(goal_predicates)
    features = np.array([[sum(1 for a in missing if a.startswith(p + "(")) for p in predicates]
                         + [sum(1 for a in extra if a.startswith(p + "(")) for p in predicates] + [1.0]
                         for _, missing, extra in rows], dtype=float)
    values = np.array([row[0] for row in rows])
    coefficients = np.linalg.lstsq(features, values, rcond=None)[0]
    r2 = 1 - ((features @ coefficients - values) ** 2).sum() / ((values - values.mean()) ** 2).sum()
    rows.sort(key=lambda row: row[0])
    print(f"{len(rows)} states evaluated; the goal has {len(goal)} atoms")
    print("| value | goal atoms missing | atoms of goal predicates beyond the goal |")
    print("|--:|---|---|")
    for value, missing, extra in rows[: args.show]:
        print(f"| {value:.2f} | {len(missing)}: {' '.join(missing)} | {len(extra)}: {' '.join(extra)} |")
    lowest = rows[:100]
    print(f"\nthe 100 lowest-valued states miss {statistics.mean(len(r[1]) for r in lowest):.1f} goal atoms "
          f"on average (values {lowest[0][0]:.2f} to {lowest[-1][0]:.2f}); "
          f"states missing at most one: {sum(1 for r in rows if len(r[1]) <= 1)}")
    terms = [f"{c:+.2f} per {p} missing" for p, c in zip(predicates, coefficients, strict=False)]
    terms += [f"{c:+.2f} per {p} beyond the goal" for p, c in zip(predicates, coefficients[len(predicates):],
                                                                  strict=False)]
    print(f"fit over all {len(rows)} states (R^2 {r2:.2f}): value = {coefficients[-1]:.2f} " + " ".join(terms))


if __name__ == "__main__":
    main()
