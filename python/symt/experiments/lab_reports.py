"""Fast Downward Lab's own report classes on symt's run records.

Where Lab already makes a table a report needs, the report uses it: the per-task HTML tables of
:class:`downward.reports.absolute.AbsoluteReport` (coverage, expansions, plan cost and times per
algorithm, with per-domain sums). Lab reads an evaluation folder's ``properties`` file; records
come from Lab runs or from a ``runs.csv`` alike, so they are turned back into Lab's attribute
names (:func:`lab_properties`) in a temporary folder first.

The expansions scatter stays symt's own (``plots.py``): Lab 8.10's ScatterPlotReport sizes both
axes from the side that has unsolved tasks only, so when the learned heuristic fails a task and
the baseline solves a larger one, that point is drawn outside the axes (tried on commit
5aeac4e's ``benchmarks/results/archive/configs-bw-b128``: ff's 315,630 expansions on ``n17-0``
past an axis ending at 10^5).
"""

from __future__ import annotations

import contextlib
import json
import logging
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .metrics import is_solved, plan_quality

ABSOLUTE_REPORT = "lab_absolute.html"
ABSOLUTE_ATTRIBUTES = ("coverage", "expansions", "cost", "search_time", "total_time")


def lab_domain(record: Mapping[str, Any]) -> str:
    """Lab's "domain" of a record: domain and group (``blocksworld:extrapolation``), since the
    tables sum per domain and a paper split or IPC level is a benchmark set of its own."""
    return f"{record['domain']}:{record['group']}"


def lab_properties(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Records as a Lab ``properties`` mapping: Lab's attribute names, values of solved runs only
    for expansions and cost (Lab's convention: a missing value is an unsolved run)."""
    properties = {}
    for record in records:
        run_id = [record["algorithm"], record["suite"], record["domain"], record["group"], record["problem"]]
        solved = is_solved(record)
        properties["-".join(run_id)] = {
            "id": run_id,
            "algorithm": record["algorithm"],
            "domain": lab_domain(record),
            "problem": record["problem"],
            "coverage": int(solved),
            "expansions": record["expansions"] if solved else None,
            "cost": plan_quality(record) if solved else None,
            "search_time": record["search_time"] if solved else None,
            "total_time": record["total_time"] if solved else None,
            "error": "success" if solved else record["outcome"],
        }
    return properties


@contextlib.contextmanager
def _evaluation_folder(records: Sequence[Mapping[str, Any]]) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="symt-lab-", suffix="-eval") as folder:
        (Path(folder) / "properties").write_text(json.dumps(lab_properties(records)))
        yield Path(folder)


@contextlib.contextmanager
def _quiet_lab() -> Iterator[None]:
    """Lab logs every step at INFO level to stdout; a report prints only its own lines. (Lab's
    reports reset the root logger's level themselves, so its INFO records are disabled instead.)"""
    logging.disable(logging.INFO)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


def write_absolute_report(records: Sequence[Mapping[str, Any]], path: Path, order: Sequence[str]) -> Path:
    """Lab's AbsoluteReport (HTML): every attribute of :data:`ABSOLUTE_ATTRIBUTES` per task and
    per domain, one column per algorithm of ``order``."""
    from downward.reports.absolute import AbsoluteReport

    with _evaluation_folder(records) as folder, _quiet_lab():
        AbsoluteReport(attributes=list(ABSOLUTE_ATTRIBUTES), filter_algorithm=list(order))(str(folder), str(path))
    return path
