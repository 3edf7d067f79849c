"""Files from other people: a model or checkpoint runs no code when symt loads it.

Each loadable kind (a plan generator for ``symt plan``, a checkpoint for ``symt export``, a run
for ``--resume``, a teacher for ``--teacher``) is given a copy of a real file with one extra
entry whose pickle calls ``os.system`` to create a marker file; symt must refuse it in one line,
exit with 2, and the marker must not exist. Truncated and mislabelled files are refused before any
work. The shipped plan generators, rewritten as plain data, give the logits the old files gave
(``tests/planner_golden.json``, recorded from the old files; the ``-ed-first`` entries from their files as shipped).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from symt.errors import SymtError
from symt.generators import domain_file, generate_task
from symt.models import planners, shipped
from symt.pddl import ground, parse_domain, parse_problem
from symt.plangen.planner import load_planner
from symt.tokens import encode_task

GOLDEN = Path(__file__).resolve().parent / "planner_golden.json"


class Payload:
    """Unpickling this runs ``os.system(command)``."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def hostile_copy(source: dict, marker: Path, out: Path) -> Path:
    data = dict(source)
    data["notes"] = Payload(f"touch {marker}")
    torch.save(data, out)
    return out


def symt(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symt.cli", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def refused_without_running(result: subprocess.CompletedProcess[str], marker: Path) -> None:
    assert not marker.exists(), "the file's code ran"
    assert result.returncode == 2, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "asks to run posix.system when loaded" in lines[0], lines
    assert "symt upgrade" in lines[0] and "--trust-file" in lines[0]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory, gripper_dataset) -> Path:
    """A real (tiny) SymT-E training run's checkpoint."""
    out = tmp_path_factory.mktemp("run") / "run"
    result = subprocess.run([sys.executable, "-m", "symt.cli", "train", str(gripper_dataset), "--steps", "4",
                             "--eval-every", "4", "--batch-size", "4", "--d-model", "16", "--n-heads", "2",
                             "--d-ff", "16", "--threads", "1", "--quiet", "--out", str(out)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    return out / "last.pt"


@pytest.mark.slow
def test_a_hostile_plan_generator_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    source = torch.load(planners()["gripper-ed"], weights_only=True)
    model = hostile_copy(source, marker, tmp_path / "gripper-ed.pt")
    problem = tmp_path / "p.pddl"
    problem.write_text(generate_task("gripper", 2, 1, "p"))
    result = symt("plan", str(domain_file("gripper")), str(problem), "--model", str(model), "--strategy", "greedy",
                  cwd=tmp_path)
    refused_without_running(result, marker)


@pytest.mark.train
def test_a_hostile_checkpoint_runs_nothing_in_export_resume_or_teacher(tmp_path: Path, checkpoint: Path,
                                                                         gripper_dataset: Path) -> None:
    marker = tmp_path / "marker"
    source = torch.load(checkpoint, weights_only=True)
    hostile = hostile_copy(source, marker, tmp_path / "best.pt")
    refused_without_running(symt("export", str(hostile), str(tmp_path / "m.pt"), cwd=tmp_path), marker)
    assert not (tmp_path / "m.pt").exists()
    run = tmp_path / "run"
    run.mkdir()
    hostile_copy(source, marker, run / "last.pt")
    tiny = ["--steps", "8", "--eval-every", "4", "--batch-size", "4", "--d-model", "16", "--n-heads", "2",
            "--d-ff", "16", "--threads", "1", "--quiet"]
    refused_without_running(symt("train", str(gripper_dataset), *tiny, "--out", str(run), "--resume", cwd=tmp_path),
                            marker)
    refused_without_running(symt("train", str(gripper_dataset), *tiny, "--out", str(tmp_path / "student"),
                                 "--teacher", str(hostile), cwd=tmp_path), marker)


@pytest.mark.slow
def test_upgrade_needs_trust_and_writes_plain_data(tmp_path: Path) -> None:
    """`symt upgrade OLD NEW --trust-file` is the one way to load a file as it asks; without
    --trust-file nothing is loaded, and an existing NEW is not overwritten."""
    marker = tmp_path / "marker"
    old = hostile_copy({"format": "symt-planner", "x": np.float64(1.5)}, marker, tmp_path / "old.pt")
    refused = symt("upgrade", str(old), str(tmp_path / "new.pt"), cwd=tmp_path)
    assert refused.returncode == 2 and "--trust-file" in refused.stderr and not marker.exists()
    (tmp_path / "taken.pt").write_text("mine")
    taken = symt("upgrade", str(old), str(tmp_path / "taken.pt"), "--trust-file", cwd=tmp_path)
    assert taken.returncode == 2 and (tmp_path / "taken.pt").read_text() == "mine" and not marker.exists()


@pytest.mark.slow
def test_truncated_and_mislabelled_files_are_refused_before_any_work(tmp_path: Path) -> None:
    whole = planners()["gripper-ed"].read_bytes()
    (tmp_path / "cut.pt").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "text.pt").write_text("not a model")
    problem = tmp_path / "p.pddl"
    problem.write_text(generate_task("gripper", 2, 1, "p"))
    for name in ("cut.pt", "text.pt"):
        result = symt("plan", str(domain_file("gripper")), str(problem), "--model", str(tmp_path / name),
                      "--strategy", "greedy", cwd=tmp_path)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert name in result.stderr and "Traceback" not in result.stderr
    # A whole file whose config names an option this symt does not know, or its weights' shapes
    # another model's: one line naming the file, no traceback.
    data = torch.load(planners()["gripper-ed"], weights_only=True)
    torch.save({**data, "config": {**data["config"], "attention_scale": "cubic"}}, tmp_path / "option.pt")
    torch.save({**data, "config": {**data["config"], "d_model": 32}}, tmp_path / "shape.pt")
    for name in ("option.pt", "shape.pt"):
        with pytest.raises(SymtError, match=f"{name}: damaged plan-generation model"):
            load_planner(tmp_path / name)
    heuristic = symt("export", str(shipped()["gripper"]), str(tmp_path / "x.pt"), cwd=tmp_path)
    assert heuristic.returncode == 2 and "an exported heuristic already" in heuristic.stderr


@pytest.mark.slow
def test_shipped_plan_generators_load_as_plain_data_with_the_old_outputs(tmp_path: Path) -> None:
    golden = json.loads(GOLDEN.read_text())["planners"]
    sizes = {"blocksworld": 4, "gripper": 3, "logistics": 2, "visitall": 4}
    assert set(golden) == set(planners())
    for name, path in sorted(planners().items()):
        torch.load(path, weights_only=True)  # no error: plain data
        domain = name.split("-")[0]
        problem = tmp_path / f"{domain}.pddl"
        problem.write_text(generate_task(domain, sizes[domain], 11, "golden"))
        parsed = parse_domain(domain_file(domain))
        task = ground(parsed, parse_problem(problem, parsed))
        planner = load_planner(path)
        session = planner.session(encode_task(task, planner.signature, parsed), frozenset(task.init))
        logits = session.step(planner.vocab.bos)
        for expected in golden[name]:
            top = [int(i) for i in np.argsort(-logits, kind="stable")[:8]]
            assert top == expected["top"], name
            assert [float(logits[i]) for i in top] == pytest.approx(expected["logits"], abs=2e-4), name
            logits = session.step(top[0])


def test_a_malformed_wl_model_is_refused_before_wlplan_reads_it(tmp_path: Path) -> None:
    from symt.errors import SymtError
    from symt.models import wl_models
    from symt.wl import model_meta

    good = json.loads(wl_models()["gripper"].read_text())
    broken = {
        "one weight too few": ({"weights": good["weights"][:-1]}, "weights for"),
        "a weight that is text": ({"weights": ["1", *good["weights"][1:]]}, "not a finite number"),
        "a colour past the features": ({"colour_hash": [*good["colour_hash"][:-1], {"0": 10**9}]},
                                       "a colour that is not a feature index"),
        "absurd iterations": ({"iterations": 10**6}, "WL iterations"),
        "a missing field": ({"colour_to_layer": None}, "'colour_to_layer' is missing"),
    }
    for name, (change, message) in broken.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**good, **change}))
        with pytest.raises(SymtError, match=message) as caught:
            model_meta(path)
        assert "\n" not in str(caught.value) and str(path) in str(caught.value), name


@pytest.mark.slow
def test_an_exported_model_with_foreign_entries_is_refused_before_loading(tmp_path: Path) -> None:
    import shutil
    import zipfile

    from symt.errors import SymtError
    from symt.formats import read_model_meta

    for name, entry, data, method in (
        ("extra-file", "gripper.pt/evil.py", b"print('hi')", zipfile.ZIP_STORED),
        ("escape", "gripper.pt/../../evil", b"x", zipfile.ZIP_STORED),
        ("bomb", "gripper.pt/code/__torch__/bomb.py", b"\0" * (200 << 20), zipfile.ZIP_DEFLATED),
    ):
        path = tmp_path / f"{name}.pt"
        shutil.copyfile(shipped()["gripper"], path)
        with zipfile.ZipFile(path, "a") as archive:
            archive.writestr(zipfile.ZipInfo(entry), data, compress_type=method)
        with pytest.raises(SymtError, match="not a well-formed exported model") as caught:
            read_model_meta(path)
        assert "\n" not in str(caught.value), name
