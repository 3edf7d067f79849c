"""Dead ends as training targets (``symt train --dead-end-bound``, issue 35).

Independent truth: a hand-written corridor whose h* is known by construction. The token starts at
c0 and may only walk forward to c3 (the goal); from c0 and c1 it may also fall into a pit, which
has no way out: a dead end. h*(c0..c3) = 3, 2, 1, 0 and the pit's is infinite, so a dead-end
sibling's lower bound is its task's largest finite h* plus one: 4 in the task that starts at c0, 3
in the one that starts at c1 (c0 is not reachable there).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from symt.data import load_dataset
from symt.errors import SymtError
from symt.sampling import PairSampler
from symt.training.trainer import Trainer
from test_model import config_for

CORRIDOR = """(define (domain corridor)
  (:predicates (at ?c) (next ?c ?d) (pit ?c))
  (:action walk :parameters (?c ?d) :precondition (and (at ?c) (next ?c ?d))
   :effect (and (at ?d) (not (at ?c))))
  (:action fall :parameters (?c ?p) :precondition (and (at ?c) (pit ?p) (next ?c ?p))
   :effect (and (at ?p) (not (at ?c)))))
"""
# The pit is reached by `next` too, so that `walk` and `fall` both lead there; it has no `next`.
PROBLEM = """(define (problem corridor-{name}) (:domain corridor)
  (:objects c0 c1 c2 c3 hole)
  (:init (at {start}) (next c0 c1) (next c1 c2) (next c2 c3) (next c0 hole) (next c1 hole) (pit hole))
  (:goal (at c3)))
