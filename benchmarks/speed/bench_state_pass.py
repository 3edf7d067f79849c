"""How a learned heuristic's cost per state grows with the state's fluent atoms (issue 65).

``bench_scaling.py`` times whole searches, whose states stay near the initial state. This takes
the states of a random walk from a task's initial state (the states a long plan passes through:
on Visitall a state's fluent atoms are its visited cells) and times one state's pass through an
exported model, as the plugin makes it in lazy search: the task's context encoded once, then one
state per forward pass (TorchScript, process CPU time, one thread). Per walk length it prints the
state's fluent atoms, µs per state and the operator calls of one pass (``torch.profiler``, nested
calls and views included), and last a least-squares line: µs per state = fixed + slope × atoms.

Usage (from the repository root; ``--visitall N``: an N×N grid of the generator's, as in
``bench_scaling.py``, in place of ``--domain`` and ``--problem``)::

    .venv/bin/python benchmarks/speed/bench_state_pass.py --model visitall-objects --visitall 32 \\
        --walk 0 300 1000 3000

``--baseline MODEL`` times a second model on the same states in the same run, the two in
alternating rounds (so that a load on the machine falls on both), and adds its µs and the ratio.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from symt.export import load_exported
from symt.guidance import exported_state_evaluator
from symt.models import shipped
from symt.pddl import parse_domain
from symt.pddl.grounding import ground
from symt.tokens import collate

# The grids and the random walks have their homes in sibling scripts.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scaling import square_visitall  # noqa: E402
from context_cache import random_walk  # noqa: E402

VISITALL_DOMAIN = Path(__file__).resolve().parents[2] / "python" / "symt" / "generators" / "domains" / "visitall.pddl"


def add_task_arguments(parser: argparse.ArgumentParser) -> None:
    """The task's options: ``--domain`` and ``--problem``, or ``--visitall N``."""
    parser.add_argument("--domain", type=Path)
    parser.add_argument("--problem", type=Path)
    parser.add_argument("--visitall", type=int, metavar="N", help="an N×N Visitall grid (no --domain, --problem)")


def resolve_task(parser: argparse.ArgumentParser, args: argparse.Namespace, workdir: Path) -> None:
    """Sets ``args.domain`` and ``args.problem``: as given, or the generator's N×N Visitall grid
    (seed ``args.seed``) written into ``workdir``; one of the two ways, else a usage error."""
    if (args.visitall is None) == (args.domain is None or args.problem is None):
        parser.error("give --visitall N, or --domain and --problem")
    if args.visitall is not None:
        args.domain = VISITALL_DOMAIN
        args.problem = square_visitall(args.visitall, args.seed, workdir)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a shipped model's name or an exported file")
    add_task_arguments(parser)
    parser.add_argument("--walk", type=int, nargs="+", default=[0, 100, 300, 1000],
                        help="random-walk lengths (actions from the initial state; fewer where a state has "
                        "none applicable): one state each")
    parser.add_argument("--repeats", type=int, default=200, help="timed passes per state")
    parser.add_argument("--baseline", help="a second model (name or file) timed on the same states, alternating")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    workdir = tempfile.TemporaryDirectory(prefix="symt-pass-")  # removed at exit
    resolve_task(parser, args, Path(workdir.name))
    torch.set_num_threads(1)
    domain = parse_domain(args.domain)
    task = ground(domain, args.problem)
    evaluators = []
    for name in [args.model] + ([args.baseline] if args.baseline else []):
        module, meta = load_exported(shipped().get(name, name))
        evaluators.append(exported_state_evaluator(module, meta, domain, task, where=str(args.problem)))
    evaluator = evaluators[0]
    against = f", baseline {args.baseline}" if args.baseline else ""
    print(f"model {args.model}{against}, task {args.problem.name}, torch {torch.__version__}, one thread")
    if args.baseline:
        print("| walk | fluent atoms | µs per state | operator calls | baseline µs | ratio |\n|--:|--:|--:|--:|--:|--:|")
    else:
        print("| walk | fluent atoms | µs per state | operator calls |\n|--:|--:|--:|--:|")
    points = []
    rounds = 5
    per_round = max(1, args.repeats // rounds)
    for steps in args.walk:
        state = random_walk(task, steps + 1, args.seed)[-1]
        inputs = [collate([e.rows(state)], e.vocab_size) for e in evaluators]
        seconds = [0.0] * len(evaluators)
        with torch.inference_mode():
            for e, (pred, args_, mask) in zip(evaluators, inputs):
                for _ in range(10):
                    e.evaluate(pred, args_, mask)
            for _ in range(rounds):
                for i, (e, (pred, args_, mask)) in enumerate(zip(evaluators, inputs)):
                    start = time.process_time()
                    for _ in range(per_round):
                        e.evaluate(pred, args_, mask)
                    seconds[i] += time.process_time() - start
            with profile(activities=[ProfilerActivity.CPU]) as profiled:
                evaluator.evaluate(*inputs[0])
        micros = [s / (rounds * per_round) * 1e6 for s in seconds]
        calls = sum(event.count for event in profiled.key_averages())
        atoms = int(inputs[0][2].sum())
        points.append((atoms, micros[0]))
        row = f"| {steps} | {atoms} | {micros[0]:,.0f} | {calls:,} |"
        if args.baseline:
            row += f" {micros[1]:,.0f} | {micros[0] / micros[1]:.2f} |"
        print(row)
    if len({a for a, _ in points}) > 1:
        slope, fixed = np.polyfit([a for a, _ in points], [m for _, m in points], 1)
        print(f"\nµs per state ≈ {fixed:,.0f} + {slope:.1f} × fluent atoms (least squares over {len(points)} states)")


if __name__ == "__main__":
    main()
