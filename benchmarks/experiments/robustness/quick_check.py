"""A quick robustness check of Blocksworld heuristic models (issue 32), minutes instead of the
variants experiment's hours: for each model, greedy guidance on the paper's three 5-block
interpolation tasks with the tower's base left out of the goal (the issue's example), and plain
GBFS (``--alias symt-gbfs``, 30 s) on tasks of 9-14 blocks from the independent generator of the
tests (one tower stated without its base; several towers stated in full). Plans checked by VAL.

Usage (from the repository root):
  .venv/bin/python benchmarks/experiments/robustness/quick_check.py --models blocksworld runs/X/blocksworld.pt [--out FILE.md]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))

from other_generators import blocksworld_task  # noqa: E402
from symt.export import load_exported  # noqa: E402
from symt.generators import domain_file, generate_split_tasks  # noqa: E402
from symt.guidance import plan_with_exported_model  # noqa: E402
from symt.models import resolve  # noqa: E402
from symt.pddl import ground, parse_domain, parse_problem  # noqa: E402
from symt.val import run_val  # noqa: E402

FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"


def without_base(problem_text: str) -> str:
    head, goal = problem_text.split("(:goal", 1)
    return head + "(:goal" + re.sub(r"\(ontable [^()]+\)\s*", "", goal)


def greedy_no_base(model: Path, work: Path) -> int:
    domain_path = domain_file("blocksworld")
    domain = parse_domain(domain_path)
    module, meta = load_exported(model)
    solved = 0
    for generated in [t for t in generate_split_tasks("blocksworld") if t.split == "interpolation"]:
        problem = work / f"{generated.name}.pddl"
        problem.write_text(without_base(generated.pddl))
        task = ground(domain, parse_problem(problem, domain))
        result = plan_with_exported_model(module, meta, domain, task)
        plan = work / f"{generated.name}.plan"
        plan.write_text("\n".join(result.labels(task)) + "\n")
        solved += result.solved and run_val(domain_path, problem, plan).valid
    return solved


def gbfs(model: Path, style: str, sizes: range, work: Path) -> tuple[int, list[int]]:
    domain_path = domain_file("blocksworld")
    solved, expansions = 0, []
    for size in sizes:
        problem = work / f"{style}-{size}.pddl"
        problem.write_text(blocksworld_task(size, random.Random(f"test-{style}-{size}"), style))
        plan = work / f"{style}-{size}.plan"
        plan.unlink(missing_ok=True)
        result = subprocess.run(
            [str(FAST_DOWNWARD), "--overall-time-limit", "30", "--plan-file", str(plan), str(domain_path),
             str(problem), "--search", f"eager_greedy([symt(model={model})])"],
            cwd=work, capture_output=True, text=True, timeout=180, check=False)
        if result.returncode == 0 and run_val(domain_path, problem, plan).valid:
            solved += 1
            found = re.search(r"Expanded (\d+) state", result.stdout)
            expansions.append(int(found.group(1)) if found else -1)
    return solved, expansions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", required=True, help="shipped model names or exported files")
    parser.add_argument("--out", type=Path, help="append the Markdown rows here")
    args = parser.parse_args()
    rows = ["| model | greedy, 5-block tasks without base | GBFS tower without base, 9-14 blocks | "
            "GBFS several towers, 9-14 blocks | expansions (tower / towers) |", "|---|--:|--:|--:|---|"]
    for name in args.models:
        model = Path(resolve(name)).resolve()
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder)
            greedy = greedy_no_base(model, work)
            tower, tower_exp = gbfs(model, "tower", range(9, 15), work)
            towers, towers_exp = gbfs(model, "towers", range(9, 15), work)
        rows.append(f"| {name} | {greedy}/3 | {tower}/6 | {towers}/6 | {tower_exp} / {towers_exp} |")
        print(rows[-1], flush=True)
    if args.out:
        with open(args.out, "a") as handle:
            handle.write("\n".join(rows) + "\n")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
