"""What the SymT-E trainer (:mod:`symt.training.trainer`) and the plan-generator trainer
(:mod:`symt.plangen.train`) share: the run around a model (:class:`TrainerBase`: run folder,
versioned checkpoints, resume checks, optimiser, schedules, log, Ctrl-C), the learning-rate
schedule, the choice of device and atomic checkpoint writes; the batches made ahead by worker
processes live in :mod:`symt.training.batches`. Each trainer keeps only its batches,
its loss and its validation."""

from __future__ import annotations

import contextlib
import csv
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from tqdm import tqdm

from ..errors import SymtError
from ..folders import holding_folder, write_atomic
from .batches import BatchStream, default_workers


class Schedule(Protocol):
    """The options a learning-rate schedule reads (both trainers' configs have them)."""

    lr: float
    min_lr: float
    warmup: int
    steps: int


def lr_at(step: int, config: Schedule, steps: int | None = None) -> float:
    """Linear warm-up, then cosine decay to ``min_lr`` at the last step (``steps``, by default
    ``config.steps``)."""
    if step < config.warmup:
        return config.lr * (step + 1) / config.warmup
    last = config.steps if steps is None else steps
    progress = (step - config.warmup) / max(1, last - config.warmup)
    return config.min_lr + 0.5 * (config.lr - config.min_lr) * (1 + math.cos(math.pi * min(1.0, progress)))


def pick_device(name: str) -> torch.device:
    """The torch device called ``name`` (``auto``: CUDA when available, else the CPU); a
    :class:`~symt.errors.SymtError` for an unknown name or a CUDA device that is not there."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise SymtError(f"unknown device '{name}': {error}") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise SymtError("--device cuda requested but no CUDA device is available")
    return device


PRECISIONS = ("auto", "bf16", "fp32")


def resolve_training_precision(name: str, device: torch.device) -> str:
    """``bf16`` or ``fp32`` for a run's ``precision``: ``auto`` is bf16 autocast on a CUDA device
    that has bf16 matrix units and fp32 elsewhere (a CPU without them emulates bf16 slowly)."""
    if name not in PRECISIONS:
        raise SymtError(f"unknown training precision '{name}' (choose from {', '.join(PRECISIONS)})")
    if name != "auto":
        return name
    return "bf16" if device.type == "cuda" and torch.cuda.is_bf16_supported() else "fp32"


def save_atomic(obj: object, path: Path) -> None:
    """A checkpoint written as plain data, whole or not at all (:func:`symt.formats.save_plain`)."""
    from ..formats import save_plain

    save_plain(obj, path, "checkpoint")


CHECKPOINT_VERSION = 1
"""Version of ``last.pt``/``best.pt``: ``{"version", "kind", "model", "optimizer", "model_config",
"train_config", "trainer"}`` for both trainers (plus ``signature`` for SymT-E). Plan-trainer
checkpoints from before the shared shape carry no version and are converted on resume."""


@dataclass
class EpochProgress:
    """The epoch in progress: sums of the training losses, steps taken and seconds spent. Kept in
    checkpoints, so a run interrupted mid-epoch, or during its evaluation, logs that epoch whole
    when resumed."""

    sums: list[float] = field(default_factory=list)
    steps: int = 0
    seconds: float = 0.0
    wait_seconds: float = 0.0
    """Of ``seconds``, the time the training process waited for batches (:class:`BatchStream`)."""

    def add(self, losses: tuple[float, ...]) -> None:
        """Count one training step with its losses (as :meth:`TrainerBase.train_step` returns them)."""
        # A run resumed mid-epoch from an older symt may have summed fewer losses: pad with zeros.
        sums = self.sums + [0.0] * (len(losses) - len(self.sums))
        self.sums = [total + value for total, value in zip(sums, losses)]
        self.steps += 1

    def mean(self) -> np.ndarray:
        """Each training loss averaged over the epoch's steps so far."""
        return np.asarray(self.sums) / max(1, self.steps)


