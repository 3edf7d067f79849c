"""Training SymT-ED and PlanGPT on random optimal plans (paper, "Training data", Appendix E).

A sample: a training task uniformly, a goal distance uniformly among those in its state space, a
state at that distance uniformly, then a uniformly random optimal plan from it (the C++ sampler),
written as plan tokens. Each sample becomes a pair (X, Y) / (X', Y') under two object renamings
(Rename-Both by default, as the paper found best for plan generation). Loss: cross-entropy on the
next plan token, plus the contrastive L_att + L_hid over every attention map and layer. As for
SymT-E, the ``after-plateau`` schedule (default) switches them on only once the cross-entropy has
left its plateau (EMA of the training CE below ``plateau_fraction`` times the entropy of the plan
tokens' frequencies, what predicting the token distribution alone achieves), then ramps them in
over ``ramp_steps``: at small scale, switched on from step 0 (``always``, the paper), they kept
a Gripper SymT-ED at the plateau (token accuracy 0.12 after 600 steps, against 0.44 without
them). Even after the plateau, the paper's k = 32 with weight 1 sent width-64 models back to it
(``benchmarks/results/training/plan_models.md``); k = 8 with weights 0.1 did not (``--k``, ``--w-att``,
``--w-hid``). Batches are pure functions of ``(seed, step)``, so ``--resume`` continues
exactly. Each epoch: validation loss and token accuracy on fixed states, and greedy coverage on
the validation tasks; the best checkpoint follows the paper's criteria in order: coverage, fewer
token-cap hits, fewer inapplicable actions, fewer malformed plans, accuracy, loss.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import torch

from ..data import derive_seed, load_dataset
from ..errors import SymtError
from ..folders import open_output_folder
from ..model import AtomEncoder
from ..model_config import PRESETS
from ..pddl import Domain
from ..tokens import Signature, graph_predicate_ids, graph_slot_ids
from ..training.base import CHECKPOINT_VERSION, TrainerBase, pick_device, save_atomic
from ..training.config import TrainConfig
from .batches import IGNORE, PlanBatch, PlanSampler, token_loss
from .decoding import STRATEGIES, generate
from .plangpt import PlanGPT, PlanGPTConfig, gpt_contrastive_terms
from .planner import KINDS, Planner
from .symted import SymTED, SymTEDConfig, plan_contrastive_terms
from .vocab import PlanVocabulary


@dataclass
class PlanTrainConfig(TrainConfig):
    """SymT-E's training options (:class:`symt.training.config.TrainConfig`) with plan-generation defaults."""

    kind: str = "symt-ed"
    rename: str = "rename-both"
    plateau_fraction: float = 0.5
    contrastive_by: float = 0.0
    """As :attr:`symt.training.config.TrainConfig.contrastive_by`."""
    ramp_steps: int = 500
    val_samples: int = 256
    max_positions: int = 2048
    """PlanGPT's learned positions: prompt plus plan tokens."""
    plan_prefix: int = 0
    """Train on the first M actions of each sampled optimal plan, ``<EOS>`` only where the whole plan
    fits (0: the whole plan, the paper's). Regrounding decoding reads only the first action of each
    decode, so M = 1 spends the whole loss on what it uses, at a fraction of the decoder's cost; greedy
    and applicability-filtered decoding need the whole plan."""
    init_encoder: str | None = None
    """A SymT-E training checkpoint of the same domain signature (``best.pt``/``last.pt`` of ``symt
    train``) whose encoder weights start the run (the readout is dropped): the encoder's object
    matching (which atoms share an object with a goal atom) took SymT-E thousands of steps, and a
    decoder can read it at once instead of relearning it through the plan tokens."""
    plan_targets: str = "sampled"
    """What each target token asks for. ``sampled``: the token of the one optimal plan drawn (the
    paper's cross-entropy). ``all-optimal``: any token that continues *some* optimal plan from where
    the drawn plan has reached (the state after its earlier actions, the tokens of the action written
    so far); the loss is −log of the probability mass on that set. Where a state has several optimal
    next actions, the paper's target asks the model to split its mass among them in proportion to
    the plans through each, and a regrounding decoder that wavers between them can walk in circles;
    the set target lets it put its mass on any one of them. Validation loss and token accuracy then
    measure the same: the mass on, and the argmax in, the set."""
    coverage_decoding: str = "greedy"
    """The decoding that measures validation coverage for the checkpoint choice (greedy, the paper's;
    applicable; regrounding: the one a ``plan_prefix`` model plans with)."""


