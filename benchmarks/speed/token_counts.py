"""What a SymT-E input is made of on IPC 2023 tasks (issue 15, "fewer tokens"): per task, the
atoms of the initial state that the model reads, by kind -- true fluent atoms, static atoms (of
predicates some action's precondition reads, and of predicates none reads), type atoms and goal
atoms -- and the attention cost they imply.

Self-attention over N atoms costs about N^2 per layer and state. Static, type and goal atoms are
the same in every state of a task: a model whose state-independent atoms attend only among
themselves could compute them once per task, and each state would then cost about F x N (F fluent
atoms). The last columns give both figures and their ratio: the bound on what caching the
context could save per evaluation at the same width and depth.

Usage: .venv/bin/python benchmarks/speed/token_counts.py [--levels medium] [--problems p05 p15 p25]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from symt.pddl import ground, parse_domain, parse_problem
from symt.tokens import TYPE_PREFIX, domain_signature, encode_task

IPC_ROOT = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "ipc2023-learning"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", nargs="+", default=["blocksworld", "ferry", "miconic", "transport"])
    parser.add_argument("--levels", nargs="+", default=["medium"])
    parser.add_argument("--problems", nargs="+", default=["p05", "p15", "p25"])
    parser.add_argument("--ipc-root", type=Path, default=IPC_ROOT)
    args = parser.parse_args()

    print("| domain | task | objects | true fluent F | static, read by a precondition | static, never read "
          "| type | goal | all N | N² | F × N | N² / (F × N) |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name in args.domains:
        domain = parse_domain(args.ipc_root / name / "domain.pddl")
        read = {literal.predicate for action in domain.actions for literal in action.preconditions}
        signature = domain_signature(domain)
        for level in args.levels:
            for problem_name in args.problems:
                path = args.ipc_root / name / "testing" / level / f"{problem_name}.pddl"
                task = ground(domain, parse_problem(path, domain))
                encoded = encode_task(task, signature, domain)
                fluent = len(task.init)
                static_read = sum(1 for atom_name, _ in task.static_atoms if atom_name in read)
                static_unread = len(task.static_atoms) - static_read
                goal = len(task.goal_atoms)
                ids = signature.predicate_ids()
                type_ids = {ids[p] for p in ids if p.startswith(TYPE_PREFIX)}
                types = sum(1 for row in encoded.fixed_rows if int(row[0]) in type_ids)
                total = fluent + len(encoded.fixed_rows)
                print(f"| {name} | {level}/{problem_name} | {len(task.objects)} | {fluent} | {static_read} | "
                      f"{static_unread} | {types} | {goal} | {total} | {total * total:,} | "
                      f"{fluent * total:,} | {total / fluent:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