"""


def write_corridor(root: Path, domain: str, problem: str) -> Path:
    """A dataset folder at ``root``: ``domain`` and ``problem`` (a template of name and start)
    as two training tasks, from c0 and c1, and one validation task from c0."""
    (root / "domain.pddl").write_text(domain)
    manifest = []
    for split, start in (("train", "c0"), ("train", "c1"), ("validation", "c0")):
        (root / split).mkdir(exist_ok=True)
        name = f"{split}-{start}"
        (root / split / f"{name}.pddl").write_text(problem.format(name=name, start=start))
        manifest.append({"domain": "corridor", "name": name, "split": split, "size": 4,
                         "index": len(manifest), "seed": None, "file": f"{split}/{name}.pddl"})
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


@pytest.fixture(scope="module")
def corridor_dataset(tmp_path_factory) -> Path:
    return write_corridor(tmp_path_factory.mktemp("corridor"), CORRIDOR, PROBLEM)


def test_the_corridor_has_the_dead_end_it_was_built_with(corridor_dataset: Path) -> None:
    task = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False).split("train")[0]
    space = task.space
    assert space is not None and space.num_states == 5
    assert sorted(space.hstar.tolist()) == [0, 1, 2, 3, math.inf]
    assert space.max_finite_hstar == 3


@pytest.mark.parametrize("bound", [False, True])
def test_dead_end_siblings_get_the_task_bound_only_when_asked(corridor_dataset: Path, bound: bool) -> None:
    tasks = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False).split("train")
    sampler = PairSampler(tasks, 20, "rename-one", seed=5, ranking=True, dead_end_bound=bound)
    dead_end_rows, bounds_seen = 0, set()
    for step in range(20):
        batch = sampler.batch(step, 16)
        assert batch.sibling_pairs is not None and len(batch.sibling_pairs) > 0
        others = batch.target[batch.sibling_pairs[:, 1]]
        closer = batch.target[batch.sibling_pairs[:, 0]]
        # From c0 and c1 the non-optimal successor is always the pit: a dead end.
        if bound:
            assert batch.lower_bound is not None and batch.lower_bound.shape == batch.target.shape
            assert not batch.lower_bound[: batch.num_sampled].any()  # sampled states are never dead ends
            assert bool(batch.lower_bound[batch.sibling_pairs[:, 1]].all())
            assert not batch.lower_bound[batch.sibling_pairs[:, 0]].any()
            bounds_seen |= set(others.tolist())
        else:
            assert batch.lower_bound is None
            assert bool(torch.isinf(others).all())
        assert set(closer.tolist()) <= {2.0, 1.0}  # c1 or c2: the optimal successors of c0 and c1
        dead_end_rows += len(others)
    assert dead_end_rows > 0
    assert bounds_seen == ({3.0, 4.0} if bound else set())


@pytest.mark.train
def test_a_lower_bound_only_penalises_predictions_below_it(corridor_dataset: Path, tmp_path: Path) -> None:
    trainer = Trainer(config_for(corridor_dataset, tmp_path / "run", vocab_size=20, w_rank=1.0,
                                 dead_end_bound=True, contrastive=False), progress=False)
    batch = trainer.sampler.batch(0, trainer.config.batch_size)  # the batch of step 0
    assert batch.lower_bound is not None and batch.lower_bound.any() and not batch.lower_bound.all()
    with torch.no_grad():  # every prediction becomes 1000 * scale: above every bound
        trainer.model.readout[-1].weight.zero_()
        trainer.model.readout[-1].bias.fill_(1000.0)
    predicted = 1000.0 * float(trainer.model.target_scale)
    errors = torch.where(batch.lower_bound, 0.0, (predicted - batch.target) ** 2)
    mse = trainer.train_step(0)[0]
    assert mse == pytest.approx(float(errors.mean()), rel=1e-4)


def test_sampled_dead_ends_are_the_pit_under_its_task_bound(corridor_dataset: Path) -> None:
    tasks = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False).split("train")
    sampler = PairSampler(tasks, 20, "rename-one", seed=5, ranking=True, dead_end_states=0.5)
    assert [len(sampler.dead_ends(t)) for t in tasks] == [1, 1]  # one pit per task
    assert all(math.isinf(t.space.hstar[sampler.dead_ends(t)[0]]) for t in tasks)
    sampled_dead, sampled_live, bounds_seen = 0, 0, set()
    for step in range(20):
        batch = sampler.batch(step, 16)
        b = batch.num_sampled
        assert batch.lower_bound is not None and batch.lower_bound.shape == batch.target.shape
        dead = batch.lower_bound[:b]
        sampled_dead += int(dead.sum())
        sampled_live += int((~dead).sum())
        bounds_seen |= set(batch.target[:b][dead].tolist())
        assert bool(torch.isfinite(batch.target[:b]).all())  # a dead end's row carries its bound
        assert set(batch.target[:b][~dead].tolist()) <= {0.0, 1.0, 2.0, 3.0}
        # A sampled dead end brings no sibling pair (no optimal successor to rank); of the live
        # states only c0 and c1 (h* 3 and 2) have a second successor, the pit.
        assert batch.sibling_pairs is not None
        assert len(batch.sibling_pairs) == int((~dead & (batch.target[:b] >= 2)).sum())
        assert not batch.lower_bound[b:].any()  # siblings stay unbounded without --dead-end-bound
    assert sampled_dead > 0 and sampled_live > 0
    assert bounds_seen == {3.0, 4.0}


def test_no_dead_end_states_keeps_the_batches(corridor_dataset: Path) -> None:
    tasks = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False).split("train")
    plain = PairSampler(tasks, 20, "rename-one", seed=5, ranking=True).batch(3, 16)
    zero = PairSampler(tasks, 20, "rename-one", seed=5, ranking=True, dead_end_states=0.0).batch(3, 16)
    assert torch.equal(plain.pred, zero.pred) and torch.equal(plain.target, zero.target)
    assert zero.lower_bound is None
    with pytest.raises(SymtError, match="dead-end states"):
        PairSampler(tasks, 20, "rename-one", seed=5, dead_end_states=1.5)


# ---------------------------------------------------------------- the dead-end head (--dead-end-head)


def corridor_batch(dataset: Path) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Every state of the task that starts at c0 (pred, args, mask) and whether it is the pit."""
    from symt.tokens import collate, identity_assignment, rename

    task = load_dataset(dataset, splits=("train",), vocab_size=20, progress=False).split("train")[0]
    space = task.space
    assert space is not None
    rows = [rename(task.encoded.state_rows(space.state_facts(i)), identity_assignment(task.encoded.num_objects), 20)
            for i in range(space.num_states)]
    pred, args, mask = collate(rows, 20)
    return pred, args, mask, torch.from_numpy(~(space.hstar < math.inf))


