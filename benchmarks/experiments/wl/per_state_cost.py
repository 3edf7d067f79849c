"""Cost per evaluated state of each algorithm in experiment runs (issue 33): search time divided by
Fast Downward's evaluated states, median over the solved runs with at least 100 evaluations, per
domain. One number per heuristic measured in the same run on the same machine: wl() (WLPlan in an
embedded interpreter), symt() (libtorch) and ff().

    .venv/bin/python benchmarks/experiments/wl/per_state_cost.py benchmarks/results/wl/paper/runs.csv ...
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--algorithms", nargs="+", default=["wl", "symt-batch", "ff", "lama-first"])
    args = parser.parse_args()
    costs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for path in args.runs:
        with path.open() as handle:
            for row in csv.DictReader(handle):
                if row["algorithm"] not in args.algorithms or row["solved"] not in ("True", "true", "1"):
                    continue
                try:
                    evaluations, seconds = float(row["evaluations"]), float(row["search_time"])
                except ValueError:
                    continue
                if evaluations >= 100 and seconds > 0:
                    costs[(row["domain"], row["algorithm"])].append(1e6 * seconds / evaluations)
    domains = sorted({d for d, _ in costs})
    print("| domain | " + " | ".join(f"{a} (µs/state)" for a in args.algorithms) + " |")
    print("|---|" + "--:|" * len(args.algorithms))
    for domain in domains:
        cells = []
        for algorithm in args.algorithms:
            values = costs.get((domain, algorithm))
            cells.append(f"{statistics.median(values):,.0f} ({len(values)})" if values else "–")
        print(f"| {domain} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
