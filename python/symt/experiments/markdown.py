"""The Markdown of a report: coverage, quality, expansions and outcome tables per scope, pairwise
tables and failure lists, and the published comparisons (``published``) in their place."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .algorithms import PLAN_GENERATION, PLAN_GENERATION_ABLATION
from .metrics import (
    expansions_ratio,
    group_scopes,
    index_runs,
    is_invalid_plan,
    pooled_row,
    solved_by_both,
)
from .paper_tables import IPC2023_LIMITS, PAPER_LIMITS
from .published import ipc_comparison_table, paper_comparison_table, plan_generation_table
from .records import OUTCOMES, ScopeKey
from .tables import MISSING, expansions_cell, fraction, markdown_table


def _scope_table(
    rows: Sequence[Mapping[str, Any]],
    order: Sequence[str],
    cell: Callable[[Mapping[str, Any]], str],
    count_field: str | None = None,
    count_header: str = "tasks",
) -> str:
    """Rows suite/domain/group, one column per algorithm, and a total row over all groups.

    ``count_field`` adds a column with a per-group count that all algorithms share (such as the
    number of commonly solved tasks), taken from the first row that has it.
    """
    by_scope: dict[ScopeKey, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        by_scope.setdefault((row["suite"], row["domain"], row["group"]), {})[row["algorithm"]] = row
    header = ["suite", "domain", "group", *([count_header] if count_field else []), *order]

    def count_of(scope_rows: Iterable[Mapping[str, Any]]) -> list[str]:
        if count_field is None:
            return []
        counts = [row[count_field] for row in scope_rows if row.get(count_field) is not None]
        return [str(counts[0]) if counts else MISSING]

    table = []
    for (suite, domain, group), scope_rows in by_scope.items():
        cells = [cell(scope_rows[algorithm]) for algorithm in order]
        table.append([suite, domain, group, *count_of(scope_rows.values()), *cells])
    pooled = {
        algorithm: pooled_row([row for row in rows if row["algorithm"] == algorithm])
        for algorithm in order
    }
    if count_field is None:
        total_count = []
    else:
        per_scope = [count_of(scope_rows.values())[0] for scope_rows in by_scope.values()]
        numbers = [int(text) for text in per_scope if text != MISSING]
        total_count = [str(sum(numbers)) if numbers else MISSING]
    table.append(
        ["**total**", "", "", *total_count, *(cell(pooled[algorithm]) for algorithm in order)]
    )
    return markdown_table(header, table)


def _coverage_cell(row: Mapping[str, Any]) -> str:
    # An algorithm with no run at all in a group was not run there (a part of a report run in
    # parts that does not exist yet); "0/10" would claim it ran and failed.
    if row["runs"] == 0:
        return MISSING
    return f"{row['solved']}/{row['tasks']}"


def _quality_cell(row: Mapping[str, Any]) -> str:
    if row["runs"] == 0:
        return MISSING
    return f"{fraction(row['qs'])} / {fraction(row['qs_solved'])}"


def _outcome_table(rows: Sequence[Mapping[str, Any]], order: Sequence[str]) -> str:
    outcome_fields = [field for field in (rows[0] if rows else {}) if field.startswith("outcome_")]
    # Always show the standard outcomes, and any other only if it happened.
    shown = [
        field
        for field in outcome_fields
        if field.removeprefix("outcome_") in OUTCOMES or any(row[field] for row in rows)
    ]
    table = []
    for algorithm in order:
        pooled = pooled_row([row for row in rows if row["algorithm"] == algorithm])
        missing = pooled["tasks"] - pooled["runs"]
        table.append([algorithm, pooled["runs"], *(pooled[field] for field in shown), missing])
    header = ["algorithm", "runs", *(field.removeprefix("outcome_") for field in shown), "no run"]
    return markdown_table(header, table)


FAILURE_KINDS: tuple[tuple[str, str], ...] = (
    ("token cap", "token cap"), ("step limit", "step cap"), ("loop", "loop"),
    ("malformed", "malformed"), ("inapplicable", "inapplicable action"), ("dead end", "dead end"),
    ("before the goal", "ends before the goal"), ("context full", "context full"),
)
"""(text in a search-free run's failure reason, column heading): the paper's selection criteria
count token-cap hits, invalid actions and malformed plans."""


def failure_table(records: Sequence[Mapping[str, Any]], order: Sequence[str]) -> str:
    """Failed search-free runs per algorithm by why they stopped; "" when none failed."""
    failed = [record for record in records
              if record.get("outcome") == "search-failed" and record.get("error_detail")]
    if not failed:
        return ""
    table = []
    for algorithm in order:
        reasons = [str(record["error_detail"]) for record in failed if record["algorithm"] == algorithm]
        if not reasons:
            continue
        counts = [sum(key in reason for reason in reasons) for key, _ in FAILURE_KINDS]
        table.append([algorithm, len(reasons), *counts, len(reasons) - sum(counts)])
    header = ["algorithm", "failed", *(heading for _, heading in FAILURE_KINDS), "other"]
    return markdown_table(header, table)


def _run_list(records: Sequence[Mapping[str, Any]], limit: int = 50) -> str:
    table = [
        [
            record["algorithm"],
            record["suite"],
            record["domain"],
            record["group"],
            record["problem"],
            _short(record.get("error_detail")),
        ]
        for record in records[:limit]
    ]
    text = markdown_table(["algorithm", "suite", "domain", "group", "problem", "detail"], table)
    if len(records) > limit:
        text += f"\n\n... and {len(records) - limit} more (see runs.csv)."
    return text


def _short(text: str | None, length: int = 160) -> str:
    if not text:
        return ""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= length else flat[: length - 3] + "..."


def pairwise_table(records: Sequence[Mapping[str, Any]], algorithm: str, baselines: Sequence[str]) -> str:
    """``algorithm`` against each baseline on the tasks both solve: expansions and total time.

    A cell reads ``n · E× · T×``: n tasks solved by both, then the ratio of the geometric means of
    expansions (ours / theirs) and of the summed total times. Below 1 means ``algorithm`` needs
    fewer. Pairwise sets keep the comparison from shrinking to the few tasks every algorithm solves.
    """
    runs = index_runs(records)
    scopes = group_scopes(records)
    rows = []
    for (suite, domain, group), tasks in scopes.items():
        cells = []
        for baseline in baselines:
            both = solved_by_both(tasks, runs, algorithm, baseline)
            if not both:
                cells.append(MISSING)
                continue
            ours = [runs[t][algorithm] for t in both]
            theirs = [runs[t][baseline] for t in both]
            cell = f"{len(both)}"
            expansions = expansions_ratio(both, runs, algorithm, baseline)
            if expansions is not None:
                cell += f" · {expansions:.2f}× exp"
            if all(r.get("total_time") is not None for r in ours + theirs):
                ratio = sum(r["total_time"] for r in ours) / max(1e-9, sum(r["total_time"] for r in theirs))
                cell += f" · {ratio:.2f}× time"
            cells.append(cell)
        rows.append([suite, domain, group, *cells])
    return markdown_table(["suite", "domain", "group", *(f"vs {b}" for b in baselines)], rows)


def render_markdown(
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    order: Sequence[str],
    title: str,
    command: str | None,
    notes: str | None,
    limits: str | None,
    plots: Sequence[Path],
    learned: str = "symt",
    baselines: Sequence[str] | None = None,
) -> str:
    """The report's Markdown. ``learned`` is the algorithm compared pairwise against each of
    ``baselines`` (default: every other algorithm except the search-free ``*-guidance`` ones)."""
    parts: list[str] = []
    invalid = [record for record in records if is_invalid_plan(record)]
    if invalid:
        # First thing in the file: an invalid plan means a planner or the validator is broken,
        # which matters more than any number below.
        parts.append(
            f"# WARNING: {len(invalid)} INVALID PLAN{'S' if len(invalid) > 1 else ''}\n\n"
            "**These runs returned a plan that failed validation. They count as unsolved below, "
            "but an invalid plan means a bug in a planner, the model or the validator: "
            "investigate before trusting this report.**\n\n" + _run_list(invalid)
        )
    parts.append(f"# {title}")
    if command:
        parts.append(f"Produced by:\n\n```\n{command}\n```")
    ours = limits or "not stated"
    parts.append(
        f"Limits: {ours}. Runs: {len(records)}; algorithms: {', '.join(order) or MISSING}."
    )
    if notes:
        parts.append(f"## Notes\n\n{notes}")

    parts.append(
        "## Coverage\n\nSolved (valid plan) / tasks. A missing run counts as unsolved; an algorithm "
        "with no run in a group reads –. The totals count every task.\n\n"
        + _scope_table(rows, order, _coverage_cell)
    )
    parts.append(
        "## Plan quality\n\nQS / QS_S: QS averages best known / plan cost over all tasks (cost: VAL's value "
        "of the plan, its length in a domain without action costs; unsolved 0); QS_S over solved tasks only. Best known = min of the published bound and "
        "every valid plan in these runs.\n\n" + _scope_table(rows, order, _quality_cell)
    )
    parts.append(
        "## Expansions\n\nGeometric mean over the tasks solved by every algorithm that reports "
        "expansions (column 'common'); – where an algorithm reports none.\n\n"
        + _scope_table(
            rows,
            order,
            lambda row: expansions_cell(row["expansions_gmean"]),
            "expansions_tasks",
            "common",
        )
    )
    ours_symt = learned if learned in order else None
    if baselines is None:
        baselines = [a for a in order if a != ours_symt and not a.endswith("-guidance")]
    baselines = [a for a in baselines if a in order and a != ours_symt]
    if ours_symt and baselines:
        parts.append(
            f"## {ours_symt} against each baseline (pairwise)\n\nOn the tasks both solve: how many, the "
            "ratio of geometric-mean expansions and of summed total time (ours / theirs; below 1: "
            f"{ours_symt} needs fewer).\n\n" + pairwise_table(records, ours_symt, baselines)
        )
    for metric, name in (("search_time", "Search time"), ("total_time", "Total time")):
        parts.append(
            f"## {name}\n\nSeconds, summed over the tasks solved by every algorithm that reports "
            f"{name.lower()} (column 'common').\n\n"
            + _scope_table(
                rows,
                order,
                lambda row, m=metric: fraction(row[f"{m}_sum"]),
                f"{metric}_tasks",
                "common",
            )
        )
    parts.append(
        "## Outcomes\n\nRuns per outcome over all groups.\n\n" + _outcome_table(rows, order)
    )
    failures = failure_table(records, order)
    if failures:
        parts.append("## Why search-free runs failed\n\nFailed runs (no plan, no error) by the reason "
                     "decoding or guidance stopped.\n\n" + failures)
    errors = [record for record in records if record.get("outcome") == "error"]
    if errors:
        parts.append(
            f"## Errors: {len(errors)} run{'s' if len(errors) > 1 else ''}\n\n" + _run_list(errors)
        )

    plan_sections = []
    # The paper's plan-generation layout once a plan generator ran; SymT-E's guidance alone keeps
    # the coverage comparison below.
    generators = set(PLAN_GENERATION + PLAN_GENERATION_ABLATION) - {"symt-guidance", "symt-nocl-guidance"}
    ran_generators = any(record["algorithm"] in generators for record in records)
    for models, algorithms, what in (
        ("base", PLAN_GENERATION, "PlanGPT without, SymT-E and SymT-ED with the contrastive loss"),
        ("ablation", PLAN_GENERATION_ABLATION,
         "contrastive loss inverted: PlanGPT with it, SymT-E and SymT-ED without it"),
    ):
        for metric, label in (("coverage", "Coverage"), ("qs", "QS"), ("qs_s", "QS_S")):
            table = plan_generation_table(records, algorithms, metric, models) if ran_generators else ""
            if table:
                plan_sections.append(f"### {label}, {models} models ({what})\n\n{table}")
    if plan_sections:
        parts.append(
            "## Plan generation, laid out like the paper's tables\n\n"
            "Search-free strategies (500-token cap; guidance: 500 steps). Each cell: ours "
            "(the paper's mean over 3 seeds, ../shared/paper/symmetry-aware-transformers.tex). "
            f"Limits differ: ours {ours}; paper {PAPER_LIMITS}. Our models are CPU-scale "
            "(see the notes), the paper's 7M-117M parameters.\n\n" + "\n\n".join(plan_sections)
        )
    paper_table = "" if plan_sections else paper_comparison_table(records)
    if paper_table:
        parts.append(
            f"## Against the paper (limits differ: ours {ours}; paper {PAPER_LIMITS})\n\n"
            "Fraction of tasks solved. The paper's columns are copied from its coverage table "
            "(mean over 3 seeds; ../shared/paper.md).\n\n" + paper_table
        )
    ipc_table = ipc_comparison_table(records, order)
    if ipc_table:
        parts.append(
            f"## Against the IPC 2023 learning track (limits differ: ours {ours}; "
            f"competition {IPC2023_LIMITS})\n\n"
            "Tasks solved; ours of the tasks we ran, the competition's of 30 per level "
            "(../shared/benchmarks/ipc2023-learning/README.md).\n\n" + ipc_table
        )
    if plots:
        parts.append("## Plots\n\n" + "\n\n".join(f"![{plot.stem}]({plot.name})" for plot in plots))
    parts.append(
        "Every run: `runs.csv`. Every number above per group and algorithm: `summary.csv`. "
        "Per task, in Fast Downward Lab's own tables: `lab_absolute.html`."
    )
    return "\n\n".join(parts) + "\n"


