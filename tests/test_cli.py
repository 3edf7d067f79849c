"""The command line as a user meets it: output format, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symt.generators import DOMAINS, domain_file
from symt.pddl import ground

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"


def symt(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symt.cli", *map(str, args)], capture_output=True, text=True)


def key_values(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.strip().splitlines())


def gripper_problem(tmp_path: Path, n: int) -> Path:
    balls = " ".join(f"b{i}" for i in range(n))
    init = " ".join(f"(ball b{i}) (at b{i} ra)" for i in range(n))
    goal = " ".join(f"(at b{i} rb)" for i in range(n))
    path = tmp_path / f"g{n}.pddl"
    path.write_text(
        f"(define (problem g{n}) (:domain gripper) (:objects ra rb l r {balls})"
        f" (:init (room ra) (room rb) (gripper l) (gripper r) (free l) (free r) (at-robby ra) {init})"
        f" (:goal (and {goal})))"
    )
    return path


@pytest.mark.slow
def test_help_lists_every_subcommand():
    result = symt("--help")
    assert result.returncode == 0
    for command in ("ground", "expand", "validate", "generate", "demo"):
        assert command in result.stdout


@pytest.mark.slow
def test_expand_prints_key_values(tmp_path):
    result = symt("expand", domain_file("gripper"), gripper_problem(tmp_path, 4))
    assert result.returncode == 0, result.stderr
    values = key_values(result.stdout)
    n = 4
    assert int(values["states"]) == 2 * (2**n + n * 2**n + n * (n - 1) * 2 ** (n - 2))
    assert values["hstar_init"] == str(3 * n - 1)
    assert int(values["transitions"]) > 0 and float(values["seconds"]) >= 0


@pytest.mark.slow
def test_expand_stops_at_its_memory_limit_while_grounding(tmp_path):
    """512,000 ground actions (three free parameters over 80 objects) need more than 0.3 GiB in
    the grounder, before the expander's own guard could count anything: the process limit stops
    it there with one line, and a small task runs under the same limit."""
    domain = tmp_path / "cube.pddl"
    domain.write_text("(define (domain cube) (:predicates (p ?x) (q ?x ?y ?z))"
                      " (:action a :parameters (?x ?y ?z) :precondition (and (p ?x) (p ?y) (p ?z))"
                      " :effect (q ?x ?y ?z)))")
    problem = tmp_path / "cube80.pddl"
    objects = [f"o{i}" for i in range(80)]
    problem.write_text(f"(define (problem c) (:domain cube) (:objects {' '.join(objects)})"
                       f" (:init {' '.join(f'(p {o})' for o in objects)}) (:goal (q o0 o1 o2)))")
    result = symt("expand", domain, problem, "--max-memory", "0.3")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "symt: error: out of memory: the task needs more than the limit of 0.3 GiB (--max-memory)\n"
    small = symt("expand", domain_file("gripper"), gripper_problem(tmp_path, 4), "--max-memory", "0.3")
    assert small.returncode == 0 and key_values(small.stdout)["states"] == "256"  # the closed form above, n = 4


@pytest.mark.slow
def test_expand_unsolvable_prints_inf(tmp_path):
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p) (:domain gripper) (:objects ra rb l b) (:init (room ra) (room rb)"
        " (gripper l) (ball b) (at b ra) (at-robby ra)) (:goal (and (at b rb))))"
    )
    values = key_values(symt("expand", domain_file("gripper"), path).stdout)
    assert values["hstar_init"] == "inf"  # no gripper is free: nothing can be picked


@pytest.mark.slow
def test_state_limit_is_a_one_line_error(tmp_path):
    result = symt("expand", domain_file("gripper"), gripper_problem(tmp_path, 6), "--max-states", "100")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("symt: error:") and "100" in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, message",
    [
        ("(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p))", "end of file"),
        ("(define (domain d) (:predicates (p)) (:derived (p) (p)))", "derived predicates"),
    ],
)
def test_bad_pddl_is_a_one_line_error(tmp_path, text, message):
    domain = tmp_path / "d.pddl"
    domain.write_text(text)
    result = symt("ground", domain, domain)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"symt: error: {domain}:1") and message in line


@pytest.mark.slow
def test_help_needs_neither_torch_nor_the_compiled_core():
    """`symt ... --help` builds every subcommand's parser (experiment names included) without
    loading torch or the C++ extension."""
    code = ("import sys; from symt.cli import build_parser; build_parser(); "
            "print('torch' in sys.modules, 'symt._core' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "False"], result.stderr


@pytest.mark.slow
def test_unknown_domain_for_generate(tmp_path):
    result = symt("generate", "sokoban", "--out", tmp_path)
    assert result.returncode == 2 and "valid domains: blocksworld" in result.stderr


@pytest.mark.train
def test_generate_writes_parsable_dataset_with_optimal_lengths(tmp_path):
    result = symt("generate", "gripper", "--out", tmp_path / "g", "--quiet")
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "g" / "manifest.json").read_text())
    assert {entry["split"] for entry in manifest} == {"train", "validation", "interpolation", "extrapolation"}
    for entry in manifest:
        n = entry["size"]
        if n <= 8:  # expandable under the default manifest limit; h* known in closed form
            assert entry["optimal_plan_length"] == (3 * n - 1 if n % 2 == 0 else 3 * n), entry
        elif n >= 20:
            assert entry["optimal_plan_length"] is None
        task = ground(tmp_path / "g" / "domain.pddl", tmp_path / "g" / entry["file"])
        assert len(task.goal_atoms) == n


def hold_folder_lock(folder: Path) -> subprocess.Popen:
    """Another process that holds ``folder``'s lock (symt.folders) until it is killed."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from symt.folders import "
         "open_output_folder; lock = open_output_folder(Path(sys.argv[1])); print('locked', flush=True); "
         "time.sleep(120)", str(folder)], stdout=subprocess.PIPE, text=True)
    if holder.stdout.readline().strip() != "locked":
        holder.kill()
        raise AssertionError("the lock holder did not start")
    return holder


