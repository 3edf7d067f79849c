"""Training throughput of SymT-E and SymT-ED on a GPU (issue 34): is the card kept busy?

For each configuration (model kind, preset, batch size) this builds the real trainer of `symt
train` / `symt train-plans` on a dataset, takes a few warm-up steps (worker start, cuBLAS
handles, autotuning), then times whole training steps (batch fetch, forward and backward of both
renamed copies with the contrastive terms on, AdamW) for about ``--seconds``. It reports:

* samples/s (sampled states per second; each brings its renamed copy and, for SymT-E with the
  ranking loss, two siblings) and tokens/s (real atom tokens; padded tokens in brackets);
* achieved TFLOP/s: the floating-point operations of one step counted by torch's own
  ``FlopCounterMode`` (matrix products and attention, forward and backward) over the measured
  step time, and MFU, its share of the card's bf16 dense matrix rate, measured in the same run
  (an 8192^3 bf16 matrix product on random data, median of 10) and of the datasheet's 989 TFLOP/s;
* the share of step time spent waiting for batches (``symt.training.batches.BatchStream``) and the peak
  GPU memory;
* the operator calls of one step (``torch.profiler``, CPU side, untimed; nested calls and views
  included, so an upper bound on the kernel launches of a GPU step and a count to compare between
  models), and the calls whose output size depends on the data (``unique``, ``nonzero``,
  ``masked_scatter``, ``repeat_interleave``, ``item``), which make the host wait for the card. A
  model of many small operations is bound by these, not by its FLOPs, and the count is the same
  on a CPU, so it can be read before a device call.

Results go to ``--out`` (JSON) and a Markdown table on stdout. On a CPU it runs too (tiny sizes,
``--device cpu``), which is how the script is rehearsed before a device call.

Usage (from the repository root, after ``symt generate visitall``):
  python benchmarks/speed/bench_gpu_training.py --data data/visitall --seconds 12 \
      --configs symt-e:small:512 symt-e:medium:512 symt-e:paper:256 symt-e:paper:512 \
                symt-ed:small:256 symt-ed:paper:128 --out bench.json
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from torch.utils.flop_counter import FlopCounterMode

DATASHEET_BF16_TFLOPS = 989.0
"""The H100/H200 SXM datasheet's dense bf16 rate (no sparsity)."""


def matmul_ceiling(device: torch.device) -> float:
    """Measured bf16 matrix-product rate in TFLOP/s (random data; median of 10 after 3 warm-ups)."""
    if device.type != "cuda":
        return float("nan")
    n = 8192
    a = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    for _ in range(3):
        a @ b
    times = []
    for _ in range(10):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1000)
    return 2 * n**3 / statistics.median(times) / 1e12


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def build_trainer(kind: str, preset: str, batch: int, buckets: int, data: Path, out: Path, args: argparse.Namespace):
    """The trainer `symt train` (SymT-E, with the ranking loss and hashed objects: the recipe of
    the shipped models) or `symt train-plans` (SymT-ED) would build, contrastive terms always on."""
    common = dict(data=str(data), out=str(out), preset=preset, batch_size=batch, steps=1_000_000,
                  eval_every=1_000_000, schedule="always", device=args.device, seed=0,
                  workers=args.workers, precision=args.precision, compile=args.compile,
                  val_samples=64, coverage_tasks=0, model_overrides=dict(args.override))
    if kind == "symt-e":
        from symt.training.config import TrainConfig
        from symt.training.trainer import Trainer

        options = dict(object_identity="hashed", w_rank=1.0, lr=1e-4, warmup=10, length_buckets=buckets)
        options.update(args.train)
        return Trainer(TrainConfig(**common, **options), progress=False)
    from symt.plangen.train import PlanTrainConfig, PlanTrainer

    return PlanTrainer(PlanTrainConfig(**common, kind="symt-ed", lr=1e-4, warmup=10, length_buckets=buckets),
                       progress=False)


def token_counts(trainer, kind: str, batch: int, shards: range) -> tuple[float, float]:
    """Mean real and padded input tokens per step over ``shards`` (all rows: sampled, siblings,
    renamed copies; SymT-ED counts its encoder's atoms)."""
    real = padded = 0
    for shard in shards:
        made = trainer.sampler.batch(shard, batch)
        if kind == "symt-e":
            masks = [made.mask] + ([made.renamed[2]] if made.renamed else [])
        else:
            masks = [made.inputs[2]] + ([made.inputs_renamed[2]] if made.inputs_renamed else [])
        real += sum(int(m.sum()) for m in masks)
        padded += sum(m.numel() for m in masks)
    return real / len(shards), padded / len(shards)


