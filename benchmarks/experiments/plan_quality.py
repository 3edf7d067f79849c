"""How good are the plans SymT-ED writes, beside lama-first's (issue 64; the paper's Appendix E2)?

Per domain and split, for each algorithm: coverage, the paper's quality scores QS (best known length
over plan length, unsolved tasks 0) and QS_S (over solved tasks only), and for each SymT-ED
algorithm against lama-first on the tasks both solve: how often its plan is shorter, as long or
longer, and the median wall time of each. Best known = the shorter of the published bound (the
``best_known`` column: optimal lengths where the paper's splits give them) and every valid plan in
the files. Plan lengths do not depend on the machine, so runs of separate experiments combine.

Usage: python benchmarks/experiments/plan_quality.py RUNS.csv [RUNS.csv ...] --learned A [A ...]
    [--reference lama-first] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections import defaultdict
from pathlib import Path

SPLITS = ("validation", "interpolation", "extrapolation")


def load(paths: list[Path]) -> dict[tuple[str, str, str], dict[str, dict[str, str]]]:
    """(domain, split, problem) -> algorithm -> run; a second run of one pair is an error."""
    runs: dict[tuple[str, str, str], dict[str, dict[str, str]]] = defaultdict(dict)
    for path in paths:
        with path.open() as handle:
            for row in csv.DictReader(handle):
                key = (row["domain"], row["group"], row["problem"])
                if row["algorithm"] in runs[key]:
                    raise SystemExit(f"{path}: a second run of {row['algorithm']} on {key}")
                runs[key][row["algorithm"]] = row
    return runs


def length(run: dict[str, str] | None) -> int | None:
    """The plan length of a run whose plan VAL accepted, else None."""
    if run is None or run["solved"] != "True" or run["plan_valid"] != "True":
        return None
    return int(float(run["plan_length"]))


def best_known(by_algorithm: dict[str, dict[str, str]]) -> int | None:
    values = [length(run) for run in by_algorithm.values()]
    values += [int(float(run["best_known"])) for run in by_algorithm.values() if run.get("best_known")]
    values = [v for v in values if v is not None]
    return min(values) if values else None


def table(runs, learned: list[str], reference: str) -> list[str]:
    algorithms = [*learned, reference]
    lines = ["| domain | split | tasks | " + " | ".join(f"{a}: solved, QS, QS_S" for a in algorithms)
             + " | " + " | ".join(f"{a} vs {reference}: shorter / equal / longer" for a in learned)
             + " | median wall s: " + ", ".join(algorithms) + " |",
             "|---|---|--:|" + "---|" * len(algorithms) + "---|" * len(learned) + "---|"]
    groups: dict[tuple[str, str], list[dict[str, dict[str, str]]]] = defaultdict(list)
    for (domain, split, _), by_algorithm in runs.items():
        groups[(domain, split)].append(by_algorithm)
    for (domain, split) in sorted(groups, key=lambda k: (k[0], SPLITS.index(k[1]) if k[1] in SPLITS else 9)):
        tasks = groups[(domain, split)]
        cells = [domain, split, str(len(tasks))]
        for algorithm in algorithms:
            scores = []
            for by_algorithm in tasks:
                plan, best = length(by_algorithm.get(algorithm)), best_known(by_algorithm)
                scores.append(0.0 if plan is None or best is None else best / plan)
            solved = [s for s, t in zip(scores, tasks) if length(t.get(algorithm)) is not None]
            qs_s = f"{sum(solved) / len(solved):.2f}" if solved else "–"
            cells.append(f"{len(solved)}, {sum(scores) / len(scores):.2f}, {qs_s}")
        for algorithm in learned:
            pairs = [(length(t.get(algorithm)), length(t.get(reference))) for t in tasks]
            pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
            cells.append(f"{sum(a < b for a, b in pairs)} / {sum(a == b for a, b in pairs)} / "
                         f"{sum(a > b for a, b in pairs)}")
        times = []
        for algorithm in algorithms:
            walls = [float(t[algorithm]["total_time"]) for t in tasks
                     if length(t.get(algorithm)) is not None and t[algorithm].get("total_time")]
            times.append(f"{statistics.median(walls):.1f}" if walls else "–")
        cells.append(", ".join(times))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+", help="runs.csv files of `symt experiment`")
    parser.add_argument("--learned", nargs="+", required=True, help="the plan generators' algorithm names")
    parser.add_argument("--reference", default="lama-first")
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args()
    runs = load(args.runs)
    present = {a for by_algorithm in runs.values() for a in by_algorithm}
    missing = [a for a in [*args.learned, args.reference] if a not in present]
    if missing:
        raise SystemExit(f"not in the runs: {', '.join(missing)} (they have {', '.join(sorted(present))})")
    lines = table(runs, args.learned, args.reference)
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
