"""Plots for the search-configuration comparison (``symt experiment configs-paper`` / ``configs-ipc``).

Reads one or more ``runs.csv`` (the experiments' reports) and writes, into ``--out``:

* ``coverage_over_time.png``: tasks solved within a given total time (translation, model loading
  and search), one curve per algorithm, one panel per suite -- the IPC way to see both coverage
  and speed;
* ``expansions_pairs.png``: expansions per task of each symt() configuration against the
  configuration without the learned heuristic that it extends (``symt-first`` against ``ff-pref``,
  ``symt-first-lazy`` against ``lama-first``, ``symt-batch`` against ``ff``), log-log, unsolved on
  the red line.

Usage::

    python benchmarks/experiments/plot_configs.py benchmarks/results/configs/runs.csv \\
        --out benchmarks/results/configs

(``configs/runs.csv`` holds both experiments' runs; the two ``runs.csv`` the committed plots were
first made from, ``configs-paper/`` and ``configs-ipc/``, are in commit 5aeac4e's
``benchmarks/results/``.)
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from symt.experiments.plots import draw_expansions_scatter  # noqa: E402

ORDER = ("symt-batch", "symt-first", "symt-first-lazy", "ff", "ff-pref", "lama-first")
PAIRS = (("ff-pref", "symt-first"), ("lama-first", "symt-first-lazy"), ("ff", "symt-batch"))


def read_runs(paths: list[Path]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for path in paths:
        with path.open(newline="") as handle:
            rows += list(csv.DictReader(handle))
    return rows


def solved(row: dict[str, str]) -> bool:
    return row["solved"] == "True" and row["plan_valid"] == "True"


def plot_coverage_over_time(rows: list[dict[str, str]], path: Path) -> None:
    suites = sorted({row["suite"] for row in rows})
    figure, axes = plt.subplots(1, len(suites), figsize=(5.5 * len(suites), 4.2), squeeze=False)
    for axis, suite in zip(axes[0], suites):
        tasks = {(r["domain"], r["group"], r["problem"]) for r in rows if r["suite"] == suite}
        for index, algorithm in enumerate(ORDER):
            times = sorted(float(r["total_time"]) for r in rows
                           if r["suite"] == suite and r["algorithm"] == algorithm and solved(r))
            if not times:
                continue
            xs = [0.1, *times]
            ys = [0, *range(1, len(times) + 1)]
            axis.step(xs, ys, where="post", color=f"C{index}", label=f"{algorithm} ({len(times)})",
                      linestyle="-" if algorithm.startswith("symt") else "--")
        axis.set_xscale("log")
        axis.set_xlabel("total time per task (s, log)")
        axis.set_ylabel(f"tasks solved (of {len(tasks)})")
        axis.set_title(f"{suite}: tasks solved within a time", fontsize=10)
        axis.grid(alpha=0.3)
        axis.legend(fontsize="small", loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_expansion_pairs(rows: list[dict[str, str]], path: Path) -> None:
    runs: dict[tuple[str, ...], dict[str, int | None]] = defaultdict(dict)
    for row in rows:
        key = (row["suite"], row["domain"], row["group"], row["problem"])
        runs[key][row["algorithm"]] = int(row["expansions"]) if solved(row) and row["expansions"] else None
    figure, axes = plt.subplots(1, len(PAIRS), figsize=(5 * len(PAIRS), 4.6))
    domains = sorted({f"{key[0]}/{key[1]}" for key in runs})
    for axis, (base, symt) in zip(axes, PAIRS):
        points = [(r.get(base), r.get(symt), f"{key[0]}/{key[1]}") for key, r in runs.items()
                  if base in r and symt in r and (r.get(base) is not None or r.get(symt) is not None)]
        if not points:
            axis.set_visible(False)
            continue
        draw_expansions_scatter(axis, points, domains, base, symt,
                                f"{symt} vs {base} (below the diagonal: {symt} expands fewer)")
    axes[0].legend(fontsize="x-small", loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="runs.csv files of configs experiments")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    options = parser.parse_args()
    rows = read_runs(options.runs)
    options.out.mkdir(parents=True, exist_ok=True)
    plot_coverage_over_time(rows, options.out / "coverage_over_time.png")
    plot_expansion_pairs(rows, options.out / "expansions_pairs.png")
    print(f"wrote {options.out}/coverage_over_time.png and expansions_pairs.png")


if __name__ == "__main__":
    main()
