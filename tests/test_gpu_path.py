"""The GPU training path, checked on the CPU (issue 34): batches made by worker processes are the
batches made in place, a run with workers reaches the same weights as one without, bf16 autocast
keeps the readout and the contrastive terms in fp32 and trains, and the plan trainer takes the
same path. No test here needs a GPU."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from symt.data import load_dataset
from symt.sampling import PairSampler
from symt.tokens import collate
from symt.training.base import resolve_training_precision
from symt.training.batches import BatchStream, default_workers
from symt.training.losses import contrastive_terms
from symt.training.trainer import Trainer
from test_model import TINY, config_for, random_batch, tiny_model


def same_batch(a, b) -> None:
    for name in ("pred", "args", "mask", "target", "sibling_pairs"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert torch.equal(x, y) or (name == "target" and torch.allclose(x, y, equal_nan=True)), name
    for x, y in zip(a.renamed, b.renamed):
        assert torch.equal(x, y)


def test_worker_batches_are_the_batches_made_in_place(gripper_dataset):
    tasks = load_dataset(gripper_dataset, splits=("train",), vocab_size=20, progress=False).split("train")
    sampler = PairSampler(tasks, 20, "rename-one", seed=3, ranking=True)
    in_place = BatchStream(sampler.batch, 8, workers=0, pin_memory=False)
    made_ahead = BatchStream(sampler.batch, 8, workers=2, pin_memory=False, stride=2, last_shard=40)
    try:
        # Shards 1, 3, 5 (stride 2: the second of two DDP ranks), then a jump (a resume) to 11, 13.
        for shard in (1, 3, 5, 11, 13):
            same_batch(in_place.get(shard), made_ahead.get(shard))
        assert made_ahead.wait_seconds > 0
    finally:
        made_ahead.close()
    assert made_ahead.iterator is None


@pytest.mark.train
def test_a_run_with_workers_reaches_the_weights_of_one_without(gripper_dataset, tmp_path):
    runs = []
    for name, workers in (("in-place", 0), ("workers", 2)):
        trainer = Trainer(config_for(gripper_dataset, tmp_path / name, schedule="always", w_rank=1.0,
                                     workers=workers), progress=False)
        trainer.run()
        runs.append(trainer)
        assert trainer.batch_stream is not None and trainer.batch_stream.iterator is None  # workers stopped
        assert 0 <= trainer.history[-1]["data_wait_share"] <= 1
    for key, value in runs[0].model.state_dict().items():
        assert torch.equal(value, runs[1].model.state_dict()[key]), key


def test_precision_and_workers_defaults_follow_the_device():
    cpu = torch.device("cpu")
    assert resolve_training_precision("auto", cpu) == "fp32"
    assert resolve_training_precision("bf16", cpu) == "bf16"
    assert default_workers(cpu) == 0


def test_readout_and_contrastive_terms_stay_fp32_under_bf16_autocast():
    model = tiny_model()
    rng = np.random.default_rng(0)
    pred, args, mask = collate(random_batch(rng, [5, 9, 7]), 20)
    pooled = torch.randn(3, model.k) * 10
    with torch.autocast("cpu", dtype=torch.bfloat16):
        fast = model.read_out(pooled)
        h, attentions, hiddens = model(pred, args, mask, return_internals=True)
        _, attentions2, hiddens2 = model(pred, args, mask, return_internals=True)
    assert fast.dtype == torch.float32 and h.dtype == torch.float32
    # The elementwise fp32 readout is the MLP itself, not a bf16 rounding of it.
    assert torch.allclose(fast, model.read_out(pooled), rtol=1e-5, atol=1e-5)
    assert any(x.dtype == torch.bfloat16 for x in hiddens)  # the encoder did run in bf16
    att, hid = contrastive_terms(attentions, attentions2, hiddens, hiddens2, mask)
    assert att.dtype == torch.float32 and hid.dtype == torch.float32
    assert float(att.detach()) == 0.0 and float(hid.detach()) == 0.0  # the same input twice (no dropout in eval)


@pytest.mark.train
def test_bf16_training_on_the_cpu_learns(gripper_dataset, tmp_path):
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "bf16", steps=60, eval_every=30, lr=3e-3,
                                 precision="bf16", schedule="always"), progress=False)
    assert trainer.precision == "bf16"
    trainer.run()
    first, last = trainer.history[0], trainer.history[-1]
    assert np.isfinite(last["val_mse"]) and np.isfinite(last["val_att"])
    assert last["train_mse"] < first["train_mse"] * 1.5  # no blow-up; learning is checked in fp32 tests
    assert trainer.model.layer.qkv.weight.dtype == torch.float32  # master weights stay fp32


@pytest.mark.train
def test_plan_trainer_takes_the_worker_and_bf16_path(gripper_dataset, tmp_path):
    from symt.plangen.train import PlanTrainConfig, PlanTrainer

    def plan_config(out, **overrides):
        options = dict(data=str(gripper_dataset), out=str(out), steps=6, eval_every=3, batch_size=4,
                       warmup=2, vocab_size=20, val_samples=8, coverage_tasks=1, threads=1,
                       model_overrides=dict(TINY), device="cpu", kind="symt-ed", schedule="always")
        options.update(overrides)
        return PlanTrainConfig(**options)

    plain = PlanTrainer(plan_config(tmp_path / "a"), progress=False)
    plain.run()
    ahead = PlanTrainer(plan_config(tmp_path / "b", workers=2), progress=False)
    ahead.run()
    for key, value in plain.model.state_dict().items():
        assert torch.equal(value, ahead.model.state_dict()[key]), key
    half = PlanTrainer(plan_config(tmp_path / "c", precision="bf16"), progress=False)
    half.run()
    assert np.isfinite(half.history[-1]["train_ce"])


def test_the_paper_preset_starts_at_h_zero():
    from symt.model import SymTE
    from symt.model_config import PRESETS, ModelConfig

    model = SymTE(ModelConfig(num_predicates=7, max_arity=2, vocab_size=20, **PRESETS["paper"])).eval()
    rng = np.random.default_rng(1)
    pred, args, mask = collate(random_batch(rng, [5, 9]), 20)
    with torch.no_grad():
        assert torch.equal(model(pred, args, mask)[0], torch.zeros(2))
    assert not tiny_model().config.zero_readout  # the CPU presets keep their initialisation


@pytest.mark.train
def test_length_buckets_keep_each_tasks_share_and_cut_padding(gripper_dataset):
    from symt.sampling import draw_from_one_group

    probabilities = np.array([0.1, 0.2, 0.3, 0.15, 0.25])
    groups = [np.array([0, 3]), np.array([1, 4]), np.array([2])]
    rng = np.random.default_rng(7)
    counts = np.bincount(np.concatenate([draw_from_one_group(rng, groups, probabilities, 8) for _ in range(20000)]),
                         minlength=5)
    assert np.allclose(counts / counts.sum(), probabilities, atol=0.01)
    tasks = load_dataset(gripper_dataset, splits=("train",), vocab_size=20, progress=False).split("train")
    plain = PairSampler(tasks, 20, "off", seed=0)
    bucketed = PairSampler(tasks, 20, "off", seed=0, length_buckets=3)

    def padding(sampler: PairSampler) -> float:
        masks = [sampler.batch(step, 16).mask for step in range(30)]
        return 1 - sum(int(m.sum()) for m in masks) / sum(m.numel() for m in masks)

    assert padding(bucketed) < padding(plain)