@pytest.mark.slow
def test_generate_refuses_to_replace_a_dataset_made_with_other_settings(tmp_path):
    """Same settings again: the same dataset. Another seed, or --no-optimal over computed lengths:
    refused with one line and the dataset untouched, unless --force."""
    out = tmp_path / "g"
    assert symt("generate", "gripper", "--out", out, "--quiet", "--max-states", 100).returncode == 0
    before = (out / "manifest.json").read_text()
    assert symt("generate", "gripper", "--out", out, "--quiet", "--max-states", 100).returncode == 0
    assert (out / "manifest.json").read_text() == before
    for extra in (["--seed", "7"], ["--no-optimal"]):
        result = symt("generate", "gripper", "--out", out, "--quiet", *extra)
        assert result.returncode == 2, result
        assert result.stderr.startswith(f"symt: error: --out {out} holds ")
        assert "--force" in result.stderr and len(result.stderr.splitlines()) == 1
        assert (out / "manifest.json").read_text() == before
    result = symt("generate", "gripper", "--out", out, "--quiet", "--seed", "7", "--no-optimal", "--force")
    assert result.returncode == 0, result.stderr
    replaced = json.loads((out / "manifest.json").read_text())
    assert replaced != json.loads(before) and all(e["optimal_plan_length"] is None for e in replaced)
    assert not list(out.glob("*.tmp"))


@pytest.mark.slow
def test_generate_refuses_a_folder_another_generate_is_writing(tmp_path):
    from symt.folders import open_output_folder

    out = tmp_path / "g"
    holder = hold_folder_lock(out)
    try:
        result = symt("generate", "gripper", "--out", out, "--quiet", "--no-optimal")
        assert result.returncode == 2 and "another symt generate is writing to this dataset folder" in result.stderr
        assert not (out / "manifest.json").exists()
    finally:
        holder.kill()
        holder.wait()
    assert open_output_folder(out).is_locked


