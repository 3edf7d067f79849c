"""Reports of IPC-style planning experiments: tables, CSV files and plots from plain run records.

A run record is a flat dict, one per (task, algorithm) run, with the keys of :data:`RECORD_FIELDS`.
Everything here works on lists of such dicts, so a report can be rebuilt from ``runs.csv`` alone
(no Fast Downward Lab import needed). :func:`write_report` writes a folder::

    report.md     coverage, quality scores, expansions, times, outcomes, published comparisons
    runs.csv      every record
    summary.csv   one row per (suite, domain, group, algorithm)
    *.png         coverage against task size, expansions scatter, plan length against best known

Conventions (the paper's metrics, ../shared/paper.md section "Metrics"):

- a run is solved only if it found a plan and the plan validated; invalid plans count unsolved;
- the best known length of a task is the minimum of every bound in the records and of every valid
  plan any algorithm found, so a plan shorter than the published bound becomes the reference;
- QS averages best/length over all tasks (unsolved count 0), QS_S over solved tasks only;
- expansions and times are compared only on tasks solved by every algorithm that reports that
  metric ("commonly solved", as in Lab), because averages over different task sets mislead: an
  algorithm solving only the easy tasks would look cheap.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SymtError
from . import paper_tables
from .algorithms import PLAN_GENERATION, PLAN_GENERATION_ABLATION

Record = dict[str, Any]
TaskKey = tuple[str, str, str, str]  # (suite, domain, group, problem)
ScopeKey = tuple[str, str, str]  # (suite, domain, group)

# ---------------------------------------------------------------------------------------------
# Record schema

RECORD_FIELDS: tuple[str, ...] = (
    "suite",
    "domain",
    "group",
    "problem",
    "size",
    "algorithm",
    "solved",
    "plan_valid",
    "plan_length",
    "best_known",
    "expansions",
    "evaluations",
    "search_time",
    "total_time",
    "outcome",
    "error_detail",
)

# Types of the non-string fields, so that read_csv gives back what write_csv was given.
_FIELD_TYPES: dict[str, type] = {
    "size": int,
    "solved": bool,
    "plan_valid": bool,
    "plan_length": int,
    "best_known": int,
    "expansions": int,
    "evaluations": int,
    "search_time": float,
    "total_time": float,
}

OUTCOMES: tuple[str, ...] = (
    "solved",
    "invalid-plan",
    "timeout",
    "out-of-memory",
    "unsolvable",
    "search-failed",
    "error",
)

# Tables list suites and groups in these orders (unknown ones follow in order of first
# appearance), so that splits read from easy to hard instead of alphabetically.
_SUITE_ORDER: tuple[str, ...] = ("paper", "ipc2023")
_GROUP_ORDER: tuple[str, ...] = (
    "validation",
    "interpolation",
    "extrapolation",
    "easy",
    "medium",
    "hard",
)

# Metrics compared on commonly solved tasks: expansions by geometric mean (they span orders of
# magnitude), times by sum (Lab's convention for time scores of a suite).
_COMMON_METRICS: tuple[str, ...] = ("expansions", "search_time", "total_time")

_MISSING = "–"  # table cell for "no value"

# ---------------------------------------------------------------------------------------------
# Published reference numbers

# The paper's main coverage table (mean over 3 seeds, contrastive loss on for SymT-E/ED), as in
# ../shared/paper.md: PlanGPT's best decoding, then SymT-E and SymT-ED's strategies. Derived from
# the full transcription in .paper_tables. These strategies decode without search, capped at 500
# generated tokens; no time or memory limit is stated.
PAPER_COLUMNS: tuple[str, ...] = (
    "PlanGPT best",
    "SymT-E greedy",
    "SymT-ED greedy",
    "SymT-ED applicable",
    "SymT-ED regrounding",
)


def _paper_row(row: tuple[float | None, ...]) -> dict[str, float]:
    plangpt = [value for value in row[:3] if value is not None]
    return dict(zip(PAPER_COLUMNS, (max(plangpt), *row[3:]), strict=True))


PAPER_COVERAGE: dict[tuple[str, str], dict[str, float]] = {
    key: _paper_row(row) for key, row in paper_tables.PAPER_BASE_COVERAGE.items()
}

# The paper's table says "Blocks"; our records may too.
_PAPER_DOMAIN_ALIASES: dict[str, str] = {"blocks": "blocksworld"}

PAPER_LIMITS = "search-free decoding capped at 500 tokens, no time limit stated"

# Source: ../shared/benchmarks/ipc2023-learning/README.md, "Competition coverage" (tasks
# solved of 30 per level, from the competition's public run logs; 30 min, 8 GiB, 1 core).
IPC2023_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
IPC2023_TASKS_PER_LEVEL = 30
IPC2023_LIMITS = "30 min, 8 GiB, 1 core per task"
IPC2023_PLANNERS: tuple[str, ...] = ("FD-SMAC baseline", "GOFAI", "HUZAR", "Muninn")


def _ipc_row(*per_planner: tuple[int, int, int]) -> dict[str, tuple[int, int, int]]:
    return dict(zip(IPC2023_PLANNERS, per_planner, strict=True))


IPC2023_COVERAGE: dict[str, dict[str, tuple[int, int, int]]] = {
    "blocksworld": _ipc_row((30, 29, 2), (30, 30, 1), (30, 27, 4), (30, 9, 0)),
    "childsnack": _ipc_row((30, 2, 0), (29, 5, 1), (29, 5, 1), (11, 0, 0)),
    "ferry": _ipc_row((30, 30, 6), (30, 30, 4), (30, 30, 10), (29, 13, 0)),
    "floortile": _ipc_row((26, 0, 0), (30, 5, 0), (26, 0, 0), (0, 0, 0)),
    "miconic": _ipc_row((30, 30, 14), (30, 30, 30), (30, 30, 30), (30, 0, 0)),
    "rovers": _ipc_row((30, 28, 9), (30, 25, 1), (30, 28, 8), (15, 0, 0)),
    "satellite": _ipc_row((30, 30, 30), (30, 30, 16), (30, 30, 28), (15, 1, 0)),
    "sokoban": _ipc_row((30, 6, 0), (30, 12, 0), (30, 10, 0), (26, 0, 0)),
    "spanner": _ipc_row((30, 0, 0), (30, 0, 0), (30, 0, 0), (30, 2, 0)),
    "transport": _ipc_row((30, 30, 6), (30, 30, 11), (30, 30, 6), (17, 0, 0)),
}

# ---------------------------------------------------------------------------------------------
# CSV


def _format_cell(value: Any) -> str:
    """CSV text of a value: None (and NaN) as an empty cell; str() round-trips bools and floats."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