@pytest.mark.parametrize("linear", [False, True])
def test_an_exported_head_marks_inf_exactly_where_it_fires(corridor_dataset: Path, tmp_path: Path,
                                                           linear: bool) -> None:
    """The exported module returns +inf where the head's probability exceeds the threshold and
    the model's h elsewhere; in training and validation (marks_dead_ends off) h stays finite. The
    same for a linear head, whose logit is one linear map of the pooled sum."""
    from symt.export import export, load_exported
    from symt.model import SymTE
    from symt.tokens import domain_signature
    from test_model import TINY

    pred, args, mask, _ = corridor_batch(corridor_dataset)
    dataset = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False)
    from symt.model_config import ModelConfig

    model_config = ModelConfig(num_predicates=dataset.signature.num_predicates, max_arity=dataset.signature.max_arity,
                               vocab_size=20, dead_end_head=True, dead_end_threshold=0.5,
                               dead_end_linear=linear, **TINY)
    torch.manual_seed(3)
    model = SymTE(model_config).eval()
    assert len(model.dead_end) == (1 if linear else 3)
    with torch.no_grad():
        h, logits, _, _ = model.forward_with_dead_ends(pred, args, mask)
        # A threshold inside the five states' logits, so that the head fires on some and not others.
        middle = float(logits.median())
        model.dead_end[-1].bias.sub_(middle - 1e-4)
        h, logits, _, _ = model.forward_with_dead_ends(pred, args, mask)
        plain = model(pred, args, mask)[0]
    fires = logits > 0
    assert 0 < int(fires.sum()) < len(fires)
    assert torch.isfinite(plain).all() and torch.allclose(plain, h)
    checkpoint = tmp_path / "head.ckpt"
    torch.save({"model_config": model_config.to_dict(), "model": model.state_dict(),
                "signature": domain_signature(dataset.domain).to_json()}, checkpoint)
    meta = export(checkpoint, tmp_path / "head.pt")
    module, _ = load_exported(tmp_path / "head.pt")
    assert int(module.symt_dead_ends) == 1 and meta["model"]["dead_end_head"] is True
    with torch.no_grad():
        exported = module(pred, args, mask)
    assert torch.equal(torch.isinf(exported), fires)
    assert torch.allclose(exported[~fires], h[~fires], atol=1e-5)
    if linear:  # the logit is a sum of each atom's share plus the bias
        with torch.no_grad():
            x = model.encode(pred, args, mask)[0][..., : model.k]
            shares = (model.dead_end[0].weight @ x.unsqueeze(-1)).squeeze(-1).squeeze(-1)
            summed = (shares * model.token_mask(pred, mask).float()).sum(dim=1) + model.dead_end[0].bias
        assert torch.allclose(summed, logits, atol=1e-4)


def test_a_model_without_the_head_is_exported_as_before(corridor_dataset: Path, tmp_path: Path) -> None:
    from symt.export import export, load_exported
    from symt.model import SymTE
    from symt.model_config import ModelConfig
    from symt.tokens import domain_signature
    from test_model import TINY

    dataset = load_dataset(corridor_dataset, splits=("train",), vocab_size=20, progress=False)
    config = ModelConfig(num_predicates=dataset.signature.num_predicates, max_arity=dataset.signature.max_arity,
                         vocab_size=20, **TINY)
    model = SymTE(config)
    assert list(model.dead_end.parameters()) == []
    torch.save({"model_config": config.to_dict(), "model": model.state_dict(),
                "signature": domain_signature(dataset.domain).to_json()}, tmp_path / "plain.ckpt")
    export(tmp_path / "plain.ckpt", tmp_path / "plain.pt")
    assert int(load_exported(tmp_path / "plain.pt")[0].symt_dead_ends) == 0
    with pytest.raises(ValueError, match="pooled readout"):
        SymTE(ModelConfig(num_predicates=3, max_arity=2, readout="atoms", dead_end_head=True, **TINY))
    with pytest.raises(ValueError, match="needs dead_end_head"):
        SymTE(ModelConfig(num_predicates=3, max_arity=2, dead_end_linear=True, **TINY))
    from symt.model_routed import heuristic_model

    with pytest.raises(ValueError, match="objects attention has no dead-end head"):
        heuristic_model(ModelConfig(num_predicates=3, max_arity=2, attention="objects", dead_end_head=True, **TINY))


