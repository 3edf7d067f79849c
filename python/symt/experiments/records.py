"""Run records: the flat dict of one (task, algorithm) run that every report is built from, its
schema (:data:`RECORD_FIELDS`, :data:`OUTCOMES`), the order of suites and groups, the CSV file
(``runs.csv``) and the record built from Fast Downward Lab's run properties."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SymtError

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
    "plan_cost",
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
    "plan_cost": int,
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
SUITE_ORDER: tuple[str, ...] = ("paper", "variants", "ipc2023")
GROUP_ORDER: tuple[str, ...] = (
    "validation",
    "interpolation",
    "extrapolation",
    "as-generated",
    "easy",
    "medium",
    "hard",
)



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


def write_rows(rows: Sequence[Mapping[str, Any]], fields: Sequence[str], path: Path) -> None:
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
    write_rows(records, fields, Path(path))


def read_rows(path: str | Path, type_of: Callable[[str], type | None],
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
    rows = read_rows(path, _FIELD_TYPES.get, required=("domain", "problem", "algorithm", "solved"))
    if not rows:
        raise SymtError(f"{path}: no runs in the file (a header at most)")
    return [{**{field: None for field in RECORD_FIELDS}, **row} for row in rows]


def sort_records(records: list[Record]) -> list[Record]:
    """``records`` in report order: suite, domain, group (easy to hard), size, problem, algorithm."""
    groups = {group: i for i, group in enumerate(GROUP_ORDER)}
    return sorted(records, key=lambda r: (r["suite"] or "", r["domain"] or "", groups.get(r["group"], len(groups)),
                                          r["size"] or 0, r["problem"] or "", r["algorithm"] or ""))


def make_record(**values: Any) -> Record:
    """A run record with every field of :data:`RECORD_FIELDS` (missing ones None); a key outside
    the schema is a programming error."""
    unknown = set(values) - set(RECORD_FIELDS)
    if unknown:
        raise ValueError(f"not record fields: {', '.join(sorted(unknown))}")
    return {field: values.get(field) for field in RECORD_FIELDS}
