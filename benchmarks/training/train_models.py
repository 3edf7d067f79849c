#!/usr/bin/env python3
"""Train the shipped models from their table, ``benchmarks/training/models.toml``.

    python benchmarks/training/train_models.py [NAME ...] [--runs DIR] [--dry-run] [--threads N]
        [--time-limit S] [--symt CMD] [--table FILE]

A NAME is a row of the table: a model file's path in ``python/symt/models/`` (``gripper.pt``,
``wl/gripper.json``), the same without its extension (``gripper``), or a shell pattern over the rows
(``'wl/*'``, ``'ipc2023-*.pt'``); no NAME: every row. For each chosen row, one after another (their
training is timed: ``--time-budget`` and the step rates assume nothing else runs beside them), it
prints and, unless ``--dry-run``, runs:

1. the data command, when the data folder has no ``manifest.json``; for a row with a ``start`` (a
   warm start), that run's data and training first, unless ``RUNS/<start run>/best.pt`` exists;
2. the training command, with ``--out RUNS/<name without extension>`` (``train-wl``: the model file
   in that folder) and ``--threads N`` (``train``, ``train-plans``); ``--time-limit`` stops it after
   S seconds (SIGTERM; the run keeps its best checkpoint, and the export goes on from it);
3. the export steps, into that run folder only.

It never writes ``python/symt/models/``: shipping is a manual copy, whose ``cp`` line it prints.
Commands run in the repository root, so relative paths in the table and in ``--runs`` are from
there. Errors: a bad table or an unknown NAME ends with one line ``train_models: error: ...`` and
exit code 2; a symt command that fails, with one such line and exit code 1.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("train_models: error: needs Python 3.11 or later (tomllib)")
import tomllib  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "benchmarks" / "training" / "models.toml"
MODELS = "python/symt/models"
SUBCOMMAND = {"symt-e": "train", "retarget": "train", "plan": "train-plans", "wl": "train-wl"}
"""The symt command that trains a row of each kind (a retarget row trains on its own domain first)."""
THREADED = {"train", "train-plans"}
"""The training commands that take ``--threads``."""
ROW_KEYS = {"kind", "run", "data", "command", "seed", "budget", "export", "start", "source", "note"}
REQUIRED = {"kind", "data", "command", "seed", "budget", "export", "source"}
DATA_KEYS = {"about", "folder", "command"}
START_KEYS = {"run", "data", "command", "budget"}
STOP_GRACE_S = 120
"""Seconds a training stopped by ``--time-limit`` gets to write its checkpoint before it is killed."""


class TableError(Exception):
    """A bad table or an unknown model name (exit code 2)."""


class CommandFailed(Exception):
    """A symt command that exited non-zero (exit code 1)."""


@dataclass(frozen=True)
class Data:
    """A dataset: what it is, its folder, and the symt arguments that make it."""

    about: str
    folder: str
    command: list[str]


@dataclass(frozen=True)
class Start:
    """The run a warm start continues: its folder name under the runs folder, data and training."""

    run: str
    data: Data
    command: list[str]


@dataclass(frozen=True)
class Row:
    """One shipped model file and the commands that make it."""

    name: str
    kind: str
    data: Data
    command: list[str]
    seed: int
    budget: str
    export: list[list[str]] | str
    source: str
    run: str | None = None
    start: Start | None = None
    note: str | None = None

    @property
    def subcommand(self) -> str:
        """The symt command that trains this row."""
        return SUBCOMMAND[self.kind]

    def run_folder(self, runs: Path) -> Path:
        """``RUNS/<name without extension>``: where this row's run and its exported file go."""
        return runs / self.name.rsplit(".", 1)[0]

    def artifact(self, runs: Path) -> Path:
        """The file in the run folder that becomes the shipped file."""
        return self.run_folder(runs) / Path(self.name).name


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TableError(f"{where}: expected a non-empty string")
    return value


def _arguments(value: object, where: str) -> list[str]:
    try:
        words = shlex.split(_text(value, where))
    except ValueError as error:  # an unclosed quote
        raise TableError(f"{where}: {error}") from None
    for word in words:
        try:
            word.format(runs="", run="", file="")
        except (KeyError, IndexError, ValueError):
            raise TableError(f"{where}: unknown placeholder in {word!r} "
                             "(known: {runs}, {run}, {file})") from None
    return words