class TrainerBase:
    """The run around a model that both trainers share (nanoGPT's train loop, in one place):

    * the run folder, checked and locked before any work; a finished or interrupted run is
      refused unless resumed, and resuming checks the checkpoint version and that the options in
      :attr:`RESUME_KEYS` match;
    * the optimiser (AdamW over the model's own ``optimizer_groups``), the learning-rate schedule,
      gradient clipping (off at ``grad_clip = 0``);
    * an exponential moving average of the weights (``weight_ema`` > 0, :meth:`averaged_weights`):
      validation, ``best.pt`` and a checkpoint's ``model`` use the average, training goes on from
      the weights it steps (a checkpoint's ``trained_model``);
    * the contrastive schedule: off until the running training loss falls below
      ``plateau_fraction`` of its plateau (the loss of a model that ignores its input), then
      ramped in over ``ramp_steps``; or on from the start (``schedule = "always"``);
    * the loop: epochs of ``eval_every`` steps, each evaluated, logged (``log.csv``, atomically)
      and checkpointed (``last.pt``, atomically); Ctrl-C saves ``last.pt`` with the epoch in
      progress and ends with a one-line error saying how to resume;
    * a wall-clock budget (a config's ``time_budget`` in seconds, 0 for none): after each epoch
      the run is cut to the whole epochs that still fit at the pace measured so far (evaluation
      included), and the cosine schedule ends at the new last step. The cut only ever moves the
      end earlier, so the first epoch (the slowest: it pays for warm-up) sets it, and later
      epochs rarely change it. Resumed with another budget, the run is given that budget as a
      whole (the time spent counts) and the old cut goes.

    A trainer sets ``config``, ``out``, ``model``, ``device``, ``progress`` and ``is_main``, then
    calls :meth:`start_run`, and implements :meth:`train_step` (one optimisation step, returning
    its losses), :meth:`end_epoch` (evaluate, log, checkpoint), :meth:`plot` and the ``kind`` of
    its checkpoints.
    """

    RESUME_KEYS: tuple[str, ...] = ("data", "preset", "seed", "batch_size", "steps", "lr", "rename",
                                    "contrastive", "schedule", "weight_ema")
    kind: str = ""
    LOSS_LABEL = "loss"
    """The progress bar's name for the first training loss."""
    COMMAND = "symt train"
    """The command that resumes an interrupted run (named in the Ctrl-C message)."""
    config: Any
    out: Path
    model: torch.nn.Module
    device: torch.device
    progress: bool = True
    is_main: bool = True
    run_lock: Any = None

    # ------------------------------------------------------------------ the run folder

    def check_schedule(self) -> None:
        """Refuse an unknown contrastive ``schedule`` (``after-plateau`` or ``always``) before any work."""
        if self.config.schedule not in ("after-plateau", "always"):
            raise SymtError(f"unknown contrastive schedule '{self.config.schedule}' (after-plateau, always)")

    def read_checkpoint(self, resume: bool) -> dict | None:
        """The checkpoint to resume from (None for a new run), checked against this run's
        options; a new run in a folder that holds one is refused."""
        last = self.out / "last.pt"
        if not resume:
            if last.exists():
                raise SymtError(f"{self.out} already holds a training run; pass --resume to continue "
                                "it or choose another --out")
            return None
        if not last.exists():
            raise SymtError(f"--resume: no checkpoint at {last}")
        from ..formats import load_plain

        checkpoint = load_plain(last, "checkpoint")
        if not isinstance(checkpoint, dict):
            raise SymtError(f"{last}: not a symt training checkpoint")
        checkpoint = self.upgrade_checkpoint(checkpoint)
        if checkpoint.get("version") != CHECKPOINT_VERSION:
            raise SymtError(f"{last}: checkpoint version {checkpoint.get('version')} is not supported "
                            f"(this symt reads version {CHECKPOINT_VERSION})")
        if checkpoint.get("kind", self.kind) != self.kind:
            raise SymtError(f"{last}: a {checkpoint['kind']} run, not a {self.kind} run")
        defaults = {f.name: f.default for f in fields(self.config)}
        saved = {**defaults, **checkpoint["train_config"]}  # options added since keep their defaults
        now = asdict(self.config)
        def same(key: str, a: object, b: object) -> bool:
            if key in ("data", "teacher") and isinstance(a, str) and isinstance(b, str):
                return Path(a).resolve() == Path(b).resolve()  # one folder, spelt two ways
            return a == b

        for key in self.RESUME_KEYS:
            if not same(key, saved.get(key), now.get(key)):
                raise SymtError(f"--resume: option '{key}' differs from the interrupted run "
                                f"({saved.get(key)!r} there, {now.get(key)!r} now)")
        return checkpoint

    def upgrade_checkpoint(self, checkpoint: dict) -> dict:
        """A checkpoint of an older shape in the current one (default: unchanged)."""
        return checkpoint

    # ------------------------------------------------------------------ optimiser and schedules

    def start_run(self, checkpoint: dict | None, plateau: float) -> None:
        """Optimiser and trainer state: fresh, or restored from ``checkpoint``. ``plateau`` is the
        training loss of a model that ignores its input (the contrastive schedule's reference)."""
        config = self.config
        self.precision = resolve_training_precision(config.precision, self.device)
        # Fused AdamW on a GPU: one kernel for all parameters instead of several per tensor.
        self.optimizer = torch.optim.AdamW(self.model.optimizer_groups(config.weight_decay),  # type: ignore[operator]
                                           lr=config.lr, betas=(config.beta1, config.beta2),
                                           fused=self.device.type == "cuda")
        self.batch_stream: BatchStream | None = None
        self.plateau = max(plateau, 1e-6)
        self.step = 0
        self.history: list[dict] = []
        self.best: list[float] | None = None
        self.ema_loss: float | None = None
        self.contrastive_start: int | None = 0 if config.schedule == "always" else None
        self.epoch_progress = EpochProgress()
        self.budget_steps: int | None = None
        self.budget_elapsed = 0.0
        self.averaged = self.weight_average(config.weight_ema)
        if checkpoint is None:
            return
        # With a weight average, "model" is the average (what validation, export and a teacher
        # read) and "trained_model" the weights training steps on from.
        self.model.load_state_dict(checkpoint.get("trained_model", checkpoint["model"]))
        if self.averaged is not None:
            self.averaged.module.load_state_dict(checkpoint["model"])
            self.averaged.n_averaged.fill_(checkpoint["trainer"].get("averaged_steps", 0))
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        state = checkpoint["trainer"]
        self.step, self.history = state["step"], state["history"]
        self.best = list(state["best"]) if state.get("best") is not None else None
        self.ema_loss = state.get("ema_loss", state.get("ema_mse"))
        self.contrastive_start = state["contrastive_start"]
        if state.get("epoch_progress"):  # absent in checkpoints written at an epoch's end
            self.epoch_progress = EpochProgress(**state["epoch_progress"])
        self.budget_elapsed = state.get("budget_elapsed", 0.0)
        # A run resumed with another --time-budget is given that budget for the whole run (the
        # time spent counts): the saved cut, made for the old budget, goes, and the next epoch's
        # end cuts again. With the same budget the cut stays (a cut never moves the end later).
        same_budget = checkpoint["train_config"].get("time_budget", 0.0) == config.time_budget
        self.budget_steps = state.get("budget_steps") if same_budget else None
        self.restore_state(state)

    def weight_average(self, decay: float) -> torch.optim.swa_utils.AveragedModel | None:
        """An exponential moving average of the model's parameters (Polyak averaging; None at
        ``decay`` 0). The n-th update keeps ``min(decay, (1 + n) / (10 + n))`` of the average, so
        that early averages are not dominated by the initial weights (the warm-up of TensorFlow's
        ``ExponentialMovingAverage`` with ``num_updates``)."""
        if decay <= 0:
            return None
        if not decay < 1:
            raise SymtError(f"--weight-ema must lie in [0, 1): {decay}")

        def ema(averaged: list[torch.Tensor], current: list[torch.Tensor], n: torch.Tensor | int) -> None:
            keep = min(decay, (1 + float(n)) / (10 + float(n)))
            for mean, value in zip(averaged, current, strict=True):
                mean.lerp_(value, 1.0 - keep)

        # Buffers are constants of the configuration (masks, hash tables): copied, not averaged.
        return torch.optim.swa_utils.AveragedModel(self.model, multi_avg_fn=ema, use_buffers=False)

    @contextlib.contextmanager
    def averaged_weights(self) -> Iterator[None]:
        """Within the block the model holds the averaged weights (when ``weight_ema`` is on), so
        that a trainer's validation and its ``best.pt`` see them; the trained weights come back
        after it, exceptions included."""
        if self.averaged is None:
            yield
            return
        trained = {name: value.detach().clone() for name, value in self.model.state_dict().items()}
        self.model.load_state_dict(self.averaged.module.state_dict())
        try:
            yield
        finally:
            self.model.load_state_dict(trained)

    def restore_state(self, state: dict) -> None:
        """A trainer's own state from a checkpoint's ``trainer`` entry (default: none)."""

    def trainer_state(self) -> dict:
        """A trainer's own state for its checkpoints' ``trainer`` entry (default: none)."""
        return {}

    def autocast(self) -> contextlib.AbstractContextManager:
        """The forward pass's precision: bf16 autocast (matrix products in bf16, weights and
        optimiser state in fp32) or none."""
        if self.precision == "bf16":
            return torch.autocast(self.device.type, dtype=torch.bfloat16)
        return contextlib.nullcontext()

    def fetch_batch(self, shard: int, make: Callable[[int, int], Any], stride: int = 1) -> Any:
        """The batch of ``shard`` (``make(shard, batch_size)``), from the run's :class:`BatchStream`
        (``config.workers`` processes; -1: :func:`default_workers`), on the run's device."""
        if self.batch_stream is None:
            workers = self.config.workers if self.config.workers >= 0 else default_workers(self.device)
            self.batch_stream = BatchStream(make, self.config.batch_size, workers, self.device.type == "cuda",
                                            stride, last_shard=(self.config.steps + 1) * stride)
        before = self.batch_stream.wait_seconds
        batch = self.batch_stream.get(shard)
        self.epoch_progress.wait_seconds += self.batch_stream.wait_seconds - before
        return batch.to(self.device)

    def contrastive_weight(self, step: int) -> float:
        """The contrastive terms' weight in [0, 1] at ``step``: 0 until the schedule switches them
        on, then ramped up over ``ramp_steps`` (1 at once with ``always``)."""
        if not self.config.contrastive or self.contrastive_start is None:
            return 0.0
        if self.config.schedule == "always":
            return 1.0
        return min(1.0, (step - self.contrastive_start + 1) / max(1, self.config.ramp_steps))

    def note_loss(self, step: int, loss: float) -> None:
        """Track the running training loss; switch the contrastive terms on from the step after
        the one where it first falls below ``plateau_fraction`` of the plateau, or where the run
        reaches ``contrastive_by`` of its steps (where that is set)."""
        self.ema_loss = loss if self.ema_loss is None else 0.98 * self.ema_loss + 0.02 * loss
        left_plateau = step >= 50 and self.ema_loss < self.config.plateau_fraction * self.plateau
        deadline = self.config.contrastive_by > 0 and step + 1 >= self.config.contrastive_by * self.last_step
        if self.contrastive_start is None and self.config.contrastive and (left_plateau or deadline):
            self.contrastive_start = step + 1

    @property
    def last_step(self) -> int:
        """The run's last step: ``config.steps``, or fewer where a time budget cut the run."""
        return self.config.steps if self.budget_steps is None else self.budget_steps

    def lr(self, step: int) -> float:
        """The scheduled learning rate at ``step``."""
        return lr_at(step, self.config, self.last_step)

    def fit_to_budget(self, epoch_seconds: float) -> bool:
        """Cut the run to the whole epochs that fit in what is left of ``config.time_budget``, at
        the seconds per step measured so far (``epoch_seconds``: the epoch just ended, with its
        evaluation). Never moves the end later, nor before the current step. False without a
        budget."""
        budget = self.config.time_budget
        if budget <= 0:
            return False
        self.budget_elapsed += epoch_seconds
        seconds_per_epoch = max(self.budget_elapsed, 1e-9) / max(1, self.step) * self.config.eval_every
        epochs_left = max(0, math.floor((budget - self.budget_elapsed) / seconds_per_epoch))
        self.budget_steps = min(self.last_step, max(self.step, self.step + epochs_left * self.config.eval_every))
        return True

    def optimize(self, step: int, loss: torch.Tensor) -> None:
        """One AdamW step on ``loss`` at the scheduled learning rate (gradients clipped to
        ``grad_clip`` unless it is 0)."""
        for group in self.optimizer.param_groups:
            group["lr"] = self.lr(step)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if self.config.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_clip)
        self.optimizer.step()
        if self.averaged is not None:
            self.averaged.update_parameters(self.model)

    # ------------------------------------------------------------------ checkpoints and log

    def checkpoint(self) -> dict:
        """The run's checkpoint (:data:`CHECKPOINT_VERSION`): model, optimiser, configs and trainer
        state, including the epoch in progress where the log does not have it yet. With a weight
        average, ``model`` holds the average and ``trained_model`` the weights training resumes from."""
        weights = ({"model": self.model.state_dict()} if self.averaged is None else
                   {"model": self.averaged.module.state_dict(), "trained_model": self.model.state_dict()})
        return {
            "version": CHECKPOINT_VERSION,
            "kind": self.kind,
            **weights,
            "optimizer": self.optimizer.state_dict(),
            "model_config": self.model.config.to_dict(),  # type: ignore[union-attr,operator]
            "train_config": asdict(self.config),
            "trainer": {
                "step": self.step,
                "history": self.history,
                "best": self.best,
                "ema_loss": self.ema_loss,
                "contrastive_start": self.contrastive_start,
                "budget_steps": self.budget_steps,
                "budget_elapsed": self.budget_elapsed,
                "averaged_steps": 0 if self.averaged is None else int(self.averaged.n_averaged),
                # The epoch in progress, where it is not in the log yet.
                "epoch_progress": asdict(self.epoch_progress) if self.logged_step() < self.step else None,
                **self.trainer_state(),
            },
        }

    def write_log(self) -> None:
        """``log.csv``: one row per epoch, written whole and renamed into place."""
        import io

        names = list(dict.fromkeys(key for row in self.history for key in row))
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=names)
        writer.writeheader()
        writer.writerows(self.history)
        write_atomic(self.out / "log.csv", text.getvalue().encode(), "training log")

    # ------------------------------------------------------------------ the loop

    def train_step(self, step: int) -> tuple[float, ...]:
        """One optimisation step on the batch of ``step``; returns its training losses (the first is
        the one the progress bar shows)."""
        raise NotImplementedError

    def end_epoch(self, train: np.ndarray, steps: int, seconds: float) -> None:
        """Evaluate, log and checkpoint the epoch that just ended; ``train`` holds its mean training
        losses over ``steps`` steps, which took ``seconds``."""
        raise NotImplementedError

    def end_epoch_on_all_ranks(self, train: np.ndarray, steps: int, seconds: float) -> None:
        """:meth:`end_epoch`; a multi-process trainer coordinates its ranks here."""
        self.end_epoch(train, steps, seconds)

    def plot(self) -> Path | None:
        """Draw the run's curves from its history; returns the image written (default: none)."""
        return None

    def postfix(self) -> dict[str, str]:
        """What the progress bar shows after the step count."""
        progress = self.epoch_progress
        return {self.LOSS_LABEL: f"{progress.sums[0] / max(1, progress.steps):.3f}" if progress.sums else "-",
                "c": f"{self.contrastive_weight(self.step):.2f}"}

    def run(self, stop_at: int | None = None) -> dict:
        """Train until :attr:`last_step` (or ``stop_at``, as if interrupted there after a checkpoint);
        the run folder stays locked while it trains and is free once it returns."""
        with holding_folder(self.run_lock, self.out):
            return self._train(stop_at)

    def _train(self, stop_at: int | None) -> dict:
        def end() -> int:  # a time budget may move the last step earlier
            return self.last_step if stop_at is None else min(stop_at, self.last_step)

        epoch_start = time.perf_counter() - self.epoch_progress.seconds
        bar = tqdm(total=self.last_step, initial=self.step, desc=f"{self.kind} training", unit="step",
                   disable=not self.progress, dynamic_ncols=True)
        try:
            if self.epoch_progress.steps > 0 and self.logged_step() < self.step and self.at_epoch_end(end()):
                # Interrupted while evaluating: that epoch is evaluated (and logged) now.
                self.finish_epoch(time.perf_counter() - epoch_start)
                epoch_start = time.perf_counter()
            while self.step < end():
                self.epoch_progress.add(self.train_step(self.step))
                self.step += 1
                bar.update(1)
                if self.step % 20 == 0:
                    bar.set_postfix(self.postfix())
                if self.at_epoch_end(end()):
                    self.finish_epoch(time.perf_counter() - epoch_start)
                    epoch_start = time.perf_counter()
                    bar.total = self.last_step
        except KeyboardInterrupt:
            bar.close()
            self.epoch_progress.seconds = time.perf_counter() - epoch_start
            if self.is_main:
                save_atomic(self.checkpoint(), self.out / "last.pt")
            raise SymtError(f"interrupted at step {self.step}; continue with `{self.COMMAND} ... --resume "
                            f"--out {self.out}`") from None
        finally:
            self.close_batches()
        bar.close()
        if self.is_main:
            self.plot()
        return self.history[-1] if self.history else {}

    def close_batches(self) -> None:
        """Stop the batch-making workers, if any."""
        if getattr(self, "batch_stream", None) is not None:
            self.batch_stream.close()  # type: ignore[union-attr]

    def logged_step(self) -> int:
        """The step of the last epoch in the log (0 before the first)."""
        return int(self.history[-1]["step"]) if self.history else 0

    def at_epoch_end(self, end: int) -> bool:
        """Whether the step just taken ends an epoch (every ``eval_every`` steps, and the last)."""
        return self.step % self.config.eval_every == 0 or self.step in (self.last_step, end)

    def finish_epoch(self, seconds: float) -> None:
        """Evaluate, log and checkpoint the epoch in progress, then start the next one."""
        progress = self.epoch_progress
        progress.seconds = seconds
        evaluation_start = time.perf_counter()
        self.end_epoch_on_all_ranks(progress.mean(), progress.steps, seconds)
        if self.fit_to_budget(seconds + time.perf_counter() - evaluation_start) and self.is_main:
            save_atomic(self.checkpoint(), self.out / "last.pt")  # resumes with the cut and the time spent
        self.epoch_progress = EpochProgress()
