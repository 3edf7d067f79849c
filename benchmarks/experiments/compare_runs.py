"""Two runs of the same experiment side by side: per domain (and level, where the suite has levels,
as the IPC 2023 track's easy and medium tasks, whose problem names repeat) and algorithm, coverage
in each, the tasks only one of them solves, and on the tasks both solve the geometric mean of the
expansion ratio (second / first), how many tasks expand exactly as many states, and the mean plan
length in each.

Usage: python benchmarks/experiments/compare_runs.py FIRST.csv SECOND.csv [--names A B]
(``runs.csv`` files that ``symt experiment`` writes next to its report)."""

from __future__ import annotations

import argparse
import csv
import math
from collections import defaultdict
from pathlib import Path


def load(path: Path) -> dict[tuple[str, str, str, str], dict[str, str]]:
    """The runs of ``path`` by (domain, level, algorithm, problem); the level is empty where the
    suite has none."""
    with path.open() as f:
        return {(row["domain"], row.get("group", ""), row["algorithm"], row["problem"]): row
                for row in csv.DictReader(f)}


def solved(row: dict[str, str] | None) -> bool:
    return row is not None and row["solved"] == "True" and row["plan_valid"] == "True"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--names", nargs=2, default=("first", "second"))
    args = parser.parse_args()
    first, second = load(args.first), load(args.second)
    groups: dict[tuple[str, str, str], list[tuple[str, str, str, str]]] = defaultdict(list)
    for key in sorted(set(first) | set(second)):
        groups[key[:3]].append(key)
    a, b = args.names
    print(f"| domain | algorithm | tasks | solved: {a} | solved: {b} | both | expansions {b} / {a} "
          f"(geo. mean) | same expansions | plan length {a} | plan length {b} | only {a} | only {b} |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (domain, level, algorithm), keys in sorted(groups.items()):
        both = [k for k in keys if solved(first.get(k)) and solved(second.get(k))]
        ratios = [math.log(max(1, int(second[k]["expansions"])) / max(1, int(first[k]["expansions"]))) for k in both]
        same = sum(first[k]["expansions"] == second[k]["expansions"] for k in both)
        length = [sum(int(runs[k]["plan_length"]) for k in both) / max(1, len(both)) for runs in (first, second)]
        geo = f"{math.exp(sum(ratios) / len(ratios)):.2f}" if ratios else "-"
        only = [" ".join(k[3] for k in keys if solved(one.get(k)) and not solved(other.get(k))) or "-"
                for one, other in ((first, second), (second, first))]
        where = f"{domain} ({level})" if level else domain
        print(f"| {where} | {algorithm} | {len(keys)} | {sum(solved(first.get(k)) for k in keys)} | "
              f"{sum(solved(second.get(k)) for k in keys)} | {len(both)} | {geo} | {same} | "
              f"{length[0]:.1f} | {length[1]:.1f} | {only[0]} | {only[1]} |")


if __name__ == "__main__":
    main()