def run_step(trainer, step: int) -> bool:
    """One training step; False where it stopped on a non-finite loss (a throughput measurement
    goes on: the step did the same work)."""
    from symt.errors import SymtError

    try:
        trainer.train_step(step)
    except SymtError:
        return False
    return True


SYNCING_OPS = ("aten::unique_dim", "aten::_unique2", "aten::unique_consecutive", "aten::nonzero",
               "aten::masked_scatter_", "aten::masked_select", "aten::repeat_interleave", "aten::item",
               "aten::_local_scalar_dense")
"""Operators whose output size (or value, for ``item``) the host must know before it goes on: on
a GPU each waits for the card to finish the work queued before it."""


def count_ops(trainer, step: int) -> tuple[int, int]:
    """Operator calls of one training step (forward, backward, optimiser) and how many of them are
    :data:`SYNCING_OPS`; the step runs under ``torch.profiler`` (not timed)."""
    # CPU activity only: on a GPU the profiler would list each kernel as an event of its own.
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as profiler:
        run_step(trainer, step)
    events = profiler.key_averages()
    return sum(e.count for e in events), sum(e.count for e in events if e.key in SYNCING_OPS)


def key_value(text: str) -> tuple[str, object]:
    """An option ``KEY=VALUE``: the key, and the value as a Python literal (``3``, ``0.5``,
    ``True``) or else the text itself."""
    key, equals, value = text.partition("=")
    if not equals:
        raise ValueError(f"not KEY=VALUE: {text}")  # argparse reports it as an invalid value
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


def share_loaded_datasets() -> None:
    """Load each dataset once for all configurations (the trainers only read it)."""
    import functools

    import symt.plangen.train
    import symt.training.trainer
    from symt.data import load_dataset

    @functools.cache
    def cached(path: Path, splits: tuple, options: tuple):
        return load_dataset(path, splits=splits, **dict(options), progress=False)

    # Every keyword the trainers pass (the loader's options grow) is part of the cache key.
    def load(path, splits=("train", "validation"), *args, progress=True, **options):
        names = ("max_states", "vocab_size", "expand_splits")
        options.update(zip(names, args))
        return cached(Path(path), tuple(splits),
                      tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())))

    symt.training.trainer.load_dataset = load  # type: ignore[assignment]
    symt.plangen.train.load_dataset = load  # type: ignore[assignment]


def measure(spec: str, args: argparse.Namespace, ceiling: float) -> dict:
    kind, preset, batch_text, *rest = spec.split(":")
    batch, buckets = int(batch_text), int(rest[0]) if rest else 1
    device = torch.device(args.device)
    row: dict = {"config": spec, "kind": kind, "preset": preset, "batch": batch, "length_buckets": buckets}
    with tempfile.TemporaryDirectory() as tmp:
        trainer = build_trainer(kind, preset, batch, buckets, args.data, Path(tmp) / "run", args)
        row["parameters"] = sum(p.numel() for p in trainer.model.parameters())
        row["precision"] = trainer.precision
        try:
            step = 0
            finite = True
            for _ in range(args.warmup):
                finite &= run_step(trainer, step)
                step += 1
            sync(device)
            # One step under torch's FLOP counter (not timed): forward and backward, as run. Its
            # FLOPs per padded token, times the padded tokens of the timed steps, give theirs:
            # steps differ in length (length buckets), and the part of the FLOPs that grows
            # faster than the length (attention scores) is small at these lengths.
            counter = FlopCounterMode(display=False)
            with counter:
                finite &= run_step(trainer, step)
            counted_real, counted_padded = token_counts(trainer, kind, batch, range(step, step + 1))
            step += 1
            flops_per_padded_token = counter.get_total_flops() / counted_padded
            row["ops_per_step"], row["syncing_ops_per_step"] = count_ops(trainer, step)
            step += 1
            sync(device)
            if device.type == "cuda":
                torch.cuda.reset_peak_memory_stats(device)
            waited = trainer.batch_stream.wait_seconds
            start = time.perf_counter()
            timed = 0
            first_timed = step
            while time.perf_counter() - start < args.seconds or timed < 3:
                finite &= run_step(trainer, step)
                step += 1
                timed += 1
            sync(device)
            seconds = time.perf_counter() - start
            wait = trainer.batch_stream.wait_seconds - waited
        finally:
            trainer.close_batches()
        # The timed steps' own batches (SymT-E's shard is its step on one process).
        real, padded = token_counts(trainer, kind, batch, range(first_timed, step))
        flops = flops_per_padded_token * padded
        step_seconds = seconds / timed
        tflops = flops / step_seconds / 1e12
        row.update(
            steps=timed, step_ms=1000 * step_seconds, samples_per_s=batch / step_seconds,
            tokens_per_s=real / step_seconds, padded_tokens_per_s=padded / step_seconds,
            padding_share=1 - real / padded, gflop_per_step=flops / 1e9, tflops=tflops,
            finite_loss=finite, counted_step_padded_tokens=counted_padded,
            mfu_measured=tflops / ceiling if ceiling == ceiling else float("nan"),
            mfu_datasheet=tflops / DATASHEET_BF16_TFLOPS, data_wait_share=wait / seconds,
            peak_memory_gib=(torch.cuda.max_memory_allocated(device) / 2**30 if device.type == "cuda" else float("nan")),
            workers=trainer.batch_stream.workers,
        )
        del trainer
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return row


