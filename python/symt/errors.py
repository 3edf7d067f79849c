"""User-facing errors. The CLI prints ``str(error)`` as one line and exits non-zero."""

from __future__ import annotations

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C, the shell's 128 + SIGINT."""


class SymtError(Exception):
    """Base class of every error caused by user input (files, options, limits)."""

    exit_code = 2


class WriteError(SymtError):
    """A file could not be written while the work ran (a full or read-only disk): exit 1, as for
    other failures during work, not 2, which says the input was wrong."""

    exit_code = 1


class PDDLError(SymtError):
    """A PDDL file is malformed or uses an unsupported construct.

    The message always starts with ``file:line[:column]:`` so editors can jump to it.
    """

    def __init__(self, filename: str, line: int | None, message: str, column: int | None = None):
        self.filename = filename
        self.line = line
        self.column = column
        where = filename
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class PDDLSyntaxError(PDDLError):
    """The text is not well-formed (unbalanced parentheses, stray characters, wrong shape)."""


class UnsupportedConstructError(PDDLError):
    """The file is valid PDDL but uses a construct outside symt's STRIPS fragment."""


DEFAULT_MAX_STATES = 5_000_000
"""The default limit of a state-space expansion (``symt.statespace.expand``, ``--max-states``);
here, below the compiled core, so that the command line's help needs no extension module."""


class StateLimitError(SymtError):
    """The state space is larger than the configured limit."""


class PlanError(SymtError):
    """A plan file cannot be read or names an unknown action."""
