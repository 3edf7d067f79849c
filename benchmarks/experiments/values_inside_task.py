"""Does a model value a task's states or only the task? (issue 65; `benchmarks/results/ipc/readout/`
section 12.)

A model that fits only each task's mean h* ranks siblings at chance. This script values the states
of one training task of a dataset that have a finite h* (at most N of them, drawn with a fixed
seed) with an exported heuristic, and prints the span of the values and their correlation with h*.

Usage: python benchmarks/experiments/values_inside_task.py MODEL.pt DATA TASK [--states N]
  MODEL.pt  an exported heuristic (`symt export`)
  DATA      its dataset folder (`symt ipc-dataset`), whose training tasks are expanded here
  TASK      the end of a training task's name (`p11`)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from symt.data import load_dataset
from symt.formats import read_model_meta
from symt.guidance import exported_state_evaluator


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("data", type=Path)
    parser.add_argument("task")
    parser.add_argument("--states", type=int, default=256, help="at most this many states (256)")
    args = parser.parse_args()
    meta = read_model_meta(args.model)
    dataset = load_dataset(args.data, splits=("train",), vocab_size=int(meta["vocab_size"]), progress=False)
    found = [t for t in dataset.split("train") if t.name.endswith(args.task) and t.space is not None]
    if not found:
        parser.error(f"no expanded training task named ...{args.task} in {args.data}")
    task = found[0]
    assert task.space is not None
    hstar = task.space.hstar
    finite = np.flatnonzero(np.isfinite(hstar))
    chosen = np.random.default_rng(0).choice(finite, size=min(args.states, finite.size), replace=False)
    evaluate = exported_state_evaluator(torch.jit.load(str(args.model)), meta, dataset.domain, task.task)
    values = evaluate([task.space.state_set(int(s)) for s in chosen])
    h = hstar[chosen]
    print(f"{task.name}: {finite.size} states with a finite h* ({h.min():.0f}-{h.max():.0f}), {chosen.size} valued: "
          f"values {values.min():.2f}-{values.max():.2f}, correlation with h* {np.corrcoef(values, h)[0, 1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
