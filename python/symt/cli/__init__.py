"""The ``symt`` command line: the top parser, which each command group's module fills in with its
commands, and :func:`main`, which runs one command.

Every user error (bad PDDL, missing file, state limit) ends with a one-line ``symt: error: ...``
message on stderr and a non-zero exit code; tracebacks are reserved for bugs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import SymtError
from . import data, demo, experiment, plan, tasks, training

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``symt`` parser with every command, in the order ``symt --help`` lists them."""
    parser = argparse.ArgumentParser(
        prog="symt",
        description="symt: symmetry-aware transformers for automated planning. "
        "Parse and ground PDDL, expand state spaces with h*, generate the paper's datasets.",
    )
    parser.add_argument("--version", action="version", version=f"symt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in (tasks, demo, data, experiment, training, plan):
        group.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``symt`` command in ``argv`` (default: the process's arguments); its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    from ..processes import (
        adopt_orphans,
        end_descendants,
        interrupted_exit_code,
        termination_as_interrupt,
    )

    adopt_orphans()
    try:
        with termination_as_interrupt():
            return int(args.func(args))
    except SymtError as error:
        print(f"symt: error: {error}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:  # the reader of stdout went away (| head): not an error
        return 0
    except OSError as error:  # a file system failure no check foresaw: still one line
        where = f"{error.filename}: " if error.filename else ""
        print(f"symt: error: {where}{error.strerror or error}", file=sys.stderr)
        return 1
    except MemoryError:
        print("symt: error: out of memory: the task needs more than this machine's memory", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interruption:
        end_descendants()  # nothing this command started outlives it
        print(f"symt: interrupted ({interruption or 'SIGINT'})", file=sys.stderr)
        return interrupted_exit_code(interruption)
