"""Reports of IPC-style planning experiments: tables, CSV files and plots from plain run records.

A run record is a flat dict, one per (task, algorithm) run, with the keys of :data:`RECORD_FIELDS`.
Everything works on lists of such dicts, so a report can be rebuilt from ``runs.csv`` alone (no
Fast Downward Lab import needed). By concern: :mod:`.records` (schema, order, CSV), :mod:`.metrics`
(solved, quality, commonly solved, summary rows), :mod:`.paper_tables` (published numbers),
:mod:`.markdown` and :mod:`.plots`; here :func:`write_report`, which writes a folder::

    report.md     coverage, quality scores, expansions, times, outcomes, published comparisons
    runs.csv      every record
    summary.csv   one row per (suite, domain, group, algorithm)
    *.png         coverage against task size, expansions scatter, plan cost against best known

Conventions (the paper's metrics, ../shared/paper.md section "Metrics"):

- a run is solved only if it found a plan and the plan validated; invalid plans count unsolved;
- plan quality is the plan's cost as VAL computes it (``plan_cost``; its length in a domain without
  action costs, and in records made before costs were recorded);
- the best known cost of a task is the minimum of every bound in the records and of every valid
  plan any algorithm found, so a plan cheaper than the published bound becomes the reference;
- QS averages best/cost over all tasks (unsolved count 0), QS_S over solved tasks only;
- expansions and times are compared only on tasks solved by every algorithm that reports that
  metric ("commonly solved", as in Lab), because averages over different task sets mislead: an
  algorithm solving only the easy tasks would look cheap.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import WriteError
from .lab_reports import ABSOLUTE_REPORT, write_absolute_report
from .markdown import failure_table, render_markdown
from .metrics import (
    algorithm_order,
    best_known_lengths,
    check_records,
    quality_scores,
    read_summary_csv,
    summary_rows,
    write_summary_csv,
)
from .paper_tables import IPC2023_COVERAGE, IPC2023_PLANNERS, PAPER_COVERAGE
from .plots import COVERAGE_PLOT, EXPANSIONS_PLOT, PLAN_LENGTH_PLOT, write_plots
from .published import ipc_comparison_table, paper_comparison_table, plan_generation_table
from .records import RECORD_FIELDS, read_csv, write_csv

__all__ = [
    "IPC2023_COVERAGE", "IPC2023_PLANNERS", "PAPER_COVERAGE", "RECORD_FIELDS", "best_known_lengths",
    "failure_table", "ipc_comparison_table", "paper_comparison_table", "plan_generation_table",
    "quality_scores", "read_csv", "read_summary_csv", "summary_rows", "write_csv", "write_plots",
    "write_report", "write_summary_csv",
]

# ---------------------------------------------------------------------------------------------
# The report


def copy_report(report_dir: str | Path, results: str | Path) -> None:
    """Copy the files of a written report (not its subfolders) into ``results``, e.g. a folder
    of ``benchmarks/results/``."""
    import shutil

    results = Path(results)
    results.mkdir(parents=True, exist_ok=True)
    for item in Path(report_dir).iterdir():
        if item.is_file():
            shutil.copyfile(item, results / item.name)


def write_report(
    records: Iterable[Mapping[str, Any]],
    out_dir: str | Path,
    title: str,
    command: str | None = None,
    notes: str | None = None,
    algorithms: Sequence[str] | None = None,
    limits: str | None = None,
    learned: str = "symt",
    baselines: Sequence[str] | None = None,
) -> Path:
    """Write runs.csv, summary.csv, the plots, Lab's per-task tables (lab_absolute.html) and
    report.md into ``out_dir``; return report.md.

    ``command`` (what produced the runs) and ``notes`` go under the title; ``limits`` (such as
    "20 s, 4 GiB per task") goes into the report and into the headings of the comparisons with
    the paper and the IPC, whose limits differ. ``algorithms`` selects and orders the table
    columns (runs.csv keeps every record). ``learned`` is compared pairwise against each of
    ``baselines`` (default: every other search algorithm) in the Markdown, and against the first
    baseline (default ``ff``) in the expansions scatter plot.
    """
    records = list(records)
    check_records(records)
    final = Path(out_dir)
    final.mkdir(parents=True, exist_ok=True)
    # Written into a private sibling folder, then moved in file by file: a failure (a full disk)
    # leaves the previous report whole and no half of the new one (issue 36).
    out = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=final.parent))
    try:
        _write_report_files(records, out, title, command, notes, algorithms, limits, learned, baselines)
        for name in (COVERAGE_PLOT, EXPANSIONS_PLOT, PLAN_LENGTH_PLOT):  # a plot without data this time
            if not (out / name).exists():
                (final / name).unlink(missing_ok=True)
        for item in sorted(out.iterdir()):
            target = final / item.name
            if target.is_dir() and not item.is_dir():
                shutil.rmtree(target)
            os.replace(item, target) if not item.is_dir() else _replace_folder(item, target)
    except OSError as error:
        raise WriteError(f"{final}: cannot write the report ({error.strerror or error}); the previous report "
                         "is unchanged") from None
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return final / "report.md"


def _replace_folder(source: Path, target: Path) -> None:
    """Put folder ``source`` where ``target`` is (a report's plot folder)."""
    if target.exists():
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    os.replace(source, target)


def _write_report_files(records: list, out: Path, title: str, command: str | None, notes: str | None,
                        algorithms: Sequence[str] | None, limits: str | None, learned: str,
                        baselines: Sequence[str] | None) -> None:
    order = algorithm_order(records, algorithms)
    rows = summary_rows(records, order)
    write_csv(records, out / "runs.csv")
    write_summary_csv(rows, out / "summary.csv")
    plots = write_plots(records, out, order, learned=learned if learned in order else None,
                        baseline=baselines[0] if baselines else "ff")
    write_absolute_report(records, out / ABSOLUTE_REPORT, order)
    (out / "report.md").write_text(
        render_markdown(records, rows, order, title, command, notes, limits, plots, learned, baselines),
        encoding="utf-8",
    )

