"""Benchmark of the C++ state-space expander against the pure-Python reference BFS.

Grounds each task through ``symt.pddl.ground`` (problem files are written to a temporary
directory by this script), expands it with ``symt.statespace.expand`` (forward BFS + backward
BFS for h* + optimal-plan counts), and runs ``python_reference_bfs`` (forward BFS + h*) on the
same grounded task in the same process. The Python BFS runs on the full task when a short
probe predicts it finishes within ``--python-budget`` seconds; otherwise it runs on a prefix
capped at the number of states the budget allows and its rate (states discovered per second)
is measured there. Writes a Markdown table to ``--output`` (default
benchmarks/results/speed/expander.md) including the exact command line.

Usage::

    python benchmarks/speed/bench_expander.py [--tasks blocksworld-8 visitall-4x5] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from symt.errors import StateLimitError
from symt.generators.blocksworld import tower_reversal_problem
from symt.pddl import GroundTask, ground
from symt.statespace import expand, python_reference_bfs

REPO = Path(__file__).resolve().parents[2]
DOMAINS = REPO.parent / "shared" / "domains"


def visitall_problem(rows: int, cols: int) -> str:
    """A rows x cols grid, 4-connected; the robot starts (visited) in a corner; goal: all visited."""
    places = [f"p{r}-{c}" for r in range(rows) for c in range(cols)]
    connected = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    connected.append(f"(connected p{r}-{c} p{r + dr}-{c + dc})")
    init = ["(at-robot p0-0)", "(visited p0-0)"] + [f"(place {p})" for p in places] + connected
    goal = [f"(visited {p})" for p in places]
    return (
        f"(define (problem visitall-{rows}x{cols}) (:domain grid-visit-all)\n"
        f"  (:objects {' '.join(places)})\n"
        f"  (:init {' '.join(init)})\n"
        f"  (:goal (and {' '.join(goal)})))\n"
    )


TASKS: dict[str, tuple[str, Callable[[], str]]] = {
    "blocksworld-6": ("blocksworld.pddl", lambda: tower_reversal_problem(6)),
    "blocksworld-7": ("blocksworld.pddl", lambda: tower_reversal_problem(7)),
    "blocksworld-8": ("blocksworld.pddl", lambda: tower_reversal_problem(8)),
    "visitall-4x4": ("visitall.pddl", lambda: visitall_problem(4, 4)),
    "visitall-4x5": ("visitall.pddl", lambda: visitall_problem(4, 5)),
}


def time_python(task: GroundTask, budget: float, probe_states: int) -> tuple[str, int, float]:
    """Runs the Python BFS in full or on a capped prefix; returns (mode, states, seconds)."""
    start = time.perf_counter()
    try:
        states, _, _ = python_reference_bfs(task, max_states=probe_states)
        return "full", states, time.perf_counter() - start
    except StateLimitError:
        probe_seconds = time.perf_counter() - start
    rate = probe_states / probe_seconds
    cap = max(probe_states, int(rate * budget))
    start = time.perf_counter()
    try:
        states, _, _ = python_reference_bfs(task, max_states=cap)
        return "full", states, time.perf_counter() - start
    except StateLimitError:
        return f"prefix ({cap:,} states, no h*)", cap, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tasks", nargs="+", default=["blocksworld-8", "visitall-4x5"], choices=sorted(TASKS)
    )
    parser.add_argument("--repeats", type=int, default=3, help="C++ runs per task (median)")
    parser.add_argument(
        "--python-budget",
        type=float,
        default=180.0,
        help="seconds the Python BFS may take per task before it is capped",
    )
    parser.add_argument("--probe-states", type=int, default=20_000)
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks/results/speed/expander.md")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory(prefix="symt-bench-") as tmp:
        for name in args.tasks:
            domain_file, make_problem = TASKS[name]
            problem = Path(tmp) / f"{name}.pddl"
            problem.write_text(make_problem())
            task = ground(DOMAINS / domain_file, problem)
            runs = [expand(task) for _ in range(args.repeats)]
            space = runs[-1]
            cpp_seconds = statistics.median(r.seconds for r in runs)
            cpp_rate = space.num_states / cpp_seconds
            print(
                f"{name}: C++ {space.num_states:,} states, {space.num_transitions:,} "
                f"transitions, h*(init)={space.hstar[0]:g}, {cpp_seconds:.3f} s",
                flush=True,
            )
            mode, py_states, py_seconds = time_python(task, args.python_budget, args.probe_states)
            py_rate = py_states / py_seconds
            print(f"{name}: Python {mode}: {py_states:,} states in {py_seconds:.1f} s", flush=True)
            rows.append(
                f"| {name} | {len(task.actions)} | {task.num_fluents} | {space.num_states:,} "
                f"| {space.num_transitions:,} | {space.hstar[0]:g} | {cpp_seconds:.3f} "
                f"| {cpp_rate:,.0f} | {space.bytes_per_state:.1f} "
                f"| {space.memory_bytes / 2**20:.1f} | {mode} | {py_seconds:.1f} "
                f"| {py_rate:,.0f} | {cpp_rate / py_rate:,.0f}x |"
            )

    interpreter = sys.executable
    if Path(interpreter).is_relative_to(REPO):
        interpreter = os.path.relpath(interpreter, REPO)
    argv = [interpreter, os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]]
    command = " ".join(shlex.quote(a) for a in argv)
    if os.environ.get("PYTHONPATH"):
        command = f"PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])} {command}"
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    table = "\n".join(
        [
            "| task | actions | fluents | states | transitions | h*(init) | C++ s | C++ states/s "
            "| bytes/state | C++ MiB total | Python run | Python s | Python states/s | speed-up |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|",
            *rows,
        ]
    )
    report = f"""# State-space expander benchmark

Command (from the repository root): `{command}`

Machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}.

{table}

- *C++ s*: median over {args.repeats} runs of `expand()` wall time: forward BFS, backward BFS
  for h*, and the optimal-plan counts used by the sampler (grounding excluded).
- *bytes/state*: packed states plus the dedup hash table (at its final size), per state.
  *C++ MiB total* adds the transition graph, h*, layers and plan counts.
- *Python*: `python_reference_bfs` on the same grounded task in the same process (frozenset
  states, dict dedup, loop over all actions; forward BFS + backward BFS for h* when "full").
  When a {args.probe_states:,}-state probe predicts more than {args.python_budget:g} s, it runs
  on a prefix capped at the states the budget allows, and its rate is states discovered per
  second on that prefix ("prefix").
- *speed-up*: C++ states/s divided by Python states/s.
"""
    print()
    print(report)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(report)


if __name__ == "__main__":
    main()
