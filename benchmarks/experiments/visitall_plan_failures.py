"""Where a Visitall plan generator fails by regrounding (or a SymT-E by greedy guidance): outcomes
by grid shape and start cell, and whether the early loops depend on the object tokens.

Question it answers: of the Visitall tasks a SymT-ED does not solve by regrounding (the paper's
decoding: re-encode the state after each action, stop at the first revisited state), or a SymT-E
by greedy guidance (``--strategy greedy-guidance``, rows of ``eval_greedy.py --tasks-csv``), how many
loop at their third action (the robot steps back and forth at once), and from which kind of
start cell (corridor end or interior, grid corner, edge, inside) and grid shape? And with
``--draws K``, does a task that loops at action 3 still loop when the model reads the task under
K random object-token assignments instead of the canonical one (a token artefact or not)? And
with ``--corridors``, on the 1 x n tasks with a start inside the corridor: does the model's first
step head for the nearer end (what an optimal plan does), by how much nearer that end is?

Usage (from the repository root; CSV from ``plan_recipe.py --csv``)::

    .venv/bin/python benchmarks/experiments/plan_recipe.py data/visitall NAME=MODEL \\
        --strategies regrounding --splits extrapolation --csv runs/NAME.csv
    .venv/bin/python benchmarks/experiments/visitall_plan_failures.py data/visitall runs/NAME.csv \\
        [--model MODEL --draws 5 --max-tasks 20] [--model MODEL --corridors]

The shape and start come from the task files alone (``connected`` and ``at-robot`` atoms): a
grid of ``n`` cells and ``E`` undirected edges has ``rows + cols = 2n - E`` and ``rows * cols = n``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import math
import re
import sys
from pathlib import Path

import numpy as np
import torch

from symt.models import resolve
from symt.pddl import ground, parse_domain, parse_problem
from symt.plangen.decoding import filtered
from symt.plangen.planner import load_planner
from symt.tokens import encode_task

LOOP_AT_3 = re.compile(r"^loop: the state after (action|step) 3\b")
"""A decoder's (``symt.plangen.decoding``) or greedy guidance's (``symt.guidance``) reason for
stopping when the third action leads back to a state seen before."""


def shape_and_start(path: Path) -> tuple[tuple[int, int], str]:
    """The task's grid shape ``(rows, cols)`` and its start cell's kind, from the file."""
    init = path.read_text().split(":goal")[0]
    neighbours: dict[str, set[str]] = collections.defaultdict(set)
    for a, b in re.findall(r"\(connected\s+(\S+)\s+(\S+)\)", init):
        neighbours[a].add(b)
        neighbours[b].add(a)
    cells = set(re.findall(r"\(place\s+(\S+)\)", init))
    n, edges = len(cells), sum(len(v) for v in neighbours.values()) // 2
    total = 2 * n - edges  # rows + cols
    rows = (total - math.isqrt(max(total * total - 4 * n, 0))) // 2 if n > 1 else 1
    cols = n // rows
    start = re.search(r"\(at-robot\s+(\S+)\)", init)
    if start is None:
        raise SystemExit(f"error: {path}: no (at-robot ...) atom in the initial state")
    degree = len(neighbours[start.group(1)])
    kind = {0: "single cell", 1: "corridor end", 3: "edge", 4: "inside"}.get(degree, "")
    if degree == 2:
        kind = "corridor inside" if rows == 1 else "corner"
    return (rows, cols), kind


def corridor(path: Path) -> tuple[list[str], str] | None:
    """The cells of a 1 x n task in their order along the corridor and the start cell; None for
    another shape or a start at an end."""
    init = path.read_text().split(":goal")[0]
    neighbours: dict[str, set[str]] = collections.defaultdict(set)
    for a, b in re.findall(r"\(connected\s+(\S+)\s+(\S+)\)", init):
        neighbours[a].add(b)
        neighbours[b].add(a)
    ends = [cell for cell, near in neighbours.items() if len(near) == 1]
    if len(ends) != 2 or any(len(near) > 2 for near in neighbours.values()):
        return None
    order, previous = [ends[0]], None
    while len(order) < len(neighbours):
        step = next(cell for cell in neighbours[order[-1]] if cell != previous)
        previous = order[-1]
        order.append(step)
    start = re.search(r"\(at-robot\s+(\S+)\)", init)
    if start is None or start.group(1) in ends:
        return None
    return order, start.group(1)


def corridor_probe(dataset: Path, split: str, model: str, rows: list[dict[str, str]]) -> None:
    """For each corridor task with an inside start: the model's first step against the nearer end."""
    torch.set_num_threads(1)
    planner = load_planner(resolve(model))
    domain = parse_domain(dataset / "domain.pddl")
    buckets = [(0, 0, "equal"), (1, 4, "1-4"), (5, 15, "5-15"), (16, 10**9, "16+")]
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for row in rows:
        path = dataset / split / f"{row['task']}.pddl"
        found = corridor(path)
        if found is None:
            continue
        order, start = found
        position = order.index(start)
        left, right = position, len(order) - 1 - position  # cells to each end
        task = ground(domain, parse_problem(path, domain))
        result = filtered(planner, encode_task(task, planner.signature, domain), reground=True, max_tokens=12)
        first = task.actions[result.actions[0]].label().strip("()").split()[-1]
        toward_left = order.index(first) < position
        margin = abs(left - right)
        bucket = next(name for low, high, name in buckets if low <= margin <= high)
        table[bucket]["tasks"] += 1
        table[bucket]["nearer"] += margin > 0 and toward_left == (left < right)
        table[bucket]["solved"] += row["solved"] == "1"
        table[bucket]["loop"] += bool(LOOP_AT_3.match(row["reason"]))
    print(f"{'nearer end by':14s} {'tasks':>5s} {'first step to it':>16s} {'solved':>6s} {'loop at 3':>9s}")
    for _, _, name in buckets:
        counts = table[name]
        nearer = "-" if name == "equal" else str(counts["nearer"])
        print(f"{name + ' cells':14s} {counts['tasks']:5d} {nearer:>16s} {counts['solved']:6d} {counts['loop']:9d}")


