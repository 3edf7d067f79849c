"""Write Logistics tasks larger than any the expander can label, for plan-labelled training (issue 32).

The held-out Logistics tasks of another generator have 7-15 packages, where exhaustive labels stop at
5-6. This writes tasks of symt's own generator (``symt.generators.logistics``, never the held-out
generator) at those sizes, in the paper's shape and in the three other styles, so that
``symt dataset`` can label them by Fast Downward plans beside the paper's training tasks:

    python benchmarks/experiments/robustness/logistics_plan_tasks.py --out data/logistics-large-tasks
    symt dataset data/logistics/domain.pddl data/logistics/train data/logistics/validation \
        data/logistics-large-tasks --out data/logistics-plans --plan-time 20 --processes 1

Each task is a pure function of (--seed, style, packages, index); the seed is not the paper
dataset's (0), and tasks are kept distinct up to renaming by the generator's canonical key.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from symt.generators import logistics
from symt.generators._problem import render

SIZES: dict[str, tuple[int, ...]] = {
    "paper": (8, 10, 12),
    "wide": (6, 8, 10, 12),
    "three-cities": (7, 9, 11),
    "two-airplanes": (7, 9, 11),
}
"""Packages per style: the held-out range (7-15) below its largest sizes, which stay unseen."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the problem files (new)")
    parser.add_argument("--per-size", type=int, default=2, help="tasks per style and size (2)")
    parser.add_argument("--seed", type=int, default=32, help="generator seed (32; the paper data's is 0)")
    args = parser.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} exists and is not empty; choose another --out")
    args.out.mkdir(parents=True, exist_ok=True)
    seen: set = set()
    for style, sizes in SIZES.items():
        for packages in sizes:
            rng = random.Random(f"{args.seed}-{style}-{packages}")
            written = 0
            while written < args.per_size:
                problem = logistics.generate(packages, rng, style)
                if problem.key in seen:
                    continue
                seen.add(problem.key)
                name = f"logistics-{style}-n{packages}-{written}"
                (args.out / f"{name}.pddl").write_text(render(problem, logistics.PDDL_DOMAIN, name, rng))
                written += 1
    print(f"{len(seen)} tasks in {args.out}")


if __name__ == "__main__":
    main()
