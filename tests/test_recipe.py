"""The training-recipe options of issue 12: hashed object identities, the sibling ranking loss,
and the inference depth of an exported model."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from symt.data import load_dataset
from symt.errors import SymtError
from symt.export import export, load_checkpoint_model, load_exported
from symt.guidance import StateEvaluator, exported_state_evaluator, plan_with_exported_model
from symt.model import SymTE
from symt.model_config import ModelConfig
from symt.model_objects import HashedObjectCodes
from symt.sampling import PairSampler
from symt.statespace import _reference_expand
from symt.tokens import HASHED_TOKEN_SPACE, collate, rename
from symt.training.losses import ranking_loss
from symt.training.trainer import Trainer
from test_model import TINY, config_for


def test_hashed_codes_are_fixed_distinct_and_pad_to_zero():
    codes = HashedObjectCodes(32, HASHED_TOKEN_SPACE)
    tokens = torch.tensor([[0, 1, 5, HASHED_TOKEN_SPACE], [7, 7, 999_999, 3]])
    # The inference path (hash 0..n-1 once, index) and the per-slot path give the same codes.
    table_path = codes(tokens[:, :3].clamp(max=10))
    per_slot = codes.codes(tokens[:, :3].clamp(max=10))
    assert torch.equal(table_path, per_slot)
    values = codes(tokens)
    assert torch.equal(values[0, 3], torch.zeros(32)) and torch.equal(values[1, 0], values[1, 1])
    assert torch.equal(values, HashedObjectCodes(32, HASHED_TOKEN_SPACE)(tokens))  # same in every model
    many = codes(torch.arange(500))
    assert abs(float(many.mean())) < 0.05 and abs(float(many.std()) - 1) < 0.05
    cosine = torch.nn.functional.normalize(many, dim=1) @ torch.nn.functional.normalize(many, dim=1).T
    assert float((cosine - torch.eye(500)).abs().max()) < 0.9  # no two objects look alike


def hashed_model() -> SymTE:
    torch.manual_seed(0)
    config = ModelConfig(num_predicates=7, max_arity=2, vocab_size=HASHED_TOKEN_SPACE,
                         object_identity="hashed", **{**TINY, "k": 8})
    return SymTE(config).eval()


def test_hashed_model_takes_any_number_of_objects_and_ignores_atom_order():
    model = hashed_model()
    rng = np.random.default_rng(0)
    objects = 700  # far beyond any table (the shipped ones have 123 or 160 tokens)
    rows = np.concatenate([rng.integers(0, 14, (900, 1)), rng.integers(0, objects, (900, 2))], axis=1)
    renamed = rename(rows, np.arange(objects), HASHED_TOKEN_SPACE)
    shuffled = renamed[rng.permutation(len(renamed))]
    with torch.no_grad():
        a = model(*collate([renamed], HASHED_TOKEN_SPACE))[0]
        b = model(*collate([shuffled], HASHED_TOKEN_SPACE))[0]
    assert torch.isfinite(a).all() and torch.allclose(a, b, atol=1e-4)


def test_sibling_pairs_rank_an_optimal_successor_against_a_worse_one(gripper_dataset):
    data = load_dataset(gripper_dataset, progress=False, vocab_size=20)
    sampler = PairSampler(data.split("train"), 20, "rename-one", seed=1, ranking=True)
    batch = sampler.batch(0, 32)
    assert batch.num_sampled == 32 and batch.sibling_pairs is not None and len(batch.sibling_pairs) > 5
    assert batch.renamed is not None and batch.renamed[0].shape[0] == 32
    good, bad = batch.target[batch.sibling_pairs[:, 0]], batch.target[batch.sibling_pairs[:, 1]]
    assert (good + 1 <= bad).all()  # an optimal successor is at least one step closer
    # Independent truth: successors and h* of the pure-Python reference expansion.
    task_data = max(data.split("train"), key=lambda t: t.space.num_states)
    states, edges, hstar = _reference_expand(task_data.task, 100_000)
    index = {state: i for i, state in enumerate(states)}
    rng = np.random.default_rng(0)
    checked = 0
    for state in range(task_data.space.num_states):
        pair = sampler.sibling_pair(task_data.space, state, rng)
        s = index[task_data.space.state_set(state)]
        successors = {t for _, t in edges[s]}
        if pair is None:
            continue
        g, b = (index[task_data.space.state_set(x)] for x in pair)
        assert {g, b} <= successors and hstar[g] == hstar[s] - 1 and hstar[b] >= hstar[s]
        checked += 1
    assert checked > 10


@pytest.mark.train
def test_training_with_ranking_and_hashed_objects_resumes_and_exports(gripper_dataset, tmp_path):
    options = dict(w_rank=1.0, object_identity="hashed", schedule="always")
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "r", **options), progress=False)
    final = trainer.run()
    assert trainer.config.vocab_size == HASHED_TOKEN_SPACE
    assert final["train_rank"] > 0 and 0 <= final["val_rank_accuracy"] <= 1
    with pytest.raises(SymtError, match="option 'w_rank' differs"):
        Trainer(config_for(gripper_dataset, tmp_path / "r", **{**options, "w_rank": 0.5}), resume=True,
                progress=False)
    meta = export(tmp_path / "r" / "best.pt", tmp_path / "m.pt")
    assert meta["format_version"] == 5 and meta["model"]["object_identity"] == "hashed"
    module, _ = load_exported(tmp_path / "m.pt")
    assert module.symt_achieved_goals == 0
    python_model, _ = load_checkpoint_model(tmp_path / "r" / "best.pt")
    rows = [rename(np.array([[0, 0, 1], [1, 2, -1]]), np.arange(3), HASHED_TOKEN_SPACE)]
    with torch.no_grad():
        assert torch.allclose(module(*collate(rows, HASHED_TOKEN_SPACE)),
                              python_model(*collate(rows, HASHED_TOKEN_SPACE))[0], atol=1e-5)


@pytest.mark.train
def test_achieved_goals_mark_the_goal_atoms_of_a_state_and_export_as_format_6(gripper_dataset, tmp_path):
    """--achieved-goals: exactly the fluent atoms that are goal atoms (Gripper: one at-ball atom per
    goal atom) read as 2P + p, the model has a third block of predicate embeddings,
    and the export is format 6 with symt_achieved_goals = 1. Goal phrasing, which changes which
    atoms are goals, is refused with it."""
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "r", steps=20, achieved_goals=True), progress=False)
    trainer.run()
    data = trainer.dataset.split("train")[-1].encoded
    num_predicates = data.signature.num_predicates
    ids = data.signature.predicate_ids()
    goals = {(name, tuple(args)) for name, args in data.task.goal_atoms}
    marked = 0
    for row, (name, args) in zip(data.fluent_rows, data.task.fluent_atoms, strict=True):
        is_goal = (name, tuple(args)) in goals
        assert row[0] == ids[name] + (2 * num_predicates if is_goal else 0)
        marked += is_goal
    assert marked == len(goals) > 0  # Gripper's goal atoms are all fluent
    assert trainer.model.pred_embedding.num_embeddings == 3 * num_predicates
    meta = export(tmp_path / "r" / "best.pt", tmp_path / "m.pt")
    module, _ = load_exported(tmp_path / "m.pt")
    assert meta["format_version"] == 6 and meta["achieved_goals"] and module.symt_achieved_goals == 1
    # With goal phrasings, every phrasing carries the marks of its own goal (tests/test_phrasing.py).
    phrased = Trainer(config_for(gripper_dataset, tmp_path / "p", goal_phrasing=0.5, achieved_goals=True),
                      progress=False)
    train = phrased.dataset.split("train")
    assert any(data.goal_phrasings for data in train)
    assert all(len(data.goal_phrasing_fluents) == len(data.goal_phrasings) for data in train)


@pytest.mark.train
@pytest.mark.parametrize("goals_with_state", [False, True], ids=["all", "static"])
def test_context_attention_trains_exports_and_caches(gripper_dataset, tmp_path, goals_with_state):
    """--context-attention: the model's context is the static, type and goal atoms of the
    task (exactly EncodedTask.fixed_rows), and the exported format-5 module's cached path gives
    forward's values. --context-attention static: the goal atoms are not of the context; the
    module says so (symt_context_cache 2) and each state sends them with its fluent atoms."""
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "r", steps=30, context_attention=True,
                                 goals_with_state=goals_with_state), progress=False)
    trainer.run()
    data = trainer.dataset.split("train")[0].encoded
    model = trainer.model.cpu()
    is_goal = data.fixed_rows[:, 0] >= data.signature.num_predicates
    assert is_goal.any() and not is_goal.all()
    cached_rows = data.fixed_rows[~is_goal] if goals_with_state else data.fixed_rows
    assert bool(model.is_context[torch.from_numpy(cached_rows[:, 0])].all())
    assert bool(model.is_context[torch.from_numpy(data.fixed_rows[is_goal, 0])].all()) != goals_with_state
    assert not bool(model.is_context[torch.from_numpy(data.fluent_rows[:, 0])].any())
    meta = export(tmp_path / "r" / "best.pt", tmp_path / "m.pt")
    module, _ = load_exported(tmp_path / "m.pt")
    assert meta["format_version"] == 5 and module.symt_context_cache == (2 if goals_with_state else 1)
    assert meta["model"]["context_predicates"] == sorted(meta["model"]["context_predicates"])
    vocab = meta["vocab_size"]
    names = np.arange(data.num_objects)
    fixed = rename(cached_rows, names, vocab)
    sent = [rename(data.fixed_rows[is_goal], names, vocab)] if goals_with_state else []
    states = [np.concatenate([rename(data.fluent_rows[facts], names, vocab), *sent])
              for facts in ([0, 2, 3], [1], [0, 1, 4, 5])]
    with torch.no_grad():
        full = [float(module(*collate([np.concatenate([s, fixed])], vocab))[0]) for s in states]
        pred, args, _ = collate([fixed], vocab)
        cached = module.forward_states(*module.encode_context(pred[0], args[0]), *collate(states, vocab))
    assert cached.tolist() == pytest.approx(full, abs=1e-5)
    with pytest.raises(torch.jit.Error, match="not of a context predicate"):
        module.encode_context(*(t[0] for t in collate([states[0]], vocab)[:2]))
    # Search-free planning takes the cached path too, with the full forward pass's values (a
    # 30-step model's values nearly tie, so the plans themselves may part at a tie).
    task_data = trainer.dataset.split("validation")[0]
    cached_plan = plan_with_exported_model(module, meta, trainer.dataset.domain, task_data.task, 40)
    assert cached_plan.evaluations > 0
    task = task_data.task
    along = [frozenset(task.init)]
    for action in cached_plan.actions:
        along.append(task.apply(task.actions[action], along[-1]))
    cached_values = exported_state_evaluator(module, meta, trainer.dataset.domain, task)(along)
    full_values = StateEvaluator(task_data.encoded, module, vocab)(along)
    assert cached_values.tolist() == pytest.approx(full_values.tolist(), abs=1e-5)


@pytest.mark.train
def test_a_student_learns_its_teachers_values(gripper_dataset, tmp_path):
    """--teacher: with the h* term off, a student moves towards the teacher's values (issue 15,
    direction 3); a teacher with other objects is refused, naming the file."""
    teacher_run = Trainer(config_for(gripper_dataset, tmp_path / "teacher", steps=60), progress=False)
    teacher_run.run()
    teacher, _ = load_checkpoint_model(tmp_path / "teacher" / "best.pt")
    small = dict(TINY, d_model=8, d_ff=16, n_layers=1)
    student_config = config_for(gripper_dataset, tmp_path / "student", steps=80, lr=3e-3, w_pred=0.0,
                                contrastive=False, teacher=str(tmp_path / "teacher" / "best.pt"),
                                model_overrides=small)
    student = Trainer(student_config, progress=False)
    batches = student.val_batches

    def gap_to_teacher() -> float:
        student.model.eval()
        with torch.no_grad():
            gaps = [(student.model(b.pred, b.args, b.mask)[0] - teacher(b.pred, b.args, b.mask)[0]).pow(2).mean()
                    for b in batches]
        return float(torch.stack(gaps).mean())

    before = gap_to_teacher()
    final = student.run()
    assert final["train_teacher"] > 0
    assert gap_to_teacher() < before / 4
    # A student as wide as its teacher, with fewer applications of the shared layer, starts from
    # the teacher's weights; one of another width is refused.
    teacher_path = str(tmp_path / "teacher" / "best.pt")
    shallow = Trainer(config_for(gripper_dataset, tmp_path / "shallow", teacher=teacher_path, init_from_teacher=True,
                                 model_overrides=dict(TINY, n_layers=1)), progress=False)
    assert all(torch.equal(value, teacher.state_dict()[name]) for name, value in shallow.model.state_dict().items())
    with pytest.raises(SymtError, match="weights do not fit"):
        Trainer(config_for(gripper_dataset, tmp_path / "narrow", teacher=teacher_path, init_from_teacher=True,
                           model_overrides=small), progress=False)
    with pytest.raises(SymtError, match="model's objects"):
        Trainer(config_for(gripper_dataset, tmp_path / "other", vocab_size=30,
                           teacher=str(tmp_path / "teacher" / "best.pt")), progress=False)


@pytest.mark.train
def test_export_with_another_inference_depth(gripper_dataset, tmp_path):
    Trainer(config_for(gripper_dataset, tmp_path / "r", steps=20), progress=False).run()
    same = export(tmp_path / "r" / "best.pt", tmp_path / "same.pt")
    deeper = export(tmp_path / "r" / "best.pt", tmp_path / "deep.pt", layers=5)
    assert same["model"]["n_layers"] == TINY["n_layers"]
    assert deeper["model"]["n_layers"] == 5 and deeper["training"]["n_layers"] == TINY["n_layers"]
    rows = [rename(np.array([[0, 0, 1], [1, 2, -1]]), np.arange(3), 20)]
    with torch.no_grad():
        a = load_exported(tmp_path / "same.pt")[0](*collate(rows, 20))
        b = load_exported(tmp_path / "deep.pt")[0](*collate(rows, 20))
    assert not torch.allclose(a, b)
    with pytest.raises(SymtError, match="--layers must be at least 1"):
        export(tmp_path / "r" / "best.pt", tmp_path / "none.pt", layers=0)


def test_hinge_ranking_is_zero_at_hstar_and_logistic_is_not():
    target = torch.tensor([3.0, 2.0, 3.0, 2.0, float("inf"), 1.0, float("nan")])
    pairs = torch.tensor([[1, 2], [3, 4], [5, 6]])  # (closer, other): known, dead end, unknown (plan)
    assert float(ranking_loss(target.nan_to_num(posinf=9.0, nan=1.0), target, pairs, "hinge")) == 0.0
    assert float(ranking_loss(target.nan_to_num(posinf=9.0, nan=1.0), target, pairs, "logistic")) > 0.1
    # A closer successor scored 0.5 below its sibling still violates the one-step margin ...
    h = torch.tensor([0.0, 2.0, 2.5, 2.0, 2.5, 1.0, 1.5])
    assert float(ranking_loss(h, target, pairs, "hinge")) == pytest.approx((0.5 + 0.5 + 0.0) / 3)


def test_size_weighted_task_draws_follow_size_to_the_power(gripper_dataset):
    data = load_dataset(gripper_dataset, progress=False, vocab_size=20)
    tasks = data.split("train")
    uniform = PairSampler(tasks, 20, "rename-one", seed=1)
    weighted = PairSampler(tasks, 20, "rename-one", seed=1, task_size_power=2)
    # Power 0 keeps the paper's draw, number for number.
    assert np.array_equal(uniform.task_ids(np.random.default_rng(5), 50),
                          np.random.default_rng(5).integers(len(tasks), size=50))
    sizes = np.array([t.size for t in tasks], dtype=float)
    draws = weighted.task_ids(np.random.default_rng(0), 20_000)
    observed = np.bincount(draws, minlength=len(tasks)) / len(draws)
    assert np.allclose(observed, sizes**2 / np.sum(sizes**2), atol=0.01)
    assert weighted.batch(0, 16).num_sampled == 16
    with pytest.raises(SymtError, match="must not be negative"):
        PairSampler(tasks, 20, "rename-one", seed=1, task_size_power=-1)
