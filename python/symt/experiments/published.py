"""The report's comparisons with published numbers: our coverage beside the paper's tables
(search and plan generation) and beside the IPC 2023 learning track's planners. The numbers
themselves are transcribed in ``paper_tables``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .metrics import (
    algorithm_order,
    best_known_lengths,
    check_records,
    group_scopes,
    index_runs,
    is_solved,
    quality_score,
    solved_count,
)
from .paper_tables import (
    IPC2023_COVERAGE,
    IPC2023_LEVELS,
    IPC2023_PLANNERS,
    IPC2023_TASKS_PER_LEVEL,
    PAPER_ABLATION_COVERAGE,
    PAPER_ABLATION_QS,
    PAPER_ABLATION_QSS,
    PAPER_BASE_COVERAGE,
    PAPER_BASE_QS,
    PAPER_BASE_QSS,
    PAPER_COLUMNS,
    PAPER_COVERAGE,
    PAPER_DOMAIN_ALIASES,
)
from .tables import MISSING, fraction, markdown_table


def _paper_domain(domain: str) -> str:
    lowered = domain.lower()
    return PAPER_DOMAIN_ALIASES.get(lowered, lowered)


def paper_comparison_table(
    records: Iterable[Mapping[str, Any]], algorithm_for_column: Mapping[str, str] | None = None
) -> str:
    """Markdown table of our coverage beside the paper's, per paper domain and split we ran.

    ``algorithm_for_column`` maps a heading of ours to the algorithm shown under it, e.g.
    ``{"SymT-E + GBFS": "symt"}``; default: every algorithm under its own name. Fractions have two
    decimals; the paper's columns come from :data:`PAPER_COVERAGE` ("–" for rows it lacks).
    Returns "" when there are no ``suite == "paper"`` records.
    """
    paper_records = [record for record in records if record.get("suite") == "paper"]
    if not paper_records:
        return ""
    check_records(paper_records)
    if algorithm_for_column is None:
        algorithm_for_column = {
            algorithm: algorithm for algorithm in algorithm_order(paper_records, None)
        }
    runs = index_runs(paper_records)
    header = [
        "domain",
        "split",
        "tasks",
        *(f"ours: {heading}" for heading in algorithm_for_column),
        *(f"paper: {column}" for column in PAPER_COLUMNS),
    ]
    table = []
    for (_, domain, group), tasks in group_scopes(paper_records).items():
        ours = [
            fraction(solved_count(tasks, runs, algorithm) / len(tasks))
            for algorithm in algorithm_for_column.values()
        ]
        published = PAPER_COVERAGE.get((_paper_domain(domain), group))
        theirs = [
            fraction(published[column]) if published else MISSING for column in PAPER_COLUMNS
        ]
        table.append([domain, group, len(tasks), *ours, *theirs])
    return markdown_table(header, table)


_PLAN_TABLES = {
    ("base", "coverage"): PAPER_BASE_COVERAGE,
    ("base", "qs"): PAPER_BASE_QS,
    ("base", "qs_s"): PAPER_BASE_QSS,
    ("ablation", "coverage"): PAPER_ABLATION_COVERAGE,
    ("ablation", "qs"): PAPER_ABLATION_QS,
    ("ablation", "qs_s"): PAPER_ABLATION_QSS,
}
PLAN_TABLE_HEADINGS: tuple[str, ...] = (
    "PlanGPT greedy", "PlanGPT applicable", "PlanGPT regrounding", "SymT-E guidance",
    "SymT-ED greedy", "SymT-ED applicable", "SymT-ED regrounding",
    "SymT-ED first action, regrounding (symt's)", "SymT-ED first action, regrounding-unvisited (symt's)",
)
"""Column headings of :func:`plan_generation_table`: the paper's seven columns, then symt's
SymT-ED trained on first actions (no paper value)."""


def plan_generation_table(
    records: Iterable[Mapping[str, Any]], algorithms: Sequence[str], metric: str, models: str
) -> str:
    """The paper's plan-generation table for ``metric`` (coverage, qs or qs_s), ours beside its.

    ``algorithms`` are ours for the paper's seven columns, in its order (:data:`PLAN_TABLE_HEADINGS`),
    and optionally symt's eighth, which the paper does not have;
    ``models`` is "base" or "ablation" and picks the paper's table. Cells: "ours (paper)", "–"
    where one side has no value (QS_S with nothing solved, a column we did not run). Best known
    plan lengths are taken over every record, as everywhere in this report. Returns "" when none
    of ``algorithms`` ran on the paper suite.
    """
    paper_records = [record for record in records if record.get("suite") == "paper"]
    if not any(record["algorithm"] in algorithms for record in paper_records):
        return ""
    check_records(paper_records)
    runs = index_runs(paper_records)
    best = best_known_lengths(paper_records)
    published = _PLAN_TABLES[(models, metric)]
    table = []
    for (_, domain, group), tasks in group_scopes(paper_records).items():
        theirs = published.get((_paper_domain(domain), group))
        cells = []
        for column, algorithm in enumerate(algorithms):
            scores = [quality_score(runs[task][algorithm], best[task]) for task in tasks
                      if algorithm in runs[task]]
            solved = [task for task in tasks if is_solved(runs[task].get(algorithm))]
            if len(scores) < len(tasks):
                ours = None
            elif metric == "coverage":
                ours = len(solved) / len(tasks)
            elif metric == "qs":
                ours = sum(scores) / len(tasks)
            else:
                ours = sum(scores) / len(solved) if solved else None
            paper = theirs[column] if theirs and column < len(theirs) else None
            cells.append(f"{fraction(ours)} ({fraction(paper)})")
        table.append([domain, group, len(tasks), *cells])
    return markdown_table(["domain", "split", "tasks", *PLAN_TABLE_HEADINGS[: len(algorithms)]], table)


def ipc_comparison_table(
    records: Iterable[Mapping[str, Any]], algorithms: Sequence[str] | None = None
) -> str:
    """Markdown table of our solved counts beside the IPC 2023 learning track planners', per
    domain and level we ran. Ours read "solved/tasks" with our actual number of tasks; the
    competition's read "solved/30". Returns "" when there are no ``suite == "ipc2023"`` records.
    """
    ipc_records = [record for record in records if record.get("suite") == "ipc2023"]
    if not ipc_records:
        return ""
    check_records(ipc_records)
    order = algorithm_order(ipc_records, algorithms)
    runs = index_runs(ipc_records)
    header = [
        "domain",
        "level",
        "tasks",
        *(f"ours: {algorithm}" for algorithm in order),
        *(f"IPC: {planner}" for planner in IPC2023_PLANNERS),
    ]
    table = []
    for (_, domain, level), tasks in group_scopes(ipc_records).items():
        ours = [
            f"{solved_count(tasks, runs, algorithm)}/{len(tasks)}"
            if any(algorithm in runs[task] for task in tasks)
            else MISSING  # not run at this level: not the same as 0 solved
            for algorithm in order
        ]
        published = IPC2023_COVERAGE.get(domain.lower())
        if published is None or level not in IPC2023_LEVELS:
            theirs = [MISSING] * len(IPC2023_PLANNERS)
        else:
            column = IPC2023_LEVELS.index(level)
            theirs = [
                f"{published[planner][column]}/{IPC2023_TASKS_PER_LEVEL}"
                for planner in IPC2023_PLANNERS
            ]
        table.append([domain, level, len(tasks), *ours, *theirs])
    return markdown_table(header, table)
