"""IPC 2023 tasks with partial goals: the shipped IPC models on goals their generators never write
(issue 32).

The IPC 2023 generators always ask for every package, car, passenger or block of a task; a user's
task often asks for some of them. For every ``--every``-th task of a level, this writes the task as
stated (``LEVEL``) and the same task with a random ``--fraction`` of its goal atoms kept
(``LEVEL-partial``, at least one atom; seeded per task), by editing the goal's text, and runs both
with the chosen algorithms through the same Lab runner and report as ``symt experiment``:

    .venv/bin/python benchmarks/experiments/robustness/ipc_partial.py --domains blocksworld ferry miconic transport \\
        --out experiments/ipc-partial --results benchmarks/results/robustness/variants/ipc-partial

Every IPC 2023 goal is a conjunction of atoms (``(:goal (and (a ...) (b ...)))``); a task whose goal
is not is refused with its file named.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from pathlib import Path

from symt.errors import SymtError
from symt.experiments import registry, report, runner, suites
from symt.experiments.algorithms import algorithms
from symt.experiments.suites import BenchmarkTask

GOAL = re.compile(r"\(:goal\s*\(and\s*(?P<atoms>(?:\([^()]*\)\s*)+)\)\s*\)", re.IGNORECASE)
ATOM = re.compile(r"\([^()]*\)")


def partial_goal(text: str, fraction: float, rng: random.Random, name: str) -> tuple[str, int, int]:
    """``text`` with a random ``fraction`` of its goal atoms kept (at least one, in their order);
    the new text, the kept and the original number of atoms."""
    match = GOAL.search(text)
    if match is None:
        raise SymtError(f"{name}: the goal is not a conjunction of atoms")
    atoms = ATOM.findall(match.group("atoms"))
    keep = max(1, math.ceil(fraction * len(atoms)))
    kept = sorted(rng.sample(range(len(atoms)), keep))
    goal = "(:goal (and " + " ".join(atoms[i] for i in kept) + "))"
    return text[:match.start()] + goal + text[match.end():], keep, len(atoms)


def write_tasks(tasks: list[BenchmarkTask], folder: Path, fraction: float, seed: int) -> list[BenchmarkTask]:
    """Each IPC task as stated and with a partial goal (written under ``folder``)."""
    written = []
    for task in tasks:
        text = Path(task.problem_file).read_text()
        rng = random.Random(f"{task.domain}-{task.group}-{task.problem}-{seed}")
        variant, _, _ = partial_goal(text, fraction, rng, task.problem_file)
        path = folder / task.domain / f"{task.group}-partial" / f"{task.problem}.pddl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(variant)
        written.append(task)  # the task as stated: IPC's own file and best known length
        written.append(BenchmarkTask(task.suite, task.domain, f"{task.group}-partial", task.problem,
                                     task.size, task.domain_file, str(path.resolve()), None))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", nargs="+", default=["blocksworld", "ferry", "miconic", "transport"])
    parser.add_argument("--levels", nargs="+", default=["easy"])
    parser.add_argument("--every", type=int, default=3, help="every N-th task of a level (p01, p04, ...)")
    parser.add_argument("--fraction", type=float, default=0.5, help="share of the goal atoms kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--algorithms", nargs="+", default=["symt-batch", "ff"])
    parser.add_argument("--model", action="append", default=[], metavar="DOMAIN=FILE",
                        help="a model file instead of the shipped one for DOMAIN")
    parser.add_argument("--ipc-root", type=Path, default=suites.DEFAULT_IPC_ROOT)
    parser.add_argument("--out", type=Path, default=Path("experiments/ipc-partial"))
    parser.add_argument("--results", type=Path, help="copy the report here")
    parser.add_argument("--time-limit", type=int, default=60)
    parser.add_argument("--memory-limit", type=int, default=4096)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    if not 0 < args.fraction < 1:
        parser.error("--fraction must lie strictly between 0 and 1")
    try:
        stated = suites.ipc_tasks(args.ipc_root, args.domains, args.levels, None, args.every)
        tasks = write_tasks(stated, args.out / "tasks", args.fraction, args.seed)
        chosen = algorithms(args.algorithms)
        models = registry.suite_models("ipc2023", args.domains, chosen, args.out, args.ipc_root,
                                       registry.model_options(args.model))
    except SymtError as error:
        sys.exit(f"ipc_partial.py: error: {error}")
    spec = runner.ExperimentSpec("ipc-partial", tasks, chosen, models, args.time_limit, args.memory_limit,
                                 args.processes)
    records = runner.run_experiment(spec, args.out)
    command = "benchmarks/experiments/robustness/ipc_partial.py " + " ".join(sys.argv[1:])
    notes = (f"IPC 2023 learning-track test tasks (every {args.every}th of {', '.join(args.levels)}) as stated, "
             f"and with {args.fraction:.0%} of their goal atoms kept (groups '-partial', seed {args.seed}). "
             "Models: " + ", ".join(f"{d} {f}: {Path(m).name}" for (_, d, f), m in sorted(models.items())))
    out = args.out / "report"
    report.write_report(records, out, "IPC 2023 tasks with partial goals", command=command, notes=notes,
                        algorithms=args.algorithms, limits=f"{args.time_limit} s and {args.memory_limit} MiB per run")
    if args.results:
        report.copy_report(out, args.results)
    print(f"{sum(r['solved'] for r in records)}/{len(records)} runs solved; report in {out}")


if __name__ == "__main__":
    main()