def test_a_counting_head_counts_the_fluents_alone_in_both_paths() -> None:
    """A ``dead_end_count`` head has no constant and reads the sum of the state's fluents only:
    its logit is the sum of the fluents' shares (the context atoms' features take no part), the
    exported marks are +inf exactly where it is positive, and the cached-context path
    (``forward_states``, the plugin's) marks the same states with the same finite values."""
    from symt.export import ExportedContextSymTE
    from symt.model import SymTE
    from symt.model_config import ModelConfig
    from symt.tokens import collate
    from test_model import CONTEXT_PREDICATES, TINY, random_batch, split_rows, tiny_model

    model = tiny_model(context_predicates=CONTEXT_PREDICATES, dead_end_head=True, dead_end_count=True)
    head = model.dead_end[0]
    assert len(model.dead_end) == 1 and head.bias is None
    rng = np.random.default_rng(7)
    context = split_rows(random_batch(rng, [80])[0])[1]
    states = [split_rows(r)[0] for r in random_batch(rng, [12, 5, 9, 14, 7, 10])]
    full = collate([np.concatenate([s, context]) for s in states], 20)
    with torch.no_grad():
        x = model.encode(*full)[0][..., : model.k]
        fluents = full[2] & ~model.is_context[full[0]]
        pooled_fluents = (x * fluents.unsqueeze(-1).float()).sum(dim=1)
        # Weights that put the logits of the six states at +-1, so that the head fires on three.
        targets = torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0, 1.0])
        head.weight.copy_(torch.linalg.lstsq(pooled_fluents, targets[:, None]).solution.T)
        h, logits, _, _ = model.forward_with_dead_ends(*full)
        shares = (x @ head.weight.T).squeeze(-1)
        assert torch.allclose(logits, (shares * fluents.float()).sum(dim=1), atol=1e-4)
        assert torch.allclose(logits, targets, atol=1e-3)
        model.marks_dead_ends = True
        marked = model(*full)[0]
        cache = model.encode_context(*(t[0] for t in collate([context], 20)[:2]))
        cached = model.forward_states(*cache, *collate(states, 20))
        # As `symt export` writes it: TorchScript of the same module gives the same values.
        scripted = torch.jit.script(ExportedContextSymTE(model))
        assert torch.equal(scripted(*full), marked)
        assert torch.equal(scripted.forward_states(*cache, *collate(states, 20)), cached)
    fires = targets > 0
    assert torch.equal(torch.isinf(marked), fires) and torch.equal(torch.isinf(cached), fires)
    assert torch.allclose(marked[~fires], h[~fires], atol=1e-5)
    assert torch.allclose(cached[~fires], h[~fires], atol=1e-4)
    with pytest.raises(ValueError, match="needs context attention"):
        tiny_model(dead_end_head=True, dead_end_count=True)
    with pytest.raises(ValueError, match="needs dead_end_head"):
        SymTE(ModelConfig(num_predicates=3, max_arity=2, context_predicates=[1], dead_end_count=True, **TINY))


@pytest.mark.train
def test_a_sampled_dead_end_teaches_the_head_not_h(corridor_dataset: Path, tmp_path: Path) -> None:
    """With the head, a sampled dead end (the pit) leaves h's regression and is labelled dead in
    the cross-entropy, as is a dead-end sibling; live states are labelled live."""
    trainer = Trainer(config_for(corridor_dataset, tmp_path / "run", vocab_size=20, w_rank=1.0,
                                 dead_end_states=0.5, dead_end_head=True, contrastive=False), progress=False)
    batch = trainer.sampler.batch(0, trainer.config.batch_size)  # the batch of step 0
    b = batch.num_sampled
    assert batch.lower_bound is not None and batch.lower_bound[:b].any() and not batch.lower_bound[:b].all()
    with torch.no_grad():  # h = 1000 * scale everywhere; the head's logit 0 (p = 1/2) everywhere
        trainer.model.readout[-1].weight.zero_()
        trainer.model.readout[-1].bias.fill_(1000.0)
        trainer.model.dead_end[-1].weight.zero_()
        trainer.model.dead_end[-1].bias.zero_()
    predicted = 1000.0 * float(trainer.model.target_scale)
    regressed = torch.isfinite(batch.target)
    regressed[:b] &= ~batch.lower_bound[:b]
    errors = (predicted - batch.target[regressed]) ** 2
    losses = trainer.train_step(0)
    assert losses[0] == pytest.approx(float(errors.mean()), rel=1e-4)
    assert losses[5] == pytest.approx(math.log(2), rel=1e-4)  # the cross-entropy of p = 1/2
    dead = ~torch.isfinite(batch.target) | batch.lower_bound
    assert int(dead.sum()) > int(batch.lower_bound[:b].sum())  # dead-end siblings are labelled too


