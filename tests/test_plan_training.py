"""Training plan generators (SymT-ED, PlanGPT): learning, exact resume, the model file."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from symt.errors import SymtError
from symt.plangen.planner import load_planner
from symt.plangen.train import PlanTrainConfig, PlanTrainer


def plan_config(dataset: Path, out: Path, **overrides) -> PlanTrainConfig:
    options = dict(data=str(dataset), out=str(out), vocab_size=12, steps=20, batch_size=8, eval_every=10,
                   val_samples=16, coverage_tasks=1, warmup=5, threads=1, device="cpu", seed=3,
                   model_overrides={"d_model": 32, "n_heads": 2, "n_layers": 2, "d_ff": 64, "d_embed": 16,
                                    "k": 8})
    options.update(overrides)
    if options.get("kind") == "plangpt":  # GPT-2 blocks: no separate MLP or embedding width
        options["model_overrides"] = {k: v for k, v in options["model_overrides"].items()
                                      if k not in ("d_ff", "d_embed")}
    return PlanTrainConfig(**options)


@pytest.mark.train
@pytest.mark.parametrize("kind", ["symt-ed", "plangpt"])
def test_plan_training_resumes_to_the_same_weights(gripper_dataset, tmp_path, kind):
    """Stopping after 10 steps and resuming gives bit-identical weights to one straight run,
    contrastive terms included (schedule "always": they are on from step 0)."""
    options = dict(kind=kind, schedule="always")
    straight = PlanTrainer(plan_config(gripper_dataset, tmp_path / "a", **options), progress=False)
    straight.run()
    PlanTrainer(plan_config(gripper_dataset, tmp_path / "b", **options), progress=False).run(stop_at=10)
    resumed = PlanTrainer(plan_config(gripper_dataset, tmp_path / "b", **options), resume=True, progress=False)
    assert resumed.step == 10
    resumed.run()
    for (name, a), b in zip(straight.model.state_dict().items(), resumed.model.state_dict().values()):
        assert torch.equal(a, b), name
    assert [r["train_ce"] for r in straight.history] == [r["train_ce"] for r in resumed.history]
    assert straight.history[-1]["train_att"] > 0  # the contrastive terms did run
    planner = load_planner(tmp_path / "b" / "best.pt")
    assert planner.kind == kind and planner.vocab.vocab_size == 12


@pytest.mark.train
def test_symted_learns_gripper_plans(gripper_dataset, tmp_path):
    """A few hundred steps take the cross-entropy far below its plateau, the entropy of the plan
    tokens' frequencies (what predicting the token distribution alone achieves), on training
    samples and on validation states from a larger task (5 balls; training: 2-4)."""
    config = plan_config(gripper_dataset, tmp_path / "l", steps=600, eval_every=300, batch_size=16,
                         lr=3e-3, contrastive=False, val_samples=64,
                         model_overrides={"d_model": 64, "n_heads": 4, "n_layers": 2, "d_ff": 128,
                                          "d_embed": 16, "k": 8})
    trainer = PlanTrainer(config, progress=False)
    plateau = trainer.plateau
    final = trainer.run()
    assert final["train_ce"] < 0.5 * plateau, (final, plateau)
    assert final["val_loss"] < 0.6 * plateau, (final, plateau)
    assert final["val_accuracy"] > 0.6, final


@pytest.mark.train
def test_contrastive_terms_wait_for_the_plateau(gripper_dataset, tmp_path):
    """after-plateau: no contrastive weight until the CE has left its plateau, then a ramp."""
    config = plan_config(gripper_dataset, tmp_path / "s", steps=60, eval_every=30, lr=3e-3,
                         plateau_fraction=1e-6)
    trainer = PlanTrainer(config, progress=False)
    trainer.run()
    assert trainer.contrastive_start is None
    assert all(r["contrastive_weight"] == 0 and r["train_att"] == 0 for r in trainer.history)


@pytest.mark.parametrize("kind", ["symt-ed", "plangpt"])
def test_renamed_view_has_its_own_renamed_plan(gripper_dataset, tmp_path, kind):
    """The second view of a pair is trained on its own plan: the same actions, with every object
    token renamed exactly as the objects of its input atoms."""
    trainer = PlanTrainer(plan_config(gripper_dataset, tmp_path / "v", kind=kind), progress=False)
    batch = trainer.sampler.batch(0, 8)
    vocab = trainer.vocab
    first, second = batch.target, batch.target_renamed
    assert second is not None and first.shape == second.shape
    is_object = (first >= vocab.num_schemas) & (first < vocab.bos)
    assert torch.equal(first[~is_object], second[~is_object])  # schemas, <EOS>, padding
    assert not torch.equal(first[is_object], second[is_object])
    if kind == "symt-ed":
        args, args_renamed, mask = batch.inputs[1], batch.inputs_renamed[1], batch.inputs[2]
    else:  # PlanGPT: one sequence of predicate, object and plan tokens
        args, args_renamed, mask = batch.inputs[0], batch.inputs_renamed[0], ~batch.inputs[1]
    for row in range(first.shape[0]):
        if kind == "symt-ed":
            pairs = zip(args[row][mask[row]].flatten().tolist(), args_renamed[row][mask[row]].flatten().tolist())
            renaming = {vocab.object_token(a): vocab.object_token(b) for a, b in pairs
                        if a < vocab.vocab_size}
        else:  # input id of plan token t: offset + t
            offset = trainer.model.plan_token(0)
            renaming = {a - offset: b - offset
                        for a, b in zip(args[row][mask[row]].tolist(), args_renamed[row][mask[row]].tolist())
                        if offset + vocab.num_schemas <= a < offset + vocab.bos}
        for a, b in zip(first[row][is_object[row]].tolist(), second[row][is_object[row]].tolist()):
            assert renaming[a] == b


@pytest.mark.train
def test_regrounding_with_a_trained_tiny_model_solves_small_gripper_tasks(gripper_dataset, tmp_path):
    """A tiny SymT-ED (2 layers, width 64) trained for 1,500 steps on Gripper with 2-4 balls
    solves held-out Gripper tasks with 2-5 balls by regrounding decoding; VAL accepts every plan
    and none is shorter than the optimum (3n - 1 for even n, 3n for odd n, n > 1)."""
    from symt.generators import generate_task
    from symt.pddl import ground, parse_domain, parse_problem
    from symt.plangen.decoding import generate
    from symt.tokens import encode_task
    from symt.val import run_val

    config = plan_config(gripper_dataset, tmp_path / "tiny", steps=1500, eval_every=1500, batch_size=32,
                         lr=3e-3, warmup=50, contrastive=False, val_samples=64,
                         model_overrides={"d_model": 64, "n_heads": 4, "n_layers": 2, "d_ff": 128,
                                          "d_embed": 16, "k": 8})
    trainer = PlanTrainer(config, progress=False)
    trainer.run()
    planner = load_planner(tmp_path / "tiny" / "best.pt")
    domain_path = gripper_dataset / "domain.pddl"
    domain = parse_domain(domain_path)
    for balls in (2, 3, 4, 5):
        problem_path = tmp_path / f"gripper-{balls}.pddl"
        problem_path.write_text(generate_task("gripper", balls, 500 + balls, f"held-out-{balls}"))
        task = ground(domain, parse_problem(problem_path, domain))
        result = generate(planner, encode_task(task, planner.signature, domain), "regrounding")
        assert result.solved, (balls, result.reason)
        plan_path = tmp_path / f"gripper-{balls}.plan"
        plan_path.write_text("".join(f"{label}\n" for label in result.labels(task)))
        verdict = run_val(domain_path, problem_path, plan_path)
        assert verdict.valid, verdict.output
        assert len(result.actions) >= (3 * balls - 1 if balls % 2 == 0 else 3 * balls)


def test_plangpt_refuses_widths_it_does_not_have(gripper_dataset, tmp_path):
    config = plan_config(gripper_dataset, tmp_path / "g", kind="plangpt")
    config.model_overrides["d_ff"] = 64
    with pytest.raises(SymtError, match="PlanGPT has no option --d-ff"):
        PlanTrainer(config, progress=False)


@pytest.mark.train
def test_plan_training_without_clipping_still_learns_and_resume_checks_options(gripper_dataset, tmp_path):
    """grad_clip = 0 means no clipping (not gradients scaled to zero); a finished run is refused
    without --resume, and a resume with other options names the option."""
    # Without weight decay, only gradients move the weights (clipping to norm 0 would freeze them).
    trainer = PlanTrainer(plan_config(gripper_dataset, tmp_path / "c", grad_clip=0.0, weight_decay=0.0),
                          progress=False)
    before = [p.detach().clone() for p in trainer.model.parameters()]
    trainer.run()
    assert any(not torch.equal(a, b) for a, b in zip(before, trainer.model.parameters()))
    with pytest.raises(SymtError, match="already holds a training run"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "c", grad_clip=0.0, weight_decay=0.0), progress=False)
    with pytest.raises(SymtError, match="option 'seed' differs"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "c", seed=4), resume=True, progress=False)


@pytest.mark.train
def test_plan_training_ctrl_c_saves_and_resumes(gripper_dataset, tmp_path, monkeypatch):
    """Ctrl-C mid-epoch: last.pt is written, and --resume reaches the uninterrupted weights."""
    straight = PlanTrainer(plan_config(gripper_dataset, tmp_path / "a"), progress=False)
    straight.run()
    interrupted = PlanTrainer(plan_config(gripper_dataset, tmp_path / "b"), progress=False)
    step = interrupted.train_step

    def ctrl_c_at_step_7(index):
        if index == 7:
            raise KeyboardInterrupt
        return step(index)

    monkeypatch.setattr(interrupted, "train_step", ctrl_c_at_step_7)
    with pytest.raises(SymtError, match="interrupted at step 7; continue with `symt train-plans"):
        interrupted.run()
    resumed = PlanTrainer(plan_config(gripper_dataset, tmp_path / "b"), resume=True, progress=False)
    assert resumed.step == 7
    resumed.run()
    for (name, a), b in zip(straight.model.state_dict().items(), resumed.model.state_dict().values()):
        assert torch.equal(a, b), name
    assert [r["train_ce"] for r in straight.history] == pytest.approx([r["train_ce"] for r in resumed.history])


@pytest.mark.train
def test_a_plan_checkpoint_from_before_the_shared_shape_still_resumes(gripper_dataset, tmp_path):
    """last.pt as the plan trainer wrote it before the shared training base (no version, one
    optimiser group over model.parameters()) resumes to the weights of an uninterrupted run."""
    options = dict(weight_decay=0.0)  # the old single group decayed everything; here nothing
    straight = PlanTrainer(plan_config(gripper_dataset, tmp_path / "a", **options), progress=False)
    straight.run()
    first = PlanTrainer(plan_config(gripper_dataset, tmp_path / "b", **options), progress=False)
    first.run(stop_at=10)
    new = torch.load(tmp_path / "b" / "last.pt", weights_only=False)
    order = [p for group in first.model.optimizer_groups(0.0) for p in group["params"]]
    old_index = {id(p): i for i, p in enumerate(first.model.parameters())}
    moments = {old_index[id(order[i])]: state for i, state in new["optimizer"]["state"].items()}
    group = {k: v for k, v in new["optimizer"]["param_groups"][0].items() if k != "params"}
    legacy = {"state_dict": new["model"], "step": 10, "history": new["trainer"]["history"],
              "best_key": new["trainer"]["best"], "ema_ce": new["trainer"]["ema_loss"],
              "contrastive_start": new["trainer"]["contrastive_start"], "config": new["train_config"],
              "optimizer": {"state": moments, "param_groups": [{**group, "params": sorted(old_index.values())}]}}
    torch.save(legacy, tmp_path / "b" / "last.pt")
    resumed = PlanTrainer(plan_config(gripper_dataset, tmp_path / "b", **options), resume=True, progress=False)
    assert resumed.step == 10
    resumed.run()
    for (name, a), b in zip(straight.model.state_dict().items(), resumed.model.state_dict().values()):
        assert torch.equal(a, b), name


def test_plan_prefix_targets_are_the_first_actions_of_the_plan(gripper_dataset, tmp_path):
    """With ``plan_prefix`` 1 every target is one action (schema + its objects), with ``<EOS>`` only
    where the plan ends there (a state one step from the goal) or is empty (a goal state), and
    the same draw without the prefix starts with the same action."""
    whole = PlanTrainer(plan_config(gripper_dataset, tmp_path / "w", contrastive=False), progress=False)
    cut = PlanTrainer(plan_config(gripper_dataset, tmp_path / "c", contrastive=False, plan_prefix=1,
                                  coverage_decoding="regrounding"), progress=False)
    vocab = cut.vocab
    arity = dict(enumerate(a for _, a in vocab.schemas))
    a, b = whole.sampler.batch(7, 32), cut.sampler.batch(7, 32)
    ended = 0
    for full, first in zip(a.target.tolist(), b.target.tolist()):
        full = [t for t in full if t != -100]
        first = [t for t in first if t != -100]
        if full == [vocab.eos]:
            assert first == [vocab.eos]
            continue
        length = 1 + arity[full[0]]
        assert first[:length] == full[:length]
        assert first[length:] == ([vocab.eos] if full[length] == vocab.eos else [])
        ended += full[length] == vocab.eos
    assert ended < 32  # most plans go on: their targets have no <EOS>


def test_plan_prefix_needs_regrounding_to_choose_checkpoints(gripper_dataset, tmp_path):
    with pytest.raises(SymtError, match="regrounding"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "p", plan_prefix=1), progress=False)
    with pytest.raises(SymtError, match="unknown decoding"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "q", coverage_decoding="beam"), progress=False)


@pytest.mark.train
def test_init_encoder_copies_a_symte_checkpoints_encoder(gripper_dataset, tmp_path):
    """``init_encoder`` starts SymT-ED's encoder from a SymT-E checkpoint of the same sizes (weights
    equal, readout left out); a SymT-E of another width is refused, naming a weight."""
    from symt.training.config import TrainConfig
    from symt.training.trainer import Trainer

    sizes = {"d_model": 32, "n_heads": 2, "n_layers": 2, "d_ff": 64, "d_embed": 16, "k": 8}
    common = dict(data=str(gripper_dataset), vocab_size=12, steps=10, batch_size=8, eval_every=10,
                  val_samples=16, coverage_tasks=1, threads=1, device="cpu")
    Trainer(TrainConfig(out=str(tmp_path / "e"), model_overrides=sizes, **common), progress=False).run()
    trainer = PlanTrainer(plan_config(gripper_dataset, tmp_path / "d", init_encoder=str(tmp_path / "e" / "best.pt")),
                          progress=False)
    source = torch.load(tmp_path / "e" / "best.pt", weights_only=True)["model"]
    for name, value in trainer.model.encoder.state_dict().items():
        assert torch.equal(value, source[name]), name
    Trainer(TrainConfig(out=str(tmp_path / "f"), model_overrides={**sizes, "d_model": 16}, **common),
            progress=False).run()
    with pytest.raises(SymtError, match="does not fit"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "g", init_encoder=str(tmp_path / "f" / "best.pt")),
                    progress=False)


@pytest.mark.train
def test_symted_with_achieved_goals_and_object_bias_round_trips(gripper_dataset, tmp_path):
    """A SymT-ED trained with achieved goals marked and the shared-object bias writes both into its
    file: the loaded planner encodes tasks with achieved-goal predicates (3P embedding rows), its
    encoder has the bias, and regrounding decodes with it; PlanGPT refuses both options."""
    from symt.pddl import ground, parse_domain, parse_problem
    from symt.plangen.decoding import generate
    from symt.tokens import encode_task

    overrides = {"d_model": 32, "n_heads": 2, "n_layers": 2, "d_ff": 64, "d_embed": 16, "k": 8,
                 "attention_bias": "shared-object"}
    PlanTrainer(plan_config(gripper_dataset, tmp_path / "a", achieved_goals=True, model_overrides=overrides,
                            steps=10), progress=False).run()
    planner = load_planner(tmp_path / "a" / "best.pt")
    assert planner.signature.achieved_goals
    assert planner.model.encoder.pred_embedding.num_embeddings == 3 * planner.signature.num_predicates
    assert planner.model.encoder.layer.shared_object
    domain = parse_domain(gripper_dataset / "domain.pddl")
    problem = sorted((gripper_dataset / "validation").glob("*.pddl"))[0]
    task = ground(domain, parse_problem(problem, domain))
    encoded = encode_task(task, planner.signature, domain)
    goal_ids = {row[0] for row in encoded.fluent_rows.tolist()}
    assert max(goal_ids) >= 2 * planner.signature.num_predicates  # a ball's at-goal atom is marked
    assert generate(planner, encoded, "regrounding").tokens > 0
    with pytest.raises(SymtError, match="SymT-ED options"):
        PlanTrainer(plan_config(gripper_dataset, tmp_path / "b", kind="plangpt", achieved_goals=True),
                    progress=False)


@pytest.mark.parametrize("kind", ["symt-ed", "plangpt"])
def test_all_optimal_targets_are_the_optimal_continuations(gripper_dataset, tmp_path, kind):
    """``plan_targets`` ``all-optimal``: at each target position the allowed tokens hold the drawn
    token, and a first action's allowed schema tokens are exactly those of the state's optimal
    actions, found here by h* over the explicit successors (not by the sampler's code path); the
    loss is the cross-entropy where every set is one token, and smaller where sets are larger."""
    from symt.plangen.batches import IGNORE, token_loss

    options = dict(contrastive=False, plan_prefix=1, coverage_decoding="regrounding", kind=kind,
                   plan_targets="all-optimal")
    trainer = PlanTrainer(plan_config(gripper_dataset, tmp_path / "t", **options), progress=False)
    sampler = trainer.sampler
    batch = sampler.batch(5, 32)
    assert batch.allowed is not None and batch.allowed.shape == (*batch.target.shape, trainer.vocab.num_outputs)
    keep = batch.target != IGNORE
    assert bool(batch.allowed[keep].gather(-1, batch.target[keep][:, None]).all())  # the drawn token is allowed
    assert not bool(batch.allowed[~keep].any())
    # Sample 0's state again (the batch is a pure function of seed and step), its optimal first
    # schemas recomputed from h*.
    import numpy as np

    from symt.data import derive_seed

    rng = np.random.default_rng(derive_seed(sampler.seed, "plan-batch", 5))
    task_ids = rng.integers(len(sampler.tasks), size=32)
    several = 0
    for slot in range(32):
        data = sampler.tasks[task_ids[slot]]
        state = data.space.sampler(derive_seed(sampler.seed, "plan-state", 5, slot)).sample_state()
        h = data.space.hstar
        if h[state] == 0:
            continue
        actions, targets = data.space.successors(state)
        best = {data.task.actions[a].name for a, t in zip(actions, targets) if h[t] == h[state] - 1}
        first = int(keep[slot].nonzero()[0])
        schemas = {trainer.vocab.schemas[t][0] for t in batch.allowed[slot, first].nonzero().flatten().tolist()}
        assert schemas == best, (schemas, best)
        several += int(batch.allowed[slot].sum(-1).max()) > 1
    assert several > 0  # Gripper's states often have several optimal first actions
    logits = torch.randn(*batch.target.shape, trainer.vocab.num_outputs)
    single = torch.zeros_like(batch.allowed).scatter_(-1, batch.target.clamp(min=0)[..., None], True) & keep[..., None]
    assert torch.allclose(token_loss(logits, batch.target, single), token_loss(logits, batch.target, None))
    assert token_loss(logits, batch.target, batch.allowed) < token_loss(logits, batch.target, None)


def test_symted_reads_the_object_graph_with_its_max_distance(tmp_path):
    """``symt train-plans --attention-bias object-distance --max-distance 2``: the encoder's object
    graph is Visitall's ``connected`` relation (the only static relation of arity 2) and its
    distances are capped at 2; the checkpoint's model plans by regrounding with them. PlanGPT
    refuses --max-distance as it refuses the other encoder options."""
    from conftest import make_dataset
    from symt.cli import main
    from symt.pddl import ground, parse_domain, parse_problem
    from symt.plangen.decoding import generate
    from symt.tokens import collate, encode_task, identity_assignment, rename

    data = make_dataset(tmp_path / "data", "visitall", {"train": [3, 4], "validation": [6]})
    code = main(["train-plans", str(data), "--kind", "symt-ed", "--steps", "2", "--eval-every", "2",
                 "--batch-size", "4", "--d-model", "32", "--n-heads", "2", "--n-layers", "2", "--d-ff", "64",
                 "--k", "8", "--plan-prefix", "1", "--coverage-decoding", "regrounding", "--coverage-tasks", "1",
                 "--attention-bias", "object-distance", "--max-distance", "2", "--threads", "1", "--quiet",
                 "--out", str(tmp_path / "run")])
    assert code == 0
    planner = load_planner(tmp_path / "run" / "best.pt")
    encoder = planner.model.encoder
    assert encoder.layer.object_distance and encoder.max_distance == 2
    graph = [planner.signature.predicates[i][0] for i in encoder.is_graph.nonzero().flatten().tolist()]
    assert graph == ["connected"]
    domain = parse_domain(data / "domain.pddl")
    task = ground(domain, parse_problem(sorted((data / "validation").glob("*.pddl"))[0], domain))
    encoded = encode_task(task, planner.signature, domain)
    rows = rename(encoded.state_rows(list(task.init)), identity_assignment(len(task.objects)), encoder.vocab_size)
    pred, args, mask = collate([rows], encoder.vocab_size)
    _, distances = encoder.object_distances(pred[0], args[0], mask[0])
    assert distances.numel() > 0 and distances[torch.isfinite(distances)].max() == 2
    assert generate(planner, encoded, "regrounding").tokens > 0
    with pytest.raises(SymtError, match="SymT-ED options"):
        PlanTrainer(plan_config(data, tmp_path / "b", kind="plangpt", model_overrides={"max_distance": 3}),
                    progress=False)
