"""Training data beyond exhaustive state spaces (issue 12): tasks labelled by Fast Downward plans.

Independent truth: on tasks small enough to expand, the labels of an optimal plan's states must be
the expander's h*, and a satisficing plan's labels must be upper bounds on it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from conftest import make_dataset
from symt.data import load_dataset
from symt.errors import SymtError
from symt.experiments.ipc import plan_for
from symt.pddl import ground, parse_domain, parse_problem
from symt.sampling import PairSampler
from symt.statespace import expand
from symt.training.trainer import Trainer
from test_model import config_for


@pytest.fixture(scope="module")
def plan_dataset(tmp_path_factory, fd_built) -> Path:
    """A Blocksworld dataset whose largest training task is labelled by an optimal plan and one
    more by a satisficing plan; the rest stay exhaustive."""
    root = make_dataset(tmp_path_factory.mktemp("plans"), "blocksworld",
                        {"train": [3, 4, 5, 5], "validation": [5]})
    manifest = json.loads((root / "manifest.json").read_text())
    (root / "plans").mkdir()
    for entry, search in ((manifest[2], "optimal-plan"), (manifest[3], "satisficing-plan")):
        plan = root / "plans" / f"{entry['name']}.plan"
        labels, why = plan_for(root / "domain.pddl", root / entry["file"], plan, time_limit=60)
        assert labels == "optimal-plan", why  # A* with LM-cut solves 5 blocks at once
        entry.update(labels=search, plan_file=f"plans/{plan.name}")
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


def hstar_of(root: Path, entry: dict) -> dict[frozenset[int], float]:
    domain = parse_domain(root / "domain.pddl")
    task = ground(domain, parse_problem(root / entry["file"], domain))
    space = expand(task)
    return {space.state_set(s): float(space.hstar[s]) for s in range(space.num_states)}


@pytest.mark.train
def test_optimal_plan_labels_are_hstar_and_satisficing_ones_upper_bounds(plan_dataset):
    data = load_dataset(plan_dataset, progress=False)
    manifest = json.loads((plan_dataset / "manifest.json").read_text())
    labelled = {t.name: t for t in data.split("train") if t.plan is not None}
    assert len(labelled) == 2 and all(t.space is None for t in labelled.values())
    for entry in manifest:
        if "plan_file" not in entry:
            continue
        task = labelled[entry["name"]]
        truth = hstar_of(plan_dataset, entry)
        for i, facts in enumerate(task.plan.states):
            label = task.plan.length - i
            assert label == truth[frozenset(int(f) for f in facts)] or not task.plan.exact
            assert label >= truth[frozenset(int(f) for f in facts)]
        for i, others in enumerate(task.plan.siblings):  # siblings are never closer than the plan's step
            closer = truth[frozenset(int(f) for f in task.plan.states[i + 1])]
            assert all(truth[frozenset(int(f) for f in s)] >= closer for s in others)


def test_sampler_mixes_plan_states_with_their_weight_and_marks_upper_bounds(plan_dataset):
    data = load_dataset(plan_dataset, progress=False)
    sampler = PairSampler(data.split("train"), 123, "off", seed=0, ranking=True, plan_weight=0.5)
    assert len(sampler.tasks) == 2 and len(sampler.plan_tasks) == 2
    upper = total = 0
    for step in range(20):
        batch = sampler.batch(step, 32)
        assert batch.upper_bound is not None and batch.upper_bound.shape == batch.target.shape
        assert not batch.upper_bound[batch.num_sampled:].any()  # siblings come from optimal plans only
        upper += int(batch.upper_bound[: batch.num_sampled].sum())
        total += batch.num_sampled
    assert 0.15 < upper / total < 0.35  # half the slots are plan states, half of those satisficing


@pytest.mark.train
def test_training_on_plan_labelled_tasks(plan_dataset, tmp_path):
    trainer = Trainer(config_for(plan_dataset, tmp_path / "run", vocab_size=123, w_rank=1.0, plan_weight=0.5),
                      progress=False)
    final = trainer.run()
    assert np.isfinite(final["train_mse"]) and final["train_rank"] > 0


def test_upper_bounds_only_penalise_predictions_above_them(plan_dataset, tmp_path):
    trainer = Trainer(config_for(plan_dataset, tmp_path / "run", vocab_size=123, plan_weight=1.0,
                                 contrastive=False), progress=False)
    batch = trainer.sampler.batch(0, trainer.config.batch_size)  # the batch of step 0
    assert batch.upper_bound is not None and batch.upper_bound.any() and not batch.upper_bound.all()
    with torch.no_grad():  # every prediction becomes -1000 * scale: below every bound
        trainer.model.readout[-1].weight.zero_()
        trainer.model.readout[-1].bias.fill_(-1000.0)
    predicted = -1000.0 * float(trainer.model.target_scale)
    finite = torch.isfinite(batch.target)
    errors = torch.where(batch.upper_bound, 0.0, (predicted - batch.target) ** 2)
    mse = trainer.train_step(0)[0]
    assert mse == pytest.approx(float(errors[finite].mean()), rel=1e-4)


def test_a_plan_that_is_not_a_plan_is_refused(plan_dataset, tmp_path):
    copy = tmp_path / "bad"
    shutil.copytree(plan_dataset, copy)
    plan = next((copy / "plans").iterdir())
    plan.write_text("\n".join(plan.read_text().splitlines()[1:]) + "\n")
    with pytest.raises(SymtError, match="not a plan for"):
        load_dataset(copy, progress=False)


@pytest.mark.train
@pytest.mark.parametrize("learner", ["rank", "gpr"])
def test_wl_baseline_trains_on_plan_labelled_tasks(plan_dataset, tmp_path, learner):
    """``symt train-wl`` on the same mixed dataset: a plan's states with their remaining length,
    ranking pairs between each next state and its siblings (whose distance is unknown, so the
    regression leaves them out)."""
    from symt.training.wl import WLTrainConfig, train_wl

    meta = train_wl(WLTrainConfig(data=str(plan_dataset), out=tmp_path / "wl.json", learner=learner,
                                  progress=False))
    assert meta["trained_on"]["tasks"] == ["blocksworld-train-n3-0", "blocksworld-train-n4-1",
                                           "blocksworld-train-n5-2", "blocksworld-train-n5-3"]
    assert meta["training"]["pair_accuracy"] > 0.9
    if learner == "gpr":
        assert np.isfinite(meta["training"]["mse"])


@pytest.mark.train
def test_wl_baseline_learns_from_the_validation_split_when_asked(plan_dataset, tmp_path):
    """``with_validation`` (what ``symt learn`` asks for: WL chooses no checkpoint, so the problems
    SymT-E validates on are WL's training data): the validation task joins the training tasks, and
    the model learns from more states than without it."""
    from symt.training.wl import WLTrainConfig, train_wl

    without, with_validation = (train_wl(WLTrainConfig(data=str(plan_dataset), out=tmp_path / f"wl-{flag}.json",
                                                       with_validation=flag, progress=False))
                                for flag in (False, True))
    assert with_validation["trained_on"]["tasks"] == [*without["trained_on"]["tasks"], "blocksworld-validation-n5-0"]
    assert with_validation["trained_on"]["states"] > without["trained_on"]["states"]
