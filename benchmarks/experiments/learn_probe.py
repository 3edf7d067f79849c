"""One arm of a `symt learn` recipe probe: train SymT-E on an existing `symt learn` dataset with
the command's recipe (``symt.learn.RECIPE``) at a fixed number of steps (not a time budget, so
that arms run side by side on a loaded machine are comparable), with some options changed, then
plain GBFS with the exported ``best.pt`` on test problems (Fast Downward, 60 s and 4 GiB each).

Question it answers (issue 61): from eight Driverlog problems the one command's model solved 1 of
p09-p16 alone; is that the plan-labelled training problems (``plan_weight``), the seed, or the
time-budgeted run?

Usage (from the repository root)::

    .venv/bin/python benchmarks/experiments/learn_probe.py NAME DATA --steps 1250 \\
        --set plan_weight=0.25 --set seed=1 --domain runs/dwb/driverlog/domain.pddl \\
        --problems runs/dwb/driverlog/p{09..16}.pddl [--runs runs/learn-probe] [--csv FILE]

``--set KEY=VALUE`` (a ``TrainConfig`` field; the value read as a Python literal) overrides the
recipe; ``seed`` defaults to 0, ``threads`` to 1. Appends one row per test problem to ``--csv``
(arm, options, problem, solved, expansions) and prints them.
"""

from __future__ import annotations

import argparse
import ast
import csv
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def parse_set(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with the value as a Python literal (a bare word stays a string)."""
    key, _, value = text.partition("=")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


def gbfs(model: Path, domain: Path, problem: Path, seconds: int = 60) -> tuple[bool, int | None]:
    """Plain GBFS with ``model`` (batched) on ``problem``: (solved, expansions)."""
    command = [".venv/bin/fast-downward", "--overall-time-limit", f"{seconds}s", "--overall-memory-limit",
               "4096M", str(domain.resolve()), str(problem.resolve()), "--search",
               f"batch_eager_greedy([symt(model={model.resolve()})])"]
    with tempfile.TemporaryDirectory(prefix="learn-probe-") as work:
        result = subprocess.run([str(Path(command[0]).resolve()), *command[1:]], cwd=work,
                                capture_output=True, text=True)
    solved = result.returncode == 0 and "Solution found" in result.stdout
    expanded = re.findall(r"Expanded (\d+) state", result.stdout)
    return solved, int(expanded[-1]) if solved and expanded else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("data", type=Path, help="a dataset folder (e.g. a symt learn run's data/)")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--set", action="append", default=[], type=parse_set, metavar="KEY=VALUE")
    parser.add_argument("--domain", type=Path, required=True)
    parser.add_argument("--problems", type=Path, nargs="+", required=True)
    parser.add_argument("--runs", type=Path, default=Path("runs/learn-probe"))
    parser.add_argument("--csv", type=Path, default=None, help="default: RUNS/probe.csv")
    args = parser.parse_args()

    from symt.export import export
    from symt.learn import RECIPE
    from symt.training.config import TrainConfig
    from symt.training.trainer import Trainer

    out = args.runs / args.name
    changed = dict(args.set)
    options = {**RECIPE, "seed": 0, "threads": 1, **changed, "data": str(args.data), "out": str(out),
               "steps": args.steps}
    Trainer(TrainConfig(**options), progress=False).run()
    model = out / "model.pt"
    export(out / "best.pt", model)
    table = args.csv or args.runs / "probe.csv"
    new = not table.exists()
    with table.open("a", newline="") as handle:
        writer = csv.writer(handle)
        if new:
            writer.writerow(["arm", "options", "problem", "solved", "expansions"])
        for problem in args.problems:
            solved, expansions = gbfs(model, args.domain, problem)
            row = [args.name, " ".join(f"{k}={v}" for k, v in changed.items()), problem.stem, int(solved),
                   expansions if expansions is not None else ""]
            writer.writerow(row)
            handle.flush()
            print(*row, sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main())
