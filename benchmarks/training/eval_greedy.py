"""Greedy heuristic guidance (paper, Appendix D) with SymT-E models, per split: coverage, QS, QS_S.
With ``--wl`` the model is a WL baseline model (``symt models``' ``wl/NAME`` or a file), valued
through WLPlan one state at a time, so both kinds are measured by the same guidance and stop rules.

Usage:
  .venv/bin/python benchmarks/training/eval_greedy.py --model gripper --data data/gripper \
      [--model-label ...] [--splits validation interpolation extrapolation] [--out FILE.md] \
      [--tasks-csv FILE.csv]
  .venv/bin/python benchmarks/training/eval_greedy.py --wl --model visitall --data data/visitall ...

With ``--device cuda`` the model runs on the GPU (a training checkpoint is exported first).
Plan lengths are compared with the manifest's optimal lengths where the expander computed them
(`symt generate` fills them in up to its state limit); tasks without a known optimum count for
coverage only, and QS/QS_S are then computed over the tasks with a known optimum. ``--tasks-csv``
appends one row per task in the columns of ``benchmarks/experiments/plan_recipe.py --csv``
(strategy ``greedy-guidance``; why each run stopped in ``reason``), which
``benchmarks/experiments/visitall_plan_failures.py`` reads.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from symt.export import export, load_exported, precision_context
from symt.guidance import (
    exported_state_evaluator,
    greedy_guidance_lockstep,
    greedy_heuristic_guidance,
)
from symt.models import resolve, resolve_wl
from symt.pddl import ground, parse_domain, parse_problem
from symt.pddl.task import GroundTask
from symt.pddl.validate import validate_plan
from symt.wl import WLModel, WLTask


def model_file(model: str, work: Path, layers: int | None = None) -> Path:
    """The exported model file of a shipped model's name, an exported model file, or a training
    checkpoint (``best.pt``, exported into ``work`` first, applying its layer ``layers`` times
    where given; exported files are frozen at their depth)."""
    from symt.formats import model_file_kind

    path = Path(model)
    if path.is_file() and model_file_kind(path) == "checkpoint":
        exported = work / (path.stem + "-exported.pt")
        export(path, exported, layers)
        return exported
    if layers is not None:
        sys.exit(f"eval_greedy.py: --layers needs a training checkpoint; {model} is exported at its depth")
    return Path(resolve(model))


class WLEvaluator:
    """A WL model's values of one task's states (true fluent indices), as greedy guidance calls
    an evaluator."""

    def __init__(self, model: WLModel, wl_task: WLTask, task: GroundTask) -> None:
        self.model, self.wl_task, self.task, self.count = model, wl_task, task, 0

    def __call__(self, states: list[frozenset[int]]) -> np.ndarray:
        self.count += len(states)
        facts = self.task.fluent_atoms
        return np.array([self.model.value(self.wl_task.state([facts[f] for f in sorted(state)]))
                         for state in states], dtype=np.float64)


def run_tasks(model_path: str, data: str, files: list[str], device: str, precision: str,
              wl: bool = False) -> list[dict]:
    """Greedy guidance on the tasks ``files`` of ``data``, in lockstep (one process's share)."""
    if device == "cpu":
        torch.set_num_threads(1)
    root = Path(data)
    domain = parse_domain(root / "domain.pddl")
    problems = [parse_problem(root / file, domain) for file in files]
    tasks = [ground(domain, problem) for problem in problems]
    if wl:
        model = WLModel(Path(model_path))
        results = [greedy_heuristic_guidance(task, WLEvaluator(model, model.set_task(domain, problem), task))
                   for task, problem in zip(tasks, problems)]
    else:
        module, meta = load_exported(model_path, device)
        with precision_context(precision, device):
            evaluators = [exported_state_evaluator(module, meta, domain, task, file, device)
                          for task, file in zip(tasks, files)]
            results = greedy_guidance_lockstep(tasks, evaluators)
    rows = []
    for task, result in zip(tasks, results):
        steps = [(task.actions[a].name, *task.actions[a].args) for a in result.actions]
        rows.append({"solved": result.solved and validate_plan(task, steps).valid, "length": len(steps),
                     "reason": result.reason})
    return rows


def evaluate(model: str, data: Path, splits: list[str], progress: bool = True, stride: int = 1,
             device: str = "cpu", strides: dict[str, int] | None = None, precision: str = "fp32",
             workers: int = 1, tasks: list[dict] | None = None, wl: bool = False,
             layers: int | None = None) -> list[dict]:
    """Greedy guidance rows per split. Each of ``workers`` processes takes every ``workers``-th
    task of a split and runs its tasks in lockstep, their successors valued in one forward pass
    per step (``greedy_guidance_lockstep``; a WL model, ``wl``, values one task at a time): the
    processes keep a GPU and the cores busy. ``strides`` overrides ``stride`` per split; with
    ``tasks``, one dict per task (split, task, solved, plan length, optimum, reason) is appended
    there too. ``layers``: a checkpoint's shared layer applied that many times (``symt export --layers``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    manifest = json.loads((data / "manifest.json").read_text())
    rows = []
    with tempfile.TemporaryDirectory() as work:
        model_path = str(resolve_wl(model) if wl else model_file(model, Path(work), layers))
        context = multiprocessing.get_context("spawn")  # CUDA in the children
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            for split in splits:
                entries = [e for e in manifest if e["split"] == split][:: (strides or {}).get(split, stride)]
                start = time.perf_counter()
                shares = [entries[i::workers] for i in range(workers)]
                futures = [pool.submit(run_tasks, model_path, str(data), [e["file"] for e in share], device, precision, wl)
                           for share in shares if share]
                outcome: dict[str, dict] = {}
                for share, future in zip([s for s in shares if s], futures):
                    for entry, result in zip(share, future.result()):
                        outcome[entry["file"]] = result
                solved = 0
                qs = []
                known = 0
                for entry in entries:
                    result = outcome[entry["file"]]
                    solved += result["solved"]
                    optimum = entry.get("optimal_plan_length")
                    if tasks is not None:
                        tasks.append({"split": split, "task": entry.get("name", Path(entry["file"]).stem),
                                      "solved": int(result["solved"]),
                                      "plan_length": result["length"] if result["solved"] else "",
                                      "optimal": "" if optimum is None else optimum, "reason": result["reason"]})
                    if optimum is not None:
                        known += 1
                        if result["solved"]:
                            qs.append(optimum / result["length"] if result["length"] else 1.0)
                n = len(entries)
                if progress:
                    print(f"{data.name}/{split}: {solved}/{n} solved in {time.perf_counter() - start:.1f} s",
                          file=sys.stderr)
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
    parser.add_argument("--strides", nargs="*", default=[], metavar="SPLIT=N",
                        help="per-split strides (e.g. extrapolation=10), overriding --stride")
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument("--precision", default="fp32", choices=["fp32", "bf16", "auto"])
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--workers", type=int, default=1, help="processes, each taking a share of every split (1)")
    parser.add_argument("--wl", action="store_true", help="--model is a WL baseline model (wl/NAME or a file)")
    parser.add_argument("--tasks-csv", type=Path, help="append one row per task to this CSV (plan_recipe.py's columns)")
    parser.add_argument("--layers", type=int, help="a checkpoint's shared layer applied this many times "
                        "(symt export --layers; default: its trained depth)")
    args = parser.parse_args()
    strides = {k: int(v) for k, v in (item.split("=") for item in args.strides)}
    tasks: list[dict] | None = [] if args.tasks_csv else None
    rows = evaluate(args.model, args.data, args.splits, stride=args.stride, device=args.device,
                    strides=strides, precision=args.precision, workers=args.workers, tasks=tasks, wl=args.wl,
                    layers=args.layers)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    label = args.model_label or args.model
    if args.layers is not None:
        label += f" ({args.layers} layers)"
    if args.stride > 1 or strides:
        label += f" (strides: {args.stride}, {strides})"
    lines = [
        f"| {label} | {r['split']} | {r['solved']}/{r['tasks']} | {r['coverage']:.2f} | "
        f"{r['qs']:.2f} | {r['qs_s']:.2f} | {r['optimum_known']} | {r['seconds']:.1f} |"
        for r in rows
    ]
    print("\n".join(lines))
    if args.out:
        with open(args.out, "a") as handle:
            handle.write("\n".join(lines) + "\n")
    if args.tasks_csv and tasks:
        new = not args.tasks_csv.exists()
        with args.tasks_csv.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=["model", "strategy", "split", "task", "solved",
                                                        "plan_length", "optimal", "tokens", "reason"])
            if new:
                writer.writeheader()
            writer.writerows({"model": label, "strategy": "greedy-guidance", "tokens": "", **row} for row in tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