@pytest.mark.train
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_generated_task_parses_and_grounds(tmp_path, domain):
    from symt.generators import generate_split_tasks
    from symt.pddl import parse_domain, parse_problem

    parsed_domain = parse_domain(domain_file(domain))
    tasks = generate_split_tasks(domain, seed=0)
    for generated in tasks[:: max(1, len(tasks) // 40)]:
        path = tmp_path / f"{generated.name}.pddl"
        path.write_text(generated.pddl)
        problem = parse_problem(path, parsed_domain)
        assert len(problem.objects) == generated.num_objects
        if generated.split == "train":
            assert ground(parsed_domain, problem).goal_atoms


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["greedy", "applicable", "regrounding"])
def test_plan_with_a_shipped_plan_generator(tmp_path, strategy):
    """`symt plan` with a shipped SymT-ED model: a validated plan and exit 0, or exit 1 with the
    reason decoding stopped; either way one statistics line that names the strategy."""
    problem = gripper_problem(tmp_path, 3)
    result = symt("plan", "--model", "gripper-ed-nocl", "--strategy", strategy, domain_file("gripper"), problem)
    stats = result.stderr.strip().splitlines()[-1]
    assert stats.startswith(f"; strategy: {strategy}; "), result.stderr
    if result.returncode == 0:
        assert "validator: valid plan" in stats
        assert len(result.stdout.strip().splitlines()) >= 9  # Gripper-3's optimum
    else:
        assert result.returncode == 1 and result.stdout == ""
        assert any(reason in stats for reason in ("malformed", "inapplicable", "token cap", "loop", "goal"))


@pytest.mark.slow
def test_plan_on_an_unsolvable_task_prints_no_plan(tmp_path):
    """Greedy guidance on a task whose goal cannot be reached (a ball in no room) walks until its
    step cap; it fails with exit 1 and nothing on stdout, where scripts read plans."""
    path = tmp_path / "unsolvable.pddl"
    path.write_text("(define (problem u) (:domain gripper) (:objects ra rb l r b0 b1)"
                    " (:init (room ra) (room rb) (gripper l) (gripper r) (free l) (free r) (at-robby ra)"
                    " (ball b0) (ball b1) (at b0 ra)) (:goal (and (at b0 rb) (at b1 rb))))")
    result = symt("plan", "--model", "gripper", "--max-steps", "50", domain_file("gripper"), path)
    assert result.returncode == 1 and result.stdout == ""
    assert "no plan printed" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["greedy", "heuristic"])
def test_plan_calls_a_truncated_model_file_truncated(tmp_path, strategy):
    """A cut-off plan generator is neither taken for a heuristic nor for a plan generator."""
    from symt.models import MODEL_DIR

    truncated = tmp_path / "cut-ed.pt"
    truncated.write_bytes((MODEL_DIR / "gripper-ed.pt").read_bytes()[:20_000])
    result = symt("plan", "--model", truncated, "--strategy", strategy, domain_file("gripper"),
                  gripper_problem(tmp_path, 2))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"symt: error: {truncated}: not a readable model file: truncated or not "
                             "a model (File is not a zip file)\n")


@pytest.mark.slow
@pytest.mark.parametrize(("model", "message"), [
    ("gripper.pt", "gripper.pt: an exported heuristic already; symt export takes a training run's best.pt"),
    ("gripper-ed.pt", "gripper-ed.pt: a plan-generation model (SymT-ED or PlanGPT), used as it is"),
    ("random.bin", "random.bin: not a readable model file: truncated or not a model"),
])
def test_export_says_what_the_file_is_when_it_is_no_checkpoint(tmp_path, model, message):
    from symt.models import MODEL_DIR

    path = MODEL_DIR / model
    if model == "random.bin":
        path = tmp_path / model
        path.write_bytes(bytes(range(256)) * 8)
    result = symt("export", path, tmp_path / "out.pt")
    assert result.returncode == 2 and not (tmp_path / "out.pt").exists()
    assert result.stderr.startswith("symt: error: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr  # no torch warning either


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["report", "RUNS", "--out"], ["experiment", "paper-smoke", "--out"], ["demo", "--out"],
    ["ipc-dataset", str(SHARED / "benchmarks" / "ipc2023-learning" / "ferry"), "--out"],
    ["train-plans", "gripper", "--steps", "1", "--out"], ["generate", "gripper", "--out"],
])
def test_an_output_folder_that_cannot_be_made_is_one_line_before_any_work(tmp_path, command):
    runs = tmp_path / "runs.csv"
    runs.write_text("suite,domain,group,problem,size,algorithm,solved\npaper,gripper,validation,p1,4,ff,True\n")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = symt(*[str(runs) if part == "RUNS" else part for part in command], blocker / "out")
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"symt: error: --out {blocker / 'out'}: cannot create the ")
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


