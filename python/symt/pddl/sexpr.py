"""PDDL's concrete syntax: s-expressions, parsed with lark, with line and column kept.

A ``?`` always begins a word, as in Fast Downward's reader (which puts a space before each ``?``):
IPC files glue a variable to its predicate (IPC 2002 Zenotravel's ``(aircraft?a)``).

PDDL is an s-expression language, so the grammar here is deliberately only that: lark checks the
bracket structure and reports syntax errors with file:line:column, and ``symt.pddl.parser`` then
interprets the tree, where the errors that matter to a user (an unsupported construct, a wrong
arity, an unknown object) can name the PDDL construct and its position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import lark
from lark import Lark, Token, Transformer, v_args

from ..errors import PDDLSyntaxError

_GRAMMAR = r"""
start: expr*
?expr: list | SYMBOL
list: LPAR expr* RPAR
LPAR: "("
RPAR: ")"
SYMBOL: /[^\s();?]+|\?[^\s();?]*/
COMMENT: /;[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


@dataclass(frozen=True, eq=False)
class Symbol:
    """A bare word; PDDL is case-insensitive, so ``text`` is lower-cased."""

    text: str
    line: int
    column: int

    def __repr__(self) -> str:
        return self.text


@dataclass(frozen=True, eq=False)
class SList:
    """A parenthesised list ``( ... )`` starting at ``line``:``column``."""

    items: tuple[SExpr, ...]
    line: int
    column: int
    depth: int = 1
    """Levels of lists from this one down to its deepest (1: no list inside)."""

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> SExpr:
        return self.items[index]

    def head(self) -> str | None:
        """The lower-cased first word, if the list starts with one."""
        if self.items and isinstance(self.items[0], Symbol):
            return self.items[0].text
        return None

    def __repr__(self) -> str:
        return "(" + " ".join(repr(item) for item in self.items) + ")"


SExpr = Symbol | SList


class _ToSExpr(Transformer):
    @v_args(inline=True)
    def SYMBOL(self, token: Token) -> Symbol:  # noqa: N802 - lark names terminal callbacks so
        return Symbol(str(token).lower(), token.line or 0, token.column or 0)

    def list(self, children: list) -> SList:
        lpar = children[0]
        items = tuple(children[1:-1])
        depth = 1 + max((item.depth for item in items if isinstance(item, SList)), default=0)
        return SList(items, lpar.line, lpar.column, depth)

    def start(self, children: list) -> list[SExpr]:
        return children


_parser = Lark(_GRAMMAR, parser="lalr", lexer="contextual", transformer=_ToSExpr())


MAX_NESTING = 500
"""Deepest nesting of lists accepted: real PDDL stays far below; the interpretation of the tree
recurses, and a deeper input would end in Python's RecursionError instead of an error message."""


def _check_nesting(expressions: list[SExpr], filename: str) -> None:
    for expression in expressions:
        if isinstance(expression, SList) and expression.depth > MAX_NESTING:
            level = 1
            while level <= MAX_NESTING:  # down the deepest branch to the first list too deep
                expression = max((i for i in expression.items if isinstance(i, SList)), key=lambda i: i.depth)
                level += 1
            raise PDDLSyntaxError(filename, expression.line, f"lists nested more than {MAX_NESTING} "
                                  "levels deep (not supported)", expression.column)


def parse_sexprs(text: str, filename: str) -> list[SExpr]:
    """Parse ``text`` into top-level s-expressions, or raise ``PDDLSyntaxError`` at file:line:col."""
    try:
        expressions = _parser.parse(text)
        _check_nesting(expressions, filename)
        return expressions
    except lark.exceptions.UnexpectedToken as error:
        token = error.token
        if token.type == "$END":
            raise PDDLSyntaxError(
                filename,
                _last_line(text),
                "unexpected end of file: a '(' is never closed",
            ) from None
        if token.type == "RPAR":
            message = "unbalanced ')': no '(' to close"
        else:
            message = f"unexpected {token!s}"
        raise PDDLSyntaxError(filename, error.line, message, error.column) from None
    except lark.exceptions.UnexpectedCharacters as error:
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        raise PDDLSyntaxError(
            filename, error.line, f"unexpected character {char!r}", error.column
        ) from None
    except lark.exceptions.UnexpectedEOF:
        raise PDDLSyntaxError(
            filename, _last_line(text), "unexpected end of file: a '(' is never closed"
        ) from None


def parse_file(path: str | Path) -> tuple[list[SExpr], str]:
    """Read and parse a PDDL file; returns the expressions and the name used in messages."""
    path = Path(path)
    filename = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")  # -sig: a byte-order mark is not text
    except FileNotFoundError:
        raise PDDLSyntaxError(filename, None, "file not found") from None
    except IsADirectoryError:
        raise PDDLSyntaxError(filename, None, "is a directory, not a PDDL file") from None
    except OSError as error:
        raise PDDLSyntaxError(filename, None, f"cannot read: {error.strerror}") from None
    return parse_sexprs(text, filename), filename


def _last_line(text: str) -> int:
    return text.count("\n") + 1
