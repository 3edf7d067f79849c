"""The cost of one regrounding step of plan generators, per task size, measured in one run.

Question it answers: how long does a plan generator take for the work of one regrounding step
(encode the state, decode the first action's tokens), and how does that compare between models
(for example a 4-layer and an 8-layer SymT-ED) on the same tasks, measured side by side?

Usage (from the repository root; here the 4-layer ``visitall-ed-first`` shipped before commit
a66869f against the 8-layer one shipped since)::

    git show 609f701:python/symt/models/visitall-ed-first.pt > /tmp/visitall-ed-first-4l.pt
    .venv/bin/python benchmarks/speed/bench_plan_step.py data/visitall \\
        4-layer=/tmp/visitall-ed-first-4l.pt 8-layer=visitall-ed-first [--split extrapolation] \\
        [--stride 20] [--repeats 5] [--threads 1]

For every ``--stride``-th task of the split, each model encodes the initial state and decodes the
tokens of the action it ranks first among the applicable ones (what :func:`symt.plangen.decoding.filtered`
does once per action when it regrounds); the models take turns on each task, so a load that comes
and goes touches both alike. Prints, per task (with its manifest size: cells, blocks, balls,
packages), ms per step (the median of ``--repeats``) and each model's ratio to the first, with the
geometric mean of the ratios over the tasks last.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import torch

from symt.models import resolve
from symt.pddl import ground, parse_domain, parse_problem
from symt.plangen.decoding import _best
from symt.plangen.planner import Planner, load_planner
from symt.plangen.vocab import ActionTokenIndex
from symt.tokens import EncodedTask, encode_task


def one_step(planner: Planner, encoded: EncodedTask, index: ActionTokenIndex) -> float:
    """Seconds for one regrounding step from the task's initial state."""
    task = encoded.task
    state = frozenset(task.init)
    applicable = [a for a in index.applicable(state) if task.apply(task.actions[a], state) != state]
    start = time.perf_counter()
    session = planner.session(encoded, state)
    logits = session.step(planner.vocab.bos)
    prefix: tuple[int, ...] = ()
    while True:
        token = _best(logits, index.allowed(applicable, prefix), planner.vocab)
        prefix += (token,)
        if index.complete(prefix) is not None:
            break
        logits = session.step(token)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset", type=Path, help="a `symt generate` folder (domain.pddl, manifest.json)")
    parser.add_argument("models", nargs="+", metavar="NAME=MODEL", help="a label and a plan-generator name or file")
    parser.add_argument("--split", default="extrapolation")
    parser.add_argument("--stride", type=int, default=20, help="every N-th task of the split (20)")
    parser.add_argument("--repeats", type=int, default=5, help="timed steps per model and task (5; the median)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    domain = parse_domain(args.dataset / "domain.pddl")
    manifest = json.loads((args.dataset / "manifest.json").read_text())
    entries = [entry for entry in manifest if entry["split"] == args.split][:: args.stride]
    labels = [spec.partition("=")[0] for spec in args.models]
    planners = [load_planner(resolve(spec.partition("=")[2])) for spec in args.models]
    print(f"{'task':>30} {'size':>5} " + " ".join(f"{label + ' ms':>14}" for label in labels)
          + "".join(f" {label + '/' + labels[0]:>14}" for label in labels[1:]))
    ratios: list[list[float]] = [[] for _ in planners]
    with torch.inference_mode():
        for entry in entries:
            task = ground(domain, parse_problem(args.dataset / entry["file"], domain))
            encoded = [encode_task(task, planner.signature, domain) for planner in planners]
            indices = [ActionTokenIndex(task, planner.vocab, enc.assignment) for planner, enc in zip(planners, encoded)]
            for planner, enc, index in zip(planners, encoded, indices):
                one_step(planner, enc, index)  # warm-up: first-call allocations
            times: list[list[float]] = [[] for _ in planners]
            for _ in range(args.repeats):
                for i, (planner, enc, index) in enumerate(zip(planners, encoded, indices)):
                    times[i].append(one_step(planner, enc, index))
            medians = [statistics.median(t) * 1000 for t in times]
            for i, value in enumerate(medians):
                ratios[i].append(value / medians[0])
            print(f"{entry['name']:>30} {entry.get('size', '-'):>5} " + " ".join(f"{m:>14.2f}" for m in medians)
                  + "".join(f" {m / medians[0]:>14.2f}" for m in medians[1:]), flush=True)
    geo = [math.exp(statistics.fmean(math.log(r) for r in rs)) for rs in ratios]
    print(f"geometric mean of the ratios over {len(entries)} tasks: "
          + ", ".join(f"{label}/{labels[0]} {g:.2f}" for label, g in zip(labels[1:], geo[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