def table(rows: list[dict], ceiling: float) -> str:
    lines = [f"bf16 matrix ceiling measured: {ceiling:.0f} TFLOP/s (datasheet {DATASHEET_BF16_TFLOPS:.0f})", "",
             "| config (kind:preset:batch[:length buckets]) | params | precision | step ms | samples/s | tokens/s (padded) | TFLOP/s | MFU measured / datasheet | data wait | peak GiB | operator calls a step (syncing) |",
             "|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['config']} | error: {r['error']} |")
            continue
        lines.append(
            f"| {r['config']} | {r['parameters']:,} | {r['precision']} | {r['step_ms']:.1f} | {r['samples_per_s']:,.0f} | "
            f"{r['tokens_per_s']:,.0f} ({r['padded_tokens_per_s']:,.0f}) | {r['tflops']:.1f} | "
            f"{r['mfu_measured']:.1%} / {r['mfu_datasheet']:.1%} | {r['data_wait_share']:.1%} | {r['peak_memory_gib']:.1f} | "
            f"{r['ops_per_step']:,} ({r['syncing_ops_per_step']:,}) |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("data/visitall"), help="dataset folder (symt generate)")
    parser.add_argument("--configs", nargs="+", default=["symt-e:small:512", "symt-e:medium:512", "symt-e:paper:256",
                                                         "symt-ed:small:256", "symt-ed:paper:128"],
                        help="KIND:PRESET:BATCH[:BUCKETS] (kind symt-e or symt-ed; BUCKETS: "
                        "--length-buckets, 1 by default)")
    parser.add_argument("--seconds", type=float, default=10.0, help="timed seconds per configuration")
    parser.add_argument("--warmup", type=int, default=4, help="untimed steps first")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--workers", type=int, default=-1, help="batch workers (-1: symt's default)")
    parser.add_argument("--precision", default="auto", choices=["auto", "bf16", "fp32"])
    parser.add_argument("--compile", action="store_true", help="torch.compile the forward pass")
    parser.add_argument("--override", nargs="*", default=[], type=key_value,
                        metavar="KEY=VALUE", help="model options for every config (CPU rehearsal: d_model=16 ...; "
                        "attention=objects, readout=atoms)")
    parser.add_argument("--train", nargs="*", default=[], type=key_value,
                        metavar="KEY=VALUE", help="SymT-E training options (symt.training.config.TrainConfig's "
                        "fields) for every symt-e config, e.g. context_attention=True achieved_goals=True")
    parser.add_argument("--out", type=Path, help="write the rows as JSON here")
    args = parser.parse_args()
    device = torch.device(args.device)
    if device.type == "cuda":
        print(torch.cuda.get_device_name(device), file=sys.stderr)
    ceiling = matmul_ceiling(device)
    share_loaded_datasets()
    rows = []
    for spec in args.configs:
        try:
            rows.append(measure(spec, args, ceiling))
        except torch.OutOfMemoryError:
            rows.append({"config": spec, "error": "out of GPU memory"})
            torch.cuda.empty_cache()
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        if args.out:
            args.out.write_text(json.dumps({"ceiling_tflops": ceiling, "rows": rows}, indent=1) + "\n")
    print(table(rows, ceiling))
    return 0


if __name__ == "__main__":
    sys.exit(main())
