"""Run an experiment with Fast Downward Lab: build, run (resumable), parse, fetch, turn into records.

Every (algorithm, task) pair is one Lab run with one command, ``planner``: :mod:`.check_plan`
running the planner and then VAL on its plan. The planner is the project's ``fast-downward`` with
``--overall-time-limit`` and ``--overall-memory-limit`` (the driver enforces both, as in the
competitions), or the search-free runner (:mod:`.searchfree`: greedy heuristic guidance and plan
decoding), which keeps its own clock and prints Fast Downward's log lines.

Lab's stock Fast Downward parsers read both kinds of run. A crash, time-out or out-of-memory of
one run is just that run's outcome. Resuming: Lab's local job skips every run folder that has a
``driver.log``; runs that started but have no ``plan_check.json`` were interrupted, so their
outputs are cleared first and they run again. The experiment folder remembers its run list
(``spec.json``); a different list is refused unless the caller asks for a fresh start.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SymtError
from ..fast_downward import fast_downward_command
from ..val import final_value
from .algorithms import Algorithm
from .check_plan import CHECK_FILE
from .records import make_record, sort_records
from .suites import BenchmarkTask

if TYPE_CHECKING:
    from lab.environments import Environment
    from lab.experiment import Experiment
    from lab.parser import Parser
    from lab.tools import Properties

LAB_DIR = "lab"
EVAL_DIR = "lab-eval"
SPEC_FILE = "spec.json"
STATIC_RUN_FILES = {"run", "static-properties"}
"""What Lab writes into a run folder when it builds it; everything else is output."""


@dataclass
class ExperimentSpec:
    """Everything an experiment runs: its tasks, its algorithms, the model file of each, the
    per-run limits and how many runs go in parallel."""

    name: str
    tasks: list[BenchmarkTask]
    algorithms: list[Algorithm]
    models: dict[tuple[str, str, str], str]
    """(suite, domain, model family) -> model file, for algorithms that use a model."""
    time_limit: int
    """Seconds per run."""
    memory_limit: int
    """MiB per run."""
    processes: int = 2
    task_models: dict[tuple[str, str], str] = field(default_factory=dict)
    """(problem file, model family) -> model file, where one task takes another model than its
    domain's (:func:`symt.experiments.registry.fallback_models`)."""


def run_id(algorithm: Algorithm, task: BenchmarkTask) -> list[str]:
    """The Lab run id of ``algorithm`` on ``task``: [algorithm, suite, domain, group, problem]."""
    return [algorithm.name, task.suite, task.domain, task.group, task.problem]


def planner_command(spec: ExperimentSpec, algorithm: Algorithm, task: BenchmarkTask) -> list[str]:
    """The command line that runs ``algorithm`` on ``task`` within the spec's limits:
    ``fast-downward`` with its search, or the search-free runner. Raises a
    :class:`~symt.errors.SymtError` when the algorithm needs a model the spec lacks."""
    model = None
    if algorithm.model:
        model = spec.task_models.get((task.problem_file, algorithm.model),
                                     spec.models.get((task.suite, task.domain, algorithm.model)))
    if algorithm.uses_model and model is None:
        raise SymtError(f"no {algorithm.model} model for {task.suite}/{task.domain} (needed by {algorithm.name})")
    if algorithm.kind == "search-free":
        return [sys.executable, "-m", "symt.experiments.searchfree", "--model", str(model),
                "--strategy", str(algorithm.strategy), "--time-limit", str(spec.time_limit),
                "--memory-limit", str(spec.memory_limit), task.domain_file, task.problem_file]
    command = fast_downward_command() + [
        "--overall-time-limit", f"{spec.time_limit}s",
        "--overall-memory-limit", f"{spec.memory_limit}M",
        *algorithm.driver_options, task.domain_file, task.problem_file,
    ]
    quoted = f'"{model}"' if model else None
    search = algorithm.search_string(quoted)
    for definition in algorithm.evaluator_definitions(quoted):
        command += ["--evaluator", definition]
    return command + (["--search", search] if search else [])


def checked_command(spec: ExperimentSpec, algorithm: Algorithm, task: BenchmarkTask) -> list[str]:
    """The planner command wrapped by the plan check (see :mod:`.check_plan`)."""
    return [sys.executable, "-m", "symt.experiments.check_plan", task.domain_file, task.problem_file,
            "--", *planner_command(spec, algorithm, task)]


def plan_check_properties(content: str) -> dict:
    """The run properties read from a run's ``plan_check.json`` (:mod:`.check_plan`); an empty
    file (a run that never finished) gives ``plan_found`` None."""
    if not content:
        return {"plan_found": None}
    data = json.loads(content)
    props = {key: data[key] for key in ("plan_found", "plan_valid", "plan_steps")}
    # Runs checked before plan_check.json had the key: VAL's value is in the output's tail.
    cost = data["plan_cost"] if "plan_cost" in data else final_value(data["val"] or "")
    props["plan_cost"] = cost if data["plan_valid"] else None
    if data["plan_found"] and not data["plan_valid"]:
        props["val_output"] = data["val"]
    return props