def _parse_cell(text: str, kind: type | None) -> Any:
    if text == "":
        return None
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
        raise ValueError(f"not a boolean: {text!r}")
    try:
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        raise ValueError(f"not {'a whole number' if kind is int else 'a number'}: {text!r}") from None
    return text


def _write_rows(rows: Sequence[Mapping[str, Any]], fields: Sequence[str], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(fields)
        for row in rows:
            writer.writerow([_format_cell(row.get(field)) for field in fields])


def write_csv(records: Iterable[Mapping[str, Any]], path: str | Path) -> None:
    """Write records to a CSV file: the RECORD_FIELDS columns, then any extra keys.

    None becomes an empty cell; :func:`read_csv` restores the types of RECORD_FIELDS.
    """
    records = list(records)
    extra_fields = [key for record in records for key in record if key not in RECORD_FIELDS]
    fields = [*RECORD_FIELDS, *dict.fromkeys(extra_fields)]
    _write_rows(records, fields, Path(path))


def _read_rows(path: str | Path, type_of: Callable[[str], type | None],
               required: Sequence[str] = ()) -> list[Record]:
    """The typed rows of a CSV file; :class:`SymtError` naming the file and line for anything
    that is not such a file (binary, a cell of the wrong type, a row too long, columns missing)."""
    rows: list[Record] = []
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [name for name in required if name not in (reader.fieldnames or [])]
            if missing:
                raise SymtError(f"{path}, line 1: not a runs file (an experiment's report/runs.csv): "
                                f"no column {', '.join(repr(m) for m in missing)}")
            for row in reader:
                if None in row:
                    raise SymtError(f"{path}, line {reader.line_num}: more cells than columns")
                typed: Record = {}
                for field, text in row.items():
                    try:
                        typed[field] = _parse_cell(text or "", type_of(field))
                    except ValueError as error:
                        raise SymtError(f"{path}, line {reader.line_num}: column {field!r}: "
                                        f"{error}") from None
                rows.append(typed)
    except UnicodeDecodeError as error:
        raise SymtError(f"{path}: not a text CSV file (byte {error.start} is not UTF-8)") from None
    except csv.Error as error:
        raise SymtError(f"{path}: not a CSV file ({error})") from None
    return rows


def read_csv(path: str | Path) -> list[Record]:
    """Records from a CSV file written by :func:`write_csv`, with bools, ints and floats restored.

    Empty cells become None (so an empty ``error_detail`` string reads back as None); columns
    beyond RECORD_FIELDS stay strings, and RECORD_FIELDS missing from the file are None.
    """
    rows = _read_rows(path, _FIELD_TYPES.get, required=("domain", "problem", "algorithm", "solved"))
    if not rows:
        raise SymtError(f"{path}: no runs in the file (a header at most)")
    return [{**{field: None for field in RECORD_FIELDS}, **row} for row in rows]


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


def _is_invalid_plan(record: Mapping[str, Any]) -> bool:
    return record.get("outcome") == "invalid-plan" or record.get("plan_valid") is False


def best_known_lengths(records: Iterable[Mapping[str, Any]]) -> dict[TaskKey, int | None]:
    """Best known plan length per task: min of every ``best_known`` bound and every valid plan.

    Plans of any algorithm count, solved or not (a valid plan is an upper bound however it was
    found); invalid plans never do. None where a task has neither a bound nor a valid plan.
    """
    best: dict[TaskKey, int | None] = {}
    for record in records:
        key = task_key(record)
        candidates = [best.get(key), record.get("best_known")]
        if record.get("plan_valid") is True:
            candidates.append(record.get("plan_length"))
        known = [value for value in candidates if value is not None]
        best[key] = min(known) if known else None
    return best


def quality_score(record: Mapping[str, Any], best_length: int | None) -> float:
    """QS of one run: best known length / plan length if solved, else 0.

    ``best_length`` must come from :func:`best_known_lengths` over records including this one,
    so that it is never above this run's own plan length (QS <= 1).
    """
    if not is_solved(record):
        return 0.0
    length = record.get("plan_length")
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


def _check_records(records: Sequence[Mapping[str, Any]]) -> None:
    required = ("suite", "domain", "group", "problem", "algorithm")
    for index, record in enumerate(records):
        missing = [field for field in required if record.get(field) is None]
        if missing:
            raise ValueError(f"record {index} lacks {', '.join(missing)}: {dict(record)}")


def _ordered(values: Iterable[str], preferred: Sequence[str]) -> list[str]:
    """Distinct values: those in ``preferred`` in that order, then the rest as first seen."""
    seen = list(dict.fromkeys(values))
    return [value for value in preferred if value in seen] + [v for v in seen if v not in preferred]


def _algorithm_order(
    records: Sequence[Mapping[str, Any]], algorithms: Sequence[str] | None
) -> list[str]:
    if algorithms is not None:
        return list(dict.fromkeys(algorithms))
    return list(dict.fromkeys(record["algorithm"] for record in records))


def _scopes(records: Sequence[Mapping[str, Any]]) -> dict[ScopeKey, list[TaskKey]]:
    """The tasks of every (suite, domain, group), in report order; tasks in order of appearance."""
    tasks_by_scope: dict[ScopeKey, dict[TaskKey, None]] = {}
    for record in records:
        key = task_key(record)
        tasks_by_scope.setdefault(key[:3], {})[key] = None
    ordered: dict[ScopeKey, list[TaskKey]] = {}
    for suite in _ordered((scope[0] for scope in tasks_by_scope), _SUITE_ORDER):
        domains = sorted({domain for s, domain, _ in tasks_by_scope if s == suite})
        for domain in domains:
            groups = (g for s, d, g in tasks_by_scope if s == suite and d == domain)
            for group in _ordered(groups, _GROUP_ORDER):
                ordered[(suite, domain, group)] = list(tasks_by_scope[(suite, domain, group)])
    return ordered


def _index_runs(
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


def _solved_count(
    tasks: Sequence[TaskKey], runs: Mapping[TaskKey, Mapping[str, Any]], algorithm: str
) -> int:
    return sum(is_solved(runs[task].get(algorithm)) for task in tasks)


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


def _geometric_mean(values: Sequence[float]) -> float:
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
    return _ordered([*OUTCOMES, *(_outcome_of(record) for record in records)], OUTCOMES)


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
    _check_records(records)
    order = _algorithm_order(records, algorithms)
    best = best_known_lengths(records)
    runs = _index_runs(records)
    outcomes = _outcome_names(records)
    reporting = {
        metric: _reporting_algorithms(records, metric, order) for metric in _COMMON_METRICS
    }

    rows = []
    for (suite, domain, group), tasks in _scopes(records).items():
        common = {
            metric: _common_values(tasks, runs, reporting[metric], metric)
            for metric in _COMMON_METRICS
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
            for metric in _COMMON_METRICS:
                values = common[metric].get(algorithm)
                aggregate = "gmean" if metric == "expansions" else "sum"
                row[f"{metric}_tasks"] = None if values is None else len(values)
                if not values:
                    row[f"{metric}_{aggregate}"] = None
                elif aggregate == "gmean":
                    row[f"{metric}_{aggregate}"] = _geometric_mean(values)
                else:
                    row[f"{metric}_{aggregate}"] = float(sum(values))
            for outcome in outcomes:
                row[f"outcome_{outcome}"] = sum(
                    _outcome_of(run) == outcome for run in algorithm_runs
                )
            rows.append(row)
    return rows


def _pooled(rows: Sequence[Mapping[str, Any]]) -> Record:
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
    for metric in _COMMON_METRICS:
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
    _write_rows(rows, [*SUMMARY_FIELDS, *outcome_fields], Path(path))


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
    return _read_rows(path, _summary_type)


# ---------------------------------------------------------------------------------------------
# Markdown


def _cell(value: Any) -> str:
    """Table cell text: pipes escaped and newlines flattened, so one value stays one cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(_cell(text) for text in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(_cell(text) for text in row) + " |" for row in rows]
    return "\n".join(lines)


def _fraction(value: float | None) -> str:
    return _MISSING if value is None else f"{value:.2f}"


def _expansions(value: float | None) -> str:
    return _MISSING if value is None else f"{value:,.1f}"


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
        return [str(counts[0]) if counts else _MISSING]

    table = []
    for (suite, domain, group), scope_rows in by_scope.items():
        cells = [cell(scope_rows[algorithm]) for algorithm in order]
        table.append([suite, domain, group, *count_of(scope_rows.values()), *cells])
    pooled = {
        algorithm: _pooled([row for row in rows if row["algorithm"] == algorithm])
        for algorithm in order
    }
    if count_field is None:
        total_count = []
    else:
        per_scope = [count_of(scope_rows.values())[0] for scope_rows in by_scope.values()]
        numbers = [int(text) for text in per_scope if text != _MISSING]
        total_count = [str(sum(numbers)) if numbers else _MISSING]
    table.append(
        ["**total**", "", "", *total_count, *(cell(pooled[algorithm]) for algorithm in order)]
    )
    return _markdown_table(header, table)


def _coverage_cell(row: Mapping[str, Any]) -> str:
    return f"{row['solved']}/{row['tasks']}"


def _quality_cell(row: Mapping[str, Any]) -> str:
    return f"{_fraction(row['qs'])} / {_fraction(row['qs_solved'])}"


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
        pooled = _pooled([row for row in rows if row["algorithm"] == algorithm])
        missing = pooled["tasks"] - pooled["runs"]
        table.append([algorithm, pooled["runs"], *(pooled[field] for field in shown), missing])
    header = ["algorithm", "runs", *(field.removeprefix("outcome_") for field in shown), "no run"]
    return _markdown_table(header, table)


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
    return _markdown_table(header, table)


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
    text = _markdown_table(["algorithm", "suite", "domain", "group", "problem", "detail"], table)
    if len(records) > limit:
        text += f"\n\n... and {len(records) - limit} more (see runs.csv)."
    return text


def _short(text: str | None, length: int = 160) -> str:
    if not text:
        return ""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= length else flat[: length - 3] + "..."


def _paper_domain(domain: str) -> str:
    lowered = domain.lower()
    return _PAPER_DOMAIN_ALIASES.get(lowered, lowered)


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
    _check_records(paper_records)
    if algorithm_for_column is None:
        algorithm_for_column = {
            algorithm: algorithm for algorithm in _algorithm_order(paper_records, None)
        }
    runs = _index_runs(paper_records)
    header = [
        "domain",
        "split",
        "tasks",
        *(f"ours: {heading}" for heading in algorithm_for_column),
        *(f"paper: {column}" for column in PAPER_COLUMNS),
    ]
    table = []
    for (_, domain, group), tasks in _scopes(paper_records).items():
        ours = [
            _fraction(_solved_count(tasks, runs, algorithm) / len(tasks))
            for algorithm in algorithm_for_column.values()
        ]
        published = PAPER_COVERAGE.get((_paper_domain(domain), group))
        theirs = [
            _fraction(published[column]) if published else _MISSING for column in PAPER_COLUMNS
        ]
        table.append([domain, group, len(tasks), *ours, *theirs])
    return _markdown_table(header, table)


_PLAN_TABLES = {
    ("base", "coverage"): paper_tables.PAPER_BASE_COVERAGE,
    ("base", "qs"): paper_tables.PAPER_BASE_QS,
    ("base", "qs_s"): paper_tables.PAPER_BASE_QSS,
    ("ablation", "coverage"): paper_tables.PAPER_ABLATION_COVERAGE,
    ("ablation", "qs"): paper_tables.PAPER_ABLATION_QS,
    ("ablation", "qs_s"): paper_tables.PAPER_ABLATION_QSS,
}
PLAN_TABLE_HEADINGS: tuple[str, ...] = (
    "PlanGPT greedy", "PlanGPT applicable", "PlanGPT regrounding", "SymT-E guidance",
    "SymT-ED greedy", "SymT-ED applicable", "SymT-ED regrounding",
)
"""Column headings of :func:`plan_generation_table`, one per :data:`paper_tables.PLAN_COLUMNS`."""


def plan_generation_table(
    records: Iterable[Mapping[str, Any]], algorithms: Sequence[str], metric: str, models: str
) -> str:
    """The paper's plan-generation table for ``metric`` (coverage, qs or qs_s), ours beside its.

    ``algorithms`` are ours for the paper's seven columns, in its order (:data:`PLAN_TABLE_HEADINGS`);
    ``models`` is "base" or "ablation" and picks the paper's table. Cells: "ours (paper)", "–"
    where one side has no value (QS_S with nothing solved, a column we did not run). Best known
    plan lengths are taken over every record, as everywhere in this report. Returns "" when none
    of ``algorithms`` ran on the paper suite.
    """
    paper_records = [record for record in records if record.get("suite") == "paper"]
    if not any(record["algorithm"] in algorithms for record in paper_records):
        return ""
    _check_records(paper_records)
    runs = _index_runs(paper_records)
    best = best_known_lengths(paper_records)
    published = _PLAN_TABLES[(models, metric)]
    table = []
    for (_, domain, group), tasks in _scopes(paper_records).items():
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
            paper = theirs[column] if theirs else None
            cells.append(f"{_fraction(ours)} ({_fraction(paper)})")
        table.append([domain, group, len(tasks), *cells])
    return _markdown_table(["domain", "split", "tasks", *PLAN_TABLE_HEADINGS], table)


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
    _check_records(ipc_records)
    order = _algorithm_order(ipc_records, algorithms)
    runs = _index_runs(ipc_records)
    header = [
        "domain",
        "level",
        "tasks",
        *(f"ours: {algorithm}" for algorithm in order),
        *(f"IPC: {planner}" for planner in IPC2023_PLANNERS),
    ]
    table = []
    for (_, domain, level), tasks in _scopes(ipc_records).items():
        ours = [f"{_solved_count(tasks, runs, algorithm)}/{len(tasks)}" for algorithm in order]
        published = IPC2023_COVERAGE.get(domain.lower())
        if published is None or level not in IPC2023_LEVELS:
            theirs = [_MISSING] * len(IPC2023_PLANNERS)
        else:
            column = IPC2023_LEVELS.index(level)
            theirs = [
                f"{published[planner][column]}/{IPC2023_TASKS_PER_LEVEL}"
                for planner in IPC2023_PLANNERS
            ]
        table.append([domain, level, len(tasks), *ours, *theirs])
    return _markdown_table(header, table)


def pairwise_table(records: Sequence[Mapping[str, Any]], algorithm: str, baselines: Sequence[str]) -> str:
    """``algorithm`` against each baseline on the tasks both solve: expansions and total time.

    A cell reads ``n · E× · T×``: n tasks solved by both, then the ratio of the geometric means of
    expansions (ours / theirs) and of the summed total times. Below 1 means ``algorithm`` needs
    fewer. Pairwise sets keep the comparison from shrinking to the few tasks every algorithm solves.
    """
    runs = _index_runs(records)
    scopes = _scopes(records)
    rows = []
    for (suite, domain, group), tasks in scopes.items():
        cells = []
        for baseline in baselines:
            both = [t for t in tasks
                    if is_solved(runs.get(t, {}).get(algorithm)) and is_solved(runs.get(t, {}).get(baseline))]
            if not both:
                cells.append(_MISSING)
                continue
            ours = [runs[t][algorithm] for t in both]
            theirs = [runs[t][baseline] for t in both]
            cell = f"{len(both)}"
            if all(r.get("expansions") is not None for r in ours + theirs):
                ratio = _geometric_mean([max(1, r["expansions"]) for r in ours]) / _geometric_mean(
                    [max(1, r["expansions"]) for r in theirs])
                cell += f" · {ratio:.2f}× exp"
            if all(r.get("total_time") is not None for r in ours + theirs):
                ratio = sum(r["total_time"] for r in ours) / max(1e-9, sum(r["total_time"] for r in theirs))
                cell += f" · {ratio:.2f}× time"
            cells.append(cell)
        rows.append([suite, domain, group, *cells])
    return _markdown_table(["suite", "domain", "group", *(f"vs {b}" for b in baselines)], rows)


def _render_markdown(
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    order: Sequence[str],
    title: str,
    command: str | None,
    notes: str | None,
    limits: str | None,
    plots: Sequence[Path],
) -> str:
    parts: list[str] = []
    invalid = [record for record in records if _is_invalid_plan(record)]
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
        f"Limits: {ours}. Runs: {len(records)}; algorithms: {', '.join(order) or _MISSING}."
    )
    if notes:
        parts.append(f"## Notes\n\n{notes}")

    parts.append(
        "## Coverage\n\nSolved (valid plan) / tasks. A missing run counts as unsolved.\n\n"
        + _scope_table(rows, order, _coverage_cell)
    )
    parts.append(
        "## Plan quality\n\nQS / QS_S: QS averages best known length / plan length over all tasks "
        "(unsolved 0); QS_S over solved tasks only. Best known = min of the published bound and "
        "every valid plan in these runs.\n\n" + _scope_table(rows, order, _quality_cell)
    )
    parts.append(
        "## Expansions\n\nGeometric mean over the tasks solved by every algorithm that reports "
        "expansions (column 'common'); – where an algorithm reports none.\n\n"
        + _scope_table(
            rows,
            order,
            lambda row: _expansions(row["expansions_gmean"]),
            "expansions_tasks",
            "common",
        )
    )
    ours_symt = next((a for a in order if a == "symt"), None)
    baselines = [a for a in order if a != ours_symt and a != "symt-guidance"]
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
                lambda row, m=metric: _fraction(row[f"{m}_sum"]),
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
        "Every run: `runs.csv`. Every number above per group and algorithm: `summary.csv`."
    )
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# Plots

COVERAGE_PLOT = "coverage_vs_size.png"
EXPANSIONS_PLOT = "expansions_scatter.png"
PLAN_LENGTH_PLOT = "plan_length.png"


def _color(order: Sequence[str], algorithm: str) -> str:
    # One color per algorithm across all plots, from matplotlib's default cycle.
    return f"C{list(order).index(algorithm) % 10}"


def _marker(order: Sequence[str], algorithm: str) -> str:
    # Markers differ too, so that algorithms with identical results stay distinguishable.
    return "os^Dv<>p"[list(order).index(algorithm) % 8]


def _plot_coverage_vs_size(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path
) -> bool:
    sized = [
        record
        for record in records
        if record.get("size") is not None and record["algorithm"] in order
    ]
    if not sized:
        return False
    size_of_task: dict[tuple[str, str], dict[TaskKey, int]] = {}
    for record in sized:
        size_of_task.setdefault((record["suite"], record["domain"]), {})[task_key(record)] = record[
            "size"
        ]
    solved = {(task_key(record), record["algorithm"]) for record in sized if is_solved(record)}
    suites = _ordered((suite for suite, _ in size_of_task), _SUITE_ORDER)
    panels = sorted(size_of_task, key=lambda panel: (suites.index(panel[0]), panel[1]))
    several_suites = len(suites) > 1

    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.5 * columns, 3.4 * lines), squeeze=False)
    for axis, panel in zip(axes.flat, panels):
        tasks_of_size: dict[int, list[TaskKey]] = {}
        for task, size in size_of_task[panel].items():
            tasks_of_size.setdefault(size, []).append(task)
        sizes = sorted(tasks_of_size)
        for algorithm in order:
            fractions = [
                sum((task, algorithm) in solved for task in tasks_of_size[size])
                / len(tasks_of_size[size])
                for size in sizes
            ]
            axis.plot(
                sizes,
                fractions,
                marker=_marker(order, algorithm),
                markersize=4,
                fillstyle="none",
                color=_color(order, algorithm),
                label=algorithm,
            )
        axis.set_title(f"{panel[0]}/{panel[1]}" if several_suites else panel[1])
        axis.xaxis.get_major_locator().set_params(integer=True)  # sizes are counts
        axis.set_xlabel("task size")
        axis.set_ylabel("fraction solved")
        axis.set_ylim(-0.05, 1.05)
        axis.grid(alpha=0.3)
    for axis in list(axes.flat)[len(panels) :]:
        axis.set_visible(False)
    axes.flat[0].legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def _solved_expansions(run: Mapping[str, Any] | None) -> int | None:
    return run.get("expansions") if is_solved(run) else None


def _plot_expansions_scatter(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path
) -> bool:
    with_expansions = {
        record["algorithm"] for record in records if record.get("expansions") is not None
    }
    symt = next((a for a in order if a.startswith("symt") and a in with_expansions), None)
    if symt is None or "ff" not in order or "ff" not in with_expansions:
        return False
    runs = _index_runs(records)
    points = []  # (ff, symt, domain); None = unsolved by that side
    for task, task_runs in runs.items():
        ff_value = _solved_expansions(task_runs.get("ff"))
        symt_value = _solved_expansions(task_runs.get(symt))
        if ff_value is not None or symt_value is not None:
            points.append((ff_value, symt_value, f"{task[0]}/{task[1]}"))
    if not points:
        return False
    # Log axes: zero expansions are drawn at 1. Unsolved tasks sit on a line at least ten times
    # beyond the largest count, so they cannot be mistaken for an expensive solved task.
    largest = max(max(value, 1) for point in points for value in point[:2] if value is not None)
    unsolved = 10.0 ** (math.ceil(math.log10(largest)) + 1)

    def position(value: int | None) -> float:
        return unsolved if value is None else max(value, 1)

    figure, axis = plt.subplots(figsize=(5.5, 5))
    domains = list(dict.fromkeys(point[2] for point in points))
    for index, domain in enumerate(domains):
        xs = [position(ff) for ff, _, d in points if d == domain]
        ys = [position(sy) for _, sy, d in points if d == domain]
        axis.scatter(xs, ys, s=16, alpha=0.7, color=f"C{index % 10}", label=domain)
    axis.plot([1, unsolved], [1, unsolved], color="grey", linewidth=0.8)
    axis.axvline(unsolved, color="red", linestyle="--", linewidth=0.8)
    axis.axhline(unsolved, color="red", linestyle="--", linewidth=0.8)
    axis.text(
        unsolved, 1, " unsolved", color="red", rotation=90, va="bottom", ha="right", fontsize=8
    )
    axis.text(1, unsolved, "unsolved", color="red", va="bottom", ha="left", fontsize=8)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlim(0.7, unsolved * 2)
    axis.set_ylim(0.7, unsolved * 2)
    axis.set_xlabel("ff expansions")
    axis.set_ylabel(f"{symt} expansions")
    axis.set_title(f"Expansions per task (below the diagonal: {symt} expands fewer)", fontsize=9)
    axis.legend(fontsize="x-small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def _plot_plan_length(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path
) -> bool:
    best = best_known_lengths(records)
    points: dict[str, list[tuple[int, int]]] = {}
    for record in records:
        reference = best[task_key(record)]
        if record["algorithm"] in order and is_solved(record) and reference is not None:
            points.setdefault(record["algorithm"], []).append((reference, record["plan_length"]))
    if not points:
        return False
    figure, axis = plt.subplots(figsize=(5.5, 5))
    for algorithm in order:
        if algorithm in points:
            xs, ys = zip(*points[algorithm])
            axis.scatter(
                xs,
                ys,
                s=18,
                alpha=0.7,
                marker=_marker(order, algorithm),
                facecolors="none",
                edgecolors=_color(order, algorithm),
                label=algorithm,
            )
    longest = max(max(pair) for pairs in points.values() for pair in pairs)
    axis.plot([0, longest], [0, longest], color="grey", linewidth=0.8, label="optimal (y = x)")
    axis.set_xlabel("best known plan length")
    axis.set_ylabel("plan length")
    axis.set_title("Plan length of solved runs", fontsize=9)
    axis.legend(fontsize="x-small")
    axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def write_plots(
    records: Iterable[Mapping[str, Any]],
    out_dir: str | Path,
    algorithms: Sequence[str] | None = None,
) -> list[Path]:
    """Write the plots that have data into ``out_dir`` and return their paths.

    coverage_vs_size.png: one panel per domain, fraction of the tasks of each size solved, one
    line per algorithm. expansions_scatter.png: expansions of the first "symt*" algorithm that
    reports expansions against "ff", per task. plan_length.png: plan length against best known
    length per solved run. A plot without data is skipped, and a file of its name left by an
    earlier report in ``out_dir`` is removed so that it cannot be mistaken for this one's.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    records = list(records)
    _check_records(records)
    order = _algorithm_order(records, algorithms)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, plot in (
        (COVERAGE_PLOT, _plot_coverage_vs_size),
        (EXPANSIONS_PLOT, _plot_expansions_scatter),
        (PLAN_LENGTH_PLOT, _plot_plan_length),
    ):
        path = out / name
        if plot(plt, records, order, path):
            written.append(path)
        else:
            path.unlink(missing_ok=True)
    return written


# ---------------------------------------------------------------------------------------------
# The report


def write_report(
    records: Iterable[Mapping[str, Any]],
    out_dir: str | Path,
    title: str,
    command: str | None = None,
    notes: str | None = None,
    algorithms: Sequence[str] | None = None,
    limits: str | None = None,
) -> Path:
    """Write runs.csv, summary.csv, the plots and report.md into ``out_dir``; return report.md.

    ``command`` (what produced the runs) and ``notes`` go under the title; ``limits`` (such as
    "20 s, 4 GiB per task") goes into the report and into the headings of the comparisons with
    the paper and the IPC, whose limits differ. ``algorithms`` selects and orders the table
    columns (runs.csv keeps every record).
    """
    records = list(records)
    _check_records(records)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    order = _algorithm_order(records, algorithms)
    rows = summary_rows(records, order)
    write_csv(records, out / "runs.csv")
    write_summary_csv(rows, out / "summary.csv")
    plots = write_plots(records, out, order)
    report = out / "report.md"
    report.write_text(
        _render_markdown(records, rows, order, title, command, notes, limits, plots),
        encoding="utf-8",
    )
    return report
