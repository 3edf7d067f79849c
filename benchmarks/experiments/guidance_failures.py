"""Where does SymT-E's greedy heuristic guidance fail, and how (issue 64: "what keeps Visitall's
greedy guidance from the paper's 1.00 on validation: loops on revisits? ties?")?

The paper's algorithm (``symt.guidance.greedy_heuristic_guidance``) follows the successor of lowest
predicted h, with no cycle check and a 500-step cap. It is deterministic, so once it reaches a
state a second time it repeats the same cycle until the cap: the first revisit decides the run.
This script runs the same choice rule and stops there. Per task it records the outcome (solved,
a cycle and its length, the step cap, a dead end), the step it happened at, and how many choices
were ties (two successors within 1e-6 of the lowest value). Where the domain is Visitall's
(``at-robot``, ``visited``, ``connected``) it also records, at the revisited state, the unvisited
goal cells and how many moves away the nearest is: a model that sees only a few hops cannot tell
its neighbours apart when that cell is far.

Usage: python benchmarks/experiments/guidance_failures.py MODEL DATA [--splits validation ...]
    [--max-tasks K] [--out FILE.md]
  MODEL  a shipped model's name or a model file; DATA a dataset folder of `symt generate`
"""

from __future__ import annotations

import argparse
from collections import Counter, deque
from pathlib import Path

import numpy as np
import torch

from symt.export import load_exported
from symt.guidance import MAX_STEPS, changing_successors, exported_state_evaluator
from symt.models import resolve
from symt.pddl import parse_domain, parse_problem
from symt.pddl.grounding import ground
from symt.pddl.task import GroundTask


def nearest_unvisited(task: GroundTask, state: frozenset[int]) -> tuple[int, int] | None:
    """Visitall only: the unvisited goal cells in ``state`` and the moves to the nearest one
    (breadth first over ``connected``); None in other domains."""
    atoms = [task.fluent_atoms[i] for i in state]
    robot = [a[1][0] for a in atoms if a[0] == "at-robot"]
    if not robot or not any(a[0] == "connected" for a in task.static_atoms):
        return None
    visited = {a[1][0] for a in atoms if a[0] == "visited"}
    unvisited = {a[1][0] for a in task.goal_atoms if a[0] == "visited"} - visited
    neighbours: dict[str, list[str]] = {}
    for atom in task.static_atoms:
        if atom[0] == "connected":
            neighbours.setdefault(atom[1][0], []).append(atom[1][1])
    distance = {robot[0]: 0}
    queue = deque([robot[0]])
    while queue:
        cell = queue.popleft()
        for other in neighbours.get(cell, []):
            if other not in distance:
                distance[other] = distance[cell] + 1
                queue.append(other)
    reachable = [distance[c] for c in unvisited if c in distance]
    return len(unvisited), (min(reachable) if reachable else -1)


def follow(task: GroundTask, evaluate) -> dict[str, object]:
    """The paper's greedy rule until the goal, the first revisited state, a dead end or the cap."""
    state = frozenset(task.init)
    seen = {state: 0}
    steps = ties = 0
    while not task.is_goal(state):
        if steps >= MAX_STEPS:
            return {"outcome": "step cap", "step": steps, "ties": ties}
        _, successors = changing_successors(task, state)
        if not successors:
            return {"outcome": "dead end", "step": steps, "ties": ties}
        values = np.asarray(evaluate(successors))
        best = int(np.argmin(values))
        ties += int(np.sum(np.abs(values - values[best]) < 1e-6) > 1)
        state = successors[best]
        steps += 1
        if state in seen:
            result: dict[str, object] = {"outcome": f"cycle of {steps - seen[state]}", "step": steps, "ties": ties}
            visitall = nearest_unvisited(task, state)
            if visitall is not None:
                result["unvisited"], result["nearest"] = visitall
            return result
        seen[state] = steps
    return {"outcome": "solved", "step": steps, "ties": ties}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("data", type=Path)
    parser.add_argument("--splits", nargs="+", default=["validation", "interpolation"])
    parser.add_argument("--max-tasks", type=int, default=30)
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    torch.set_num_threads(1)
    module, meta = load_exported(resolve(options.model))
    domain = parse_domain(options.data / "domain.pddl")
    lines = [f"Greedy heuristic guidance of `{options.model}` on `{options.data}` "
             f"(`python benchmarks/experiments/guidance_failures.py {options.model} {options.data} "
             f"--splits {' '.join(options.splits)} --max-tasks {options.max_tasks}`)", "",
             "| split | task | objects | outcome | at step | ties | unvisited | nearest (moves) |",
             "|---|---|--:|---|--:|--:|--:|--:|"]
    summary: dict[str, Counter] = {}
    for split in options.splits:
        summary[split] = Counter()
        for path in sorted((options.data / split).glob("*.pddl"))[: options.max_tasks]:
            task = ground(domain, parse_problem(path, domain))
            result = follow(task, exported_state_evaluator(module, meta, domain, task, str(path)))
            outcome = str(result["outcome"])
            summary[split][outcome.split(" of ")[0]] += 1
            lines.append(f"| {split} | {path.stem} | {len(task.objects)} | {outcome} | {result['step']} | "
                         f"{result['ties']} | {result.get('unvisited', '')} | {result.get('nearest', '')} |")
            print(lines[-1], flush=True)
    lines += ["", "| split | tasks | " + " | ".join(("solved", "cycle", "step cap", "dead end")) + " |",
              "|---|--:|--:|--:|--:|--:|"]
    for split, counts in summary.items():
        lines.append(f"| {split} | {sum(counts.values())} | " +
                     " | ".join(str(counts[o]) for o in ("solved", "cycle", "step cap", "dead end")) + " |")
    print("\n".join(lines[-len(summary) - 2:]))
    if options.out:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
