"""Parse time of the largest PDDL files in the shared benchmark sets.

Usage: .venv/bin/python benchmarks/speed/bench_parse.py [--top N] [--out benchmarks/results/speed/parse.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from symt.pddl import parse_domain, parse_problem

ROOT = Path(__file__).resolve().parents[2]
IPC = ROOT / ".." / "shared" / "benchmarks" / "ipc2023-learning"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=8, help="how many of the largest files")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "speed" / "parse.md")
    args = parser.parse_args()

    problems = sorted(IPC.glob("*/*/*/*.pddl"), key=lambda p: p.stat().st_size, reverse=True)
    rows = []
    for path in problems[: args.top]:
        domain = parse_domain(path.parents[2] / "domain.pddl")
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            problem = parse_problem(path, domain)
            best = min(best, time.perf_counter() - start)
        size_mb = path.stat().st_size / 1e6
        rows.append((str(path.relative_to(IPC)), size_mb, len(problem.init), best))

    start = time.perf_counter()
    count = 0
    for domain_dir in sorted(p for p in IPC.iterdir() if (p / "domain.pddl").exists()):
        domain = parse_domain(domain_dir / "domain.pddl")
        for path in sorted(domain_dir.glob("*/*/*.pddl")):
            parse_problem(path, domain)
            count += 1
    total = time.perf_counter() - start

    lines = [
        "# PDDL parse time",
        "",
        f"Command: `.venv/bin/python benchmarks/speed/bench_parse.py --top {args.top} --repeat {args.repeat}`",
        "",
        "Largest IPC 2023 learning-track problem files (best of "
        f"{args.repeat}, lark LALR s-expression parse + STRIPS-fragment interpretation):",
        "",
        "| file | MB | init atoms | seconds | MB/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, size_mb, atoms, seconds in rows:
        lines.append(f"| {name} | {size_mb:.2f} | {atoms} | {seconds:.2f} | {size_mb / seconds:.2f} |")
    lines += ["", f"All {count} IPC problem files (and their domains): {total:.1f} s.", ""]
    text = "\n".join(lines)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
