"""Greedy heuristic guidance (paper, Appendix D) with SymT-E models, per split: coverage, QS, QS_S.

Usage:
  .venv/bin/python benchmarks/training/eval_greedy.py --model gripper --data data/gripper \
      [--model-label ...] [--splits validation interpolation extrapolation] [--out FILE.md]

Plan lengths are compared with the manifest's optimal lengths where the expander computed them
(`symt generate` fills them in up to its state limit); tasks without a known optimum count for
coverage only, and QS/QS_S are then computed over the tasks with a known optimum.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch
from tqdm import tqdm

from symt.export import load_exported
from symt.guidance import plan_with_exported_model
from symt.models import resolve
from symt.pddl import ground, parse_domain, parse_problem
from symt.pddl.validate import validate_plan


def evaluate(model: str, data: Path, splits: list[str], progress: bool = True, stride: int = 1) -> list[dict]:
    module, meta = load_exported(resolve(model))
    manifest = json.loads((data / "manifest.json").read_text())
    domain = parse_domain(data / "domain.pddl")
    rows = []
    for split in splits:
        entries = [e for e in manifest if e["split"] == split][::stride]
        solved = 0
        qs = []
        known = 0
        start = time.perf_counter()
        for entry in tqdm(entries, desc=f"{data.name}/{split}", disable=not progress, leave=False):
            task = ground(domain, parse_problem(data / entry["file"], domain))
            result = plan_with_exported_model(module, meta, domain, task)
            steps = [(task.actions[a].name, *task.actions[a].args) for a in result.actions]
            valid = result.solved and validate_plan(task, steps).valid
            solved += valid
            optimum = entry.get("optimal_plan_length")
            if optimum is not None:
                known += 1
                if valid:
                    qs.append(optimum / len(steps) if steps else 1.0)
        n = len(entries)
        rows.append({
            "split": split,
            "tasks": n,
            "solved": solved,
            "coverage": solved / n if n else float("nan"),
            "qs": sum(qs) / known if known else float("nan"),
            "qs_s": sum(qs) / len(qs) if qs else float("nan"),
            "optimum_known": known,
            "seconds": time.perf_counter() - start,
        })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="shipped model name or path")
    parser.add_argument("--model-label", help="name shown in the table (default: --model)")
    parser.add_argument("--data", type=Path, required=True, help="dataset folder (symt generate)")
    parser.add_argument("--splits", nargs="+", default=["validation", "interpolation", "extrapolation"])
    parser.add_argument("--out", type=Path, help="append the Markdown rows to this file")
    parser.add_argument("--stride", type=int, default=1, help="every N-th task of each split (1: all)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # see `symt plan --threads`: more threads are slower on 2 cores
    rows = evaluate(args.model, args.data, args.splits, stride=args.stride)
    label = args.model_label or args.model
    if args.stride > 1:
        label += f" (every {args.stride}th task)"
    lines = [
        f"| {label} | {r['split']} | {r['solved']}/{r['tasks']} | {r['coverage']:.2f} | "
        f"{r['qs']:.2f} | {r['qs_s']:.2f} | {r['optimum_known']} | {r['seconds']:.1f} |"
        for r in rows
    ]
    print("\n".join(lines))
    if args.out:
        with open(args.out, "a") as handle:
            handle.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
