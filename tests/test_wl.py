"""The WL baseline (issue 33): ``symt train-wl``, its model files and ``wl()`` in Fast Downward.

Independent truths: tasks from ``tests/other_generators.py`` (no symt code), plans checked by VAL,
WLPlan's own ``predict`` through Python for the values the evaluator computes inside Fast Downward,
and WLPlan's own loader for the model files symt writes.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import make_dataset
from other_generators import blocksworld_task
from symt.generators import domain_file
from symt.pddl import parse_domain, parse_problem
from symt.val import run_val
from symt.wl import WLModel, model_meta

SYMT = Path(sys.executable).parent / "symt"
FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"


def run(command: list, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture(scope="module")
def blocksworld_wl(tmp_path_factory) -> Path:
    """A ranking model trained in seconds on 3- to 5-block tasks."""
    root = tmp_path_factory.mktemp("wl")
    data = make_dataset(root / "data", "blocksworld", {"train": [3, 4, 4, 5, 5]})
    model = root / "blocksworld-wl.json"
    result = run([SYMT, "train-wl", data, "--out", model, "--quiet"], cwd=root)
    assert result.returncode == 0, result.stderr
    assert "pair_accuracy" in result.stdout and str(model) in result.stdout
    return model


@pytest.mark.train
def test_model_file_is_wlplans_own_with_symts_entry(blocksworld_wl: Path, tmp_path: Path) -> None:
    """WLPlan's loader reads the file unchanged; the symt entry names the domain and the learner;
    an existing file is not overwritten without --force."""
    from wlplan.feature_generator import load_feature_generator

    features = load_feature_generator(str(blocksworld_wl), quiet=True)
    meta = model_meta(blocksworld_wl)
    assert features.get_n_features() == meta["num_features"] > 0
    assert meta["domain"] == "blocks" and meta["learner"] == "rank" and meta["iterations"] == 2
    assert ["on", 2] in meta["predicates"] and meta["trained_on"]["pairs"] > 0
    before = blocksworld_wl.read_bytes()
    result = run([SYMT, "train-wl", "blocksworld", "--out", blocksworld_wl], cwd=tmp_path)
    assert result.returncode != 0 and "exists" in result.stderr
    assert blocksworld_wl.read_bytes() == before


def test_not_a_wl_model_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.json"
    bad.write_text(json.dumps({"weights": [1.0]}))
    from symt.errors import SymtError

    with pytest.raises(SymtError, match="not a WL model file of symt"):
        model_meta(bad)
    bad.write_text("{truncated")
    with pytest.raises(SymtError, match="not a WL model file"):
        model_meta(bad)


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_fast_downward_values_are_wlplans_and_plans_are_valid(blocksworld_wl: Path, tmp_path: Path) -> None:
    """eager_greedy([wl(model=...)]) on a 9-block task of another generator (goal without the
    tower's base): solved, the plan valid by VAL, and every value the evaluator computed inside
    Fast Downward equal to WLPlan's predict on the same state through Python."""
    domain_path = domain_file("blocksworld")
    problem = tmp_path / "tower-9.pddl"
    problem.write_text(blocksworld_task(9, random.Random("wl-tower-9"), "tower"))
    plan, trace = tmp_path / "plan", tmp_path / "trace.txt"
    result = subprocess.run(
        [str(FAST_DOWNWARD), "--overall-time-limit", "60", "--plan-file", str(plan), domain_path, problem,
         "--search", f"eager_greedy([wl(model={blocksworld_wl})])"],
        cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False,
        env={**__import__("os").environ, "SYMT_WL_TRACE": str(trace)})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "wl: WL model" in result.stdout
    verdict = run_val(domain_path, problem, plan)
    assert verdict.valid, verdict.output

    domain = parse_domain(domain_path)
    model = WLModel(blocksworld_wl)
    task = model.set_task(domain, parse_problem(problem, domain))
    lines = trace.read_text().splitlines()
    assert len(lines) > 10
    for line in lines:
        atoms_text, value = line.split("\t")
        atoms = []
        for text in atoms_text.split(";"):
            name, args = text.rstrip(")").split("(")
            atoms.append((name, tuple(a.strip() for a in args.split(",") if a.strip())))
        assert model.value(task.state(atoms)) == pytest.approx(float(value), rel=1e-12, abs=1e-9)


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_batch_search_and_errors(blocksworld_wl: Path, tmp_path: Path) -> None:
    """batch_eager_greedy evaluates a whole expansion in one call and solves the task; a missing
    model and a model of another domain are one error line each, before the search starts."""
    domain_path = domain_file("blocksworld")
    problem = tmp_path / "towers-8.pddl"
    problem.write_text(blocksworld_task(8, random.Random("wl-towers-8"), "towers"))
    plan = tmp_path / "plan"
    result = run([FAST_DOWNWARD, "--overall-time-limit", "60", "--plan-file", plan, domain_path, problem,
                  "--search", f"batch_eager_greedy([wl(model={blocksworld_wl})])"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
    assert run_val(domain_path, problem, plan).valid

    missing = run([FAST_DOWNWARD, domain_path, problem, "--search", "eager_greedy([wl(model=nowhere.json)])"],
                  cwd=tmp_path)
    assert missing.returncode != 0
    assert missing.stderr.strip().splitlines()[-1].startswith("fast-downward: error: WL model 'nowhere.json'")

    gripper = tmp_path / "gripper.pddl"
    gripper.write_text("(define (problem g) (:domain gripper) (:objects rooma roomb ball1 left right)"
                       " (:init (room rooma) (room roomb) (ball ball1) (gripper left) (gripper right)"
                       " (at-robby rooma) (at ball1 rooma) (free left) (free right))"
                       " (:goal (and (at ball1 roomb))))")
    other = run([FAST_DOWNWARD, domain_file("gripper"), gripper, "--search",
                 f"eager_greedy([wl(model={blocksworld_wl})])"], cwd=tmp_path)
    assert other.returncode != 0
    error = other.stderr.strip().splitlines()[-1]
    # The model keeps its training domain's text: the task's domain is compared by its actions.
    assert f"not the domain of {blocksworld_wl} (its domain): 3 action schemas against the model domain's 4" in error


@pytest.mark.train
@pytest.mark.parametrize("learner", ["gpr", "svr"])
def test_regression_learners_estimate_hstar(gripper_dataset: Path, tmp_path: Path, learner: str) -> None:
    """Regression on h* (WL-GOOSE, ICAPS 2024): in Gripper, whose h* is a linear function of how
    many balls are where, the estimate of a larger validation task's initial state is within one
    step of its optimal plan length (from the expander)."""
    from symt.pddl import ground
    from symt.statespace import expand

    model_file = tmp_path / f"{learner}.json"
    result = run([SYMT, "train-wl", gripper_dataset, "--learner", learner, "--out", model_file, "--quiet"],
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mse" in result.stdout
    manifest = json.loads((gripper_dataset / "manifest.json").read_text())
    entry = next(e for e in manifest if e["split"] == "interpolation")
    domain = parse_domain(gripper_dataset / "domain.pddl")
    problem = parse_problem(gripper_dataset / entry["file"], domain)
    grounded = ground(domain, problem)
    optimal = expand(grounded).hstar[0]
    model = WLModel(model_file)
    task = model.set_task(domain, problem)
    estimate = model.value(task.state([grounded.fluent_atoms[i] for i in grounded.init]))
    assert abs(estimate - optimal) < 1.0, (estimate, optimal)


def test_states_carry_the_static_atoms() -> None:
    """WLPlan 2.1's instance learning graph is built from the state's atoms and the goal: the
    task's static atoms (Logistics' in-city, airport, ...) are part of every state symt builds,
    so the features see them (without them, the Logistics model ranks 80 % of the training pairs
    right instead of 89 %)."""
    from symt.generators import generate_task
    from symt.pddl import ground
    from symt.wl import domain_description, wl_domain, wl_task

    domain = parse_domain(domain_file("logistics"))
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.pddl"
        path.write_text(generate_task("logistics", 2, 7, "p"))
        problem = parse_problem(path, domain)
    grounded = ground(domain, problem)
    task = wl_task(wl_domain(domain_description(domain)), domain, problem)
    state = task.state([grounded.fluent_atoms[i] for i in grounded.init])
    names = {atom.predicate.name for atom in state.atoms}
    assert {"in-city", "airport", "truck", "airplane"} <= names
    assert len(state.atoms) == len(grounded.init) + len(grounded.static_atoms)


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_wl_without_a_model_picks_the_shipped_one_of_the_domain(tmp_path: Path) -> None:
    """wl() with no model: the shipped WL model whose predicates are the domain's (said in one
    line of the log), here on a 10-block task of another generator; the plan is valid."""
    domain_path = domain_file("blocksworld")
    problem = tmp_path / "towers-10.pddl"
    problem.write_text(blocksworld_task(10, random.Random("wl-default-10"), "towers"))
    plan = tmp_path / "plan"
    result = run([FAST_DOWNWARD, "--overall-time-limit", "60", "--plan-file", plan, domain_path, problem,
                  "--search", "eager_greedy([wl()])"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "symt: wl(): the shipped WL model 'blocksworld'" in result.stdout
    assert run_val(domain_path, problem, plan).valid


def test_ipc_domain_without_a_shipped_wl_model_gets_one_trained(tmp_path: Path, monkeypatch) -> None:
    """`symt experiment ipc-all` on a domain without a shipped WL model: the registry builds the IPC
    training dataset (every problem small enough to expand) and trains the model, in seconds; a
    second call finds it."""
    from symt.experiments.registry import wl_model
    from symt.generators import generate_task

    ipc_root = tmp_path / "ipc"
    folder = ipc_root / "gripper"
    (folder / "training" / "easy").mkdir(parents=True)
    (folder / "domain.pddl").write_text(domain_file("gripper").read_text())
    for number, balls in enumerate([1, 2, 2, 3, 3, 4], start=1):
        (folder / "training" / "easy" / f"p{number:02d}.pddl").write_text(
            generate_task("gripper", balls, number, f"p{number:02d}"))
    monkeypatch.chdir(tmp_path)
    path = wl_model("gripper", "ipc2023", ipc_root, tmp_path / "models")
    assert path == tmp_path / "models" / "ipc2023-gripper-wl.json"
    meta = model_meta(path)
    assert meta["domain"] == "gripper" and len(meta["trained_on"]["tasks"]) == 5  # a quarter (1) for validation
    assert wl_model("gripper", "ipc2023", ipc_root, tmp_path / "models") == path
