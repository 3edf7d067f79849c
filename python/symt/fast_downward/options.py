"""A scanner of Fast Downward's option syntax for the ``symt(...)`` and ``wl(...)`` calls of a search
string: where each call's model value sits (:func:`_model_spans`), which model file it names
(:func:`_resolve_model`), and a check of ``symt()``'s other options (:func:`check_symt_options`)
before Fast Downward's own parser sees them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import SymtError

_SYMT_CALL = re.compile(r"(?<![\w@])symt\s*\(", re.IGNORECASE)
_MODEL_KEY = re.compile(r"\s*model\s*=\s*", re.IGNORECASE)
_KEYWORD = re.compile(r"\s*\w+\s*=")
_WL_CALL = re.compile(r"(?<![\w@])wl\s*\(", re.IGNORECASE)


SYMT_OPTIONS = ("model", "threads", "scale", "precision", "max_batch_atoms", "incremental", "native", "transform",
                "cache_estimates")
"""The options of the plugin's ``symt()`` in its positional order (``fd_plugin/symt_plugin.cc``
and Fast Downward's ``Heuristic``): checked here, where the error can name what the user wrote,
instead of by Fast Downward's parser after translation (with the internal model key)."""


def _call_arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` ends just before ``start``."""
    arguments, depth, begin = [], 0, start
    for j in range(start, len(text)):
        char = text[j]
        if char in "([":
            depth += 1
        elif char in ")]" and depth > 0:
            depth -= 1
        elif char == ")" or (char == "," and depth == 0):
            arguments.append(text[begin:j].strip())
            if char == ")":
                return [a for a in arguments if a] if arguments != [""] else []
            begin = j + 1
    raise SymtError(f"symt(...) is not closed in {text!r}")


SYMT_OPTION_VALUES: dict[str, tuple[str, object]] = {
    "threads": ("int", 1),
    "scale": ("double", 0.0),
    "precision": ("enum", ("FP32", "BF16", "AUTO")),
    "max_batch_atoms": ("int", 1),
    "incremental": ("bool", None),
    "native": ("bool", None),
    "cache_estimates": ("bool", None),
}
"""The values each checked option takes, as the plugin declares them (``int`` and ``double``: at
least the bound, at most infinity; ``enum``: one of the names; ``bool``): a test asks the built
plugin (``downward --help symt``) and compares, so the two declarations cannot drift apart."""


def _check_option_value(option: str, value: str) -> None:
    def fail(expected: str) -> SymtError:
        return SymtError(f"symt(): option {option}={value}: expected {expected}")

    kind, bound = SYMT_OPTION_VALUES.get(option, (None, None))
    if kind == "int":
        low, high = int(bound), 2**31 - 1  # Fast Downward reads an int option into a C++ int
        whole = re.fullmatch(r"\d+", value) is not None
        if option == "threads":
            if not whole or int(value) < low:
                raise fail(f"a whole number of at least {low}")
            cores = os.cpu_count() or 1
            if int(value) > cores:  # torch crashed on threads=99999 (issue 36)
                raise fail(f"at most {cores}, this machine's cores")
        elif not whole or not low <= int(value) <= high:
            raise fail(f"a whole number from {low} to {high}")
    elif kind == "double":
        try:
            number = float(value)
        except ValueError:
            raise fail(f"a number of at least {bound:g}") from None
        if not number >= float(bound) or number == float("inf"):
            raise fail(f"a number of at least {bound:g}")
    elif kind == "enum" and value.upper() not in bound:
        names = [name.lower() for name in bound]
        raise fail(f"{', '.join(names[:-1])} or {names[-1]}")
    elif kind == "bool" and value.lower() not in ("true", "false"):
        raise fail("true or false")


def check_symt_options(text: str) -> None:
    """Refuse a ``symt(...)`` call in ``text`` (a search string after the model was replaced by
    its key) whose options Fast Downward would reject: one line naming the option."""
    for call in _SYMT_CALL.finditer(text):
        seen: set[str] = set()
        keywords = False  # positional arguments come first, as in Fast Downward's parser
        for position, argument in enumerate(_call_arguments(text, call.end())):
            keyword = re.match(r"(\w+)\s*=\s*", argument)
            if keyword:
                keywords = True
                option, value = keyword.group(1).lower(), argument[keyword.end():]
                if option not in SYMT_OPTIONS:
                    raise SymtError(f"symt(): unknown option '{keyword.group(1)}' (symt() takes "
                                    f"{', '.join(SYMT_OPTIONS)})")
            elif not keywords and position < len(SYMT_OPTIONS):
                option, value = SYMT_OPTIONS[position], argument
            else:
                raise SymtError(f"symt(): the argument '{argument}' has no option name "
                                f"(write option=value; symt() takes {', '.join(SYMT_OPTIONS)})")
            if option in seen:
                raise SymtError(f"symt(): option '{option}' given twice")
            seen.add(option)
            _check_option_value(option, value)


@dataclass
class ModelSpan:
    """Where a ``symt(...)`` call's model value sits in a search-string argument.

    A call without a model (``symt()``, ``symt(threads=2)``) has no candidates: ``start`` is just
    after its ``(``, where ``model=...`` is to be inserted, and ``ends`` is ``[start]``.
    """

    start: int
    ends: list[int]
    """Possible ends of the value text, shortest first (several when it contains ``,`` or ``)``)."""
    candidates: list[str]
    """The value read up to each end (quotes removed); empty when the call names no model."""
    has_arguments: bool = True
    """For a call without a model: whether it has other arguments (``model=`` then needs a ``,``)."""

    @property
    def given(self) -> bool:
        return bool(self.candidates)


def _model_spans(text: str, call_pattern: re.Pattern = _SYMT_CALL) -> list[ModelSpan]:
    """The model value of every ``symt(...)`` call (or other ``call_pattern``) in ``text``
    (keyword or first positional).

    A closed call without a model gives a span without candidates (the default model goes there).
    """
    spans = []
    for call in call_pattern.finditer(text):
        value_start = None
        closed = False
        depth = 0
        j = call.end()
        while j < len(text):
            char = text[j]
            if depth == 0 and (j == call.end() or text[j - 1] == ","):
                keyword = _MODEL_KEY.match(text, j)
                if keyword:
                    value_start = keyword.end()
                    break
                if j == call.end() and not _KEYWORD.match(text, j) and text[j:].strip()[:1] not in (")", ""):
                    value_start = j + len(text[j:]) - len(text[j:].lstrip())
                    break
            if char in "([":
                depth += 1
            elif char in ")]":
                if depth == 0:
                    closed = True
                    break
                depth -= 1
            j += 1
        if value_start is None:
            if closed:  # no model given: the wrapper picks the shipped one for the task's domain
                arguments = text[call.end() : j].strip() != ""
                spans.append(ModelSpan(call.end(), [call.end()], [], arguments))
            continue
        quote = text[value_start] if value_start < len(text) else ""
        if quote in ("'", '"'):
            close = text.find(quote, value_start + 1)
            if close < 0:
                raise SymtError(f"unterminated quote in symt(model=...) in {text!r}")
            spans.append(ModelSpan(value_start, [close + 1], [text[value_start + 1 : close]]))
            continue
        ends = [k for k in range(value_start + 1, len(text)) if text[k] in ",)"]
        if not ends:
            raise SymtError(f"symt(model=...) is not closed in {text!r}")
        spans.append(ModelSpan(value_start, ends, [text[value_start:k].rstrip() for k in ends]))
    return spans


def _resolve_model(span: ModelSpan, resolve: Callable[[str], Path] | None = None) -> tuple[Path, int]:
    """The model file a span names, and the span's end; the longest resolvable candidate wins.
    ``resolve`` turns a name or path into a file (default: SymT-E models, ``symt.models.resolve``)."""
    if resolve is None:
        from ..models import resolve

    for candidate, end in reversed(list(zip(span.candidates, span.ends))):
        try:
            return resolve(candidate).resolve(), end
        except SymtError:
            continue
    resolve(span.candidates[0])  # raises the error for the shortest reading
    raise AssertionError("unreachable")