@pytest.mark.slow
def test_plan_refuses_a_strategy_the_model_cannot_run(tmp_path):
    problem = gripper_problem(tmp_path, 2)
    result = symt("plan", "--model", "gripper-ed-nocl", "--strategy", "heuristic", domain_file("gripper"), problem)
    assert result.returncode == 2 and "generates plans" in result.stderr and "Traceback" not in result.stderr
    result = symt("plan", "--model", "gripper", "--strategy", "regrounding", domain_file("gripper"), problem)
    assert result.returncode == 2 and "SymT-E heuristic" in result.stderr and "Traceback" not in result.stderr
    # A generator trained on first actions writes no whole plans: one line naming the file and the way out.
    result = symt("plan", "--model", "gripper-ed-first", "--strategy", "greedy", domain_file("gripper"), problem)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "gripper-ed-first.pt: trained on the first 1 action(s)" in result.stderr and "regrounding" in result.stderr


G = domain_file("gripper")


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["train", "gripper", "--steps", "0"], "argument --steps: must be at least 1 (got 0)"),
    (["train", "gripper", "--steps", "-5"], "argument --steps: must be at least 1 (got -5)"),
    (["train", "gripper", "--batch-size", "0"], "argument --batch-size: must be at least 1 (got 0)"),
    (["train", "gripper", "--eval-every", "0"], "argument --eval-every: must be at least 1 (got 0)"),
    (["train", "gripper", "--lr", "0"], "argument --lr: must lie in (0, inf) (got 0)"),
    (["train", "gripper", "--lr", "nan"], "argument --lr: must lie in (0, inf) (got nan)"),
    (["train", "gripper", "--plan-weight", "1.5"], "argument --plan-weight: must lie in [0, 1] (got 1.5)"),
    (["train", "gripper", "--dropout", "1"], "argument --dropout: must lie in [0, 1) (got 1)"),
    (["train", "gripper", "--threads", "x"], "argument --threads: expected an integer, got 'x'"),
    (["train-plans", "gripper", "--batch-size", "0"], "argument --batch-size: must be at least 1 (got 0)"),
    (["expand", G, G, "--max-states", "0"], "argument --max-states: must be at least 1 (got 0)"),
    (["expand", G, G, "--max-states", str(10**30)], "argument --max-states: must be at most 4,611,686,018,427,387,904"),
    (["plan", "--threads", "0", G, G], "argument --threads: must be at least 1 (got 0)"),
    (["plan", "--max-steps", "-3", G, G], "argument --max-steps: must be at least 1 (got -3)"),
    (["experiment", "paper-smoke", "--time-limit", "-1"], "argument --time-limit: must be at least 1 (got -1)"),
    (["experiment", "paper-smoke", "--memory-limit", "-100"], "argument --memory-limit: must be at least 1"),
    (["experiment", "paper-smoke", "--processes", "0"], "argument --processes: must be at least 1 (got 0)"),
    (["experiment", "paper-smoke", "--max-tasks", "0"], "argument --max-tasks: must be at least 1 (got 0)"),
    (["export", "a.pt", "b.pt", "--layers", "0"], "argument --layers: must be at least 1 (got 0)"),
])
def test_numeric_options_are_range_checked_before_any_work(args, message):
    result = symt(*args)
    assert result.returncode == 2
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("symt")]
    assert len(error_lines) == 1 and error_lines[0].startswith("symt")
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", ["train", "train-plans"])
def test_train_out_that_is_a_file_is_refused_before_any_work(tmp_path, command):
    target = tmp_path / "notes.txt"
    target.write_text("a user's file\n")
    result = symt(command, str(tmp_path / "no-such-dataset"), "--out", str(target))
    assert result.returncode == 2
    assert f"--out {target}: a file of that name exists" in result.stderr
    assert "Traceback" not in result.stderr and target.read_text() == "a user's file\n"


