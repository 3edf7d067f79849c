"""Metrics over run records (the paper's and Lab's conventions; see :mod:`.report`): solved,
best known lengths, quality scores, commonly solved tasks, and the summary rows per (suite,
domain, group, algorithm) with their CSV file."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .records import (
    GROUP_ORDER,
    OUTCOMES,
    SUITE_ORDER,
    Record,
    ScopeKey,
    TaskKey,
    read_rows,
    write_rows,
)

# Metrics compared on commonly solved tasks: expansions by geometric mean (they span orders of
# magnitude), times by sum (Lab's convention for time scores of a suite).
COMMON_METRICS: tuple[str, ...] = ("expansions", "search_time", "total_time")

# ---------------------------------------------------------------------------------------------
# Per-run metrics


def task_key(record: Mapping[str, Any]) -> TaskKey:
    """The task a run belongs to: (suite, domain, group, problem)."""
    return (record["suite"], record["domain"], record["group"], record["problem"])


def is_solved(record: Mapping[str, Any] | None) -> bool:
    """Whether a run counts as solved: ``solved`` set and no sign that the plan was invalid.

    ``solved`` already means "found and validated"; the extra checks make sure an inconsistent
    record (solved set by mistake on an invalid plan) can never count.
    """
    if record is None:
        return False
    return (
        record.get("solved") is True
        and record.get("plan_valid") is not False
        and record.get("outcome") != "invalid-plan"
    )


def is_invalid_plan(record: Mapping[str, Any]) -> bool:
    return record.get("outcome") == "invalid-plan" or record.get("plan_valid") is False


def plan_quality(record: Mapping[str, Any]) -> int | None:
    """What plan quality is measured in: the plan's cost as VAL computed it (``plan_cost``) where
    the record has one, else its length (runs checked before costs were recorded; the same
    number in a domain without action costs). ``best_known`` bounds come from suites without
    action costs (the paper's datasets, the IPC 2023 track), where cost is length."""
    cost = record.get("plan_cost")
    return record.get("plan_length") if cost is None else cost


def best_known_lengths(records: Iterable[Mapping[str, Any]]) -> dict[TaskKey, int | None]:
    """Best known plan quality per task (:func:`plan_quality`: cost, which is length without
    action costs): min of every ``best_known`` bound and every valid plan.

    Plans of any algorithm count, solved or not (a valid plan is an upper bound however it was
    found); invalid plans never do. None where a task has neither a bound nor a valid plan.
    """
    best: dict[TaskKey, int | None] = {}
    for record in records:
        key = task_key(record)
        candidates = [best.get(key), record.get("best_known")]
        if record.get("plan_valid") is True:
            candidates.append(plan_quality(record))
        known = [value for value in candidates if value is not None]
        best[key] = min(known) if known else None
    return best


def quality_score(record: Mapping[str, Any], best_length: int | None) -> float:
    """QS of one run: best known / its plan's :func:`plan_quality` (cost; length without action
    costs) if solved, else 0.

    ``best_length`` must come from :func:`best_known_lengths` over records including this one,
    so that it is never above this run's own plan length (QS <= 1).
    """
    if not is_solved(record):
        return 0.0
    length = plan_quality(record)
    if length is None or best_length is None:
        raise ValueError(
            f"solved run without a plan length: {record['algorithm']} on {task_key(record)}"
        )
    if length == 0:  # the initial state satisfies the goal: the empty plan is optimal
        return 1.0
    return best_length / length


def quality_scores(records: Iterable[Mapping[str, Any]]) -> list[float]:
    """QS of every record, in the order given (best known lengths taken over these records)."""
    records = list(records)
    best = best_known_lengths(records)
    return [quality_score(record, best[task_key(record)]) for record in records]


# ---------------------------------------------------------------------------------------------
# Grouping


def check_records(records: Sequence[Mapping[str, Any]]) -> None:
    required = ("suite", "domain", "group", "problem", "algorithm")
    for index, record in enumerate(records):
        missing = [field for field in required if record.get(field) is None]
        if missing:
            raise ValueError(f"record {index} lacks {', '.join(missing)}: {dict(record)}")


def in_preferred_order(values: Iterable[str], preferred: Sequence[str]) -> list[str]:
    """Distinct values: those in ``preferred`` in that order, then the rest as first seen."""
    seen = list(dict.fromkeys(values))
    return [value for value in preferred if value in seen] + [v for v in seen if v not in preferred]


def algorithm_order(
    records: Sequence[Mapping[str, Any]], algorithms: Sequence[str] | None
) -> list[str]:
    if algorithms is not None:
        return list(dict.fromkeys(algorithms))
    return list(dict.fromkeys(record["algorithm"] for record in records))


def group_scopes(records: Sequence[Mapping[str, Any]]) -> dict[ScopeKey, list[TaskKey]]:
    """The tasks of every (suite, domain, group), in report order; tasks in order of appearance."""
    tasks_by_scope: dict[ScopeKey, dict[TaskKey, None]] = {}
    for record in records:
        key = task_key(record)
        tasks_by_scope.setdefault(key[:3], {})[key] = None
    ordered: dict[ScopeKey, list[TaskKey]] = {}
    for suite in in_preferred_order((scope[0] for scope in tasks_by_scope), SUITE_ORDER):
        domains = sorted({domain for s, domain, _ in tasks_by_scope if s == suite})
        for domain in domains:
            groups = (g for s, d, g in tasks_by_scope if s == suite and d == domain)
            for group in in_preferred_order(groups, GROUP_ORDER):
                ordered[(suite, domain, group)] = list(tasks_by_scope[(suite, domain, group)])
    return ordered


def index_runs(
    records: Sequence[Mapping[str, Any]],
) -> dict[TaskKey, dict[str, Mapping[str, Any]]]:
    """Runs by task, then algorithm. Two runs of one algorithm on one task (say, two seeds mixed
    into one report) would make every count ambiguous, so they are an error."""
    runs: dict[TaskKey, dict[str, Mapping[str, Any]]] = {}
    for record in records:
        task_runs = runs.setdefault(task_key(record), {})
        if record["algorithm"] in task_runs:
            raise ValueError(f"two runs of {record['algorithm']} on {task_key(record)}")
        task_runs[record["algorithm"]] = record
    return runs


def solved_count(
    tasks: Sequence[TaskKey], runs: Mapping[TaskKey, Mapping[str, Any]], algorithm: str
) -> int:
    return sum(is_solved(runs[task].get(algorithm)) for task in tasks)


def solved_by_both(
    tasks: Sequence[TaskKey], runs: Mapping[TaskKey, Mapping[str, Any]], algorithm: str, baseline: str
) -> list[TaskKey]:
    """The tasks of ``tasks`` that ``algorithm`` and ``baseline`` both solve (a pairwise set)."""
    return [task for task in tasks
            if is_solved(runs.get(task, {}).get(algorithm)) and is_solved(runs.get(task, {}).get(baseline))]


def expansions_ratio(
    both: Sequence[TaskKey], runs: Mapping[TaskKey, Mapping[str, Any]], algorithm: str, baseline: str
) -> float | None:
    """Geometric-mean expansions of ``algorithm`` over ``baseline``'s on ``both`` (below 1:
    ``algorithm`` needs fewer); None when the set is empty or a run reports no expansions."""
    ours = [runs[task][algorithm].get("expansions") for task in both]
    theirs = [runs[task][baseline].get("expansions") for task in both]
    if not both or any(value is None for value in ours + theirs):
        return None
    return geometric_mean(ours) / geometric_mean(theirs)


def _reporting_algorithms(
    records: Sequence[Mapping[str, Any]], metric: str, algorithms: Sequence[str]
) -> list[str]:
    """Algorithms with a value for ``metric`` in some record anywhere (not just in one group:
    an algorithm that solves nothing in a group must still empty that group's common set)."""
    reporting = {record["algorithm"] for record in records if record.get(metric) is not None}
    return [algorithm for algorithm in algorithms if algorithm in reporting]


def _common_values(
    tasks: Sequence[TaskKey],
    runs: Mapping[TaskKey, Mapping[str, Mapping[str, Any]]],
    reporting: Sequence[str],
    metric: str,
) -> dict[str, list[float]]:
    """Per reporting algorithm, ``metric`` on the tasks that all of them solved with a value."""
    values: dict[str, list[float]] = {algorithm: [] for algorithm in reporting}
    for task in tasks:
        task_values = [runs[task].get(algorithm) for algorithm in reporting]
        if all(is_solved(run) and run.get(metric) is not None for run in task_values):
            for algorithm, run in zip(reporting, task_values):
                values[algorithm].append(run[metric])
    return values


def geometric_mean(values: Sequence[float]) -> float:
    # Zero expansions (the initial state is a goal) count as 1 so that the logarithm exists.
    return math.exp(sum(math.log(max(value, 1)) for value in values) / len(values))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


# ---------------------------------------------------------------------------------------------
# Summary rows

SUMMARY_FIELDS: tuple[str, ...] = (
    "suite",
    "domain",
    "group",
    "algorithm",
    "tasks",  # tasks of the group (any algorithm's); missing runs count as unsolved
    "runs",  # runs of this algorithm in the group
    "solved",
    "coverage",
    "qs",
    "qs_solved",
    "mean_plan_length",
    "expansions_tasks",  # commonly solved tasks behind expansions_gmean (None: not reported)
    "expansions_gmean",
    "search_time_tasks",
    "search_time_sum",
    "total_time_tasks",
    "total_time_sum",
)


def _outcome_of(record: Mapping[str, Any]) -> str:
    outcome = record.get("outcome")
    return "unknown" if outcome is None else str(outcome)


def _outcome_names(records: Sequence[Mapping[str, Any]]) -> list[str]:
    return in_preferred_order([*OUTCOMES, *(_outcome_of(record) for record in records)], OUTCOMES)


def summary_rows(
    records: Iterable[Mapping[str, Any]], algorithms: Sequence[str] | None = None
) -> list[Record]:
    """One row per (suite, domain, group, algorithm) with the fields of SUMMARY_FIELDS, then an
    ``outcome_<name>`` count per outcome (OUTCOMES, then any other outcome found).

    ``algorithms`` selects and orders the algorithms (default: all, in order of first
    appearance). Coverage and QS divide by the group's number of tasks, so an algorithm with a
    missing run loses that task. QS_S, mean plan length and the metrics are None where empty.
    """
    records = list(records)
    check_records(records)
    order = algorithm_order(records, algorithms)
    best = best_known_lengths(records)
    runs = index_runs(records)
    outcomes = _outcome_names(records)
    reporting = {
        metric: _reporting_algorithms(records, metric, order) for metric in COMMON_METRICS
    }

    rows = []
    for (suite, domain, group), tasks in group_scopes(records).items():
        common = {
            metric: _common_values(tasks, runs, reporting[metric], metric)
            for metric in COMMON_METRICS
        }
        for algorithm in order:
            algorithm_runs = [runs[task][algorithm] for task in tasks if algorithm in runs[task]]
            solved_runs = [run for run in algorithm_runs if is_solved(run)]
            scores = [quality_score(run, best[task_key(run)]) for run in solved_runs]
            row: Record = {
                "suite": suite,
                "domain": domain,
                "group": group,
                "algorithm": algorithm,
                "tasks": len(tasks),
                "runs": len(algorithm_runs),
                "solved": len(solved_runs),
                "coverage": len(solved_runs) / len(tasks),
                "qs": sum(scores) / len(tasks),
                "qs_solved": _mean(scores),
                "mean_plan_length": _mean([run["plan_length"] for run in solved_runs]),
            }
            for metric in COMMON_METRICS:
                values = common[metric].get(algorithm)
                aggregate = "gmean" if metric == "expansions" else "sum"
                row[f"{metric}_tasks"] = None if values is None else len(values)
                if not values:
                    row[f"{metric}_{aggregate}"] = None
                elif aggregate == "gmean":
                    row[f"{metric}_{aggregate}"] = geometric_mean(values)
                else:
                    row[f"{metric}_{aggregate}"] = float(sum(values))
            for outcome in outcomes:
                row[f"outcome_{outcome}"] = sum(
                    _outcome_of(run) == outcome for run in algorithm_runs
                )
            rows.append(row)
    return rows


def pooled_row(rows: Sequence[Mapping[str, Any]]) -> Record:
    """The summary of several groups' rows of one algorithm, as if computed over all their tasks."""
    tasks = sum(row["tasks"] for row in rows)
    solved = sum(row["solved"] for row in rows)
    solved_rows = [row for row in rows if row["solved"]]
    pooled: Record = {
        "tasks": tasks,
        "runs": sum(row["runs"] for row in rows),
        "solved": solved,
        "coverage": solved / tasks if tasks else None,
        "qs": sum(row["qs"] * row["tasks"] for row in rows) / tasks if tasks else None,
        "qs_solved": (
            sum(row["qs_solved"] * row["solved"] for row in solved_rows) / solved
            if solved
            else None
        ),
        "mean_plan_length": (
            sum(row["mean_plan_length"] * row["solved"] for row in solved_rows) / solved
            if solved
            else None
        ),
    }
    for metric in COMMON_METRICS:
        counted = [row for row in rows if row[f"{metric}_tasks"] is not None]
        count = sum(row[f"{metric}_tasks"] for row in counted)
        pooled[f"{metric}_tasks"] = count if counted else None
        if metric == "expansions":
            # exp of the task-weighted mean of each group's log-mean is the pooled geometric mean
            logs = sum(
                math.log(row["expansions_gmean"]) * row["expansions_tasks"]
                for row in counted
                if row["expansions_tasks"]
            )
            pooled["expansions_gmean"] = math.exp(logs / count) if count else None
        else:
            pooled[f"{metric}_sum"] = (
                sum(row[f"{metric}_sum"] for row in counted if row[f"{metric}_tasks"])
                if count
                else None
            )
    for field in rows[0] if rows else ():
        if field.startswith("outcome_"):
            pooled[field] = sum(row[field] for row in rows)
    return pooled


def write_summary_csv(rows: Sequence[Mapping[str, Any]], path: str | Path) -> None:
    """Write :func:`summary_rows` output; the outcome columns follow SUMMARY_FIELDS."""
    outcome_fields = [field for field in (rows[0] if rows else {}) if field.startswith("outcome_")]
    if not rows:
        outcome_fields = [f"outcome_{outcome}" for outcome in OUTCOMES]
    write_rows(rows, [*SUMMARY_FIELDS, *outcome_fields], Path(path))


def _summary_type(field: str) -> type | None:
    if field in ("suite", "domain", "group", "algorithm"):
        return str
    if (
        field in ("tasks", "runs", "solved")
        or field.endswith("_tasks")
        or field.startswith("outcome_")
    ):
        return int
    return float


def read_summary_csv(path: str | Path) -> list[Record]:
    """Rows written by :func:`write_summary_csv`, with counts as ints and the rest as floats."""
    return read_rows(path, _summary_type)


