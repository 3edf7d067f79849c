"""The tables of ``benchmarks/results/learn/README.md`` from ``symt learn``'s ``verdict.json`` files.

Per file, one table: solved of the held-out problems per configuration, and over the problems
every configuration solves, the geometric mean of expansions and the mean plan length.

    .venv/bin/python benchmarks/experiments/learn_table.py benchmarks/results/learn/driverlog-p01-p12.json ...
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

CONFIGS = ("symt", "wl", "ff", "symt-first", "lama-first")
HEADERS = ("symt (plain GBFS)", "wl", "ff", "symt-first", "lama-first")


def table(verdict: dict) -> str:
    """The Markdown table of one verdict."""
    runs = {(r["config"], r["problem"]): r for r in verdict["runs"]}
    problems = sorted({p for _, p in runs})
    common = [p for p in problems if all(runs[c, p]["solved"] for c in CONFIGS)]
    solved = {c: sum(runs[c, p]["solved"] for p in problems) for c in CONFIGS}
    best = max(solved.values())

    def geomean(c: str) -> str:
        values = [runs[c, p]["expansions"] for p in common]
        return f"{math.exp(sum(math.log(max(v, 1)) for v in values) / len(values)):,.0f}" if values else "–"

    def length(c: str) -> str:
        return f"{sum(runs[c, p]['cost'] for p in common) / len(common):.1f}" if common else "–"

    lines = [f"| | {' | '.join(HEADERS)} |", f"|---{'|---' * len(CONFIGS)}|",
             "| solved | " + " | ".join(f"**{solved[c]}**" if solved[c] == best else str(solved[c]) for c in CONFIGS) + " |",
             f"| expansions ({len(common)} common) | " + " | ".join(geomean(c) for c in CONFIGS) + " |",
             "| plan length | " + " | ".join(length(c) for c in CONFIGS) + " |"]
    return "\n".join(lines)


def main(paths: list[str]) -> None:
    for path in paths:
        verdict = json.loads(Path(path).read_text())
        print(f"{Path(path).name}: learns from {', '.join(verdict['train'])} (validation: "
              f"{', '.join(verdict.get('validation', ['?']))}); phases {verdict.get('seconds')}; "
              f"ranking accuracy {verdict['rank_accuracy']:.2f}\n\n{table(verdict)}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
