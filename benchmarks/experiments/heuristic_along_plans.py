"""How learned heuristics read a good plan: their values along lama-first's plan of IPC tasks.

Question: where does a SymT-E heuristic that is exact on training-sized tasks lose its guidance on
larger ones? Greedy best-first search follows a heuristic's descent; a plan step on which h does not
fall is a plateau the search must fill with expansions. For each task this walks lama-first's
(first) plan and reports, per model:

* ``h(s0)``: the model's value of the initial state, beside the plan's length;
* ``h per step``: the least-squares slope of h against the plan steps still to go (1.0 for h*
  along an optimal plan; WL-GOOSE models trained to rank have values in their own units);
* ``falls``: the share of plan steps on which h strictly falls;
* ``best``: the share of plan steps whose successor has the lowest h among all of the state's
  successors (ties count as lowest); ``better``: how many siblings score strictly lower, on average;
* a second table: ``falls`` per action schema of the plan's steps (which kind of step is a plateau).

Models are SymT-E files (``.pt``, exported) or WL models (``.json``, their unscaled values), all of
one domain, evaluated in Python on the states symt's own grounding produces (the same values the Fast Downward plugins compute). Plans come
from Fast Downward's ``lama-first`` through symt's build and are kept in ``OUT/plans/``::

    .venv/bin/python benchmarks/experiments/heuristic_along_plans.py --out benchmarks/results/ipc/readout \\
        --table ferry.md --tasks ferry:easy:p01 ferry:easy:p10 ferry:medium:p10 \\
        --model symt=python/symt/models/ipc2023-ferry.pt --model wl=python/symt/models/wl/ipc2023-ferry.json
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from scipy.stats import spearmanr

from symt.errors import SymtError
from symt.export import load_exported
from symt.fast_downward import fast_downward_command
from symt.guidance import changing_successors, exported_state_evaluator
from symt.pddl.grounding import ground
from symt.pddl.model import Domain, Problem
from symt.pddl.parser import parse_domain, parse_problem
from symt.pddl.task import GroundTask
from symt.pddl.validate import read_plan, validate_plan
from symt.wl import WLModel

IPC = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "ipc2023-learning"
PLAN_TIME_LIMIT = 300

State = frozenset[int]
Values = Callable[[list[State]], np.ndarray]


@dataclass
class Row:
    """One model on one task's plan."""

    task: str
    plan_length: int
    model: str
    initial: float
    per_step: float
    spearman: float
    falls: float
    best: float
    better: float
    siblings: float
    falls_by_action: dict[str, tuple[int, int]]
    """Per action schema: (steps on which h falls, steps)."""


def lama_plan(domain_file: Path, problem_file: Path, plan_file: Path) -> list[tuple[str, ...]]:
    """lama-first's plan of the task, made once and kept in ``plan_file``."""
    if not plan_file.exists():
        plan_file.parent.mkdir(parents=True, exist_ok=True)
        made = plan_file.resolve().with_suffix(".new")
        command = [*fast_downward_command(), "--plan-file", str(made), "--overall-time-limit",
                   str(PLAN_TIME_LIMIT), "--alias", "lama-first", str(domain_file), str(problem_file)]
        result = subprocess.run(command, cwd=plan_file.parent, capture_output=True, text=True)
        if result.returncode != 0 or not made.exists():
            raise SymtError(f"{problem_file}: lama-first found no plan in {PLAN_TIME_LIMIT} s "
                            f"(exit {result.returncode})")
        made.rename(plan_file)
    return read_plan(plan_file)


def symt_values(path: Path, domain: Domain, problem: Problem, task: GroundTask) -> Values:
    """A SymT-E file's values of states of ``task`` (Python, as the plugin computes them)."""
    module, meta = load_exported(path)
    return exported_state_evaluator(module, meta, domain, task, where=str(problem.filename))


def wl_values(path: Path, domain: Domain, problem: Problem, task: GroundTask) -> Values:
    """A WL model's unscaled values of states of ``task``."""
    model = WLModel(path)
    wl_task = model.set_task(domain, problem)

    def values(states: list[State]) -> np.ndarray:
        return np.array([model.value(wl_task.state_of([wl_task.atom(task.fluent_atoms[f]) for f in state]))
                         for state in states])
    return values