def test_a_locked_run_folder_is_refused_and_free_again_after(tmp_path):
    """A second training in a folder that another process is writing to is refused at once; once
    that process ends (here: killed, as by Ctrl-C or a crash), the folder is usable again."""
    from symt.errors import SymtError
    from symt.folders import open_output_folder

    run = tmp_path / "run"
    holder = hold_folder_lock(run)
    try:
        with pytest.raises(SymtError, match="another training is writing to this run folder"):
            open_output_folder(run)
    finally:
        holder.kill()
        holder.wait()
    lock = open_output_folder(run)
    assert lock.is_locked
    lock.release()


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "benchmarks").is_dir(), reason="../shared/benchmarks is missing")
def test_dataset_from_one_to_four_problems(tmp_path: Path):
    """A handful of problems is a dataset: without --validation, one of 2-4 expandable problems
    is held out and none of a single one; a --validation that would hold out every problem is
    refused in one line that says what works."""
    source = SHARED / "benchmarks" / "ipc2023-learning" / "spanner"
    for count, held_out in ((1, 0), (3, 1)):
        out = tmp_path / f"data{count}"
        problems = [source / "training" / "easy" / f"p0{i}.pddl" for i in range(1, count + 1)]
        result = symt("dataset", source / "domain.pddl", *problems, "--out", out, "--plan-time", "0", "--quiet")
        assert result.returncode == 0, result.stderr
        entries = json.loads((out / "manifest.json").read_text())
        assert len(entries) == count and sum(e["split"] == "validation" for e in entries) == held_out
    result = symt("dataset", source / "domain.pddl", *problems, "--out", tmp_path / "refused",
                  "--validation", "3", "--plan-time", "0", "--quiet")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--validation 3 would hold out all of them; use --validation 2 or fewer" in result.stderr
    assert not (tmp_path / "refused" / "manifest.json").exists()


@pytest.mark.slow
def test_dataset_from_any_folder_layout(tmp_path: Path):
    """`symt dataset DOMAIN PROBLEMS...`: a domain file and problems in folders of one's own
    (IPC Spanner's, laid out as no IPC folder is), with the same labelling as `symt ipc-dataset`."""
    source = SHARED / "benchmarks" / "ipc2023-learning" / "spanner"
    mine = tmp_path / "mine"
    (mine / "small").mkdir(parents=True)
    (mine / "more" / "deeper").mkdir(parents=True)
    (mine / "spanner-domain.pddl").write_bytes((source / "domain.pddl").read_bytes())
    for i, folder in ((1, "small"), (2, "small"), (3, "more"), (4, "more/deeper"), (5, "more/deeper")):
        (mine / folder / f"p0{i}.pddl").write_bytes((source / "training" / "easy" / f"p0{i}.pddl").read_bytes())
    out = tmp_path / "data"
    # The domain file inside a problem folder is recognised and left out.
    result = symt("dataset", mine / "spanner-domain.pddl", mine, "--out", out, "--validation", "1",
                  "--plan-time", "0", "--quiet")
    assert result.returncode == 0, result.stderr
    entries = json.loads((out / "manifest.json").read_text())
    assert sorted(e["name"] for e in entries) == ["p01", "p02", "p03", "p04", "p05"]
    assert {e["domain"] for e in entries} == {"spanner"}
    assert sum(e["split"] == "validation" for e in entries) == 1
    assert all((out / e["file"]).read_bytes() == (mine / next(mine.rglob(e["name"] + ".pddl")).relative_to(mine)).read_bytes()
               for e in entries)
    # What training reads: one line per problem, h* of every state from the expander.
    labels = json.loads((out / "labels.json").read_text())
    assert {v["labels"] for v in labels.values()} == {"exhaustive"}
    # Two problems of the same file name in different folders would overwrite each other.
    (mine / "small" / "p03.pddl").write_bytes((source / "training" / "easy" / "p06.pddl").read_bytes())
    result = symt("dataset", mine / "spanner-domain.pddl", mine, "--out", tmp_path / "other")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "two problems named p03.pddl" in result.stderr
    assert not (tmp_path / "other").exists()
    result = symt("dataset", mine / "spanner-domain.pddl", mine / "missing")
    assert result.returncode == 2 and "missing: no such problem file or folder" in result.stderr
