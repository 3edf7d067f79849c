"""Average the weights of SymT-E training checkpoints (a uniform "model soup", Wortsman et al.
2022) into one checkpoint that `symt export` reads.

Meant for runs continued from one start (the Transport warm starts of `recipe_study.sh`, rounds
19-21): their weights stay close, so their mean is a model in the same basin. The checkpoints must
have the same architecture and signature; `target_scale` (the training data's h* scale) may differ
by a little and is averaged too. The optimiser state is dropped.

    python benchmarks/training/average_checkpoints.py OUT.pt A/best.pt B/best.pt [...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from symt.errors import SymtError
from symt.export import load_checkpoint_model
from symt.training.base import save_atomic


def average(paths: list[Path]) -> dict:
    """The first checkpoint with its model weights replaced by the mean over all ``paths``."""
    # The project's reader: a file that is not a SymT-E training checkpoint is refused in one line.
    checkpoints = [load_checkpoint_model(path)[1] for path in paths]
    first = checkpoints[0]

    def architecture(checkpoint: dict) -> dict:
        return {k: v for k, v in checkpoint["model_config"].items() if k != "target_scale"}

    for path, checkpoint in zip(paths[1:], checkpoints[1:]):
        if (
            architecture(checkpoint) != architecture(first)
            or checkpoint["signature"] != first["signature"]
        ):
            raise SystemExit(f"{path}: another architecture or domain than {paths[0]}")
    weights = {}
    for name, tensor in first["model"].items():
        tensors = [checkpoint["model"][name] for checkpoint in checkpoints]
        if tensor.is_floating_point():
            weights[name] = torch.stack([t.float() for t in tensors]).mean(0).to(tensor.dtype)
        elif all(torch.equal(t, tensor) for t in tensors):
            weights[name] = tensor
        else:
            raise SystemExit(
                f"{name}: integer tensors differ between the checkpoints; cannot average"
            )
    scales = [checkpoint["model_config"]["target_scale"] for checkpoint in checkpoints]
    soup = {key: value for key, value in first.items() if key != "optimizer"}
    soup["model"] = weights
    soup["model_config"] = dict(first["model_config"], target_scale=sum(scales) / len(scales))
    return soup


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the checkpoint to write (refused if it exists)")
    parser.add_argument(
        "checkpoints", type=Path, nargs="+", help="best.pt or last.pt of two or more runs"
    )
    args = parser.parse_args()
    if len(args.checkpoints) < 2:
        parser.error("give at least two checkpoints")
    if args.out.exists():
        parser.error(f"{args.out}: exists; not overwritten")
    try:
        save_atomic(average(args.checkpoints), args.out)
    except SymtError as error:
        parser.exit(2, f"error: {error}\n")
    print(f"wrote {args.out}: the mean of {len(args.checkpoints)} checkpoints")
    return 0


if __name__ == "__main__":
    sys.exit(main())
