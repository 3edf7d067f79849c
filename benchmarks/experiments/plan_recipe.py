"""Plan generators on a paper dataset's test splits: coverage and plan quality per decoding, in
one process (issue 64's recipe study: which training recipe makes SymT-ED write valid plans).

Question it answers: for each plan-generator file given, what share of the validation,
interpolation and extrapolation tasks does each decoding solve, and how long are its plans
against the optimal (or best known) lengths in the dataset's manifest?

Usage (from the repository root)::

    .venv/bin/python benchmarks/experiments/plan_recipe.py data/gripper \\
        shipped=gripper-ed prefix1=runs/ed/gripper-p1/best.pt \\
        [--strategies regrounding applicable greedy] [--splits validation interpolation extrapolation] \\
        [--encoder-layers L] [--csv FILE]

Each plan is simulated on the grounded task by the decoder (:mod:`symt.plangen.decoding`); the
committed tables come from ``symt experiment plans``, which also checks every plan with VAL. Prints
one row per model, strategy and split (solved / tasks, QS_S: optimal length over plan length,
averaged over the solved tasks whose optimum the manifest has); ``--csv`` appends one row per task.
``--encoder-layers L`` applies a SymT-ED's shared encoder layer L times instead of the trained
number (the test-time depth of a weight-shared encoder, as ``symt export --layers`` for SymT-E).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import torch

from symt.models import resolve
from symt.pddl import ground, parse_domain, parse_problem
from symt.plangen.decoding import STRATEGIES, generate
from symt.plangen.planner import load_planner
from symt.tokens import encode_task


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset", type=Path, help="a `symt generate` folder (domain.pddl, manifest.json)")
    parser.add_argument("models", nargs="+", metavar="NAME=MODEL", help="a label and a model name or file")
    parser.add_argument("--strategies", nargs="+", default=["regrounding", "applicable", "greedy"], choices=STRATEGIES)
    parser.add_argument("--splits", nargs="+", default=["validation", "interpolation", "extrapolation"])
    parser.add_argument("--max-tokens", type=int, default=500, help="token cap (500, the paper's)")
    parser.add_argument("--csv", type=Path, help="append one row per task to this file")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1)")
    parser.add_argument("--encoder-layers", type=int, metavar="L",
                        help="apply a SymT-ED's shared encoder layer L times (default: as trained)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    domain = parse_domain(args.dataset / "domain.pddl")
    manifest = json.loads((args.dataset / "manifest.json").read_text())
    tasks = {split: [entry for entry in manifest if entry["split"] == split] for split in args.splits}
    rows = []
    for spec in args.models:
        label, _, model = spec.partition("=")
        planner = load_planner(resolve(model))
        if args.encoder_layers:
            if planner.kind != "symt-ed":
                parser.error(f"{model}: --encoder-layers needs a SymT-ED (this is {planner.kind})")
            planner.model.encoder.n_layers = args.encoder_layers
        for split, entries in tasks.items():
            grounded = []
            for entry in entries:
                task = ground(domain, parse_problem(args.dataset / entry["file"], domain))
                grounded.append((entry, encode_task(task, planner.signature, domain)))
            for strategy in args.strategies:
                solved, known, quality, start = 0, 0, 0.0, time.perf_counter()
                for entry, encoded in grounded:
                    result = generate(planner, encoded, strategy, args.max_tokens)
                    best = entry.get("optimal_plan_length")
                    if result.solved:
                        solved += 1
                        if best:  # QS_S over the solved tasks whose optimal length the manifest has
                            known += 1
                            quality += best / max(1, len(result.actions))
                    rows.append({"model": label, "strategy": strategy, "split": split, "task": entry["name"],
                                 "solved": int(result.solved), "plan_length": len(result.actions) if result.solved else "",
                                 "optimal": best or "", "tokens": result.tokens, "reason": result.reason})
                seconds = time.perf_counter() - start
                qs = f"{quality / known:.2f} ({known} with a known optimum)" if known else "- (no optimum known)"
                print(f"{label:>16} {strategy:>12} {split:>14}: {solved:3d} / {len(grounded):3d}  "
                      f"QS_S {qs}  ({seconds:.0f} s)", flush=True)
    if args.csv and rows:
        new = not args.csv.exists()
        with args.csv.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            if new:
                writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
