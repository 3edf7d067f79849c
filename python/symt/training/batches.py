"""Training batches made ahead of the training process by worker processes, for both trainers
(:class:`symt.training.base.TrainerBase` asks :class:`BatchStream` for each step's batch)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import torch


def default_workers(device: torch.device) -> int:
    """Batch-making worker processes for ``workers = -1``: none on a CPU (the cores train), and
    on a GPU all cores but two (one for the training process, one for the system), at most 14."""
    if device.type != "cuda":
        return 0
    return max(1, min(14, (os.cpu_count() or 4) - 2))


class _ShardBatches(torch.utils.data.Dataset):
    """Item ``i``: the batch of shard ``first + i * stride`` (a pure function of the shard)."""

    def __init__(self, make: Callable[[int, int], Any], batch_size: int, first: int, stride: int, count: int):
        self.make, self.batch_size, self.first, self.stride, self.count = make, batch_size, first, stride, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> Any:
        return self.make(self.first + index * self.stride, self.batch_size)


class BatchStream:
    """The batches of a run in shard order, made ahead of the training process by ``workers``
    worker processes (a torch DataLoader over shard numbers; pinned memory for a CUDA device, so
    the copy to it overlaps the step) or, with no workers, made in place when asked.

    Batches are pure functions of their shard (``sampler.batch(shard, batch_size)``), so both ways
    give the same batches in the same order and a resumed run is unaffected. Asking for a shard
    other than the next one expected (a resume, a skipped step) restarts the workers there.
    ``wait_seconds`` sums the time the training process spent waiting for batches.
    """

    def __init__(self, make: Callable[[int, int], Any], batch_size: int, workers: int, pin_memory: bool,
                 stride: int = 1, last_shard: int = 1 << 40):
        self.make, self.batch_size, self.workers, self.pin = make, batch_size, workers, pin_memory
        self.stride, self.last_shard = stride, last_shard
        self.iterator: Iterator[Any] | None = None
        self.expected: int | None = None
        self.wait_seconds = 0.0

    def get(self, shard: int) -> Any:
        """The batch of ``shard`` (on the CPU), from the workers or made now."""
        start = time.perf_counter()
        if self.workers == 0:
            batch = self.make(shard, self.batch_size)
        else:
            if self.iterator is None or shard != self.expected:
                self.restart(shard)
            assert self.iterator is not None
            batch = next(self.iterator)
            self.expected = shard + self.stride
        self.wait_seconds += time.perf_counter() - start
        return batch

    def restart(self, shard: int) -> None:
        """Stop the workers and start new ones that make the batches from ``shard`` on (every
        ``stride``-th shard up to ``last_shard``)."""
        self.close()
        count = max(1, (self.last_shard - shard) // self.stride + 1)
        loader = torch.utils.data.DataLoader(
            _ShardBatches(self.make, self.batch_size, shard, self.stride, count), batch_size=None,
            num_workers=self.workers, pin_memory=self.pin, prefetch_factor=4,
            # fork: the workers share the loaded state spaces with the trainer instead of
            # pickling them (they are read, never written, so the pages stay shared).
            multiprocessing_context="fork")
        self.iterator = iter(loader)

    def close(self) -> None:
        """Stop the workers (their batches made ahead are dropped)."""
        if self.iterator is not None:
            shutdown = getattr(self.iterator, "_shutdown_workers", None)
            if shutdown is not None:
                shutdown()
            self.iterator = None
        self.expected = None
