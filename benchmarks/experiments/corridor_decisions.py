"""How far along a Visitall corridor does a learned heuristic see? Decisions on 1 × n states.

Question it answers: greedy guidance fails on Visitall's 1 × n corridors with the start inside
(recipe study, rounds 22-25): is that because the model cannot tell which end of the corridor is
nearer once that end is more than a few cells away (a limit of reach: one attention or WL step
relates neighbouring cells), or something else? For corridors of each size ``n``, every state
the robot can be in (robot at one end of the visited stretch ``[a, b]``, or alone on its start
cell) whose two successors differ in h*, a fixed-seed sample of at most ``--states`` of them: does
the successor the model values lower have the lower h*? Reported for all sampled states and for
the *early* ones (at most three cells visited), where the right move is towards the nearer end
of the corridor, split by that end's distance ``d`` from the robot.

h* of a corridor state is closed-form (cells ``0..n-1``, robot at ``r``, visited ``[a, b]``): 0
when everything is visited; ``n-1-r`` or ``r`` when only one side has unvisited cells; else
``n - 1 + min(r, n - 1 - r)`` (walk to the nearer end, then to the other). The tasks are written
here (cells ``c0..c{n-1}`` in order; the model's object tokens are drawn as for any task).

Usage (from the repository root)::

    .venv/bin/python benchmarks/experiments/corridor_decisions.py --model visitall-shared \\
        --sizes 10 16 20 30 [--layers L (a checkpoint)] [--wl] [--label LABEL (Markdown rows)]

``--model``: a shipped model's name, an exported file or a training checkpoint (``best.pt``);
with ``--wl`` a WL baseline model (``wl/NAME`` or a file), valued through WLPlan.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "training"))
from eval_greedy import WLEvaluator, model_file  # noqa: E402
from symt.export import load_exported  # noqa: E402
from symt.generators import domain_file  # noqa: E402
from symt.guidance import exported_state_evaluator  # noqa: E402
from symt.models import resolve_wl  # noqa: E402
from symt.pddl import ground, parse_domain, parse_problem  # noqa: E402
from symt.pddl.task import GroundTask  # noqa: E402
from symt.wl import WLModel  # noqa: E402

BUCKETS = ((0, 3, "d <= 3"), (4, 7, "d 4-7"), (8, 10**9, "d >= 8"))


def corridor_problem(n: int) -> str:
    """A 1 × n Visitall task, cells c0..c{n-1} in order, the robot on c0 (the states are set here)."""
    cells = [f"c{i}" for i in range(n)]
    links = " ".join(f"(connected c{i} c{i + 1}) (connected c{i + 1} c{i})" for i in range(n - 1))
    return (f"(define (problem corridor-{n}) (:domain grid-visit-all) (:objects {' '.join(cells)})\n"
            f"  (:init (at-robot c0) (visited c0) {' '.join(f'(place {c})' for c in cells)} {links})\n"
            f"  (:goal (and {' '.join(f'(visited {c})' for c in cells)})))\n")


def hstar(n: int, r: int, a: int, b: int) -> int:
    """The goal distance of the corridor state: robot at ``r``, cells ``a..b`` visited."""
    left, right = a > 0, b < n - 1
    if not left and not right:
        return 0
    if not left:
        return n - 1 - r
    if not right:
        return r
    return n - 1 + min(r, n - 1 - r)


def state(task: GroundTask, r: int, a: int, b: int) -> frozenset[int]:
    """The fluent indices of the corridor task's state: robot at ``r``, cells ``a..b`` visited."""
    return frozenset([task.fluent_index[("at-robot", (f"c{r}",))]]
                     + [task.fluent_index[("visited", (f"c{c}",))] for c in range(a, b + 1)])


def successors(n: int, r: int, a: int, b: int) -> list[tuple[int, int, int]]:
    """(r, a, b) of the states one move from the robot at ``r`` with cells ``a..b`` visited."""
    return [(m, min(a, m), max(b, m)) for m in (r - 1, r + 1) if 0 <= m < n]


def decision_states(n: int, limit: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """(r, a, b) of reachable non-goal states, shuffled, at most ``limit`` with successors that differ in h*."""
    cases = [(r, a, b) for a in range(n) for b in range(a, n) if (a, b) != (0, n - 1)
             for r in sorted({a, b})]
    rng.shuffle(cases)
    chosen = []
    for r, a, b in cases:
        if len({hstar(n, *s) for s in successors(n, r, a, b)}) > 1:
            chosen.append((r, a, b))
        if len(chosen) == limit:
            break
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 16, 20, 30])
    parser.add_argument("--states", type=int, default=300, help="states per size (300)")
    parser.add_argument("--layers", type=int, help="a checkpoint's shared layer applied this many times")
    parser.add_argument("--wl", action="store_true", help="--model is a WL baseline model")
    parser.add_argument("--label", help="print Markdown rows with this model label instead of a table")
    args = parser.parse_args()
    torch.set_num_threads(1)
    domain = parse_domain(domain_file("visitall"))
    rng = random.Random(0)
    if not args.label:
        print(f"{'n':>4s} {'states':>6s} {'optimal':>7s} {'early':>5s} {'optimal':>7s}  "
              + "  ".join(f"{name:>9s}" for _, _, name in BUCKETS))
    with tempfile.TemporaryDirectory() as work:
        if args.wl:
            wl = WLModel(Path(resolve_wl(args.model)))
        else:
            module, meta = load_exported(str(model_file(args.model, Path(work), args.layers)))
        for n in args.sizes:
            path = Path(work) / f"corridor-{n}.pddl"
            path.write_text(corridor_problem(n))
            problem = parse_problem(path, domain)
            task = ground(domain, problem)
            if args.wl:
                evaluate = WLEvaluator(wl, wl.set_task(domain, problem), task)
            else:
                evaluate = exported_state_evaluator(module, meta, domain, task, str(path))

            right = total = early_right = early = 0
            buckets = {name: [0, 0] for _, _, name in BUCKETS}
            for r, a, b in decision_states(n, args.states, rng):
                moves = successors(n, r, a, b)
                costs = [hstar(n, *s) for s in moves]
                values = evaluate([state(task, *s) for s in moves])
                good = costs[int(np.argmin(values))] == min(costs)
                total += 1
                right += good
                if b - a <= 2:
                    early += 1
                    early_right += good
                    near = min(r, n - 1 - r)
                    name = next(name for low, high, name in BUCKETS if low <= near <= high)
                    buckets[name][0] += good
                    buckets[name][1] += 1
            counts = [f"{ok}/{count}" for ok, count in buckets.values()]
            if args.label:
                print(f"| {args.label} | {n} | {right / total:.2f} | {early_right / max(early, 1):.2f} | "
                      + " | ".join(counts) + " |")
            else:
                cells = "  ".join(f"{c:>9s}" for c in counts)
                print(f"{n:4d} {total:6d} {right / total:7.2f} {early:5d} {early_right / max(early, 1):7.2f}  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
