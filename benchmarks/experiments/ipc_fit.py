"""Which shipped SymT-E model `symt()` picks for every test task of the IPC 2023 learning track, and
whether any task would be refused (issue 35: "symt() runs on every test task without a refusal").

`symt()` without a model runs :func:`symt.models.select_heuristic` on the task's domain and problem
files, which refuses a domain whose predicates no shipped model knows all of; the plugin then
refuses a task only when it has more objects than the chosen model's vocabulary
(:func:`symt.tokens.check_vocabulary`, as the task context's writer checks). Both run here for every
task, so a task listed as refused is one Fast Downward would stop with exit 36.

    .venv/bin/python benchmarks/experiments/ipc_fit.py > benchmarks/results/ipc/track/fit.md
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from symt.errors import SymtError
from symt.models import model_info, select_heuristic
from symt.pddl.parser import parse_domain, parse_problem
from symt.tokens import HASHED_TOKEN_SPACE, check_vocabulary

ROOT = Path(__file__).resolve().parents[2]
IPC = ROOT.parent / "shared" / "benchmarks" / "ipc2023-learning"
LEVELS = ("easy", "medium", "hard")


def check(domain_file: Path, problem_file: Path) -> tuple[str, str | None]:
    """(chosen model name, why it would be refused or None)."""
    try:
        path, _ = select_heuristic(domain_file, problem_file)
    except SymtError as error:
        return "–", str(error).split(";")[0]
    info = model_info(path)
    objects = len(parse_problem(problem_file, parse_domain(domain_file)).objects)
    try:
        check_vocabulary(objects, info.vocab_size, f"task {problem_file.name}")
    except SymtError as error:
        return info.name, str(error)
    return info.name, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ipc", type=Path, default=IPC, help="the IPC 2023 learning track folder")
    args = parser.parse_args()
    args.ipc = Path(os.path.relpath(args.ipc))  # the refusals name files as a reader's checkout has them
    print("| domain | level | tasks | models chosen (tasks) | refused |")
    print("|---|---|--:|---|--:|")
    refused_all = []
    for folder in sorted(p for p in args.ipc.iterdir() if (p / "domain.pddl").is_file()):
        for level in LEVELS:
            problems = sorted((folder / "testing" / level).glob("p*.pddl"))
            if not problems:
                continue
            chosen: Counter[str] = Counter()
            refused: dict[str, list[str]] = {}  # reason -> problems, so one reason is listed once
            for problem in problems:
                name, why = check(folder / "domain.pddl", problem)
                chosen[name] += 1
                if why:
                    refused.setdefault(why, []).append(problem.stem)
            models = ", ".join(f"`{name}` ({count})" for name, count in chosen.most_common())
            count = sum(len(names) for names in refused.values())
            print(f"| {folder.name} | {level} | {len(problems)} | {models} | {count} |")
            sys.stdout.flush()
            refused_all += [f"{folder.name}/{level} {', '.join(names) if len(names) < 5 else f'({len(names)} tasks)'}: "
                            f"{why}" for why, names in refused.items()]
    if refused_all:
        print("\nRefused:\n\n" + "\n".join(f"- {line}" for line in refused_all))
    print(f"\nHashed models (no object limit): vocabulary {HASHED_TOKEN_SPACE:,} codes.")
    return 1 if refused_all else 0


if __name__ == "__main__":
    raise SystemExit(main())
