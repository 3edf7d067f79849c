"""Argument types and option groups that several ``symt`` commands share: checked integers, numbers,
counts and memory limits (one ``symt: error:`` line, exit 2, for a bad value), and the trainers' and
dataset builders' common options."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

MANIFEST_MAX_STATES = 1_000_000


# The C++ expander takes state counts as 64-bit sizes; anything larger is refused at parse time.
MAX_COUNT = 2**62


def int_in(low: int, high: int = MAX_COUNT) -> object:
    """An argparse type: an integer in [low, high], else one ``symt: error:`` line (exit 2)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got '{text}'") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low:,} (got {value:,})")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,} (got {value:,})")
        return value
    return parse


def machine_count(what: str) -> object:
    """An argparse type: a count of ``what`` (threads, processes) from 1 to this machine's cores;
    more gains nothing and, for threads, crashed torch (issue 36: ``--threads 99999``)."""
    cores = os.cpu_count() or 1

    def parse(text: str) -> int:
        value = int_in(1)(text)  # type: ignore[operator]
        if value > cores:
            raise argparse.ArgumentTypeError(f"at most {cores} {what} on this machine, which has {cores} "
                                             f"cores (got {value:,})")
        return value
    return parse


MIN_MEMORY_MIB = 256
"""Below this, Fast Downward cannot even load its translator: every run would fail to start."""


def memory_limit(text: str) -> int:
    """An argparse type: MiB per run, from :data:`MIN_MEMORY_MIB` to this machine's memory."""
    value = int_in(1)(text)  # type: ignore[operator]
    if value < MIN_MEMORY_MIB:
        raise argparse.ArgumentTypeError(f"must be at least {MIN_MEMORY_MIB} MiB: Fast Downward does not start "
                                         f"with less (got {value:,})")
    total = _machine_memory_mib()
    if total is not None and value > total:
        raise argparse.ArgumentTypeError(f"this machine has {total:,} MiB (got {value:,})")
    return value


def _machine_memory_mib() -> int | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return pages * size // 2**20 if pages > 0 and size > 0 else None


