"""Faults around a command (issue 36): full disks, signals, other people's files, impossible
limits. Each ends in one clear line and the right exit code, with nothing half-written, nothing
left running and nothing of the user's overwritten. Signals go to real child processes."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from filelock import FileLock

from symt.cli import main
from symt.errors import SymtError
from symt.folders import write_atomic
from symt.generators import domain_file
from symt.processes import descendants, end_descendants
from symt.training.base import save_atomic
from test_fast_downward import FAST_DOWNWARD, GRIPPER_DOMAIN, gripper_problem

SYMT = [sys.executable, "-m", "symt.cli"]


def run_symt(*args: str, timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SYMT, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False)


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# ------------------------------------------------------------------ full and read-only disks


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "last.pt"
    target.write_bytes(b"the previous checkpoint")

    def full_disk(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(SymtError, match=r"last.pt: cannot write the checkpoint \(No space left on device\)"):
        save_atomic({"weights": torch.zeros(3)}, target)
    assert target.read_bytes() == b"the previous checkpoint"
    assert [p.name for p in tmp_path.iterdir()] == ["last.pt"]


def test_writing_into_a_read_only_folder_is_one_line(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(SymtError, match="cannot write the model file"):
            write_atomic(folder / "model.pt", b"x", "model file")
    finally:
        folder.chmod(0o755)


def test_export_to_a_folder_names_the_folder_and_leaves_nothing(tmp_path, capsys):
    out = tmp_path / "existing"
    out.mkdir()
    assert main(["export", str(tmp_path / "best.pt"), str(out)]) == 2
    assert "existing: a folder of that name exists; name the model file itself" in capsys.readouterr().err
    assert main(["retarget", "blocksworld", str(domain_file("blocksworld")), str(out)]) == 2
    assert "a folder of that name exists" in capsys.readouterr().err
    run = tmp_path / "run"
    run.mkdir()
    (run / "best.pt").write_bytes(b"not really")
    assert main(["export", str(run), str(tmp_path / "m.pt")]) == 2
    assert "a folder, not a checkpoint; give" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.tmp"))


# ------------------------------------------------------------------ signals


def test_end_descendants_ends_children_and_grandchildren():
    script = ("import subprocess, sys, time\n"
              "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
              "time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 20
        while len(descendants()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        found = descendants()
        assert child.pid in found and len(found) >= 2
        assert end_descendants(grace=2.0) >= 2
        child.wait(timeout=10)
        assert descendants() == []
    finally:
        child.kill()


@pytest.mark.train
def test_sigterm_during_training_saves_last_pt_like_ctrl_c(gripper_dataset, tmp_path):
    out = tmp_path / "run"
    process = subprocess.Popen(
        [*SYMT, "train", str(gripper_dataset), "--out", str(out), "--steps", "100000", "--eval-every", "100000",
         "--batch-size", "8", "--d-model", "16", "--d-ff", "32", "--n-heads", "2", "--n-layers", "2",
         "--vocab-size", "20", "--threads", "1", "--device", "cpu", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The run folder's lock appears once the trainer starts; give it a few seconds of steps.
    deadline = time.monotonic() + 120
    while not (out / ".lock").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(6)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "Traceback" not in stderr
    assert "symt: error: interrupted at step" in stderr.strip().splitlines()[-1] and "--resume" in stderr
    checkpoint = torch.load(out / "last.pt", weights_only=False)
    assert checkpoint["trainer"]["step"] > 0
    assert not list(out.glob("*.tmp"))


def test_sigterm_to_fast_downward_ends_driver_and_search(fd_built, tmp_path):
    problem = tmp_path / "gripper-14.pddl"
    problem.write_text(gripper_problem(14))  # blind A* takes minutes on this
    work = tmp_path / "work"
    work.mkdir()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    process = subprocess.Popen([str(FAST_DOWNWARD), str(GRIPPER_DOMAIN), str(problem), "--search", "astar(blind())"],
                               cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(b"downward" in _cmdline(pid) for pid in descendants(process.pid)):
        time.sleep(0.2)
    below = descendants(process.pid)
    assert any(b"downward" in _cmdline(pid) for pid in below), "the search never started"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 128 + signal.SIGTERM
    time.sleep(1)
    assert not [pid for pid in below if _running(pid)], "a child of fast-downward outlived it"
    assert not (work / "sas_plan").exists()
    assert not list(scratch.iterdir())  # the symt-fd-* work folder is gone


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------------ other people's files


def test_generate_refuses_a_folder_with_the_users_own_files(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "domain.pddl").write_text("(define (domain mine))\n")
    assert main(["generate", "gripper", "--out", str(out), "--no-optimal"]) == 2
    assert "holds files symt generate did not write (domain.pddl)" in capsys.readouterr().err
    assert (out / "domain.pddl").read_text() == "(define (domain mine))\n"


def test_a_dataset_cut_short_has_no_manifest_and_its_rerun_is_accepted(tmp_path, capsys):
    out = tmp_path / "gripper"
    assert main(["generate", "gripper", "--out", str(out), "--no-optimal"]) == 0
    # What a kill while replacing leaves: symt's own files, the manifest already taken away.
    (out / "manifest.json").unlink()
    (out / "train" / sorted(os.listdir(out / "train"))[0]).write_text("(define (problem half")
    assert main(["train", str(out), "--steps", "1", "--out", str(tmp_path / "run")]) == 2
    assert "nor a dataset folder with a manifest.json" in capsys.readouterr().err
    assert main(["generate", "gripper", "--out", str(out), "--no-optimal"]) == 0
    assert json.loads((out / "manifest.json").read_text())


def test_a_truncated_manifest_is_one_line(tmp_path, capsys):
    out = tmp_path / "gripper"
    assert main(["generate", "gripper", "--out", str(out), "--no-optimal"]) == 0
    text = (out / "manifest.json").read_text()
    (out / "manifest.json").write_text(text[: len(text) // 2])
    assert main(["train", str(out), "--steps", "1", "--out", str(tmp_path / "run")]) == 2
    capsys.readouterr()  # generate's progress
    assert main(["train", str(out), "--steps", "1", "--out", str(tmp_path / "run2")]) == 2
    assert "manifest.json: not valid JSON" in one_error_line(capsys.readouterr().err)


def test_a_second_experiment_into_one_folder_is_refused(tmp_path, capsys):
    out = tmp_path / "exp"
    out.mkdir()
    with FileLock(out / ".lock"):  # as a running experiment holds it
        code = main(["experiment", "paper-smoke", "--out", str(out)])
    assert code == 2
    assert "another symt experiment is writing to this experiment folder" in capsys.readouterr().err


def test_experiment_results_are_checked_before_the_runs(tmp_path, capsys):
    results = tmp_path / "results"
    results.write_text("a file, not a folder")
    started = time.monotonic()
    assert main(["experiment", "paper-smoke", "--out", str(tmp_path / "exp"), "--results", str(results)]) == 2
    assert time.monotonic() - started < 30
    assert "a file of that name exists" in capsys.readouterr().err
    assert not (tmp_path / "exp" / "lab").exists()


# ------------------------------------------------------------------ limits and messages


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["train", "gripper", "--threads", "99999"], "at most"),
    (["plan", "d.pddl", "p.pddl", "--threads", "99999"], "at most"),
    (["experiment", "paper-smoke", "--memory-limit", "1"], "must be at least 256 MiB"),
    (["experiment", "paper-smoke", "--memory-limit", str(10**9)], "this machine has"),
    (["experiment", "paper-smoke", "--processes", "99999"], "at most"),
])
def test_impossible_resources_are_refused_before_work(args, message):
    result = run_symt(*args, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr.strip().splitlines()[-1]


def test_symt_threads_beyond_the_machine_is_one_line(fd_built, tmp_path):
    problem = tmp_path / "p.pddl"
    problem.write_text(gripper_problem(2))
    result = subprocess.run([str(FAST_DOWNWARD), str(GRIPPER_DOMAIN), str(problem), "--search",
                             "eager_greedy([symt(threads=99999)])"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120, check=False)
    assert result.returncode != 0
    assert "threads=99999: expected at most" in result.stderr


def test_a_byte_order_mark_is_not_text(tmp_path):
    from symt.pddl import parse_domain, parse_problem

    domain = tmp_path / "domain.pddl"
    domain.write_bytes(b"\xef\xbb\xbf" + domain_file("gripper").read_bytes())
    problem = tmp_path / "p.pddl"
    problem.write_bytes(b"\xef\xbb\xbf" + gripper_problem(2).encode())
    parsed = parse_domain(domain)
    assert parse_problem(problem, parsed).name == "gripper-2"


@pytest.mark.train
def test_resume_accepts_the_dataset_spelt_another_way(gripper_dataset, tmp_path, monkeypatch):
    common = ["--steps", "4", "--eval-every", "2", "--batch-size", "4", "--d-model", "16", "--d-ff", "32",
              "--n-heads", "2", "--n-layers", "2", "--vocab-size", "20", "--coverage-tasks", "1",
              "--threads", "1", "--device", "cpu", "--quiet", "--out", str(tmp_path / "run")]
    from symt.training.trainer import Trainer

    original = Trainer._train
    monkeypatch.setattr(Trainer, "_train", lambda self, stop_at: original(self, 2))  # stop after 2 steps
    assert main(["train", str(gripper_dataset), *common]) == 0
    monkeypatch.setattr(Trainer, "_train", original)
    monkeypatch.chdir(gripper_dataset.parent)
    assert main(["train", os.path.relpath(gripper_dataset), *common, "--resume"]) == 0


def test_report_refuses_an_algorithm_not_in_the_runs(tmp_path, capsys):
    runs = tmp_path / "runs.csv"
    runs.write_text("suite,domain,group,problem,size,algorithm,solved,outcome\n"
                    "paper,gripper,extrapolation,p1,5,ff,True,solved\n")
    assert main(["report", str(runs), "--out", str(tmp_path / "r"), "--algorithms", "ff", "lama-frist"]) == 2
    assert "lama-frist not in the runs" in capsys.readouterr().err


def test_ipc_dataset_refuses_another_domains_dataset(tmp_path):
    from symt.experiments.ipc import write_training_dataset

    ipc = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning"
    out = tmp_path / "data"
    out.mkdir()
    (out / "domain.pddl").write_bytes((ipc / "ferry" / "domain.pddl").read_bytes())
    (out / "manifest.json").write_text("[]")
    with pytest.raises(SymtError, match="holds a dataset of another domain"):
        write_training_dataset(ipc / "blocksworld", out, plan_time=0, progress=False)
    assert (out / "manifest.json").read_text() == "[]"  # untouched
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine")
    with pytest.raises(SymtError, match="did not write \\(todo.txt\\)"):
        write_training_dataset(ipc / "blocksworld", tmp_path / "notes", plan_time=0, progress=False)


def test_what_the_translator_cannot_read_is_one_line_before_it_runs(fd_built, tmp_path):
    negative = tmp_path / "negative.pddl"
    negative.write_text(gripper_problem(2).replace("(:goal (and", "(:goal (and (not (at ball1 rooma))"))
    unicode = tmp_path / "unicode.pddl"
    unicode.write_text("; a comment may say café\n" + gripper_problem(2).replace("ball2", "bäll2"))
    for problem, message in ((negative, "the goal holds the negative literal (not (at ball1 rooma))"),
                             (unicode, "unicode.pddl:3: a character outside ASCII")):
        result = subprocess.run([str(FAST_DOWNWARD), str(GRIPPER_DOMAIN), str(problem), "--search",
                                 "eager_greedy([ff()])"], capture_output=True, text=True, cwd=tmp_path,
                                timeout=120, check=False)
        assert result.returncode == 36
        assert message in one_error_line(result.stderr)
        assert not (tmp_path / "output.sas").exists()


def test_an_empty_or_satisfied_goal_gives_the_empty_plan_with_symt(fd_built, tmp_path):
    for name, goal in (("empty", "(:goal (and))"), ("satisfied", "(:goal (and (at ball1 rooma)))")):
        problem = tmp_path / f"{name}.pddl"
        problem.write_text(gripper_problem(2).split("(:goal")[0] + goal + ")\n")
        work = tmp_path / name
        work.mkdir()
        result = subprocess.run([str(FAST_DOWNWARD), str(GRIPPER_DOMAIN), str(problem), "--search",
                                 "eager_greedy([symt()])"], capture_output=True, text=True, cwd=work,
                                timeout=300, check=False)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr
        assert "Solution found" in result.stdout
        steps = [line for line in (work / "sas_plan").read_text().splitlines() if line.startswith("(")]
        assert steps == []


def test_sigterm_to_the_experiment_process_alone_leaves_no_lab_worker(fd_built, tmp_path):
    out = tmp_path / "exp"
    process = subprocess.Popen([*SYMT, "experiment", "paper-smoke", "--processes", "1", "--algorithms", "ff",
                                "lama-first", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 120
    below: list[int] = []
    while time.monotonic() < deadline:  # Lab's dispatcher, a worker and a run below it
        below = descendants(process.pid)
        if len(below) >= 3:
            break
        time.sleep(0.2)
    assert len(below) >= 3, "the experiment never started its runs"
    process.send_signal(signal.SIGTERM)  # the main process alone, not its group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    assert "interrupted (SIGTERM): rerun the same command to resume" in stderr
    time.sleep(1)
    assert not [pid for pid in below if _running(pid)], "a Lab process outlived the experiment"
    FileLock(out / ".lock").acquire(timeout=0)  # the folder is free for the rerun


def test_a_task_file_changed_after_generation_is_refused(tmp_path, capsys):
    out = tmp_path / "gripper"
    assert main(["generate", "gripper", "--out", str(out), "--no-optimal"]) == 0
    entry = json.loads((out / "manifest.json").read_text())[0]
    task = out / entry["file"]
    task.write_text(task.read_text().replace("(:goal", "; edited by hand\n (:goal"))
    capsys.readouterr()
    assert main(["train", str(out), "--steps", "1", "--out", str(tmp_path / "run")]) == 2
    stderr = capsys.readouterr().err  # after the loading bar: the error, one line
    assert "Traceback" not in stderr
    assert "differs from the task the dataset's manifest describes" in stderr.strip().splitlines()[-1]


@pytest.fixture
def full_disk(tmp_path):
    """A 16 KiB tmpfs (root only; skipped where mounting is not allowed)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
                                           capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


