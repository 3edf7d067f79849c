"""The experiment layer: suites, Lab runs through the project's fast-downward, resume, reports."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from symt.data import load_dataset
from symt.errors import SymtError
from symt.experiments import ipc, report, runner, suites
from symt.experiments.algorithms import algorithms
from symt.experiments.check_plan import CHECK_FILE
from symt.experiments.check_plan import main as check_plan_main
from symt.experiments.registry import paper_model
from symt.generators import domain_file, generate_task

IPC_ROOT = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning"


def test_evenly_spaced_keeps_ends_and_order() -> None:
    items = list(range(10))
    assert suites.evenly_spaced(items, 1) == [0]
    assert suites.evenly_spaced(items, 2) == [0, 9]
    assert suites.evenly_spaced(items, 4) == [0, 3, 6, 9]
    assert suites.evenly_spaced(items, None) == items
    assert suites.evenly_spaced(items, 50) == items


def test_paper_suite_tasks_have_known_optima(tmp_path: Path) -> None:
    tasks = suites.paper_tasks(tmp_path, ["gripper"], ["validation", "interpolation"], None)
    # The paper's Gripper splits: validation 9, 10 balls; interpolation 3, 5, 7 balls.
    assert [(t.group, t.size) for t in tasks] == [("validation", 9), ("validation", 10),
                                                 ("interpolation", 3), ("interpolation", 5),
                                                 ("interpolation", 7)]
    # Gripper, n balls from one room to the other, two grippers: optimum 3n (odd n), 3n - 1 (even n).
    assert [t.best_known for t in tasks] == [27, 29, 9, 15, 21]
    again = suites.paper_tasks(tmp_path, ["gripper"], ["validation"], 1)
    assert again == tasks[:1]  # cached, same files
    with pytest.raises(SymtError, match="unknown paper domain"):
        suites.paper_tasks(tmp_path, ["sokoban"], ["validation"], None)


@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_ipc_suite_and_bounds() -> None:
    tasks = suites.ipc_tasks(IPC_ROOT, ["ferry"], ["easy"], 3)
    assert [t.problem for t in tasks] == ["p01", "p15", "p30"]
    bounds = json.loads((IPC_ROOT / "upper_bounds.json").read_text())
    assert tasks[0].best_known <= bounds["ferry/testing/easy/p01.pddl"]
    assert all(t.size > 0 and Path(t.problem_file).is_file() for t in tasks)
    with pytest.raises(SymtError, match="unknown IPC level"):
        suites.ipc_tasks(IPC_ROOT, ["ferry"], ["impossible"], None)


@pytest.mark.train
@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_ipc_training_dataset_keeps_expandable_problems(tmp_path: Path) -> None:
    manifest = ipc.write_training_dataset(IPC_ROOT / "miconic", tmp_path, max_states=100, validation=2,
                                          progress=False, plan_time=0)
    entries = json.loads(manifest.read_text())
    skipped = json.loads((tmp_path / "skipped.json").read_text())["problems"]
    assert len(entries) + len(skipped) == 99
    states = {e["name"]: e["info"]["states"] for e in entries}
    assert max(states.values()) <= 100
    # Miconic with one passenger: 2 floors x (waiting, boarded, served) = 6 states (p01).
    assert states["p01"] == 6
    validation = [e for e in entries if e["split"] == "validation"]
    train = [e for e in entries if e["split"] == "train"]
    assert len(validation) == 2
    assert min(states[e["name"]] for e in validation) >= max(states[e["name"]] for e in train)


@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_ipc_training_dataset_labels_large_problems_by_plans(tmp_path: Path, fd_built) -> None:
    ipc_domain = tmp_path / "ipc" / "miconic"
    (ipc_domain / "training" / "easy").mkdir(parents=True)
    shutil.copy(IPC_ROOT / "miconic" / "domain.pddl", ipc_domain)
    for name in ("p01", "p02", "p03", "p40"):
        shutil.copy(IPC_ROOT / "miconic" / "training" / "easy" / f"{name}.pddl", ipc_domain / "training" / "easy")
    out = tmp_path / "data"
    entries = json.loads(ipc.write_training_dataset(ipc_domain, out, max_states=200, validation=1,
                                                    progress=False, plan_time=60).read_text())
    labels = json.loads((out / "labels.json").read_text())
    assert list(labels) == ["p01.pddl", "p02.pddl", "p03.pddl", "p40.pddl"]
    assert labels["p40.pddl"]["labels"] == "optimal-plan" and "astar(lmcut())" in labels["p40.pddl"]["why"]
    assert {labels[p]["labels"] for p in ("p01.pddl", "p02.pddl", "p03.pddl")} == {"exhaustive"}
    entry = next(e for e in entries if e["name"] == "p40")
    assert entry["split"] == "train" and (out / entry["plan_file"]).is_file()
    task = next(t for t in load_dataset(out, progress=False, vocab_size=200).split("train") if t.name == "p40")
    assert task.plan is not None and task.plan.exact and task.plan.length > 0


def _gripper_pair(tmp_path: Path) -> tuple[Path, Path]:
    domain = tmp_path / "domain.pddl"
    domain.write_text(domain_file("gripper").read_text())
    problem = tmp_path / "p.pddl"
    problem.write_text(generate_task("gripper", 2, 0, "p"))
    return domain, problem


def test_plan_check_rejects_an_invalid_plan_loudly(tmp_path: Path, monkeypatch, capsys) -> None:
    domain, problem = _gripper_pair(tmp_path)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    monkeypatch.chdir(run_dir)
    writer = "open('sas_plan', 'w').write('(move rooma roomb)\\n')"  # the goal does not hold after it
    code = check_plan_main([str(domain), str(problem), "--", sys.executable, "-c", writer])
    assert code == 0
    result = json.loads((run_dir / CHECK_FILE).read_text())
    assert result["plan_found"] and result["plan_valid"] is False and result["plan_steps"] == 1
    assert result["plan_cost"] is None and runner.plan_check_properties(json.dumps(result))["plan_cost"] is None
    assert "INVALID PLAN" in capsys.readouterr().err
    assert runner.outcome_of({"plan_found": True, "plan_valid": False, "error": "success"})[0] == "invalid-plan"


TRANSPORT = Path(__file__).parent / "classical_ipc" / "transport-sat08-strips"
# A plan for IPC 2008's Transport p01, as lama-first wrote it.
TRANSPORT_P01_PLAN = """(pick-up truck-1 city-loc-4 package-1 capacity-1 capacity-2)
(pick-up truck-1 city-loc-4 package-2 capacity-0 capacity-1)
(drive truck-1 city-loc-4 city-loc-5)
(drop truck-1 city-loc-5 package-1 capacity-0 capacity-1)
(drive truck-1 city-loc-5 city-loc-2)
(drop truck-1 city-loc-2 package-2 capacity-1 capacity-2)
"""


def test_plan_check_records_the_plan_cost_val_computes(tmp_path: Path, monkeypatch) -> None:
    # Transport's drives cost their road's length (p01: 32 from city-loc-4 to -5, 18 from -5 to
    # -2), pick-ups and drops 1 each: 54 for a plan of 6 actions.
    monkeypatch.chdir(tmp_path)
    writer = f"open('sas_plan', 'w').write({TRANSPORT_P01_PLAN!r})"
    assert check_plan_main([str(TRANSPORT / "domain.pddl"), str(TRANSPORT / "p01.pddl"), "--",
                            sys.executable, "-c", writer]) == 0
    content = (tmp_path / CHECK_FILE).read_text()
    result = json.loads(content)
    assert (result["plan_valid"], result["plan_steps"], result["plan_cost"]) == (True, 6, 54)
    props = runner.plan_check_properties(content)
    assert (props["plan_steps"], props["plan_cost"]) == (6, 54)
    # A check written before the key existed: the cost is read from VAL's output it kept.
    del result["plan_cost"]
    assert runner.plan_check_properties(json.dumps(result))["plan_cost"] == 54
    assert runner.plan_check_properties("") == {"plan_found": None}


def test_plan_check_passes_the_planner_exit_code(tmp_path: Path, monkeypatch) -> None:
    domain, problem = _gripper_pair(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert check_plan_main([str(domain), str(problem), "--", sys.executable, "-c", "raise SystemExit(23)"]) == 23
    assert json.loads((tmp_path / CHECK_FILE).read_text())["plan_found"] is False


def _spec(tmp_path: Path, names: list[str], time_limit: int = 10) -> runner.ExperimentSpec:
    # The smallest Gripper extrapolation task (12 balls) and the largest Blocksworld one (17 blocks).
    gripper = suites.paper_tasks(tmp_path / "tasks", ["gripper"], ["extrapolation"], 1)
    blocks = suites.paper_tasks(tmp_path / "tasks", ["blocksworld"], ["extrapolation"], None)[-1:]
    tasks = gripper + blocks
    models = {("paper", d, "symt-e"): str(paper_model(d)) for d in ("gripper", "blocksworld")}
    return runner.ExperimentSpec("test", tasks, algorithms(names), models, time_limit, 2048, 2)


def test_a_shared_symt_evaluator_gets_the_tasks_model(tmp_path: Path) -> None:
    """An algorithm whose ``symt()`` is a predefinition shared by several queues
    (``symt-first-lazy-explore``) gets the task domain's model there, as a search string does;
    without a model it is refused."""
    spec = _spec(tmp_path, ["symt-first-lazy-explore"])
    explore = spec.algorithms[0]
    for task in spec.tasks:
        command = runner.planner_command(spec, explore, task)
        model = spec.models[("paper", task.domain, "symt-e")]
        definitions = [command[i + 1] for i, arg in enumerate(command) if arg == "--evaluator"]
        assert definitions == [f'hs=symt(model="{model}")', "hff=ff()"]
        assert "{model}" not in " ".join(command) and "type_based([hs, g()])" in command[-1]
    with pytest.raises(SymtError, match="needs a model"):
        explore.evaluator_definitions(None)


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_experiment_runs_validates_resumes_and_reports(tmp_path: Path) -> None:
    exp_dir = tmp_path / "exp"
    spec = _spec(tmp_path, ["ff", "symt", "symt-guidance", "blind"], time_limit=10)
    records = runner.run_experiment(spec, exp_dir)
    assert len(records) == 8
    by = {(r["domain"], r["algorithm"]): r for r in records}
    for record in records:
        if record["solved"]:
            assert record["plan_valid"] is True
            # No plan is shorter than the optimum the expander computed (Gripper-12: 35).
            assert record["best_known"] is None or record["plan_length"] >= record["best_known"]
            assert record["plan_cost"] == record["plan_length"]  # no action costs: VAL's value is the length
    assert by[("gripper", "ff")]["best_known"] == 35
    # Gripper-12 from the extrapolation split: the shipped model solves it optimally (35 steps),
    # by search and by greedy guidance alone.
    assert by[("gripper", "symt")]["solved"] and by[("gripper", "symt-guidance")]["plan_length"] == 35
    assert by[("gripper", "ff")]["solved"] and by[("gripper", "ff")]["expansions"] > 0
    # Blind search cannot solve Blocksworld-17 within 10 s: a time-out, recorded, not a crash.
    assert by[("blocksworld", "blind")]["outcome"] == "timeout"
    assert (exp_dir / runner.EVAL_DIR / "properties").is_file()

    # Resume: one run is "interrupted" (started, never checked); only that run runs again.
    run_dirs = sorted((exp_dir / runner.LAB_DIR).glob("runs-*-*/*"))
    victim = run_dirs[0]
    (victim / CHECK_FILE).unlink()
    (victim / "sas_plan").unlink(missing_ok=True)
    stamps = {d: (d / "driver.log").stat().st_mtime_ns for d in run_dirs[1:]}
    again = runner.run_experiment(spec, exp_dir)
    assert (victim / CHECK_FILE).is_file()
    assert all((d / "driver.log").stat().st_mtime_ns == t for d, t in stamps.items())
    key = lambda r: (r["domain"], r["algorithm"])  # noqa: E731
    assert sorted(map(key, again)) == sorted(map(key, records))
    assert [r["solved"] for r in sorted(again, key=key)] == [r["solved"] for r in sorted(records, key=key)]

    # Another run list in the same folder is refused; --fresh starts over.
    other = _spec(tmp_path, ["ff"])
    with pytest.raises(SymtError, match="--fresh"):
        runner.prepare(other, exp_dir)
    runner.prepare(other, exp_dir, fresh=True)
    assert runner.progress_counts(exp_dir / runner.LAB_DIR) == (0, 2)

    out = report.write_report(again, tmp_path / "report", "test", limits="10 s, 2048 MiB")
    text = out.read_text()
    assert "WARNING" not in text.split("\n")[0]
    assert (tmp_path / "report" / "runs.csv").is_file()


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_too_many_objects_is_an_error_with_a_reason(tmp_path: Path) -> None:
    # The shipped no-contrastive Blocksworld ablation is a table of 123 objects; this IPC task has
    # more. (The shipped `blocksworld` model uses hashed object codes and has no such limit.)
    task = next(t for t in suites.ipc_tasks(IPC_ROOT, ["blocksworld"], ["medium"], None) if t.size > 123)
    models = {("ipc2023", "blocksworld", "symt-e"): str(paper_model("blocksworld", "symt-e-nocl"))}
    spec = runner.ExperimentSpec("errors", [task], algorithms(["symt-guidance"]), models, 20, 2048, 1)
    [record] = runner.run_experiment(spec, tmp_path / "exp")
    assert record["outcome"] == "error" and not record["solved"]
    assert "vocabulary" in record["error_detail"]


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_lab_script_runs_the_same_experiment_with_labs_steps(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "experiments" / "lab_experiment.py"
    env = dict(os.environ, SYMT_EXPERIMENT="paper-smoke", SYMT_DOMAINS="gripper", SYMT_TIME_LIMIT="5",
               SYMT_OUT=str(tmp_path / "exp"))
    import subprocess

    done = subprocess.run([sys.executable, str(script), "--all"], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    records = report.read_csv(tmp_path / "exp" / "report" / "runs.csv")
    # One Gripper task per split (9, 3 and 12 balls), eight algorithms (the WL baseline included).
    assert len(records) == 24
    by = {(r["group"], r["algorithm"]): r for r in records}
    assert by[("interpolation", "lama-first")]["solved"]
    assert by[("interpolation", "wl")]["solved"] and by[("interpolation", "wl")]["plan_valid"]
    assert by[("interpolation", "symt-guidance")]["plan_length"] == 9  # Gripper-3: optimum 3n = 9


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_symt_experiment_command_end_to_end(tmp_path: Path) -> None:
    import subprocess

    analysis = tmp_path / "analysis.md"
    analysis.write_text("Gripper is easy.")
    command = [sys.executable, "-m", "symt.cli", "experiment", "paper-smoke", "--domains", "gripper",
               "--algorithms", "ff", "symt-guidance", "--time-limit", "8", "--out", str(tmp_path / "exp"),
               "--results", str(tmp_path / "results"), "--analysis", str(analysis)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert first.returncode == 0, first.stderr[-2000:]
    assert re.search(r"\d/6 runs solved", first.stdout)
    records = report.read_csv(tmp_path / "results" / "runs.csv")
    assert len(records) == 6 and all(r["solved"] for r in records if r["algorithm"] == "ff")
    text = (tmp_path / "results" / "report.md").read_text()
    assert "## Analysis" in text and "Gripper is easy." in text
    assert "paper-smoke --domains gripper" in text  # the command that produced it
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0 and "6 runs, 6 already finished" in again.stderr
    changed = subprocess.run(command[:-6] + ["--time-limit", "9", "--out", str(tmp_path / "exp")],
                             capture_output=True, text=True, timeout=600, check=False)
    assert changed.returncode == 2 and "--fresh" in changed.stderr and "Traceback" not in changed.stderr


@pytest.mark.slow
def test_plan_generators_run_as_experiment_algorithms(tmp_path: Path) -> None:
    """The shipped plan generators run as search-free algorithms on paper tasks: every run ends as
    solved (a VAL-valid plan, never shorter than the optimum) or as a failure with its reason
    (token cap, loop, malformed...), never as an error; the report lays them out like the paper."""
    tasks = suites.paper_tasks(tmp_path / "tasks", ["gripper"], ["interpolation"], 2)
    names = ["symt-ed-greedy", "symt-ed-regrounding", "plangpt-applicable", "symt-guidance"]
    chosen = algorithms(names)
    models = {("paper", "gripper", a.model): str(paper_model("gripper", a.model)) for a in chosen}
    spec = runner.ExperimentSpec("plans", tasks, chosen, models, 60, 2048, 2)
    records = runner.run_experiment(spec, tmp_path / "exp")
    assert len(records) == len(tasks) * len(names)
    for record in records:
        assert record["outcome"] in ("solved", "search-failed"), record
        if record["solved"]:
            assert record["plan_valid"] is True and record["plan_length"] >= record["best_known"]
    text = report.write_report(records, tmp_path / "report", "plans").read_text()
    assert "Plan generation, laid out like the paper's tables" in text
    assert "SymT-ED regrounding" in text


@pytest.mark.slow
def test_variant_suite_runs_a_given_model_in_place_of_the_shipped_one(tmp_path: Path) -> None:
    """``symt experiment variants-smoke --model DOMAIN=FILE``: the variant tasks (the same
    extrapolation task as generated and without its goal base), run with the given model file,
    which the report names; a malformed or missing --model is one line before any work."""
    import subprocess

    candidate = paper_model("blocksworld", "symt-e-nocl")
    command = [sys.executable, "-m", "symt.cli", "experiment", "variants-smoke", "--domains", "blocksworld",
               "--groups", "as-generated", "no-base", "--algorithms", "symt-guidance", "--time-limit", "20",
               "--out", str(tmp_path / "exp"), "--model", f"blocksworld={candidate}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    records = report.read_csv(tmp_path / "exp" / "report" / "runs.csv")
    assert sorted(r["group"] for r in records) == ["as-generated", "no-base"]
    assert all(r["suite"] == "variants" and r["size"] == 9 for r in records)
    assert "Models: blocksworld-nocl.pt" in (tmp_path / "exp" / "report" / "report.md").read_text()
    tasks = {p.parent.name: p.read_text() for p in (tmp_path / "exp" / "tasks" / "blocksworld").glob("*/*.pddl")}
    assert tasks["no-base"].count("(ontable") == tasks["as-generated"].count("(ontable") - 1
    for bad, message in ((f"blocksworld{candidate}", "expected DOMAIN=MODEL_FILE"),
                         ("blocksworld=/no/such.pt", "no such model file"),
                         (f"gripper={candidate}", "not a domain of this experiment")):
        refused = subprocess.run(command[:-1] + [bad], capture_output=True, text=True, timeout=120, check=False)
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_the_track_run_takes_every_third_task_of_each_level() -> None:
    from symt.experiments.registry import named

    track = named("ipc-track")
    tasks = suites.ipc_tasks(IPC_ROOT, ["spanner", "rovers"], list(track.groups), track.max_tasks, track.stride)
    spanner_easy = [t.problem for t in tasks if t.domain == "spanner" and t.group == "easy"]
    assert spanner_easy == [f"p{n:02d}" for n in range(1, 30, 3)]  # p01, p04, ..., p28
    assert {t.group for t in tasks if t.domain == "spanner"} == {"easy", "medium", "hard"}
    # The shared copy has no hard Rovers tasks: the level is absent, not an error.
    assert {t.group for t in tasks if t.domain == "rovers"} == {"easy", "medium"}
    assert len(tasks) == 50
    assert {"symt-first", "symt-batch", "wl", "ff", "ff-pref", "lama-first"} <= set(track.algorithms)


@pytest.mark.slow
def test_the_ipc_suite_runs_what_symt_picks_where_the_domain_model_is_too_small(
        tmp_path: Path, monkeypatch) -> None:
    """With a Transport model whose table has 160 object tokens (``ipc2023-transport``, as shipped
    until 2026-11-29) and one with hashed codes beside it, the track runs the hashed fallback that
    ``symt()`` itself picks on the hard tasks over 160 objects, as the command shows; tasks within
    the table and a model given with --model keep the domain's model."""
    import symt.models
    from model_files import random_model
    from symt.experiments.registry import make_spec, named

    domain = IPC_ROOT / "transport" / "domain.pddl"
    random_model(domain, tmp_path / "ipc2023-transport.pt", vocab_size=160)
    random_model(domain, tmp_path / "ipc2023-transport-hashed.pt", vocab_size=1 << 20, seed=1,
                 object_identity="hashed")
    monkeypatch.setattr(symt.models, "MODEL_DIR", tmp_path)
    track = named("ipc-track", domains=["transport"], groups=["hard"])
    spec = make_spec(track, Path("unused"), IPC_ROOT, processes=1)
    table = spec.models[("ipc2023", "transport", "symt-e")]
    assert Path(table).name == "ipc2023-transport.pt"
    by_size = {task.size: task for task in spec.tasks}
    symt_first = next(a for a in spec.algorithms if a.name == "symt-first")
    for size, task in by_size.items():
        command = " ".join(runner.planner_command(spec, symt_first, task))
        expected = "ipc2023-transport-hashed.pt" if size > 160 else "ipc2023-transport.pt"
        assert f"/{expected}" in command, (size, command)
    assert min(by_size) <= 160 < max(by_size)
    given = make_spec(track, Path("unused"), IPC_ROOT, processes=1, heuristic_models={"transport": table})
    assert given.task_models == {}