def float_in(low: float, high: float = math.inf, low_open: bool = False, high_open: bool = False) -> object:
    """An argparse type: a finite number in the interval, else one ``symt: error:`` line (exit 2)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
        below = value <= low if low_open else value < low
        above = value >= high if high_open else value > high
        if not math.isfinite(value) or below or above:
            left, right = "(" if low_open else "[", ")" if high_open or high == math.inf else "]"
            raise argparse.ArgumentTypeError(f"must lie in {left}{low:g}, {high:g}{right} (got {text})")
        return value
    return parse


def add_training_options(p: argparse.ArgumentParser, *, out: str, sample: str, lr: str, rename: str,
                         loss: str, ramp_steps: int) -> None:
    """The options both trainers share (symt.training.base.TrainerBase), with each trainer's defaults
    in the help texts; each command adds its own loss and model options after these."""
    p.add_argument("domain", help="blocksworld, gripper, logistics, visitall, or a dataset folder")
    p.add_argument("--out", type=Path, help=f"run folder (default {out})")
    p.add_argument("--preset", default="small", help="model size: small (CPU), medium, paper")
    p.add_argument("--resume", action="store_true", help="continue the interrupted run in --out")
    p.add_argument("--steps", type=int_in(1), help="optimisation steps (6000)")
    p.add_argument("--batch-size", type=int_in(1), help=f"{sample} per batch, before the renamed copy (32)")
    p.add_argument("--lr", type=float_in(0, low_open=True), help=f"peak learning rate ({lr})")
    p.add_argument("--warmup", type=int_in(0), help="linear warm-up steps (200)")
    p.add_argument("--weight-ema", type=float_in(0, 1, high_open=True), metavar="DECAY",
                   help="validate, choose best.pt and export with an exponential moving average of the "
                   "weights with this decay (e.g. 0.998; warmed up as min(DECAY, (1+n)/(10+n)) after n "
                   "steps); training steps the weights themselves (0: off, the paper's)")
    p.add_argument("--rename", choices=["rename-one", "rename-both"], help=f"pair renaming mode ({rename})")
    p.add_argument("--no-contrastive", action="store_true", help=f"{loss} only (the paper's ablation)")
    p.add_argument("--schedule", choices=["after-plateau", "always"],
                   help="when the contrastive terms start: after-plateau (default) or always (the paper)")
    p.add_argument("--w-att", type=float_in(0), help="weight of L_att (1)")
    p.add_argument("--w-hid", type=float_in(0), help="weight of L_hid (1)")
    p.add_argument("--ramp-steps", type=int_in(0), help=f"steps of the contrastive ramp ({ramp_steps})")
    p.add_argument("--eval-every", type=int_in(1), help="steps per epoch (validation + checkpoint) (500)")
    p.add_argument("--time-budget", type=float_in(0), metavar="SECONDS",
                   help="wall-clock budget of the training loop (dataset loading excluded): after each "
                   "epoch the run is cut to the whole epochs that still fit at the measured pace, and "
                   "the learning-rate schedule ends there; --steps stays the upper bound (0: none)")
    p.add_argument("--coverage-tasks", type=int_in(0), help="validation tasks for greedy coverage (30)")
    p.add_argument("--coverage-search", choices=["greedy", "gbfs"],
                   help="validation coverage by the paper's greedy guidance (default) or by greedy best-first "
                   "search within --coverage-expansions, fewer expansions breaking ties between epochs")
    p.add_argument("--coverage-expansions", type=int_in(1), help="--coverage-search gbfs: expansions per task (1000)")
    p.add_argument("--vocab-size", type=int_in(1), help="object vocabulary size (123)")
    p.add_argument("--seed", type=int_in(0), default=0, help="training seed (0)")
    p.add_argument("--data-seed", type=int_in(0), default=0, help="dataset seed when generating (0)")
    p.add_argument("--device", help="auto (CUDA when present), cpu, cuda, cuda:1")
    p.add_argument("--threads", type=machine_count("threads"), help="torch intra-op threads (default: torch's choice)")
    p.add_argument("--workers", type=int_in(0),
                   help="processes that make batches ahead of training (default: none on a CPU, all "
                   "cores but two on a GPU)")
    p.add_argument("--precision", choices=["auto", "bf16", "fp32"],
                   help="forward-pass precision: auto (default: bf16 autocast on a GPU, fp32 on a CPU), "
                   "bf16, fp32; weights and optimiser state stay fp32")
    p.add_argument("--compile", action="store_true", default=None,
                   help="torch.compile the training forward pass (pays off on a GPU in long runs)")
    p.add_argument("--length-buckets", type=int_in(1), metavar="K",
                   help="draw each batch's training tasks from one of K groups of tasks of similar "
                   "length: less padding on a GPU, the same distribution of samples (1: the paper's draw)")
    p.add_argument("--d-model", type=int_in(1), help="override the preset's width")
    p.add_argument("--n-heads", type=int_in(1), help="override the preset's heads")
    p.add_argument("--n-layers", type=int_in(1), help="override the preset's depth (shared layer repeats)")
    p.add_argument("--d-ff", type=int_in(1), help="override the preset's feed-forward width")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def add_dataset_options(p: argparse.ArgumentParser) -> None:
    """The options `symt dataset` and `symt ipc-dataset` share."""
    p.add_argument("--max-states", type=int_in(1), default=1_000_000, metavar="N",
                   help="skip training problems with more states (1,000,000)")
    p.add_argument("--validation", type=int_in(0), metavar="K",
                   help="the K largest expandable problems are held out for validation (default: a "
                   "quarter of them, 1 to 4; none when there is only one)")
    p.add_argument("--plan-time", type=int_in(0), default=30, metavar="S",
                   help="label problems too large to expand by a plan: seconds per Fast Downward "
                   "search, A* with LM-cut first, then lama-first (30; 0: skip them)")
    p.add_argument("--processes", type=machine_count("processes"), default=2, help="Fast Downward runs in parallel (2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