def outcome(row: dict[str, str]) -> str:
    """``solved``, ``loop at 3`` or ``other failure``."""
    if row["solved"] == "1":
        return "solved"
    return "loop at 3" if LOOP_AT_3.match(row["reason"]) else "other failure"


def token_probe(dataset: Path, split: str, model: str, names: list[str], draws: int) -> None:
    """Decode each task again under ``draws`` random object-token assignments (seed 0)."""
    torch.set_num_threads(1)
    planner = load_planner(resolve(model))
    domain = parse_domain(dataset / "domain.pddl")
    rng = np.random.default_rng(0)
    solved_any = solved = looped = 0
    for name in names:
        task = ground(domain, parse_problem(dataset / split / f"{name}.pddl", domain))
        marks = []
        for _ in range(draws):
            encoded = encode_task(task, planner.signature, domain)
            # The canonical assignment is a cached property; a random draw replaces it.
            encoded.__dict__["assignment"] = rng.permutation(planner.vocab.vocab_size)[: encoded.num_objects]
            result = filtered(planner, encoded, reground=True)
            marks.append("S" if result.solved else "L" if LOOP_AT_3.match(result.reason) else "o")
        solved += marks.count("S")
        looped += marks.count("L")
        solved_any += "S" in marks
        print(f"  {name:34s} {' '.join(marks)}", flush=True)
    print(f"{len(names)} tasks that loop at action 3 under the canonical tokens, {draws} random token "
          f"draws each: {solved} of {len(names) * draws} decodes solve, {looped} loop at action 3 again; "
          f"{solved_any} tasks solved by some draw")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="a `symt generate visitall` folder")
    parser.add_argument("csv", type=Path, help="per-task rows of plan_recipe.py --csv")
    parser.add_argument("--label", help="the CSV's model label to read (default: its first)")
    parser.add_argument("--split", default="extrapolation", help="the split to read (extrapolation)")
    parser.add_argument("--strategy", default="regrounding",
                        help="the CSV's strategy to read (greedy-guidance: eval_greedy.py --tasks-csv)")
    parser.add_argument("--model", help="with --draws: the plan-generator file or name the CSV measured")
    parser.add_argument("--draws", type=int, default=0, help="random token assignments per looping task")
    parser.add_argument("--max-tasks", type=int, default=20, help="looping tasks the probe decodes")
    parser.add_argument("--corridors", action="store_true",
                        help="with --model: first steps on corridors against the nearer end")
    args = parser.parse_args(argv)
    with args.csv.open() as handle:
        rows = [r for r in csv.DictReader(handle)
                if r["split"] == args.split and r["strategy"] == args.strategy]
    if not rows:
        print(f"error: {args.csv}: no {args.strategy} rows of the {args.split} split", file=sys.stderr)
        return 2
    label = args.label or rows[0]["model"]
    rows = [r for r in rows if r["model"] == label]
    table: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for row in rows:
        (grid_rows, _), kind = shape_and_start(args.dataset / args.split / f"{row['task']}.pddl")
        shape = "1 x n" if grid_rows == 1 else "2 x n" if grid_rows == 2 else "3+ rows"
        table[(shape, kind)][outcome(row)] += 1
    print(f"{label}: {args.strategy} on the {len(rows)} {args.split} tasks of {args.dataset}, by grid and start cell\n")
    print(f"{'grid':8s} {'start':16s} {'tasks':>5s} {'solved':>6s} {'loop at 3':>9s} {'other':>5s}")
    for (shape, kind), counts in sorted(table.items()):
        print(f"{shape:8s} {kind:16s} {sum(counts.values()):5d} {counts['solved']:6d} "
              f"{counts['loop at 3']:9d} {counts['other failure']:5d}")
    totals = collections.Counter(outcome(r) for r in rows)
    print(f"{'all':25s} {len(rows):5d} {totals['solved']:6d} {totals['loop at 3']:9d} {totals['other failure']:5d}")
    if (args.draws or args.corridors) and not args.model:
        parser.error("--draws and --corridors need --model")
    if (args.draws or args.corridors) and args.strategy != "regrounding":
        parser.error("--draws and --corridors decode with a plan generator: --strategy regrounding only")
    if args.corridors:
        print()
        corridor_probe(args.dataset, args.split, args.model, rows)
    if args.draws:
        print()
        token_probe(args.dataset, args.split, args.model, [r["task"] for r in rows if LOOP_AT_3.match(r["reason"])][: args.max_tasks],
                    args.draws)
    return 0


if __name__ == "__main__":
    sys.exit(main())