def walk(task: GroundTask, plan: list[tuple[str, ...]]) -> tuple[list[State], list[tuple[list[State], int]]]:
    """The states along ``plan`` and, for each step, the state's successors and the plan's among them.
    The plan is checked by symt's validator first (one error naming the step that fails)."""
    checked = validate_plan(task, plan)
    if not checked.valid:
        raise SymtError(f"the plan is not valid: {checked.reason}")
    by_label = {(action.name, *action.args): action for action in task.actions}
    state: State = frozenset(task.init)
    states, steps = [state], []
    for step in plan:
        successor = task.apply(by_label[step], state)
        siblings = sorted(set(changing_successors(task, state)[1]), key=sorted)
        steps.append((siblings, siblings.index(successor)))
        state = successor
        states.append(state)
    return states, steps


def measure(name: str, values: Values, states: list[State], steps: list[tuple[list[State], int]],
            actions: list[str], task_name: str) -> Row:
    """One model's row: its values along the plan's ``states`` and against each step's siblings
    (``actions``: the plan steps' schema names)."""
    h = values(states)
    to_go = np.arange(len(states))[::-1]
    by_action: dict[str, tuple[int, int]] = {}
    for action, change in zip(actions, np.diff(h)):
        falls, total = by_action.get(action, (0, 0))
        by_action[action] = (falls + int(change < 0), total + 1)
    lower, ties_best, counts = [], [], []
    for siblings, chosen in steps:
        sibling_h = values(siblings)
        lower.append(int((sibling_h < sibling_h[chosen] - 1e-9).sum()))
        ties_best.append(lower[-1] == 0)
        counts.append(len(siblings))
    return Row(task_name, len(steps), name, float(h[0]), float(np.polyfit(to_go, h, 1)[0]),
               float(spearmanr(to_go, h).statistic), float(np.mean(np.diff(h) < 0)),
               float(np.mean(ties_best)), float(np.mean(lower)), float(np.mean(counts)), by_action)


def table(rows: Sequence[Row]) -> str:
    """The markdown table of ``rows``, one per task and model."""
    lines = ["| task | plan | model | h(s0) | h per step | Spearman | falls | best | better of siblings |",
             "|---|--:|---|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| {r.task} | {r.plan_length} | {r.model} | {r.initial:.1f} | {r.per_step:.2f} | "
                     f"{r.spearman:.2f} | {r.falls:.0%} | {r.best:.0%} | {r.better:.1f} of {r.siblings:.1f} |")
    return "\n".join(lines) + "\n"


def action_table(rows: Sequence[Row]) -> str:
    """``falls`` per action schema, one row per task and model."""
    actions = sorted({action for row in rows for action in row.falls_by_action})
    lines = ["| task | model | " + " | ".join(actions) + " |", "|---|---|" + "--:|" * len(actions)]
    for r in rows:
        cells = [f"{r.falls_by_action[a][0] / r.falls_by_action[a][1]:.0%} of {r.falls_by_action[a][1]}"
                 if a in r.falls_by_action else "–" for a in actions]
        lines.append(f"| {r.task} | {r.model} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="+", required=True, help="DOMAIN:LEVEL:PROBLEM of the IPC 2023 track")
    parser.add_argument("--model", action="append", required=True, metavar="NAME=PATH",
                        help="a SymT-E file (.pt) or a WL model (.json), named for the table")
    parser.add_argument("--out", type=Path, required=True, help="folder for plans/ and the table")
    parser.add_argument("--table", default="along_plans.md", help="the table's file name in --out")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    models = [spec.split("=", 1) for spec in args.model]
    rows: list[Row] = []
    try:
        for spec in args.tasks:
            domain_name, level, problem_name = spec.split(":")
            domain_file = IPC / domain_name / "domain.pddl"
            problem_file = IPC / domain_name / "testing" / level / f"{problem_name}.pddl"
            domain = parse_domain(domain_file)
            problem = parse_problem(problem_file, domain)
            task = ground(domain, problem)
            plan = lama_plan(domain_file, problem_file, args.out / "plans" / f"{domain_name}-{level}-{problem_name}.plan")
            states, steps = walk(task, plan)
            for name, path in models:
                kind = wl_values if path.endswith(".json") else symt_values
                rows.append(measure(name, kind(Path(path), domain, problem, task), states, steps,
                                    [step[0] for step in plan], spec))
                print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    except SymtError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    command = " ".join(["python benchmarks/experiments/heuristic_along_plans.py", *(argv or sys.argv[1:])])
    text = (f"Produced by `{command}`.\n\n{table(rows)}\nThe share of plan steps on which h falls, "
            f"per action schema:\n\n{action_table(rows)}")
    (args.out / args.table).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