def _plan_check_parser() -> Parser:
    from lab.parser import Parser

    def read_plan_check(content: str, props: Properties) -> None:
        props.update(plan_check_properties(content))

    def read_run_err(content: str, props: Properties) -> None:
        lines = [line for line in content.splitlines() if line.strip()]
        if lines:
            props["run_err_last_line"] = lines[-1][:500]

    parser = Parser()
    parser.add_pattern("planner_seconds", r"planner wall time: (.+)s", type=float)
    # Why a search-free strategy stopped without a plan (token cap, loop, malformed output, ...).
    parser.add_pattern("failure_reason", r"No plan: (.+)\.\n", type=str)
    parser.add_function(read_plan_check, file=CHECK_FILE)
    parser.add_function(read_run_err, file="run.err")
    return parser


def build_lab_experiment(
    spec: ExperimentSpec, path: Path, environment: Environment | None = None
) -> Experiment:
    """The Lab experiment for ``spec`` (runs and parsers; nothing is written yet).

    ``environment`` defaults to ``LocalEnvironment(processes=spec.processes)``; pass one of Lab's
    Slurm environments to run the same experiment on a cluster.
    """
    from downward.experiment import FastDownwardExperiment
    from lab.environments import LocalEnvironment
    from lab.experiment import Experiment

    exp = Experiment(path=str(path), environment=environment or LocalEnvironment(processes=spec.processes))
    for parser in (FastDownwardExperiment.EXITCODE_PARSER, FastDownwardExperiment.TRANSLATOR_PARSER,
                   FastDownwardExperiment.SINGLE_SEARCH_PARSER, FastDownwardExperiment.PLANNER_PARSER,
                   _plan_check_parser()):
        exp.add_parser(parser)
    # The wrapper resolves and loads libtorch; translate + search need more than the search alone.
    wall = int(spec.time_limit * 1.5) + 150
    for task in spec.tasks:
        for algorithm in spec.algorithms:
            run = exp.add_run()
            # Only a backstop: the driver and the search-free runner enforce the limits themselves.
            run.add_command("planner", checked_command(spec, algorithm, task), wall_time_limit=wall)
            run.set_property("id", run_id(algorithm, task))
            run.set_property("algorithm", algorithm.name)
            run.set_property("suite", task.suite)
            run.set_property("domain", task.domain)
            run.set_property("group", task.group)
            run.set_property("problem", task.problem)
            run.set_property("size", task.size)
            run.set_property("best_known", task.best_known)
            run.set_property("time_limit", spec.time_limit)
            run.set_property("memory_limit", spec.memory_limit)
    return exp


def spec_fingerprint(spec: ExperimentSpec) -> dict:
    """What identifies the experiment's runs (name, limits, and each run's id and command), as
    ``spec.json`` stores it: resuming is refused when it differs."""
    runs = []
    for task in spec.tasks:
        for algorithm in spec.algorithms:
            runs.append({"id": run_id(algorithm, task),
                         "command": checked_command(spec, algorithm, task)})
    return {"name": spec.name, "time_limit": spec.time_limit, "memory_limit": spec.memory_limit,
            "runs": runs}


def _run_dirs(lab_dir: Path) -> list[Path]:
    return sorted(p for p in lab_dir.glob("runs-*-*/*") if p.is_dir())


def reset_interrupted_runs(lab_dir: Path) -> int:
    """Clear the outputs of runs that started but did not finish; return how many."""
    count = 0
    for run_dir in _run_dirs(lab_dir):
        if (run_dir / "driver.log").exists() and not (run_dir / CHECK_FILE).exists():
            for item in run_dir.iterdir():
                if item.name not in STATIC_RUN_FILES:
                    shutil.rmtree(item) if item.is_dir() and not item.is_symlink() else item.unlink()
            count += 1
    return count


def progress_counts(lab_dir: Path) -> tuple[int, int]:
    """(finished runs, all runs) of a built experiment."""
    runs = _run_dirs(lab_dir)
    return sum((r / CHECK_FILE).exists() for r in runs), len(runs)


def prepare(
    spec: ExperimentSpec, exp_dir: Path, fresh: bool = False, environment: Environment | None = None
) -> Experiment:
    """Build the experiment, or reopen it for resuming. Returns the Lab experiment."""
    from lab import tools

    tools.configure_logging()
    logging.getLogger().setLevel(logging.WARNING)  # Lab logs every run start at INFO
    exp_dir = Path(exp_dir)
    lab_dir = exp_dir / LAB_DIR
    fingerprint = spec_fingerprint(spec)
    spec_path = exp_dir / SPEC_FILE
    exp = build_lab_experiment(spec, lab_dir, environment)
    if lab_dir.exists() and fresh:
        shutil.rmtree(lab_dir)
        shutil.rmtree(exp_dir / EVAL_DIR, ignore_errors=True)
    if lab_dir.exists():
        stored = json.loads(spec_path.read_text()) if spec_path.exists() else None
        if stored != fingerprint:
            raise SymtError(
                f"{exp_dir} holds an experiment with other runs or limits; pass --fresh to delete "
                "its results and start again, or choose another --out"
            )
        reset_interrupted_runs(lab_dir)
        return exp
    exp_dir.mkdir(parents=True, exist_ok=True)
    exp.build()
    tmp = spec_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(fingerprint, indent=1) + "\n")
    tmp.replace(spec_path)
    return exp


