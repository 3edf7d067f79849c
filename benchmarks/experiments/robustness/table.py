"""One table over several experiments' runs.csv on the same tasks: coverage per domain and group,
and the geometric mean of expansions over the tasks that every column with runs in the group
solved, with the number of those tasks in brackets (issue 32).

Each input is ``LABEL=RUNS.csv``; a column is ``LABEL algorithm``, so the same algorithm run with
two models (the shipped one and a candidate) gets two columns, and inputs with the same label make
one column, a later input's runs replacing an earlier one's of the same task:

    .venv/bin/python benchmarks/experiments/robustness/table.py shipped=benchmarks/results/robustness/variants/shipped/runs.csv \\
        candidate=benchmarks/results/robustness/variants/blocksworld-candidate/runs.csv --domains blocksworld
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from pathlib import Path

from symt.experiments.records import GROUP_ORDER, read_csv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", metavar="LABEL=RUNS.csv")
    parser.add_argument("--domains", nargs="+", help="only these domains")
    parser.add_argument("--expansions", nargs="+", default=["symt-batch"],
                        help="algorithms whose expansions get columns (default: symt-batch)")
    args = parser.parse_args()
    solved: dict[tuple[str, str, str], dict[str, bool]] = defaultdict(dict)
    expansions: dict[tuple[str, str, str], dict[str, float]] = defaultdict(dict)
    columns: list[str] = []
    for item in args.runs:
        label, _, path = item.partition("=")
        if not path or not Path(path).is_file():
            parser.error(f"{item}: expected LABEL=RUNS.csv with an existing file")
        for record in read_csv(Path(path)):
            if args.domains and record["domain"] not in args.domains:
                continue
            column = f"{label} {record['algorithm']}"
            if column not in columns:
                columns.append(column)
            key = (record["domain"], record["group"], record["problem"])
            # A later input's run of the same task replaces an earlier one's, expansions included.
            solved[key][column] = bool(record["solved"])
            expansions[key].pop(column, None)
            if record["solved"] and record["expansions"] is not None:
                expansions[key][column] = float(record["expansions"])
    # Side by side: an algorithm's columns next to each other, labels in the order given.
    labels = [item.partition("=")[0] for item in args.runs]
    rank = {a: i for i, a in enumerate(("symt-guidance", "symt-batch", "ff", "lama-first"))}
    columns.sort(key=lambda c: (rank.get(c.split(" ", 1)[1], len(rank)), c.split(" ", 1)[1], labels.index(c.split(" ", 1)[0])))
    order = {g: i for i, g in enumerate(GROUP_ORDER)}
    groups = sorted({(d, g) for d, g, _ in solved}, key=lambda dg: (dg[0], order.get(dg[1], len(order)), dg[1]))
    counted = [c for c in columns if c.split(" ", 1)[1] in args.expansions]
    print("| domain | group | " + " | ".join(columns) + " | " + " | ".join(f"{c} expansions" for c in counted) + " |")
    print("|---|---|" + "---|" * (len(columns) + len(counted)))
    for domain, group in groups:
        keys = [k for k in solved if k[:2] == (domain, group)]
        ran = [c for c in columns if any(c in solved[k] for k in keys)]  # columns with runs in this group
        cells = [f"{sum(solved[k].get(c, False) for k in keys)}/{sum(c in solved[k] for k in keys)}"
                 if c in ran else "–" for c in columns]
        common = [k for k in keys if all(c in expansions[k] for c in counted if c in ran)]
        means = [math.exp(sum(math.log(max(1.0, expansions[k][c])) for k in common) / len(common))
                 if common and c in ran else None for c in counted]
        print(f"| {domain} | {group} | " + " | ".join(cells) + " | "
              + " | ".join("–" if m is None else f"{m:,.0f} ({len(common)})" for m in means) + " |")


if __name__ == "__main__":
    main()
