"""Choose among training seeds on larger tasks of symt's own generator, never on the held-out ones.

Question: which of several models of one recipe should ship, by a rule that does not look at the
evaluation tasks? Each model runs plain GBFS (``batch_eager_greedy([symt(model=...)])``, the
``symt-gbfs`` alias) on every given task with a CPU-time limit; the table lists solved tasks and
expansions, and the models are ranked by tasks solved, then by the geometric mean of expansions
over the tasks every model solves::

    python benchmarks/experiments/robustness/select_on_own_tasks.py --domain data/logistics/domain.pddl \\
        --tasks data/logistics-large-tasks/logistics-wide-*.pddl data/logistics-large-tasks/logistics-two-airplanes-*.pddl \\
        --model s0=runs/lg-achieved-s0/logistics.pt --model s1=runs/lg-achieved-s1/logistics.pt

The tasks named there are written by ``logistics_plan_tasks.py`` (seed 32): symt's generator, not the
held-out generator of ``held_out.py``. ``--reference ff='eager_greedy([ff()])'`` adds a column for a
Fast Downward search measured in the same run; it takes no part in the choice.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from symt.experiments.metrics import geometric_mean
from symt.fast_downward import fast_downward_command


def model_search(model: Path) -> str:
    """Plain GBFS with the SymT-E ``model`` (the ``symt-gbfs`` alias with an explicit model file)."""
    return f"batch_eager_greedy([symt(model={model.resolve()})])"


def run(domain: Path, task: Path, search: str, time_limit: int) -> int | None:
    """Expansions of the Fast Downward ``search`` on ``task``, or None when it finds no plan."""
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(
            [*fast_downward_command(), "--overall-time-limit", str(time_limit), "--overall-memory-limit", "4G",
             str(domain.resolve()), str(task.resolve()), "--search", search],
            cwd=work, capture_output=True, text=True, timeout=10 * time_limit)
    if result.returncode != 0 or "Solution found" not in result.stdout:
        return None
    match = re.search(r"^Expanded (\d+) state", result.stdout, re.MULTILINE)
    return int(match.group(1)) if match else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", type=Path, required=True)
    parser.add_argument("--tasks", type=Path, nargs="+", required=True)
    parser.add_argument("--model", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--time-limit", type=int, default=60, help="CPU seconds per run (60)")
    parser.add_argument("--reference", action="append", default=[], metavar="NAME=SEARCH",
                        help="a Fast Downward search shown beside the models, not chosen among")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    models = dict(item.split("=", 1) for item in args.model)
    references = dict(item.split("=", 1) for item in args.reference)
    searches = {name: model_search(Path(path)) for name, path in models.items()} | references
    jobs = [(name, task) for name in searches for task in args.tasks]
    with ThreadPoolExecutor(args.processes) as pool:
        found = list(pool.map(lambda job: run(args.domain, job[1], searches[job[0]], args.time_limit), jobs))
    results = {job: value for job, value in zip(jobs, found, strict=True)}
    print("| task | " + " | ".join(searches) + " |")
    print("|---|" + "--:|" * len(searches))
    for task in args.tasks:
        cells = [str(results[(name, task)]) if results[(name, task)] is not None else "–" for name in searches]
        print(f"| {task.stem} | " + " | ".join(cells) + " |")
    common = [t for t in args.tasks if all(results[(n, t)] is not None for n in models)]
    summary = []
    for name in models:
        solved = sum(results[(name, t)] is not None for t in args.tasks)
        gmean = geometric_mean([results[(name, t)] for t in common]) if common else math.nan
        summary.append((-solved, gmean, name))
        print(f"| **{name}: solved** | {solved} of {len(args.tasks)}; expansions on the {len(common)} all solve: "
              f"{gmean:.0f} (geometric mean) |")
    for name in references:
        solved = sum(results[(name, t)] is not None for t in args.tasks)
        shared = [t for t in common if results[(name, t)] is not None]
        gmean = geometric_mean([results[(name, t)] for t in shared]) if shared else math.nan
        print(f"| {name} (reference): solved | {solved} of {len(args.tasks)}; expansions on the {len(shared)} "
              f"of those it solves too: {gmean:.0f} (geometric mean) |")
    print(f"\nchosen: {min(summary)[2]} (most solved, then fewest expansions on the common tasks)")


if __name__ == "__main__":
    main()
