"""``--weight-ema``: an exponential moving average of the weights, which validation, ``best.pt``
and the exported model use while training steps the weights themselves (both trainers)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import torch

from symt.cli import main
from symt.errors import SymtError
from symt.formats import load_plain
from symt.plangen.planner import load_planner
from symt.plangen.train import PlanTrainer
from symt.training.base import TrainerBase
from symt.training.trainer import Trainer
from test_model import config_for
from test_plan_training import plan_config

DECAY = 0.9


def recorded_steps(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, torch.Tensor]]:
    """The trained weights after every optimisation step, recorded as training takes them."""
    steps: list[dict[str, torch.Tensor]] = []
    original = TrainerBase.optimize

    def optimize(self: TrainerBase, step: int, loss: torch.Tensor) -> None:
        original(self, step, loss)
        steps.append({name: value.detach().clone() for name, value in self.model.named_parameters()})

    monkeypatch.setattr(TrainerBase, "optimize", optimize)
    return steps


def expected_average(steps: list[dict[str, torch.Tensor]], decay: float) -> dict[str, torch.Tensor]:
    """The warmed-up moving average, written out: the first step's weights, then the n-th step
    keeps min(decay, (1 + n) / (10 + n)) of the average so far."""
    average = copy.deepcopy(steps[0])
    for n, weights in enumerate(steps[1:], start=1):
        keep = min(decay, (1 + n) / (10 + n))
        average = {name: keep * average[name] + (1 - keep) * weights[name] for name in average}
    return average


@pytest.mark.train
def test_validation_and_checkpoints_use_the_average_and_training_the_trained_weights(
        gripper_dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = recorded_steps(monkeypatch)
    out = tmp_path / "ema"
    trainer = Trainer(config_for(gripper_dataset, out, schedule="always", weight_ema=DECAY), progress=False)
    trainer.run()
    assert len(steps) == 40
    last = load_plain(out / "last.pt", "checkpoint")
    average = expected_average(steps, DECAY)
    for name, value in average.items():
        assert torch.allclose(last["model"][name], value, atol=1e-6), name
        assert torch.equal(last["trained_model"][name], steps[-1][name]), name
        assert torch.equal(trainer.model.state_dict()[name], steps[-1][name]), name  # restored after validation
    assert not all(torch.allclose(average[name], steps[-1][name], atol=1e-4) for name in average)
    assert last["trainer"]["averaged_steps"] == 40

    # The logged validation MSE is the average's: a model holding the trained weights scores otherwise.
    logged = trainer.history[-1]["val_mse"]
    assert trainer.validation_losses()[0] != pytest.approx(logged, rel=1e-6)
    trainer.model.load_state_dict(last["model"])
    assert trainer.validation_losses()[0] == pytest.approx(logged, rel=1e-6)
    best = load_plain(out / "best.pt", "checkpoint")
    epoch = best["trainer"]["step"]
    for name, value in expected_average(steps[:epoch], DECAY).items():
        assert torch.allclose(best["model"][name], value, atol=1e-6), name

    # Without the option a checkpoint holds the trained weights alone, as before.
    plain = Trainer(config_for(gripper_dataset, tmp_path / "plain", steps=20, schedule="always"), progress=False)
    plain.run()
    checkpoint = load_plain(tmp_path / "plain" / "last.pt", "checkpoint")
    assert "trained_model" not in checkpoint
    for name, value in plain.model.state_dict().items():
        assert torch.equal(checkpoint["model"][name], value), name


@pytest.mark.train
def test_an_averaged_run_resumes_to_the_same_weights_and_average(gripper_dataset: Path, tmp_path: Path) -> None:
    options = dict(schedule="always", weight_ema=DECAY)
    Trainer(config_for(gripper_dataset, tmp_path / "a", **options), progress=False).run()
    Trainer(config_for(gripper_dataset, tmp_path / "b", **options), progress=False).run(stop_at=20)
    resumed = Trainer(config_for(gripper_dataset, tmp_path / "b", **options), resume=True, progress=False)
    assert resumed.step == 20
    resumed.run()
    straight, again = (load_plain(tmp_path / run / "last.pt", "checkpoint") for run in ("a", "b"))
    for key in ("model", "trained_model"):
        for name, value in straight[key].items():
            assert torch.equal(value, again[key][name]), (key, name)
    with pytest.raises(SymtError, match="option 'weight_ema' differs"):
        Trainer(config_for(gripper_dataset, tmp_path / "b", schedule="always"), resume=True, progress=False)


@pytest.mark.train
def test_the_plan_trainer_writes_its_average_to_best_pt(gripper_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "plans"
    trainer = PlanTrainer(plan_config(gripper_dataset, out, steps=10, weight_ema=DECAY), progress=False)
    trainer.run()
    last = load_plain(out / "last.pt", "checkpoint")
    planner = load_planner(out / "best.pt")  # one epoch: the best is the last
    differ = False
    for name, value in planner.model.state_dict().items():
        assert torch.equal(value, last["model"][name]), name
        assert torch.equal(trainer.model.state_dict()[name], last["trained_model"][name]), name
        differ |= not torch.equal(value, last["trained_model"][name])
    assert differ


def test_the_option_is_a_decay_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "gripper", "--weight-ema", "1"])
    assert stop.value.code == 2
    assert "--weight-ema: must lie in [0, 1)" in capsys.readouterr().err