@pytest.mark.train
def test_the_head_starts_fresh_from_a_teacher_and_learns_towards_the_labels(corridor_dataset: Path,
                                                                            tmp_path: Path) -> None:
    """Fine-tuned from a teacher without the head (--init-from-teacher): the teacher's weights are
    loaded and the head starts fresh; a step of the cross-entropy alone (no other term) raises the
    head's logits of the batch's dead ends against those of its live states."""
    teacher_run = tmp_path / "teacher"
    Trainer(config_for(corridor_dataset, teacher_run, vocab_size=20, steps=20, contrastive=False),
            progress=False).run()
    trainer = Trainer(config_for(corridor_dataset, tmp_path / "run", vocab_size=20, lr=1e-2, warmup=0, w_pred=0.0,
                                 w_teacher=0.0, dead_end_states=0.5, dead_end_head=True, contrastive=False,
                                 teacher=str(teacher_run / "last.pt"), init_from_teacher=True),
                      progress=False)
    teacher_weights = torch.load(teacher_run / "last.pt", weights_only=True)["model"]
    for name, value in trainer.model.state_dict().items():
        assert name.startswith("dead_end.") or torch.equal(value, teacher_weights[name]), name
    batch = trainer.sampler.batch(0, trainer.config.batch_size)  # the batch of step 0
    assert batch.lower_bound is not None
    dead = batch.lower_bound.clone()
    assert dead.any() and not dead.all()

    def logits() -> torch.Tensor:
        trainer.model.eval()
        with torch.no_grad():
            return trainer.model.forward_with_dead_ends(batch.pred, batch.args, batch.mask)[1]

    before = logits()
    trainer.train_step(0)
    change = logits() - before
    assert float(change[dead].mean()) > float(change[~dead].mean())
    # --init-from: the same start from a checkpoint that is no teacher, here with a linear head.
    tuned = Trainer(config_for(corridor_dataset, tmp_path / "tuned", vocab_size=20, dead_end_head=True,
                               dead_end_linear=True, contrastive=False, init_from=str(teacher_run / "last.pt")),
                    progress=False)
    assert tuned.teacher is None and len(tuned.model.dead_end) == 1
    for name, value in tuned.model.state_dict().items():
        assert name.startswith("dead_end.") or torch.equal(value, teacher_weights[name]), name
    with pytest.raises(SymtError, match="give one"):
        Trainer(config_for(corridor_dataset, tmp_path / "both", vocab_size=20, teacher=str(teacher_run / "last.pt"),
                           init_from_teacher=True, init_from=str(teacher_run / "last.pt")), progress=False)
    with pytest.raises(SymtError, match="options do not go together: dead_end_linear .* needs dead_end_head"):
        Trainer(config_for(corridor_dataset, tmp_path / "linear", vocab_size=20, dead_end_linear=True),
                progress=False)


# ---------------------------------------------------------------- symt dead-end-head (a head on frozen features)


@pytest.fixture(scope="module")
def marked_corridor(tmp_path_factory) -> tuple[Path, Path]:
    """The corridor whose fall also sets a flag, ``(broken)``, so that the pit differs from every
    live state by an atom of its own (a tiny model trained for seconds tells it apart by that, not
    by the relation of ``at`` and ``pit``), and a 30-step training run on it: (dataset, best.pt)."""
    root = tmp_path_factory.mktemp("marked-corridor")
    # Only a fall reaches the pit (by `edge`, not `next`), so every dead end has the flag.
    domain = CORRIDOR.replace("(pit ?c))", "(pit ?c) (edge ?c ?d) (broken))").replace(
        "(pit ?p) (next ?c ?p)", "(pit ?p) (edge ?c ?p)").replace(
        ":effect (and (at ?p) (not (at ?c)))", ":effect (and (at ?p) (broken) (not (at ?c)))")
    assert domain.count("broken") == 2 and domain.count("edge") == 2
    problem = PROBLEM.replace("(next c0 hole) (next c1 hole)", "(edge c0 hole) (edge c1 hole)")
    write_corridor(root, domain, problem)
    run = tmp_path_factory.mktemp("marked-run") / "run"
    Trainer(config_for(root, run, vocab_size=20, steps=30, eval_every=30, contrastive=False), progress=False).run()
    return root, run / "best.pt"


