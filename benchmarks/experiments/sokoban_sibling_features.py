"""Does a Sokoban state carry what ranks its successors? (issue 65; `benchmarks/results/ipc/readout/`
section 12.)

A SymT-E model's sibling-ranking accuracy is the share of validation pairs (an optimal successor,
another successor) it values in the right order. The shipped `ipc2023-sokoban` is at chance there.
This script ranks the same kind of pairs, drawn from the exhaustive labels of a dataset's tasks,
by two maze distances that the task's own facts give, with no learning: the sum over boxes off
their goal cells of each box's shortest walk to its goal cell, then (on a tie) the robot's
shortest walk to the nearest such box. Walks follow the `adjacent` facts (walls and all); boxes
do not block them, so these are relaxations. It prints how many pairs the features put in the
right order, tie, and put in the wrong order.

Usage: python benchmarks/experiments/sokoban_sibling_features.py DATA [--tasks K] [--pairs N] [--seed S]
  DATA  a dataset folder of `symt ipc-dataset` for IPC 2023 Sokoban (`data/ipc2023-sokoban-exhaustive`)
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict, deque
from pathlib import Path

import numpy as np

from symt.data import TaskData, load_dataset
from symt.sampling import PairSampler


def walks(edges: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """Shortest walk lengths between every pair of connected cells (breadth-first from each)."""
    neighbours: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        neighbours[a].add(b)
    table: dict[str, dict[str, int]] = {}
    for start in neighbours:
        seen, queue = {start: 0}, deque([start])
        while queue:
            cell = queue.popleft()
            for n in neighbours[cell]:
                if n not in seen:
                    seen[n] = seen[cell] + 1
                    queue.append(n)
        table[start] = seen
    return table


def features(data: TaskData, state: int, table: dict[str, dict[str, int]], goal: dict[str, str]) -> tuple[int, int]:
    """(the boxes' walks to their goal cells summed, the robot's walk to the nearest box off its
    goal) of a state; a cell out of reach counts as a walk of 10,000."""
    assert data.space is not None
    atoms = [data.task.fluent_atoms[i] for i in data.space.state_facts(state)]
    robot = next(args[0] for name, args in atoms if name == "at-robot")
    boxes = {args[0]: args[1] for name, args in atoms if name == "at"}
    off = [b for b in boxes if b in goal and boxes[b] != goal[b]]
    far = 10_000
    to_goals = sum(table.get(boxes[b], {}).get(goal[b], far) for b in off)
    to_box = min((table.get(robot, {}).get(boxes[b], far) for b in off), default=0)
    return to_goals, to_box


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path)
    parser.add_argument("--tasks", type=int, default=30, help="tasks per split (first in the manifest's order)")
    parser.add_argument("--pairs", type=int, default=15, help="sibling pairs drawn per task")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    dataset = load_dataset(args.data, splits=("train", "validation"), vocab_size=200)
    rng = np.random.default_rng(args.seed)
    counts: Counter[tuple[str, str]] = Counter()
    for split in ("validation", "train"):
        for data in [t for t in dataset.split(split) if t.space is not None][: args.tasks]:
            space = data.space
            assert space is not None
            table = walks([(a[0], a[1]) for name, a in data.task.static_atoms if name == "adjacent"])
            goal = {a[0]: a[1] for name, a in data.task.goal_atoms if name == "at"}
            drawn = 0
            for state in rng.permutation(space.num_states):
                if drawn >= args.pairs:
                    break
                if not np.isfinite(space.hstar[state]):
                    continue
                pair = PairSampler.sibling_pair(space, int(state), rng)
                if pair is None:
                    continue
                drawn += 1
                closer, other = (features(data, s, table, goal) for s in pair)
                verdict = "right" if closer < other else "tie" if closer == other else "wrong"
                counts[split, verdict] += 1
    print("| split | pairs | right order | tie | wrong order |")
    print("|---|--:|--:|--:|--:|")
    for split in ("validation", "train"):
        total = sum(counts[split, v] for v in ("right", "tie", "wrong"))
        print(f"| {split} | {total} | {counts[split, 'right']} | {counts[split, 'tie']} | {counts[split, 'wrong']} |")


if __name__ == "__main__":
    main()
