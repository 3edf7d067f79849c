"""Issue 35's two measured targets, per domain, from the track report's runs:

1. coverage: the best symt configuration (``symt-first``, ``symt-first-lazy`` or the learned
   heuristic alone, ``symt-batch``) solves at least as many of the chosen levels' tasks as
   ``ff-pref`` (the issue asks for seven of the ten domains, over easy + medium);
2. expansions: ``symt-batch`` needs fewer expansions than ``ff`` as a geometric mean over the tasks
   both solve (seven of ten asked).

Beside the second, the same ratio for the field's strongest learned heuristic (``wl``, WL-GOOSE)
against ``ff``, and ``symt-batch`` against ``wl``: how far the bar is for a learned heuristic that
exists, measured in the same run.

Both are counted over the tasks of the chosen levels pooled, as the issue states them, from the same
runs the report tabulates (``symt report`` writes them to ``runs.csv``):

    .venv/bin/python benchmarks/experiments/ipc_track_criteria.py \\
        benchmarks/results/ipc/track/runs.csv --levels easy medium
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from symt.errors import SymtError
from symt.experiments.metrics import expansions_ratio, index_runs, solved_by_both, solved_count
from symt.experiments.records import read_csv

SYMT_CONFIGURATIONS = ("symt-first", "symt-first-lazy", "symt-batch")
COVERAGE_BASELINE = "ff-pref"
LEARNED = "symt-batch"
EXPANSIONS_BASELINE = "ff"
REFERENCE = "wl"

Run = Mapping[str, Any]


def domain_row(runs: Sequence[Run]) -> dict[str, Any]:
    """The two criteria for one domain's runs (all of them from the chosen levels)."""
    by_task = index_runs(runs)
    tasks = list(by_task)
    best_name, best_count = max(((name, solved_count(tasks, by_task, name)) for name in SYMT_CONFIGURATIONS),
                                key=lambda pair: pair[1])
    common = solved_by_both(tasks, by_task, LEARNED, EXPANSIONS_BASELINE)

    def ratio(first: str, second: str) -> float | None:
        return expansions_ratio(solved_by_both(tasks, by_task, first, second), by_task, first, second)

    return {
        "tasks": len(tasks), "best": best_name, "best_solved": best_count,
        "baseline_solved": solved_count(tasks, by_task, COVERAGE_BASELINE),
        "common": len(common), "ratio": expansions_ratio(common, by_task, LEARNED, EXPANSIONS_BASELINE),
        "reference_ratio": ratio(REFERENCE, EXPANSIONS_BASELINE), "learned_vs_reference": ratio(LEARNED, REFERENCE),
    }


def format_ratio(value: float | None) -> str:
    """``0.13×`` (two significant digits below 0.1), or ``–`` where no task was solved by both."""
    if value is None:
        return "–"
    return f"{value:.2f}×" if value >= 0.1 else f"{value:.2g}×"


def criteria_table(runs: Sequence[Run], levels: Sequence[str]) -> str:
    """A markdown table, one row per domain, and the two counts the issue asks for."""
    chosen = [run for run in runs if run["group"] in levels]
    if not chosen:
        raise SymtError(f"no runs at level(s) {', '.join(levels)}")
    domains = sorted({run["domain"] for run in chosen})
    lines = [
        f"Levels: {' + '.join(levels)}. Coverage: the best symt configuration against "
        f"{COVERAGE_BASELINE}; expansions: {LEARNED} / {EXPANSIONS_BASELINE}, geometric means over "
        "the tasks both solve (below 1: the learned heuristic needs fewer). For reference, the same "
        f"geometric means for {REFERENCE} (WL-GOOSE) / {EXPANSIONS_BASELINE} and {LEARNED} / {REFERENCE}, "
        "each over the tasks its own pair solves.",
        "",
        f"| domain | tasks | best symt configuration | solved | {COVERAGE_BASELINE} | coverage met "
        f"| common | expansions {LEARNED} / {EXPANSIONS_BASELINE} | expansions met "
        f"| {REFERENCE} / {EXPANSIONS_BASELINE} | {LEARNED} / {REFERENCE} |",
        "|---|--:|---|--:|--:|---|--:|--:|---|--:|--:|",
    ]
    coverage_met = expansions_met = reference_met = 0
    for domain in domains:
        row = domain_row([run for run in chosen if run["domain"] == domain])
        covered = row["best_solved"] >= row["baseline_solved"]
        fewer = row["ratio"] is not None and row["ratio"] < 1.0
        coverage_met += covered
        expansions_met += fewer
        reference_met += row["reference_ratio"] is not None and row["reference_ratio"] < 1.0
        lines.append(
            f"| {domain} | {row['tasks']} | {row['best']} | {row['best_solved']} | {row['baseline_solved']} "
            f"| {'yes' if covered else 'no'} | {row['common']} | {format_ratio(row['ratio'])} "
            f"| {'yes' if fewer else 'no'} | {format_ratio(row['reference_ratio'])} "
            f"| {format_ratio(row['learned_vs_reference'])} |")
    lines += ["", f"Coverage target met in {coverage_met} of {len(domains)} domains; "
              f"expansions target in {expansions_met} of {len(domains)} "
              f"({REFERENCE} needs fewer expansions than {EXPANSIONS_BASELINE} in {reference_met})."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="runs.csv files (symt experiment / symt report)")
    parser.add_argument("--levels", nargs="+", default=["easy", "medium"], help="levels to pool")
    args = parser.parse_args(argv)
    try:
        runs = [run for path in args.runs for run in read_csv(path)]
        table = criteria_table(runs, args.levels)
    except SymtError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    command = " ".join(["python benchmarks/experiments/ipc_track_criteria.py", *map(str, argv or sys.argv[1:])])
    sys.stdout.write(f"# Issue 35's two targets, per domain\n\nProduced by `{command}`.\n\n{table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