@pytest.mark.parametrize("linear", [False, True])
def test_a_head_fitted_on_standardised_features_reads_the_raw_ones(linear: bool) -> None:
    """train_head folds the standardisation into the head's first layer: on raw features of very
    different scales and offsets, labelled by one feature's sign about its offset, the folded head
    (an MLP or one linear layer) marks them as the label says."""
    from symt.training.dead_end_head import rates, train_head

    rng = np.random.default_rng(0)
    scale, offset = np.array([50.0, 0.01, 3.0, 7.0]), np.array([200.0, -1.0, 0.0, 40.0])
    features = rng.normal(size=(400, 4)) * scale + offset
    labels = (features[:, 0] > offset[0]).astype(np.float32)
    head = (torch.nn.Sequential(torch.nn.Linear(4, 1)) if linear else
            torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.GELU(), torch.nn.Linear(16, 1)))
    train_head(head, features, labels, seed=0)
    recall, false = rates(head, features, labels, 0.5)
    assert recall > 0.97 and false < 0.03


@pytest.mark.train
def test_a_fitted_head_marks_the_pit_and_leaves_h_as_it_was(marked_corridor: tuple[Path, Path],
                                                            tmp_path: Path, capsys) -> None:
    from symt.cli import main
    from symt.export import export, load_exported

    dataset, checkpoint = marked_corridor
    out = tmp_path / "head.pt"
    assert main(["dead-end-head", str(checkpoint), str(dataset), "--out", str(out), "--quiet"]) == 0
    export(checkpoint, tmp_path / "plain-model.pt")
    export(out, tmp_path / "head-model.pt")
    plain, _ = load_exported(tmp_path / "plain-model.pt")
    headed, meta = load_exported(tmp_path / "head-model.pt")
    assert meta["model"]["dead_end_head"] is True and int(headed.symt_dead_ends) == 1
    assert meta["model"]["dead_end_linear"] is False
    # Refitted from the model with the MLP head: its head of another shape is replaced.
    assert main(["dead-end-head", str(out), str(dataset), "--out", str(tmp_path / "linear.pt"), "--quiet",
                 "--linear"]) == 0
    linear = export(tmp_path / "linear.pt", tmp_path / "linear-model.pt")
    assert linear["model"]["dead_end_linear"] is True
    weights = torch.load(tmp_path / "linear.pt", weights_only=True)["model"]
    assert sorted(name for name in weights if name.startswith("dead_end.")) == ["dead_end.0.bias", "dead_end.0.weight"]
    pred, args, mask, pit = corridor_batch(dataset)
    with torch.no_grad():
        before, after = plain(pred, args, mask), headed(pred, args, mask)
    assert torch.equal(torch.isinf(after), pit)  # the pit, and no live state
    assert torch.allclose(after[~pit], before[~pit], atol=1e-5)  # h as trained
    # Nothing of the user's is overwritten: an existing output needs --force, the input never.
    written = out.read_bytes()
    assert main(["dead-end-head", str(checkpoint), str(dataset), "--out", str(out), "--quiet"]) != 0
    assert main(["dead-end-head", str(checkpoint), str(dataset), "--out", str(checkpoint), "--force", "--quiet"]) != 0
    errors = capsys.readouterr().err.splitlines()
    assert errors == [f"symt: error: {out}: exists; give --force to replace it",
                      f"symt: error: {checkpoint}: the checkpoint read; write the model with its head to another file"]
    assert out.read_bytes() == written
    # A counting head needs a model that tells the fluents from the context (this one has no context).
    assert main(["dead-end-head", str(checkpoint), str(dataset), "--out", str(tmp_path / "count.pt"), "--quiet",
                 "--count"]) != 0
    assert "this head does not fit the model: dead_end_count counts the state's fluents apart from the task's " \
           "context: it needs context attention" in capsys.readouterr().err
    assert not (tmp_path / "count.pt").exists()
    # A fine-tune from the model with the MLP head into one with a linear head: the encoder and h's
    # readout carry over, the head of another shape starts fresh.
    tuned = Trainer(config_for(dataset, tmp_path / "tuned", vocab_size=20, dead_end_head=True, dead_end_linear=True,
                               contrastive=False, init_from=str(out)), progress=False)
    start = torch.load(out, weights_only=True)["model"]
    assert len(tuned.model.dead_end) == 1
    for name, value in tuned.model.state_dict().items():
        assert name.startswith("dead_end.") or torch.equal(value, start[name]), name
