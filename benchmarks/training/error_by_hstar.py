"""A model's error on a split's states, by their h*: where the estimate is biased, not just how much.

For every ``--task-stride``-th task of the split, a uniform sample of its reachable states (fixed
seed, dead ends left out) is evaluated by the model and compared with h* from the expander. For
goal-count domains the bias of a goal-count estimate (goal atoms not yet true) is printed beside
it, as a yardstick that needs no learning.

Usage:
  .venv/bin/python benchmarks/training/error_by_hstar.py --model visitall --data data/visitall \
      [--split validation] [--task-stride 3] [--states 200]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

from symt.data import load_dataset
from symt.export import load_exported
from symt.guidance import exported_state_evaluator
from symt.models import resolve

BUCKETS = ((0, 5), (5, 10), (10, 15), (15, 20), (20, 1_000))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="shipped model name or exported model file")
    parser.add_argument("--data", type=Path, required=True, help="dataset folder (symt generate)")
    parser.add_argument("--split", default="validation")
    parser.add_argument("--task-stride", type=int, default=3, help="every N-th task of the split (3)")
    parser.add_argument("--states", type=int, default=200, help="states sampled per task (200)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    module, meta = load_exported(resolve(args.model))
    dataset = load_dataset(args.data, splits=(args.split,), expand_splits=(args.split,), progress=False,
                           vocab_size=int(meta["vocab_size"]))
    rng = np.random.default_rng(0)
    hstar: list[float] = []
    predicted: list[float] = []
    goal_count: list[int] = []
    for task_data in dataset.split(args.split)[:: args.task_stride]:
        space = task_data.space
        if space is None:
            continue
        evaluator = exported_state_evaluator(module, meta, dataset.domain, task_data.task,
                                             str(task_data.problem_file))
        sample = rng.choice(space.num_states, size=min(args.states, space.num_states), replace=False)
        ids = [int(i) for i in sample if np.isfinite(space.hstar[i])]
        states = [space.state_set(i) for i in ids]
        predicted += list(evaluator(states))
        hstar += [float(space.hstar[i]) for i in ids]
        goal = set(task_data.task.goal_pos)
        goal_count += [len(goal - state) for state in states]
    h, p, g = np.array(hstar), np.array(predicted), np.array(goal_count)
    print(f"{args.model} on {args.split}: {len(h)} states, MSE {np.mean((p - h) ** 2):.2f}, "
          f"bias {np.mean(p - h):+.2f}")
    print("| h* | states | model bias | model RMSE | goal-count bias |")
    print("|---|--:|--:|--:|--:|")
    for low, high in BUCKETS:
        inside = (h >= low) & (h < high)
        if inside.any():
            error = (p - h)[inside]
            label = f"{low}–{high - 1}" if high < 1_000 else f"≥ {low}"
            print(f"| {label} | {inside.sum()} | {error.mean():+.2f} | {np.sqrt(np.mean(error ** 2)):.2f} | "
                  f"{(g - h)[inside].mean():+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