@pytest.mark.train
def test_a_full_disk_during_training_and_export_is_one_line(gripper_dataset, tmp_path, full_disk):
    small = ["--steps", "2", "--eval-every", "2", "--batch-size", "4", "--d-model", "16", "--d-ff", "32",
             "--n-heads", "2", "--n-layers", "2", "--vocab-size", "20", "--coverage-tasks", "1",
             "--threads", "1", "--device", "cpu", "--quiet"]
    result = run_symt("train", str(gripper_dataset), *small, "--out", str(full_disk / "run"))
    assert result.returncode == 1
    assert "cannot write the checkpoint (No space left on device)" in result.stderr.strip().splitlines()[-1]
    assert "Traceback" not in result.stderr
    assert [p.name for p in (full_disk / "run").iterdir()] == [".lock"]
    assert run_symt("train", str(gripper_dataset), *small, "--out", str(tmp_path / "run")).returncode == 0
    result = run_symt("export", str(tmp_path / "run" / "best.pt"), str(full_disk / "model.pt"))
    assert result.returncode == 1
    assert "model.pt: cannot write the model file (No space left on device)" in one_error_line(result.stderr)
    assert sorted(p.name for p in full_disk.iterdir()) == ["run"]


@pytest.mark.slow
def test_a_report_that_cannot_be_written_leaves_the_previous_one(tmp_path, monkeypatch):
    from symt.errors import WriteError
    from symt.experiments import report
    from symt.experiments.records import make_record

    records = [make_record(suite="paper", domain="gripper", group="extrapolation", problem=f"p{i}", size=5 + i,
                           algorithm=algorithm, solved=True, plan_valid=True, plan_length=10, expansions=100 + i,
                           outcome="solved") for i in range(3) for algorithm in ("ff", "symt")]
    out = tmp_path / "report"
    report.write_report(records, out, "before")
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    original = report._write_report_files

    def fails_midway(records, folder, *args):
        original(records, folder, *args)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(report, "_write_report_files", fails_midway)
    with pytest.raises(WriteError, match="cannot write the report \\(No space left on device\\); the previous"):
        report.write_report(records, out, "after")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no temporary folder left