def build_model(config: PlanTrainConfig, signature: Signature, domain: Domain, vocab: PlanVocabulary) -> SymTED | PlanGPT:
    """A new SymT-ED or PlanGPT (``config.kind``) of ``config``'s preset and size overrides for the
    tasks of ``domain`` (``signature``); a :class:`~symt.errors.SymtError` for an unknown preset or
    kind, or an option PlanGPT lacks."""
    num_predicates, max_arity = signature.num_predicates, signature.max_arity
    if config.preset not in PRESETS:
        raise SymtError(f"unknown preset '{config.preset}' (choose from {', '.join(PRESETS)})")
    size = {**PRESETS[config.preset], **config.model_overrides}
    if config.kind == "symt-ed":
        keys = {f.name for f in fields(SymTEDConfig)}
        graph = graph_predicate_ids(signature, domain, size.get("attention_bias", "none"))
        return SymTED(SymTEDConfig(num_predicates, max_arity, vocab.num_inputs, vocab.num_outputs,
                                   config.vocab_size, num_schemas=vocab.num_schemas,
                                   achieved_goals=config.achieved_goals, graph_predicates=graph,
                                   graph_slots=graph_slot_ids(signature, domain, graph),
                                   **{k: v for k, v in size.items() if k in keys}))
    if config.kind == "plangpt":
        if (config.achieved_goals or size.get("attention_bias", "none") != "none"
                or size.get("attention_scale", "fixed") != "fixed" or "max_distance" in config.model_overrides):
            raise SymtError("PlanGPT reads symbols, not atoms: --achieved-goals, --attention-bias, "
                            "--attention-scale and --max-distance are SymT-ED options")
        keys = {"d_model", "n_heads", "n_layers", "dropout", "k"}
        # GPT-2's block has no separate embedding width and a 4 x d_model MLP.
        ignored = sorted(k for k in ("d_ff", "d_embed") if k in config.model_overrides)
        if ignored:
            raise SymtError(f"PlanGPT has no option {', '.join('--' + k.replace('_', '-') for k in ignored)} "
                            "(its MLP is 4 x --d-model wide, its embeddings --d-model)")
        return PlanGPT(PlanGPTConfig(num_predicates, vocab.num_inputs, vocab.num_outputs, config.max_positions,
                                     **{k: v for k, v in size.items() if k in keys}))
    raise SymtError(f"unknown model kind '{config.kind}' (choose from {', '.join(KINDS)})")


