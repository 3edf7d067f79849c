"""The shipped models' training table (benchmarks/training/models.toml) and its runner
(benchmarks/training/train_models.py): every model file has exactly one row, every row's commands
still parse with symt's own argument parser, and the runner's errors are one line with exit code 2.
Nothing here trains: the runner runs with --dry-run."""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from symt.cli import build_parser

pytest.importorskip("tomllib", reason="the runner reads its table with tomllib (Python 3.11)")

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "python" / "symt" / "models"
SCRIPT = ROOT / "benchmarks" / "training" / "train_models.py"


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_models", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


train_models = _runner()
ROWS = train_models.load_table()


def _run(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=60, **kwargs)  # type: ignore[call-overload]


def _parse(arguments: list[str]) -> argparse.Namespace:
    """``arguments`` (a symt command without ``symt``) parsed by symt's own parser, or a test failure
    with argparse's message."""
    try:
        return build_parser().parse_args(arguments)
    except SystemExit:
        pytest.fail(f"symt's parser refuses: symt {shlex.join(arguments)}")


def test_every_model_file_has_exactly_one_row():
    files = sorted([path.name for path in MODELS.glob("*.pt")] +
                   [f"wl/{path.name}" for path in (MODELS / "wl").glob("*.json")])
    assert files, "no model files found"
    assert sorted(ROWS) == files  # table keys are unique (TOML), so this is "exactly one"
    for name, row in ROWS.items():
        assert (ROOT / row.source).is_file(), f"{name}: its source {row.source} is not a file"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_a_dry_run_prints_commands_that_symt_parses(name: str):
    row = ROWS[name]
    result = _run("--dry-run", "--symt", "symt", name)
    assert result.returncode == 0, result.stderr
    commands = [shlex.split(line)[1:] for line in result.stdout.splitlines() if line.startswith("symt ")]
    training = [words for words in commands if words[0] == row.subcommand
                and "--out" in words and words[words.index("--out") + 1].startswith(f"runs/{name.rsplit('.', 1)[0]}")]
    assert len(training) == 1, result.stdout
    args = _parse(training[0])
    assert args.seed == row.seed, f"{name}: the row's seed is {row.seed}, its command's {args.seed}"
    assert "# to ship it (a manual step): cp runs/" in result.stdout
    assert f" python/symt/models/{name}" in result.stdout
    for words in commands:  # the data, warm-start and export commands too
        _parse(words)
    # the data commands whether or not the folders exist here
    for data in [row.data, *([row.start.data] if row.start else [])]:
        _parse(data.command)
    if row.start is not None:
        assert _parse(["train", *row.start.command]).out is None
    assert all(not word.startswith("python/symt/models") for words in commands for word in words)


def test_an_unknown_name_is_one_error_line_and_exit_code_2():
    result = _run("--dry-run", "gripper.pt", "no-such-model.pt")
    assert result.returncode == 2
    assert result.stdout == ""  # names are checked before anything is printed or run
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("train_models: error: ") and "no-such-model.pt" in lines[0]


def test_a_bad_table_is_one_error_line_and_exit_code_2(tmp_path: Path):
    table = tmp_path / "models.toml"
    table.write_text('["gripper.pt"]\nkind = "symt-e"\n')
    result = _run("--dry-run", "--table", str(table))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("train_models: error: gripper.pt: missing key")
    table.write_text('["gripper.pt"\n')
    result = _run("--dry-run", "--table", str(table))
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr


FAKE_SYMT = """
import os, pathlib, sys, time
args = sys.argv[1:]
out = pathlib.Path(args[args.index("--out") + 1]) if "--out" in args else None
if args[0] in ("train", "train-plans"):
    out.mkdir(parents=True, exist_ok=True)
    (out / "best.pt").write_text(args[0])
    time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
elif args[0] == "train-wl":
    out.write_text("wl")
elif args[0] == "export":
    pathlib.Path(args[2]).write_text(pathlib.Path(args[1]).read_text())
elif args[0] == "retarget":
    pathlib.Path(args[3]).write_text(pathlib.Path(args[1]).read_text())
"""


def test_a_run_writes_into_the_runs_folder_only(tmp_path: Path):
    """With a stand-in for symt (its data commands do nothing): each row's file ends up in the runs
    folder, python/symt/models/ is untouched, and a training stopped by --time-limit is exported."""
    fake = tmp_path / "fake_symt.py"
    fake.write_text(FAKE_SYMT)
    before = {path: path.stat().st_mtime_ns for path in MODELS.rglob("*") if path.is_file()}
    runs = tmp_path / "runs"
    names = ["gripper.pt", "gripper-ed.pt", "wl/gripper.json", "ipc2023-blocksworld.pt"]
    result = _run("--symt", f"{sys.executable} {fake}", "--runs", str(runs), "--time-limit", "1", *names,
                  env={**os.environ, "FAKE_SLEEP": "5"})
    assert result.returncode == 0, result.stderr
    for name in names:
        assert (runs / name.rsplit(".", 1)[0] / Path(name).name).is_file(), name
    assert result.stdout.count("stopped by --time-limit") == 3  # the three trainings with checkpoints
    assert {path: path.stat().st_mtime_ns for path in MODELS.rglob("*") if path.is_file()} == before


def test_patterns_and_names_without_extension_pick_rows():
    rows = train_models.choose(ROWS, ["wl/*", "gripper", "wl/gripper.json"])
    names = [row.name for row in rows]
    assert names[-1] == "gripper.pt" and len(names) == len(set(names))
    assert {name for name in names if name.startswith("wl/")} == {name for name in ROWS if name.startswith("wl/")}
