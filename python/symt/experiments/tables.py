"""Markdown table cells and tables, shared by the report's own tables (``markdown``) and its
comparisons with published numbers (``published``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MISSING = "–"  # table cell for "no value"


def cell(value: Any) -> str:
    """Table cell text: pipes escaped and newlines flattened, so one value stays one cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(cell(text) for text in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(cell(text) for text in row) + " |" for row in rows]
    return "\n".join(lines)


def fraction(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}"


def expansions_cell(value: float | None) -> str:
    return MISSING if value is None else f"{value:,.1f}"