class PlanTrainer(TrainerBase):
    """SymT-ED or PlanGPT: cross-entropy on the tokens of random optimal plans, with the paper's
    contrastive terms over two renamings of each batch; validated by token loss and accuracy and
    by greedy-decoding coverage (the best checkpoint is a plan-generator file, ``best.pt``)."""

    RESUME_KEYS = (*TrainerBase.RESUME_KEYS, "kind", "max_positions", "plan_prefix", "achieved_goals",
                   "plan_targets")
    LOSS_LABEL = "ce"
    COMMAND = "symt train-plans"

    def __init__(self, config: PlanTrainConfig, resume: bool = False, progress: bool = True):
        self.config, self.progress, self.kind = config, progress, config.kind
        if config.coverage_decoding not in STRATEGIES:
            raise SymtError(f"unknown decoding '{config.coverage_decoding}' (choose from {', '.join(STRATEGIES)})")
        if config.plan_prefix and not config.coverage_decoding.startswith("regrounding"):
            raise SymtError(f"a model trained on the first {config.plan_prefix} action(s) of each plan plans "
                            "only by regrounding: pass --coverage-decoding regrounding")
        self.out = Path(config.out)
        self.run_lock = open_output_folder(self.out)
        self.check_schedule()
        if config.threads:
            torch.set_num_threads(config.threads)
        self.device = pick_device(config.device)
        self.dataset = load_dataset(Path(config.data), ("train", "validation"), config.max_states,
                                    config.vocab_size, progress=progress, achieved_goals=config.achieved_goals)
        signature = self.dataset.signature
        self.vocab = PlanVocabulary.for_domain(self.dataset.domain, config.vocab_size)
        torch.manual_seed(derive_seed(config.seed, "init") % 2**31)
        self.model = build_model(config, signature, self.dataset.domain, self.vocab).to(self.device)
        checkpoint = self.read_checkpoint(resume)
        if config.init_encoder and checkpoint is None:
            self.start_encoder(Path(config.init_encoder))
        self.planner = Planner(config.kind, self.model, signature, self.vocab, config.plan_prefix)
        # The training forward pass, compiled on request (shapes vary with the padded lengths).
        self.train_model = torch.compile(self.model, dynamic=True) if config.compile else self.model
        mode = config.rename if config.contrastive else "off"
        self.sampler = PlanSampler(self.dataset.split("train"), self.vocab, config.kind, mode, config.seed,
                                   signature.num_predicates, config.max_positions, config.length_buckets,
                                   config.plan_prefix, config.plan_targets)
        validation = self.dataset.split("validation")
        expandable = [t for t in validation if t.space is not None and t.space.max_finite_hstar >= 0]
        self.val_batches = []
        if expandable:
            val_sampler = PlanSampler(expandable, self.vocab, config.kind, "off",
                                      derive_seed(config.seed, "validation"), signature.num_predicates,
                                      config.max_positions, plan_prefix=config.plan_prefix,
                                      plan_targets=config.plan_targets)
            self.val_batches = [val_sampler.batch(i, config.batch_size)
                                for i in range(max(1, config.val_samples // config.batch_size))]
        self.start_run(checkpoint, plateau=self._token_entropy())

    def start_encoder(self, path: Path) -> None:
        """Copy the encoder of the SymT-E checkpoint ``path`` into the new SymT-ED model; a
        :class:`~symt.errors.SymtError` when the file is no SymT-E checkpoint, was trained on another
        domain signature, or its encoder's weights differ in name or shape."""
        from ..export import load_checkpoint_model

        if self.kind != "symt-ed":
            raise SymtError("--init-encoder needs --kind symt-ed (PlanGPT has no encoder)")
        source, checkpoint = load_checkpoint_model(path)
        if checkpoint.get("signature") != self.dataset.signature.to_json():
            raise SymtError(f"{path}: trained on another domain signature than {self.config.data}")
        mine = self.model.encoder.state_dict()
        head = set(source.state_dict()) - set(AtomEncoder(source.config).state_dict())  # readout, target scale
        theirs = {name: value for name, value in source.state_dict().items() if name not in head}
        misfits = sorted(set(mine) ^ set(theirs)) + sorted(
            name for name in mine if name in theirs and theirs[name].shape != mine[name].shape)
        if misfits:
            raise SymtError(f"{path}: its encoder does not fit this model ({', '.join(misfits[:3])}); "
                            "train both with the same preset, sizes and object identity")
        self.model.encoder.load_state_dict(theirs)

    def upgrade_checkpoint(self, checkpoint: dict) -> dict:
        """A plan-trainer checkpoint from before the shared shape (no version; one optimiser
        group): the same run in today's shape, its AdamW moments mapped onto the model's groups."""
        if "version" in checkpoint or "state_dict" not in checkpoint:
            return checkpoint
        index = {id(p): i for i, p in enumerate(self.model.parameters())}
        saved = checkpoint["optimizer"]
        hyper = {k: v for k, v in saved["param_groups"][0].items() if k != "params"}
        groups = [{**hyper, "weight_decay": group["weight_decay"], "params": [index[id(p)] for p in group["params"]]}
                  for group in self.model.optimizer_groups(self.config.weight_decay)]
        return {
            "version": CHECKPOINT_VERSION, "kind": checkpoint["config"]["kind"],
            "model": checkpoint["state_dict"], "optimizer": {"state": saved["state"], "param_groups": groups},
            "model_config": self.model.config.to_dict(), "train_config": checkpoint["config"],
            "trainer": {"step": checkpoint["step"], "history": checkpoint["history"],
                        "best": checkpoint["best_key"], "ema_loss": checkpoint.get("ema_ce"),
                        "contrastive_start": checkpoint.get("contrastive_start")},
        }

    def _token_entropy(self) -> float:
        """Entropy (nats) of the plan tokens' frequencies in a few training batches: the CE plateau."""
        counts = np.zeros(self.vocab.num_outputs)
        for step in range(4):
            target = self.sampler.batch(-1 - step, self.config.batch_size).target
            counts += np.bincount(target[target != IGNORE].numpy(), minlength=len(counts))
        p = counts[counts > 0] / counts.sum()
        return float(-(p * np.log(p)).sum())

    def loss(self, batch: PlanBatch, weight: float) -> tuple[torch.Tensor, float, float, float]:
        """Total loss and (CE, L_att, L_hid); both views share one forward pass (the paper's
        effective batch of 2 x batch size), as their shapes agree: only names differ."""
        target, allowed = batch.target, batch.allowed
        inputs = batch.inputs
        if batch.inputs_renamed is not None:
            inputs = tuple(torch.cat([a, b]) for a, b in zip(batch.inputs, batch.inputs_renamed))
            # Each view against its own plan: object tokens are renamed with the input.
            target = torch.cat([target, batch.target_renamed])
            if allowed is not None:
                allowed = torch.cat([allowed, batch.allowed_renamed])
        contrastive = batch.inputs_renamed is not None and weight > 0
        with self.autocast():
            logits, internals = self.train_model(*inputs, return_internals=contrastive)
        ce = token_loss(logits.float(), target, allowed)
        att = hid = torch.zeros((), device=logits.device)
        if contrastive:
            b = batch.target.shape[0]
            first = {name: [x[:b] for x in maps] for name, maps in internals.items()}
            second = {name: [x[b:] for x in maps] for name, maps in internals.items()}
            if self.config.kind == "symt-ed":
                att, hid = plan_contrastive_terms(first, second, batch.inputs[2], batch.target != IGNORE)
            else:
                att, hid = gpt_contrastive_terms(first, second, ~batch.inputs[1])
        total = self.config.w_pred * ce + weight * (self.config.w_att * att + self.config.w_hid * hid)
        return total, ce.item(), float(att.detach()), float(hid.detach())

    @torch.no_grad()
    def validate(self) -> dict[str, float]:
        """Validation cross-entropy and token accuracy on the fixed batches, and coverage on the
        validation tasks by ``coverage_decoding`` (greedy by default) with the shares that hit the
        token cap, wrote an inapplicable action or a malformed plan."""
        self.model.eval()
        losses, correct, total = [], 0, 0
        for batch in self.val_batches:
            batch = batch.to(self.device)
            with self.autocast():
                logits, _ = self.model(*batch.inputs)
            logits = logits.float()
            keep = batch.target != IGNORE
            losses.append(float(token_loss(logits, batch.target, batch.allowed)))
            guess = logits.argmax(-1, keepdim=True)
            hit = (batch.allowed.gather(-1, guess).squeeze(-1) if batch.allowed is not None
                   else guess.squeeze(-1) == batch.target)
            correct += int(hit[keep].sum())
            total += int(keep.sum())
        reasons = {"cap": 0, "inapplicable": 0, "malformed": 0}  # "loop" (regrounding) counts as none
        tasks = self.dataset.split("validation")[: self.config.coverage_tasks]
        solved = 0
        for data in tasks:
            result = generate(self.planner, data.encoded, self.config.coverage_decoding)
            solved += result.solved
            for key in reasons:
                if key in result.reason:  # "token cap (500) reached", "inapplicable action 3: ...", ...
                    reasons[key] += 1
        self.model.train()
        n = max(1, len(tasks))
        return {"val_loss": float(np.mean(losses)) if losses else math.nan,
                "val_accuracy": correct / total if total else math.nan,
                "val_coverage": solved / n, "val_token_cap": reasons["cap"] / n,
                "val_inapplicable": reasons["inapplicable"] / n, "val_malformed": reasons["malformed"] / n}

    def train_step(self, step: int) -> tuple[float, float, float]:
        """One optimisation step; returns (CE, L_att, L_hid). Raises a
        :class:`~symt.errors.SymtError` when the loss is not finite."""
        self.model.train()
        batch = self.fetch_batch(step, self.sampler.batch)
        total, ce, att, hid = self.loss(batch, self.contrastive_weight(step))
        if not math.isfinite(total.item()):
            raise SymtError(f"training diverged at step {step} (loss {float(total)}); "
                            f"the best checkpoint is kept in {self.out / 'best.pt'}")
        self.optimize(step, total)
        self.note_loss(step, ce)
        return ce, att, hid

    def end_epoch(self, train: np.ndarray, steps: int, seconds: float) -> None:
        """Validate, log the epoch, write ``best.pt`` (a plan-generator file) when it is the best so
        far by the paper's criteria, ``last.pt``, ``config.json`` and the curves."""
        # One swap to the averaged weights (weight_ema) for validation and best.pt; last.pt is
        # written after it, so that its trained_model holds the weights training steps.
        with self.averaged_weights():
            row = {"step": self.step, "lr": self.lr(self.step - 1),
                   "contrastive_weight": self.contrastive_weight(self.step - 1),
                   "train_ce": float(train[0]), "train_att": float(train[1]), "train_hid": float(train[2]),
                   **self.validate(), "samples_per_second": steps * self.config.batch_size / max(seconds, 1e-9)}
            self.history.append(row)
            key = (row["val_coverage"], -row["val_token_cap"], -row["val_inapplicable"], -row["val_malformed"],
                   row["val_accuracy"], -row["val_loss"])
            key = tuple(-math.inf if math.isnan(v) else v for v in key)
            meta = {"config": asdict(self.config), "step": self.step, "validation": row}
            if self.best is None or key > tuple(self.best):
                self.best = list(key)
                self.planner.to_file(self.out / "best.pt", {"training": meta})
        save_atomic(self.checkpoint(), self.out / "last.pt")
        self.write_log()
        (self.out / "config.json").write_text(json.dumps(asdict(self.config), indent=1) + "\n")
        self.plot()

    def plot(self) -> None:
        """Draw ``curves.png``: cross-entropy, contrastive terms, and coverage and token accuracy by step."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        steps = [r["step"] for r in self.history]
        fig, axes = plt.subplots(1, 3, figsize=(15, 4))
        axes[0].plot(steps, [r["train_ce"] for r in self.history], label="train cross-entropy")
        axes[0].plot(steps, [r["val_loss"] for r in self.history], label="validation cross-entropy")
        axes[0].set_yscale("log")
        axes[1].plot(steps, [r["train_att"] for r in self.history], label="train L_att")
        axes[1].plot(steps, [r["train_hid"] for r in self.history], label="train L_hid")
        axes[1].set_yscale("symlog", linthresh=1e-3)
        axes[2].plot(steps, [r["val_coverage"] for r in self.history], label="greedy coverage")
        axes[2].plot(steps, [r["val_accuracy"] for r in self.history], label="token accuracy")
        axes[2].set_ylim(-0.05, 1.05)
        for axis in axes:
            axis.set_xlabel("step")
            axis.legend()
            axis.grid(alpha=0.3)
        fig.suptitle(f"{self.config.kind} on {self.dataset.signature.domain} ({self.config.preset}, {self.config.rename})")
        fig.tight_layout()
        fig.savefig(self.out / "curves.png", dpi=100)
        plt.close(fig)