def _keys(table: object, allowed: set[str], required: set[str], where: str) -> dict[str, object]:
    if not isinstance(table, dict):
        raise TableError(f"{where}: expected a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise TableError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(table))
    if missing:
        raise TableError(f"{where}: missing key {missing[0]!r}")
    return table


def _data(value: object, where: str) -> Data:
    table = _keys(value, DATA_KEYS, DATA_KEYS, where)
    return Data(about=_text(table["about"], f"{where}.about"), folder=_text(table["folder"], f"{where}.folder"),
                command=_arguments(table["command"], f"{where}.command"))


def _row(name: str, value: object) -> Row:
    where = name
    if not (name.endswith(".pt") or (name.startswith("wl/") and name.endswith(".json"))):
        raise TableError(f"{where}: not a model file name (*.pt or wl/*.json)")
    table = _keys(value, ROW_KEYS, REQUIRED, where)
    kind = _text(table["kind"], f"{where}.kind")
    if kind not in SUBCOMMAND:
        raise TableError(f"{where}.kind: {kind!r} is none of {', '.join(SUBCOMMAND)}")
    seed = table["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise TableError(f"{where}.seed: expected an integer >= 0")
    export_value = table["export"]
    export: list[list[str]] | str
    if isinstance(export_value, list):
        if not export_value:
            raise TableError(f"{where}.export: an empty list (write \"copy\" or \"none\")")
        export = [_arguments(step, f"{where}.export[{i}]") for i, step in enumerate(export_value)]
    elif (export_value, kind) in (("copy", "plan"), ("none", "wl")):
        export = str(export_value)
    else:
        raise TableError(f"{where}.export: expected a list of symt commands, \"copy\" (plan rows) or "
                         "\"none\" (wl rows)")
    start = None
    if "start" in table:
        start_table = _keys(table["start"], START_KEYS, START_KEYS, f"{where}.start")
        _text(start_table["budget"], f"{where}.start.budget")
        start = Start(run=_text(start_table["run"], f"{where}.start.run"),
                      data=_data(start_table["data"], f"{where}.start.data"),
                      command=_arguments(start_table["command"], f"{where}.start.command"))
    return Row(name=name, kind=kind, data=_data(table["data"], f"{where}.data"),
               command=_arguments(table["command"], f"{where}.command"), seed=seed,
               budget=_text(table["budget"], f"{where}.budget"), export=export,
               source=_text(table["source"], f"{where}.source"),
               run=_text(table["run"], f"{where}.run") if "run" in table else None, start=start,
               note=_text(table["note"], f"{where}.note") if "note" in table else None)


def load_table(path: Path = TABLE) -> dict[str, Row]:
    """The rows of the table at ``path`` by model name, in the table's order; :class:`TableError` if
    the file is missing, not TOML, or a row is malformed."""
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as error:
        raise TableError(f"{path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise TableError(f"{path}: {error}") from None
    if not raw:
        raise TableError(f"{path}: no rows")
    return {name: _row(name, value) for name, value in raw.items()}


def choose(rows: dict[str, Row], names: list[str], table: Path = TABLE) -> list[Row]:
    """The rows that ``names`` pick (every row when there are none), each once, in the order named;
    :class:`TableError` for a name that picks none (``table``: the file named in the message)."""
    if not names:
        return list(rows.values())
    stems = {name.rsplit(".", 1)[0]: name for name in rows}
    chosen: dict[str, Row] = {}
    for name in names:
        if name in rows or name in stems:
            matches = [rows[name] if name in rows else rows[stems[name]]]
        else:
            matches = [row for key, row in rows.items() if fnmatch.fnmatchcase(key, name)]
        if not matches:
            raise TableError(f"unknown model {name!r}: no row of {_shown(table)} is named so or matches it")
        for row in matches:
            chosen.setdefault(row.name, row)
    return list(chosen.values())


def _shown(path: Path) -> str:
    """``path`` relative to the repository root where it lies inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _fill(words: list[str], runs: Path, row: Row) -> list[str]:
    run = row.run_folder(runs)
    return [word.format(runs=_shown(runs), run=_shown(run), file=_shown(row.artifact(runs))) for word in words]


@dataclass
class Runner:
    """Prints each command and, unless ``dry_run``, runs it in the repository root."""

    symt: list[str]
    runs: Path
    threads: int
    time_limit: float
    dry_run: bool

    def say(self, line: str) -> None:
        """Print ``line`` at once (the commands' own output follows it)."""
        print(line, flush=True)

    def symt_command(self, row: Row, arguments: list[str], *, limit: float = 0.0) -> None:
        """Run ``symt ARGUMENTS`` for ``row``; stop it after ``limit`` seconds (0: never)."""
        command = [*self.symt, *arguments]
        self.say(shlex.join(command))
        if self.dry_run:
            return
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=ROOT)
        try:
            code = process.wait(timeout=limit or None)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self.say(f"# {row.name}: stopped by --time-limit after {time.monotonic() - started:.0f} s")
            return
        except KeyboardInterrupt:
            process.terminate()
            process.wait()
            raise
        self.say(f"# {row.name}: symt {arguments[0]} exited {code} after {time.monotonic() - started:.0f} s")
        if code != 0:
            raise CommandFailed(f"{row.name}: symt {arguments[0]} exited {code}")

    def ensure_data(self, row: Row, data: Data) -> None:
        """Make ``data`` unless its folder has a manifest.json."""
        if (ROOT / data.folder / "manifest.json").exists():
            self.say(f"# data: {data.folder} exists")
        else:
            self.symt_command(row, data.command)

    def train(self, row: Row, arguments: list[str], out: Path, subcommand: str) -> None:
        """``symt SUBCOMMAND ARGUMENTS --out OUT [--threads N]``, within the time limit."""
        extra = ["--out", _shown(out)]
        if subcommand in THREADED:
            extra += ["--threads", str(self.threads)]
        if not self.dry_run:
            (out.parent if subcommand == "train-wl" else out).mkdir(parents=True, exist_ok=True)
        self.symt_command(row, [subcommand, *arguments, *extra], limit=self.time_limit)

    def model(self, row: Row) -> None:
        """Print and run one row: data, warm start, training, export; print the line that ships it."""
        run = row.run_folder(self.runs)
        self.say(f"# {row.name}: {row.kind}{f', run {row.run}' if row.run else ''} ({row.source})")
        if row.start is not None:
            start_run = self.runs / row.start.run
            if (start_run / "best.pt").exists():
                self.say(f"# start: {_shown(start_run)}/best.pt exists")
            else:
                self.ensure_data(row, row.start.data)
                self.train(row, _fill(row.start.command, self.runs, row), start_run, "train")
        self.ensure_data(row, row.data)
        out = row.artifact(self.runs) if row.kind == "wl" else run
        self.train(row, _fill(row.command, self.runs, row), out, row.subcommand)
        artifact = row.artifact(self.runs)
        if row.export == "copy":
            self.say(shlex.join(["cp", _shown(run / "best.pt"), _shown(artifact)]))
            if not self.dry_run:
                self._need(row, run / "best.pt")
                shutil.copyfile(run / "best.pt", artifact)
        elif isinstance(row.export, list):
            for step in row.export:
                if not self.dry_run and step[0] == "export":
                    self._need(row, run / "best.pt")
                self.symt_command(row, _fill(step, self.runs, row))
        if not self.dry_run:
            self._need(row, artifact)
        self.say(f"# to ship it (a manual step): {shlex.join(['cp', _shown(artifact), f'{MODELS}/{row.name}'])}")

    @staticmethod
    def _need(row: Row, path: Path) -> None:
        if not path.exists():
            raise CommandFailed(f"{row.name}: {_shown(path)} was not written")


def default_symt() -> str:
    """``$SYMT``, else the repository's ``.venv/bin/symt``, else ``symt`` on the PATH."""
    if os.environ.get("SYMT"):
        return os.environ["SYMT"]
    return ".venv/bin/symt" if (ROOT / ".venv" / "bin" / "symt").exists() else "symt"


def build_parser() -> argparse.ArgumentParser:
    """The command line of this script."""
    parser = argparse.ArgumentParser(
        prog="train_models",
        description="Print and run the commands behind the shipped models (benchmarks/training/models.toml): "
        "data, training and export into the runs folder. Shipping is a manual copy; its cp line is printed.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="model files as python/symt/models/ names them (gripper.pt, wl/gripper.json), "
                        "without the extension, or shell patterns ('wl/*'); default: all")
    parser.add_argument("--runs", type=Path, default=Path("runs"),
                        help="the runs folder (runs; relative to the repository root)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    parser.add_argument("--threads", type=int, default=1, help="torch threads for training (1)")
    parser.add_argument("--time-limit", type=float, default=0.0, metavar="S",
                        help="stop each training after S seconds, keeping its checkpoints (0: none)")
    parser.add_argument("--symt", default=default_symt(),
                        help="how to call symt ($SYMT, else .venv/bin/symt, else symt)")
    parser.add_argument("--table", type=Path, default=TABLE, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the rows ``argv`` names; the exit code."""
    args = build_parser().parse_args(argv)
    try:
        if args.threads < 1:
            raise TableError("--threads: expected at least 1")
        if args.time_limit < 0:
            raise TableError("--time-limit: expected seconds >= 0")
        rows = choose(load_table(args.table), args.names, args.table)
        runs = args.runs if args.runs.is_absolute() else ROOT / args.runs
        runner = Runner(symt=shlex.split(args.symt), runs=runs, threads=args.threads,
                        time_limit=args.time_limit, dry_run=args.dry_run)
        for row in rows:
            runner.model(row)
    except TableError as error:
        print(f"train_models: error: {error}", file=sys.stderr)
        return 2
    except CommandFailed as error:
        print(f"train_models: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("train_models: error: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