def execute(exp: Experiment, exp_dir: Path) -> None:
    """Start the runs that have not run yet; a failing run never stops the others."""
    try:
        exp.start_runs()
    except SystemExit:  # Lab's local job exits non-zero when a run's driver failed; recorded per run
        pass
    except Exception as error:  # noqa: BLE001 -- Lab raises plain errors for a non-zero job exit
        logging.warning("Lab reported: %s", error)


def parse_and_fetch(exp: Experiment, exp_dir: Path) -> dict[str, dict]:
    """Run Lab's parsers over every run folder and fetch the properties into ``lab-eval``."""
    from lab.fetcher import Fetcher

    # Lab's score functions print a line per run about limits it cannot see; keep them in a log.
    with open(Path(exp_dir) / "parse.log", "w") as log, contextlib.redirect_stdout(log):
        exp.parse()
    eval_dir = Path(exp_dir) / EVAL_DIR
    shutil.rmtree(eval_dir, ignore_errors=True)
    Fetcher()(str(Path(exp_dir) / LAB_DIR), eval_dir=str(eval_dir))
    return json.loads((eval_dir / "properties").read_text())


_TIMEOUT = {"search-out-of-time", "translate-out-of-time", "timeout", "search-out-of-memory-and-time",
            "timeout-and-out-of-memory"}
_OUT_OF_MEMORY = {"search-out-of-memory", "translate-out-of-memory", "out-of-memory"}
_UNSOLVABLE = {"search-unsolvable", "translate-unsolvable", "unsolvable"}


def outcome_of(props: dict) -> tuple[str, str | None]:
    """(outcome, detail) of one run from its Lab properties."""
    error = props.get("error")
    found = props.get("plan_found")
    if found:
        return ("solved", None) if props.get("plan_valid") else ("invalid-plan", props.get("val_output"))
    if found is None and props.get("coverage"):
        return "error", "the run did not finish (no plan check)"
    if error in _TIMEOUT:
        return "timeout", None
    if error in _OUT_OF_MEMORY:
        return "out-of-memory", None
    if error in _UNSOLVABLE:
        return "unsolvable", None
    if error == "search-unsolved-incomplete":
        return "search-failed", props.get("failure_reason")
    detail = props.get("run_err_last_line") or error or "no exit code recorded"
    return "error", f"{error}: {detail}" if error and detail != error else detail


def records_from_properties(properties: dict[str, dict]) -> list[dict]:
    """One run record (:mod:`.records`) per run, in report order."""
    records = []
    for props in properties.values():
        outcome, detail = outcome_of(props)
        found = props.get("plan_found")
        records.append(make_record(
            suite=props.get("suite"), domain=props.get("domain"), group=props.get("group"),
            problem=props.get("problem"), size=props.get("size"), algorithm=props.get("algorithm"),
            solved=outcome == "solved", plan_valid=props.get("plan_valid") if found else None,
            plan_length=props.get("plan_steps") if found else None, plan_cost=props.get("plan_cost"),
            best_known=props.get("best_known"),
            expansions=props.get("expansions"), evaluations=props.get("evaluations", props.get("evaluated")),
            search_time=props.get("search_time"), total_time=props.get("planner_seconds"),
            outcome=outcome, error_detail=detail,
        ))
    return sort_records(records)


def run_experiment(spec: ExperimentSpec, exp_dir: Path, fresh: bool = False) -> list[dict]:
    """Build or resume, run what is left, parse, fetch; return the records of every run."""
    exp = prepare(spec, exp_dir, fresh)
    done, total = progress_counts(Path(exp_dir) / LAB_DIR)
    print(f"[experiment] {spec.name}: {total} runs, {done} already finished; "
          f"{spec.time_limit} s and {spec.memory_limit} MiB per run, {spec.processes} in parallel",
          file=sys.stderr)
    if done < total:
        _run_with_progress(exp, Path(exp_dir), total, done)
    return records_from_properties(parse_and_fetch(exp, exp_dir))


def _run_with_progress(exp: Experiment, exp_dir: Path, total: int, done: int) -> None:
    """Lab's local job in the foreground, a progress bar fed from the run folders."""
    import threading

    from tqdm import tqdm

    stop = threading.Event()
    bar = tqdm(total=total, initial=done, desc="runs", unit="run")

    def watch() -> None:
        while not stop.wait(2.0):
            finished, _ = progress_counts(exp_dir / LAB_DIR)
            bar.update(finished - bar.n)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        execute(exp, exp_dir)
    finally:
        stop.set()
        watcher.join()
        finished, _ = progress_counts(exp_dir / LAB_DIR)
        bar.update(finished - bar.n)
        bar.close()
