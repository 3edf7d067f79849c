"""One Markdown table from the per-task rows of ``plan_recipe.py --csv``: do several plan-generator
files (seeds of two recipes, say) differ in the tasks they solve and in the length of their plans?

Question it answers (issue 64, the contrastive ablation over seeds): per model and decoding, how
many tasks of each split it solves, and how many steps its plans take in all on the tasks that
*every* model of the table solves with that decoding (so the sums compare like with like).

Usage (from the repository root)::

    .venv/bin/python benchmarks/experiments/plan_recipe.py DATA a=FILE b=FILE ... --csv rows.csv
    .venv/bin/python benchmarks/experiments/plan_recipe_table.py rows.csv [--splits extrapolation]
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path

SPLITS = ("validation", "interpolation", "extrapolation")


def table(rows: list[dict[str, str]], splits: tuple[str, ...]) -> str:
    """The Markdown table: one line per model and strategy, in the order the rows name them."""
    order: list[tuple[str, str]] = []
    solved: dict[tuple[str, str, str], int] = defaultdict(int)
    tasks: dict[tuple[str, str, str], int] = defaultdict(int)
    lengths: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for row in rows:
        key = (row["model"], row["strategy"])
        if key not in order:
            order.append(key)
        tasks[(*key, row["split"])] += 1
        if row["solved"] == "1":
            solved[(*key, row["split"])] += 1
            lengths[key][row["task"]] = int(row["plan_length"])
    strategies = list(dict.fromkeys(strategy for _, strategy in order))
    common = {strategy: set.intersection(*(set(lengths[key]) for key in order if key[1] == strategy))
              for strategy in strategies}
    header = ["model", "decoding", *(f"{split} solved" for split in splits), "plan steps on the common tasks"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for model, strategy in order:
        cells = [f"{solved[(model, strategy, split)]}/{tasks[(model, strategy, split)]}" for split in splits]
        steps = sum(lengths[(model, strategy)][task] for task in common[strategy])
        lines.append("| " + " | ".join([model, strategy, *cells, f"{steps:,} ({len(common[strategy])} tasks)"]) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", type=Path, help="rows of plan_recipe.py --csv")
    parser.add_argument("--splits", nargs="+", default=list(SPLITS))
    args = parser.parse_args()
    with args.csv.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    print(table(rows, tuple(args.splits)))


if __name__ == "__main__":
    main()