@pytest.mark.slow
def test_the_own_experiment_runs_ones_domain_with_ones_models(tmp_path: Path) -> None:
    """`symt experiment own`: one's domain file and problems (IPC Spanner, as a user would lay them
    out), the models of a `symt learn` folder (copies of the shipped Spanner models), the same
    reports as the named suites; missing pieces are one-line errors."""
    import subprocess

    from symt.models import shipped, wl_models

    source = IPC_ROOT / "spanner"
    learned = tmp_path / "learned"
    learned.mkdir()
    shutil.copyfile(shipped()["ipc2023-spanner"], learned / "model.pt")
    shutil.copyfile(wl_models()["ipc2023-spanner"], learned / "wl.json")
    problems = [source / "testing" / "easy" / f"p0{i}.pddl" for i in (1, 2)]
    command = [sys.executable, "-m", "symt.cli", "experiment", "own", "--domain-file", str(source / "domain.pddl"),
               "--problems", *map(str, problems), "--learned", str(learned), "--algorithms", "symt", "wl", "ff",
               "--time-limit", "20", "--out", str(tmp_path / "exp"), "--results", str(tmp_path / "results")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    records = report.read_csv(tmp_path / "results" / "runs.csv")
    assert len(records) == 6 and {r["domain"] for r in records} == {"spanner"}
    assert all(r["solved"] for r in records if r["algorithm"] == "ff")
    assert "Models: model.pt, wl.json" in (tmp_path / "results" / "report.md").read_text()
    (learned / "wl.json").unlink()
    missing = subprocess.run(command[:-4] + ["--out", str(tmp_path / "exp2")], capture_output=True, text=True,
                             timeout=120, check=False)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no wl.json" in missing.stderr
    wrong = subprocess.run([sys.executable, "-m", "symt.cli", "experiment", "configs-smoke", "--domain-file",
                            str(source / "domain.pddl"), "--out", str(tmp_path / "exp3")],
                           capture_output=True, text=True, timeout=120, check=False)
    assert wrong.returncode == 2 and "belong to the own experiment" in wrong.stderr


def _grid_problem(rows: int, cols: int, start: tuple[int, int]) -> str:
    """A Visitall task written by hand (not by symt's generator): cells named by coordinates."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    name = lambda cell: f"c{cell[0]}x{cell[1]}"  # noqa: E731
    atoms = [f"(place {name(x)})" for x in cells]
    atoms += [f"(connected {name((r, c))} {name((r + dr, c + dc))})" for r, c in cells
              for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if (r + dr, c + dc) in cells]
    atoms += [f"(at-robot {name(start)})", f"(visited {name(start)})"]
    goal = " ".join(f"(visited {name(x)})" for x in cells)
    return (f"(define (problem g) (:domain grid-visit-all) (:objects {' '.join(map(name, cells))})\n"
            f"  (:init {' '.join(atoms)})\n  (:goal (and {goal})))\n")


def test_visitall_failure_analysis_reads_shape_and_start_from_the_file(tmp_path: Path) -> None:
    """``benchmarks/experiments/visitall_plan_failures.py`` tells grids and start cells apart from
    the ``connected`` atoms alone (the tables of the plan-recipe study's round 9 rest on it)."""
    import importlib.util

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "experiments" / "visitall_plan_failures.py"
    spec = importlib.util.spec_from_file_location("visitall_plan_failures", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = {(2, 3, (0, 0)): ((2, 3), "corner"), (3, 4, (1, 2)): ((3, 4), "inside"),
             (3, 3, (0, 1)): ((3, 3), "edge"), (1, 7, (0, 2)): ((1, 7), "corridor inside"),
             (1, 7, (0, 6)): ((1, 7), "corridor end"), (5, 5, (4, 4)): ((5, 5), "corner")}
    for (rows, cols, start), expected in cases.items():
        path = tmp_path / f"g{rows}x{cols}-{start[0]}-{start[1]}.pddl"
        path.write_text(_grid_problem(rows, cols, start))
        assert module.shape_and_start(path) == expected, path.name
        found = module.corridor(path)
        if expected[1] != "corridor inside":
            assert found is None, path.name
            continue
        order, robot = found
        assert robot == "c0x2" and order.index(robot) in (2, 4)  # either end may come first
        assert sorted(order) == sorted(f"c0x{c}" for c in range(7))
        assert all(abs(int(a[3:]) - int(b[3:])) == 1 for a, b in zip(order, order[1:]))
    assert module.LOOP_AT_3.match("loop: the state after action 3 was visited before")
    assert module.LOOP_AT_3.match("loop: the state after step 3 is the one after step 1; ...")
    assert not module.LOOP_AT_3.match("loop: the state after action 31 was visited before")


def test_corridor_decisions_closed_form_goal_distances_are_the_state_spaces(tmp_path: Path) -> None:
    """``benchmarks/experiments/corridor_decisions.py`` judges a model's corridor moves by a closed
    form of h*; on corridors of 2-8 cells from every start it equals the goal distance of every
    state (robot, visited stretch) in the expanded state space."""
    import importlib.util

    from symt.pddl import ground, parse_domain, parse_problem
    from symt.statespace import _reference_expand

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "experiments" / "corridor_decisions.py"
    spec = importlib.util.spec_from_file_location("corridor_decisions", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    domain = parse_domain(domain_file("visitall"))
    checked = set()
    for n in range(2, 9):
        for start in range(n):
            path = tmp_path / f"corridor-{n}-{start}.pddl"
            path.write_text(module.corridor_problem(n).replace("(at-robot c0) (visited c0)",
                                                              f"(at-robot c{start}) (visited c{start})"))
            task = ground(domain, parse_problem(path, domain))
            states, _, distances = _reference_expand(task, 100_000)
            distance = dict(zip(states, distances))
            for a in range(n):
                for b in range(a, n):
                    for r in sorted({a, b}):
                        found = distance.get(module.state(task, r, a, b))
                        if found is not None:
                            assert found == module.hstar(n, r, a, b), (n, r, a, b)
                            checked.add((n, r, a, b))
    assert len(checked) == sum(n * n for n in range(2, 9))  # every (robot, stretch) of every size


def test_eval_greedy_runs_wl_models_by_the_same_guidance(tmp_path: Path) -> None:
    """``benchmarks/training/eval_greedy.py --wl``: the shipped Gripper WL model guides greedy
    guidance to the goal on tasks written by hand, with plans that symt's validator accepts, and the
    per-task reason is the guidance's."""
    import importlib.util

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "training" / "eval_greedy.py"
    spec = importlib.util.spec_from_file_location("eval_greedy", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shutil.copy(domain_file("gripper"), tmp_path / "domain.pddl")
    files = []
    for balls in (2, 4):
        objects = " ".join(f"ball{i}" for i in range(balls))
        init = " ".join(f"(ball ball{i}) (at ball{i} rooma)" for i in range(balls))
        goal = " ".join(f"(at ball{i} roomb)" for i in range(balls))
        (tmp_path / f"g{balls}.pddl").write_text(
            f"(define (problem g{balls}) (:domain gripper)\n"
            f"  (:objects rooma roomb left right {objects})\n"
            f"  (:init (room rooma) (room roomb) (gripper left) (gripper right) (at-robby rooma)\n"
            f"         (free left) (free right) {init})\n  (:goal (and {goal})))\n")
        files.append(f"g{balls}.pddl")
    rows = module.run_tasks(str(module.resolve_wl("gripper")), str(tmp_path), files, "cpu", "fp32", wl=True)
    assert [r["solved"] for r in rows] == [True, True]
    assert [r["reason"] for r in rows] == ["goal reached"] * 2
    # Optimal Gripper plans: 5 actions per pair of balls and a move back between pairs.
    assert [r["length"] for r in rows] == [5, 11]


def test_spanner_dead_end_count_is_the_state_spaces(tmp_path: Path, capsys) -> None:
    """``benchmarks/experiments/spanner_trace_dead_ends.py`` tells Spanner's dead ends by a count
    (usable spanners within the man's reach against loose nuts); on an IPC 2023 training task it
    calls a state a dead end exactly when the expanded state space gives it h* = inf."""
    import importlib.util
    import math

    from symt.pddl import ground, parse_domain, parse_problem
    from symt.statespace import expand

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "experiments" / "spanner_trace_dead_ends.py"
    spec = importlib.util.spec_from_file_location("spanner_trace_dead_ends", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    root = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "ipc2023-learning" / "spanner"
    problem = root / "training" / "easy" / "p50.pddl"  # 5 spanners, 3 nuts, 6 locations
    domain = parse_domain(root / "domain.pddl")
    task = ground(domain, parse_problem(problem, domain))
    space = expand(task, max_states=200_000)
    order = module.location_order(problem)
    dead, lines = 0, []
    for state in range(space.num_states):
        atoms = ";".join(f"{a[0]}({', '.join(a[1])})"
                         for a in (task.fluent_atoms[int(f)] for f in space.state_facts(state)))
        assert module.is_dead_end(atoms, order) == math.isinf(space.hstar[state]), atoms
        dead += math.isinf(space.hstar[state])
        lines.append(f"0\t{atoms}\n")
    assert 0 < dead < space.num_states
    # --model values the traced states again: with a dead-end head that fires on every state it
    # marks them all; the first traced state here is the initial state, which is live.
    from model_files import random_model

    trace = tmp_path / "trace.tsv"
    trace.write_text("".join(lines))
    always = random_model(root / "domain.pddl", tmp_path / "always.pt", dead_end_bias=20.0)
    never = random_model(root / "domain.pddl", tmp_path / "never.pt", dead_end_bias=-20.0)
    capsys.readouterr()
    for model in (always, never):
        assert module.main([str(problem), str(trace), "--model", str(model), "--domain", str(root / "domain.pddl")]) == 0
    out = capsys.readouterr().out
    assert ("always.pt marks 1.000 of the dead ends and 1.000 of the live states dead; "
            "the first state (live): marked") in out
    assert "never.pt marks" not in out
    # Its marks by shortfall: every dead end of each shortfall, and the counts add up to the dead ends;
    # the initial state (5 spanners ahead of the man, 3 loose nuts) is 2 spanners to the good.
    line = next(x for x in out.splitlines() if x.startswith("dead ends marked by shortfall"))
    assert module.shortfall(lines[0].split("\t", 1)[1], order) == -2
    counts = [int(e.split(": ")[1]) for e in line.split("share): ")[1].split(", ")[0::2]]
    shares = line.split("share): ")[1].split(", ")[1::2]
    assert sum(counts) == dead and set(shares) == {"1.00"}
