"""Training throughput of SymT-E on this machine's CPU (small preset), with and without the
contrastive terms.

Usage: .venv/bin/python benchmarks/speed/bench_training.py [--domain gripper] [--steps 300] [--threads 1]

Counts training samples per second (states, not counting the renamed copy X'), after a short
warm-up, for: MSE only on X (no pairs), pairs with the contrastive terms active from the first
step (the paper's loss). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

import torch

from symt.training.config import TrainConfig
from symt.training.trainer import Trainer


def throughput(data: Path, steps: int, threads: int, contrastive: bool) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        config = TrainConfig(data=str(data), out=out, steps=steps + 20, eval_every=10**9,
                             contrastive=contrastive, schedule="always", threads=threads, device="cpu")
        trainer = Trainer(config, progress=False)
        for step in range(20):  # warm-up: allocator, thread pools
            trainer.train_step(step)
        start = time.perf_counter()
        for step in range(20, steps + 20):
            trainer.train_step(step)
        seconds = time.perf_counter() - start
        return steps * config.batch_size / seconds, trainer.model.num_parameters()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="gripper")
    parser.add_argument("--data", type=Path, help="dataset folder (default data/<domain>)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    data = args.data or Path("data") / args.domain
    rows = []
    for label, contrastive in (("MSE only", False), ("MSE + L_att + L_hid (pairs)", True)):
        rate, params = throughput(data, args.steps, args.threads, contrastive)
        rows.append(f"| {args.domain} | small ({params:,} params) | {label} | {args.threads} | {rate:,.0f} |")
    print(f"CPU: {platform.processor() or platform.machine()}, torch {torch.__version__}, "
          f"command: `.venv/bin/python benchmarks/speed/bench_training.py --domain {args.domain} "
          f"--steps {args.steps} --threads {args.threads}`\n")
    print("| domain | preset | loss | threads | samples/s |\n|---|---|---|--:|--:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
