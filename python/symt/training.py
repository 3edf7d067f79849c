"""What the SymT-E trainer (:mod:`symt.train`) and the plan-generator trainer
(:mod:`symt.plangen.train`) share: the learning-rate schedule, the choice of device and atomic
checkpoint writes. Below both, so that neither imports the other's package for them."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Protocol

import torch

from .errors import SymtError


class Schedule(Protocol):
    """The options a learning-rate schedule reads (both trainers' configs have them)."""

    lr: float
    min_lr: float
    warmup: int
    steps: int


def lr_at(step: int, config: Schedule) -> float:
    """Linear warm-up, then cosine decay to ``min_lr`` at the last step."""
    if step < config.warmup:
        return config.lr * (step + 1) / config.warmup
    progress = (step - config.warmup) / max(1, config.steps - config.warmup)
    return config.min_lr + 0.5 * (config.lr - config.min_lr) * (1 + math.cos(math.pi * min(1.0, progress)))


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise SymtError(f"unknown device '{name}': {error}") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise SymtError("--device cuda requested but no CUDA device is available")
    return device


def save_atomic(obj: object, path: Path) -> None:
    """torch.save to a temporary file, fsync, then rename over ``path`` (never a torn file)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        torch.save(obj, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
