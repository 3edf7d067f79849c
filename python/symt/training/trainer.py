"""Training SymT-E: regression to h* plus the paper's contrastive loss, with safe checkpoints.

Loss: ``w1 * MSE(h, h*) + w_rank * L_rank + c(t) * (w2 * L_att + w3 * L_hid)``, the terms other than
the MSE from ``symt.training.losses`` (``L_rank`` off by default); with ``dead_end_head`` also
``w_dead_end * BCE(dead-end logit, is a dead end)`` (``TrainConfig.dead_end_head``). ``c(t)`` is the contrastive
schedule: ``always`` (the paper: 1 from the first step) or ``after-plateau`` (default): 0 until the
regression has left the mean-prediction plateau (EMA of the training MSE below
``plateau_fraction * Var(h*)``), then a linear ramp to 1 over ``ramp_steps``. At small scale the
terms, switched on from step 0, collapse training to predicting the mean h*
(``shared/notes/cpu-training.md``); the schedule avoids that.

Every ``eval_every`` steps ("an epoch"): validation MSE and both contrastive terms on a fixed
sample of validation states, greedy-guidance coverage of the validation tasks, a CSV row, and an
atomic checkpoint (``last.pt``; ``best.pt`` when the paper's criteria improve: coverage first,
then loss). Batches and dropout depend only on ``(seed, step)``, so ``--resume`` continues an
interrupted run to the same result as an uninterrupted one.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from ..data import Dataset, attach_goal_phrasings, derive_seed, load_dataset
from ..errors import SymtError
from ..folders import check_output_folder, open_output_folder
from ..guidance import StateEvaluator, greedy_best_first, greedy_guidance_lockstep
from ..model import SymTE
from ..model_config import OBJECT_IDENTITIES, PRESETS, ModelConfig
from ..model_routed import heuristic_model
from ..sampling import Batch, PairSampler, fixed_validation_batches
from ..tokens import (
    HASHED_TOKEN_SPACE,
    context_predicate_ids,
    graph_predicate_ids,
    graph_slot_ids,
    type_predicate_ids,
)
from .base import TrainerBase, pick_device, save_atomic
from .config import TrainConfig
from .losses import RANK_LOSSES, contrastive_terms, ranking_loss


class DivergenceError(SymtError):
    """Training diverged (NaN, or a loss stuck far above its best); the best checkpoint is kept."""


@dataclass
class EpochRecord:
    """One epoch's row of ``log.csv``: schedule values, mean training losses, validation metrics
    and throughput."""

    epoch: int
    step: int
    lr: float
    contrastive_weight: float
    train_mse: float
    train_att: float
    train_hid: float
    val_mse: float
    val_att: float
    val_hid: float
    val_coverage: float
    samples_per_second: float
    seconds: float
    train_rank: float = 0.0
    train_teacher: float = 0.0
    """MSE to the teacher's values (0 without a teacher)."""
    val_rank_accuracy: float = float("nan")
    """Share of validation sibling pairs whose optimal successor scores strictly lower."""
    data_wait_share: float = 0.0
    """Share of the epoch's training time spent waiting for batches."""
    train_dead_end: float = 0.0
    """The dead-end head's binary cross-entropy (0 without the head)."""
    val_dead_end_recall: float = float("nan")
    """Share of the validation batches' dead-end siblings the head marks dead (nan: no head or none)."""
    val_dead_end_false: float = float("nan")
    """Share of the validation batches' live states the head marks dead (nan without the head)."""
    val_expansions: float = float("nan")
    """``coverage_search="gbfs"``: the geometric mean of the validation tasks' expansions (an
    unsolved task at the limit); nan otherwise."""


class Trainer(TrainerBase):
    """SymT-E: MSE on h* (upper bounds where only a satisfying plan is known), the sibling
    ranking loss, and the paper's contrastive terms over a renamed copy of each batch; validated
    by MSE, L_att, L_hid, ranking accuracy and greedy coverage. Multi-GPU through torchrun (DDP)."""

    kind = "symt-e"
    RESUME_KEYS = (*TrainerBase.RESUME_KEYS, "w_rank", "rank_loss", "object_identity", "plan_weight",
                   "task_size_power", "goal_phrasing", "goal_phrasings_per_task", "dead_end_bound", "dead_end_states", "dead_end_head", "w_dead_end", "dead_end_linear", "dead_end_count", "context_attention", "goals_with_state", "fold_types", "achieved_goals", "teacher", "w_teacher", "init_from_teacher", "init_from")
    LOSS_LABEL = "mse"

    def __init__(self, config: TrainConfig, resume: bool = False, progress: bool = True):
        self.config = config
        self.progress = progress
        self.out = Path(config.out)
        # Multi-GPU: launched by torchrun (WORLD_SIZE > 1), one process per device, DDP.
        self.world_size = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        # Only rank 0 writes the run folder, so only it holds the lock.
        self.run_lock = open_output_folder(self.out) if self.rank == 0 else None
        if self.run_lock is None:
            check_output_folder(self.out)
        if config.threads > 0:
            torch.set_num_threads(config.threads)
        self.device = pick_device(config.device)
        # TF32 matrix products on GPUs that have them, as nanoGPT does: regression to h* needs no
        # more than TF32's 10-bit mantissa. CPU runs are unchanged.
        torch.backends.cuda.matmul.allow_tf32 = self.device.type == "cuda"
        if self.world_size > 1:
            import torch.distributed as dist

            if self.device.type == "cuda":
                self.device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
                torch.cuda.set_device(self.device)
            if not dist.is_initialized():
                dist.init_process_group("nccl" if self.device.type == "cuda" else "gloo")
        self.is_main = self.rank == 0
        progress = progress and self.is_main
        if config.preset not in PRESETS:
            raise SymtError(f"unknown preset '{config.preset}' (choose from {', '.join(PRESETS)})")
        self.check_schedule()
        if config.rank_loss not in RANK_LOSSES:
            raise SymtError(f"unknown ranking loss '{config.rank_loss}' (choose from {', '.join(RANK_LOSSES)})")
        if config.object_identity not in OBJECT_IDENTITIES:
            raise SymtError(f"unknown object identity '{config.object_identity}' "
                            f"(choose from {', '.join(OBJECT_IDENTITIES)})")
        if config.object_identity == "hashed":
            # Hashed codes have no table: the token space only bounds the number of objects.
            config.vocab_size = HASHED_TOKEN_SPACE

        if config.dead_end_head and (config.compile or self.world_size > 1):
            raise SymtError("--dead-end-head trains the model itself: not with --compile or several processes")
        if config.init_from and config.init_from_teacher:
            raise SymtError("--init-from and --init-from-teacher each name the weights to start from: give one")
        if config.train_layers is not None:
            low, high = config.train_layers
            if not 1 <= low <= high:
                raise SymtError(f"--train-layers {low} {high}: need 1 <= LOW <= HIGH")
        if config.coverage_search not in ("greedy", "gbfs"):
            raise SymtError(f"unknown coverage search '{config.coverage_search}' (choose from greedy, gbfs)")
        self.dataset: Dataset = load_dataset(
            Path(config.data), splits=("train", "validation"), max_states=config.max_states,
            vocab_size=config.vocab_size, progress=progress, achieved_goals=config.achieved_goals,
        )
        mode = config.rename if config.contrastive else "off"
        if config.goal_phrasing > 0:
            attach_goal_phrasings(self.dataset.split("train"), config.goal_phrasings_per_task, config.seed)
        self.sampler = PairSampler(self.dataset.split("train"), config.vocab_size, mode, config.seed,
                                   ranking=config.w_rank > 0, plan_weight=config.plan_weight,
                                   task_size_power=config.task_size_power, goal_phrasing=config.goal_phrasing,
                                   length_buckets=config.length_buckets, dead_end_bound=config.dead_end_bound,
                                   dead_end_states=config.dead_end_states)
        self.val_batches = fixed_validation_batches(
            self.dataset.split("validation"), config.vocab_size, config.seed, config.val_samples, 64)
        if not self.val_batches:  # no expandable validation task: hold out training states
            self.val_batches = fixed_validation_batches(
                self.dataset.split("train"), config.vocab_size, config.seed + 1, config.val_samples, 64)
        mean_h, var_h = self.sampler.hstar_statistics()
        self.hstar_variance = max(var_h, 1e-6)

        checkpoint = self.read_checkpoint(resume)
        if checkpoint is not None:
            self.model_config = ModelConfig(**checkpoint["model_config"])
        else:
            options = dict(PRESETS[config.preset])
            options.update(config.model_overrides)
            graph = graph_predicate_ids(self.dataset.signature, self.dataset.domain,
                                        options.get("attention_bias", "none"))
            self.model_config = ModelConfig(
                num_predicates=self.dataset.signature.num_predicates,
                max_arity=self.dataset.signature.max_arity,
                vocab_size=config.vocab_size,
                target_scale=max(1.0, mean_h),
                object_identity=config.object_identity,
                context_predicates=(context_predicate_ids(self.dataset.signature, self.dataset.domain,
                                                          goals=not config.goals_with_state)
                                    if config.context_attention else None),
                type_predicates=type_predicate_ids(self.dataset.signature) if config.fold_types else None,
                graph_predicates=graph,
                graph_slots=graph_slot_ids(self.dataset.signature, self.dataset.domain, graph),
                distance_over_graph=graph is not None,
                achieved_goals=config.achieved_goals,
                dead_end_head=config.dead_end_head,
                dead_end_linear=config.dead_end_linear,
                dead_end_count=config.dead_end_count,
                **options,
            )

        self.teacher = self.load_teacher(config.teacher) if config.teacher else None
        torch.manual_seed(derive_seed(config.seed, "init"))
        try:
            self.model = heuristic_model(self.model_config).to(self.device)
        except ValueError as error:  # the model checks which of its options go together
            raise SymtError(f"the model's options do not go together: {error}") from error
        if checkpoint is None and config.init_from_teacher:
            if self.teacher is None:
                raise SymtError("--init-from-teacher needs --teacher")
            self.start_from(self.teacher, config.teacher or "")
        elif checkpoint is None and config.init_from:
            # The teacher's checks (same domain signature, same objects) hold for any start.
            self.start_from(self.load_teacher(config.init_from), config.init_from)
        self.train_model: torch.nn.Module = self.model
        if config.compile:
            # Shapes vary with the padded batch length, hence dynamic shapes.
            self.train_model = torch.compile(self.model, dynamic=True)  # type: ignore[assignment]
        if self.world_size > 1:
            from torch.nn.parallel import DistributedDataParallel

            ids = [self.device.index] if self.device.type == "cuda" else None
            self.train_model = DistributedDataParallel(self.model, device_ids=ids)
        self.best_val_mse = math.inf
        self.bad_epochs = 0
        self.start_run(checkpoint, plateau=self.hstar_variance)

    def load_teacher(self, path: str) -> SymTE:
        """The model of a training checkpoint (a teacher, or ``init_from``'s start), frozen,
        checked against this dataset."""
        from ..export import load_checkpoint_model

        teacher, checkpoint = load_checkpoint_model(path)
        if checkpoint.get("signature") != self.dataset.signature.to_json():
            raise SymtError(f"{path}: the model was trained on another domain signature than "
                            f"{self.config.data}")
        taught = teacher.config
        if (taught.vocab_size, taught.object_identity) != (self.config.vocab_size, self.config.object_identity):
            raise SymtError(f"{path}: the model's objects ({taught.object_identity}, vocabulary "
                            f"{taught.vocab_size}) differ from this run's ({self.config.object_identity}, "
                            f"vocabulary {self.config.vocab_size})")
        teacher.requires_grad_(False)
        return teacher.to(self.device)

    def start_from(self, source: torch.nn.Module, path: str) -> None:
        """Load the weights of ``source`` (the model of checkpoint ``path``: the teacher's with
        ``init_from_teacher``, else ``init_from``'s) into the new model; a
        :class:`~symt.errors.SymtError` when a weight's shape differs."""
        mine, theirs = self.model.state_dict(), source.state_dict()
        # A dead-end head the start lacks, or has in another shape, starts fresh: the fine-tune
        # adds it to a trained model or gives it another form.
        def head_shapes(state: dict[str, torch.Tensor]) -> dict[str, torch.Size]:
            return {name: value.shape for name, value in state.items() if name.startswith("dead_end.")}

        fresh_head = head_shapes(mine) != head_shapes(theirs)
        misfits = sorted(name for name in mine if not (fresh_head and name.startswith("dead_end."))
                         and (name not in theirs or theirs[name].shape != mine[name].shape))
        if misfits:
            raise SymtError(f"{path}: its weights do not fit this model "
                            f"({', '.join(misfits[:3])}); only the number of layers may differ")
        if fresh_head:
            theirs = {name: value for name, value in theirs.items() if not name.startswith("dead_end.")}
        self.model.load_state_dict(theirs, strict=not fresh_head)

    def restore_state(self, state: dict) -> None:
        """The best validation MSE so far and the count of diverging epochs, from a checkpoint."""
        self.best_val_mse = state["best_val_mse"]
        self.bad_epochs = state["bad_epochs"]
        if self.best is not None and len(self.best) == 2:  # written before the key had expansions
            self.best = [self.best[0], 0.0, self.best[1]]

    def trainer_state(self) -> dict:
        """The divergence check's state (best validation MSE, diverging epochs) for checkpoints."""
        return {"best_val_mse": self.best_val_mse, "bad_epochs": self.bad_epochs}

    # ------------------------------------------------------------------ schedule and one step

    def train_step(self, step: int) -> tuple[float, float, float, float, float, float]:
        """One optimisation step on this rank's shard; returns (MSE, L_att, L_hid, L_rank, teacher
        MSE, dead-end cross-entropy), the MSE averaged over ranks. Raises :class:`DivergenceError` when the loss is not finite."""
        config = self.config
        # Each rank draws its own shard: the effective batch is world_size * batch_size.
        shard = step * self.world_size + self.rank
        batch = self.fetch_batch(shard, self.sampler.batch, self.world_size)
        torch.manual_seed(derive_seed(config.seed, "dropout", shard))
        self.model.train()
        depth = self.model.n_layers
        if config.train_layers is not None:
            low, high = config.train_layers
            self.model.n_layers = int(np.random.default_rng(derive_seed(config.seed, "depth", shard))
                                      .integers(low, high + 1))
        try:
            return self.optimize_batch(step, batch)
        finally:
            self.model.n_layers = depth

    def optimize_batch(self, step: int, batch: Batch) -> tuple[float, float, float, float, float, float]:
        """:meth:`train_step`'s loss of ``batch`` and its optimisation step, at the model's depth now."""
        config = self.config
        weight = self.contrastive_weight(step)
        att = hid = rank = taught = dead_loss = torch.zeros((), device=self.device)
        rows = batch.pred.shape[0]  # sampled states and their siblings; X' follows
        sampled = batch.num_sampled
        dead = known = None
        if config.dead_end_head:
            # A dead end: a sampled dead end or a sibling with h* = inf (bounded or not); a plan's
            # states reach the goal; a plan task's siblings (nan) are unknown.
            dead = torch.isinf(batch.target)
            if batch.lower_bound is not None:
                dead = dead | batch.lower_bound
            known = ~torch.isnan(batch.target)
        if batch.renamed is not None:
            pred = torch.cat([batch.pred, batch.renamed[0]])
            args = torch.cat([batch.args, batch.renamed[1]])
            mask = torch.cat([batch.mask, batch.renamed[2]])
            with self.autocast():
                h, logits, attentions, hiddens = self.run_model(pred, args, mask, weight > 0)
            if dead is not None and known is not None:  # X' has X's labels
                dead, known = torch.cat([dead, dead[:sampled]]), torch.cat([known, known[:sampled]])
            if weight > 0:
                att, hid = contrastive_terms(
                    [a[:sampled] for a in attentions], [a[rows:] for a in attentions],
                    [x[:sampled] for x in hiddens], [x[rows:] for x in hiddens],
                    self.model.token_mask(batch.pred[:sampled], batch.mask[:sampled]))
            predicted = h  # X and its siblings, then X'
            target = torch.cat([batch.target, batch.target[:sampled]])
            upper, lower = (None if bound is None else torch.cat([bound, bound[:sampled]])
                            for bound in (batch.upper_bound, batch.lower_bound))  # X' has X's bounds
        else:
            with self.autocast():
                h, logits, _, _ = self.run_model(batch.pred, batch.args, batch.mask, False)
            predicted, target, upper, lower = h, batch.target, batch.upper_bound, batch.lower_bound
        if upper is not None:  # an upper bound on h* is only violated by predictions above it
            predicted = torch.where(upper, torch.maximum(predicted, target), predicted)
        if lower is not None:  # a lower bound (a dead end) only by predictions below it
            predicted = torch.where(lower, torch.minimum(predicted, target), predicted)
        finite = torch.isfinite(target)  # dead-end siblings without a bound only take part in the ranking
        if config.dead_end_head and batch.lower_bound is not None:
            # A sampled dead end teaches the head, not h: h keeps the values of live states
            # (and of dead-end siblings under --dead-end-bound) as without the head.
            sampled_dead = torch.zeros(rows, dtype=torch.bool, device=finite.device)
            sampled_dead[:sampled] = batch.lower_bound[:sampled]
            if batch.renamed is not None:
                sampled_dead = torch.cat([sampled_dead, sampled_dead[:sampled]])
            finite = finite & ~sampled_dead
        # (Empty when every row is a sampled dead end under the head: then no regression term.)
        mse = F.mse_loss(predicted[finite], target[finite]) if bool(finite.any()) else predicted.sum() * 0.0
        if batch.sibling_pairs is not None and len(batch.sibling_pairs) > 0:
            rank = ranking_loss(h, batch.target, batch.sibling_pairs, config.rank_loss)
        if self.teacher is not None and config.w_teacher > 0:
            # (--w-teacher 0 with --init-from-teacher: a fine-tune from the teacher's weights, no
            # distillation, so its forward pass is skipped.)
            # The teacher's values also cover dead-end siblings, which have no h* to regress to.
            with torch.no_grad(), self.autocast():
                teacher_h = self.teacher(batch.pred, batch.args, batch.mask)[0]
            taught = F.mse_loss(h[:rows], teacher_h)
        if logits is not None and dead is not None and known is not None:
            dead_loss = F.binary_cross_entropy_with_logits(logits[known].float(), dead[known].float())
        loss = (config.w_pred * mse + config.w_rank * rank + config.w_teacher * taught
                + config.w_dead_end * dead_loss + weight * (config.w_att * att + config.w_hid * hid))
        self.optimize(step, loss)
        mse_value = self.all_ranks_mean(float(mse.detach()))
        loss_value = float(loss.detach())
        if not math.isfinite(loss_value):
            raise DivergenceError(
                f"training diverged at step {step}: the loss is {loss_value}; the best checkpoint "
                f"is {self.out / 'best.pt'}")
        self.note_loss(step, mse_value)
        return (mse_value, float(att.detach()), float(hid.detach()), float(rank.detach()), float(taught.detach()),
                float(dead_loss.detach()))

    def run_model(self, pred: torch.Tensor, args: torch.Tensor, mask: torch.Tensor, internals: bool
                  ) -> tuple[torch.Tensor, torch.Tensor | None, list[torch.Tensor], list[torch.Tensor]]:
        """The training forward pass: h, the dead-end head's logits (None without the head), and
        with ``internals`` the attention maps and hidden[:k] of the contrastive terms."""
        if self.config.dead_end_head:
            return self.model.forward_with_dead_ends(pred, args, mask, internals)
        h, attentions, hiddens = self.train_model(pred, args, mask, return_internals=internals)
        return h, None, attentions, hiddens

    def all_ranks_mean(self, value: float) -> float:
        """The mean over DDP ranks, so that schedule decisions agree on every rank."""
        if self.world_size == 1:
            return value
        import torch.distributed as dist

        tensor = torch.tensor([value], device=self.device)
        dist.all_reduce(tensor)
        return float(tensor) / self.world_size

    # ------------------------------------------------------------------ evaluation

    @torch.no_grad()
    def validation_losses(self) -> tuple[float, float, float, float]:
        """MSE, L_att and L_hid per sampled validation state, and the sibling-ranking accuracy."""
        self.model.eval()
        mse_sum = att_sum = hid_sum = 0.0
        count = ranked = pairs_seen = 0
        rng = np.random.default_rng(derive_seed(self.config.seed, "val-rename"))
        for batch in self.val_batches:
            batch = batch.to(self.device)
            with self.autocast():
                h, attentions, hiddens = self.model(batch.pred, batch.args, batch.mask, return_internals=True)
            # A second, fixed renaming of the same states measures name sensitivity (L_att, L_hid).
            args = batch.args.clone()
            perm = torch.from_numpy(rng.permutation(self.config.vocab_size)).to(self.device)
            real = args < self.config.vocab_size
            args[real] = perm[args[real]]
            with self.autocast():
                _, attentions2, hiddens2 = self.model(batch.pred, args, batch.mask, return_internals=True)
            n = batch.num_sampled
            att, hid = contrastive_terms([a[:n] for a in attentions], [a[:n] for a in attentions2],
                                         [x[:n] for x in hiddens], [x[:n] for x in hiddens2],
                                         self.model.token_mask(batch.pred[:n], batch.mask[:n]))
            mse_sum += float(F.mse_loss(h[:n], batch.target[:n], reduction="sum"))
            att_sum += float(att) * n
            hid_sum += float(hid) * n
            count += n
            if batch.sibling_pairs is not None:
                pairs = batch.sibling_pairs
                ranked += int((h[pairs[:, 0]] < h[pairs[:, 1]]).sum())
                pairs_seen += len(pairs)
        accuracy = ranked / pairs_seen if pairs_seen else float("nan")
        return mse_sum / count, att_sum / count, hid_sum / count, accuracy

    @torch.no_grad()
    def dead_end_rates(self) -> tuple[float, float]:
        """The dead-end head on the validation batches: the share of dead-end siblings it marks
        dead, and the share of live states (sampled and siblings) it marks dead; nan, nan without
        the head."""
        if not self.config.dead_end_head:
            return float("nan"), float("nan")
        self.model.eval()
        marked = dead = false = live = 0
        for batch in self.val_batches:
            batch = batch.to(self.device)
            with self.autocast():
                _, logits, _, _ = self.run_model(batch.pred, batch.args, batch.mask, False)
            assert logits is not None
            fires = logits.float() > self.model.dead_end_logit
            is_dead = torch.isinf(batch.target)
            is_live = torch.isfinite(batch.target)
            marked += int((fires & is_dead).sum())
            dead += int(is_dead.sum())
            false += int((fires & is_live).sum())
            live += int(is_live.sum())
        return marked / dead if dead else float("nan"), false / live if live else float("nan")

    def coverage(self, split: str = "validation", limit: int | None = None) -> tuple[float, float]:
        """(the share of the first ``limit`` (default ``coverage_tasks``) tasks of ``split`` that
        ``coverage_search`` solves, the geometric mean of its expansions with an unsolved task at
        the limit: nan for greedy guidance); nan when the split has none."""
        tasks = self.dataset.split(split)[: limit or self.config.coverage_tasks]
        if not tasks:
            return float("nan"), float("nan")
        self.model.eval()

        def evaluate(pred: torch.Tensor, args: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            with self.autocast():
                return self.model(pred, args, mask)[0]

        evaluators = [StateEvaluator(data.encoded, evaluate, self.config.vocab_size, self.device) for data in tasks]
        if self.config.coverage_search == "gbfs":
            limit = self.config.coverage_expansions
            runs = [greedy_best_first(data.task, evaluator, limit) for data, evaluator in zip(tasks, evaluators, strict=True)]
            expansions = math.exp(sum(math.log(max(1, n if result.solved else limit)) for result, n in runs) / len(runs))
            return sum(result.solved for result, _ in runs) / len(tasks), expansions
        # All tasks in lockstep, one forward pass per step for all of them (a GPU stays busy).
        solved = sum(result.solved for result in greedy_guidance_lockstep([data.task for data in tasks], evaluators))
        return solved / len(tasks), float("nan")

    # ------------------------------------------------------------------ checkpoints

    def checkpoint(self) -> dict:
        """The shared checkpoint (:meth:`TrainerBase.checkpoint`) with the domain signature."""
        # The domain's text goes with the model, so that a task written another way is matched
        # to it by its actions, not only its predicates (symt.models.fit_model).
        domain_text = (self.dataset.root / "domain.pddl").read_text()
        return {**super().checkpoint(), "signature": self.dataset.signature.to_json(), "domain_pddl": domain_text}

    def end_epoch_on_all_ranks(self, train: np.ndarray, steps: int, seconds: float) -> None:
        """Rank 0 evaluates and checkpoints; the other ranks wait and stop with it if it stops."""
        if self.world_size == 1:
            self.end_epoch(train, steps, seconds)
            return
        import torch.distributed as dist

        error: DivergenceError | None = None
        if self.is_main:
            try:
                self.end_epoch(train, steps, seconds)
            except DivergenceError as caught:
                error = caught
        flag = torch.tensor([1.0 if error else 0.0], device=self.device)
        dist.broadcast(flag, src=0)
        if error is not None:
            raise error
        if float(flag):
            raise DivergenceError(f"training diverged at step {self.step} (reported by rank 0)")

    def end_epoch(self, train: np.ndarray, steps: int, seconds: float) -> None:
        """Validate, log the epoch, write ``last.pt`` and, when coverage and MSE improve, ``best.pt``.
        Raises :class:`DivergenceError` when the validation MSE is not finite or stays far above its best."""
        with self.averaged_weights():  # the weights best.pt and export would hold
            val_mse, val_att, val_hid, val_rank_accuracy = self.validation_losses()
            coverage, val_expansions = self.coverage()
            dead_recall, dead_false = self.dead_end_rates()
        record = EpochRecord(
            epoch=len(self.history) + 1, step=self.step, lr=self.lr(self.step - 1),
            contrastive_weight=self.contrastive_weight(self.step - 1),
            train_mse=float(train[0]), train_att=float(train[1]), train_hid=float(train[2]),
            val_mse=val_mse, val_att=val_att, val_hid=val_hid, val_coverage=coverage,
            train_rank=float(train[3]), train_teacher=float(train[4]), val_rank_accuracy=val_rank_accuracy,
            samples_per_second=steps * self.config.batch_size * self.world_size / max(seconds, 1e-9),
            seconds=seconds, data_wait_share=self.epoch_progress.wait_seconds / max(seconds, 1e-9),
            val_expansions=val_expansions, train_dead_end=float(train[5]),
            val_dead_end_recall=dead_recall, val_dead_end_false=dead_false,
        )
        self.history.append(asdict(record))
        if self.progress:
            tqdm.write(
                f"epoch {record.epoch} step {record.step}: train mse {record.train_mse:.3f} "
                f"val mse {val_mse:.3f} L_att {val_att:.3g} L_hid {val_hid:.3g} "
                f"rank acc. {val_rank_accuracy:.3f} coverage {coverage:.2f} c={record.contrastive_weight:.2f}"
            )
        diverged = not math.isfinite(val_mse)
        if math.isfinite(val_mse) and val_mse > self.config.divergence_factor * self.best_val_mse:
            self.bad_epochs += 1
        else:
            self.bad_epochs = 0
        self.best_val_mse = min(self.best_val_mse, val_mse) if math.isfinite(val_mse) else self.best_val_mse
        key = (-(coverage if math.isfinite(coverage) else 0.0),
               val_expansions if math.isfinite(val_expansions) else 0.0, val_mse)
        checkpoint = self.checkpoint()
        if not diverged and (self.best is None or key < tuple(self.best)):
            self.best = list(key)
            checkpoint["trainer"]["best"] = list(key)
            save_atomic(checkpoint, self.out / "best.pt")
        save_atomic(checkpoint, self.out / "last.pt")
        self.write_log()
        if diverged or self.bad_epochs >= self.config.divergence_patience:
            self.plot()
            raise DivergenceError(
                f"training diverged at step {self.step} (validation MSE {val_mse:.3g}, best "
                f"{self.best_val_mse:.3g}); the best checkpoint is {self.out / 'best.pt'}"
            )

    def plot(self) -> Path | None:
        """Loss curves and the contrastive terms per epoch, as a PNG next to the CSV."""
        if not self.history:
            return None
        title = f"SymT-E on {self.dataset.signature.domain} ({self.config.preset}, {self.config.rename})"
        return plot_history(self.history, self.out / "curves.png", title)


def plot_history(history: list[dict], path: Path, title: str) -> Path:
    """Plot a training log (the rows of log.csv) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def column(name: str) -> list[float]:
        return [float(r[name]) for r in history]

    steps = column("step")
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    axes[0].plot(steps, column("train_mse"), label="train MSE")
    axes[0].plot(steps, column("val_mse"), label="validation MSE")
    axes[0].set_yscale("log")
    axes[0].set_title("regression loss")
    axes[1].plot(steps, column("val_att"), label="validation L_att")
    axes[1].plot(steps, column("val_hid"), label="validation L_hid")
    axes[1].plot(steps, column("train_att"), "--", label="train L_att")
    axes[1].plot(steps, column("train_hid"), "--", label="train L_hid")
    axes[1].set_yscale("symlog", linthresh=1e-3)
    axes[1].set_title("contrastive terms (renaming sensitivity)")
    axes[2].plot(steps, column("val_coverage"), label="greedy coverage")
    if any(math.isfinite(float(r.get("val_rank_accuracy") or "nan")) for r in history):
        axes[2].plot(steps, [float(r.get("val_rank_accuracy") or "nan") for r in history],
                     label="sibling ranking accuracy")
    axes[2].plot(steps, column("contrastive_weight"), ":", label="contrastive weight")
    axes[2].set_ylim(-0.05, 1.05)
    axes[2].set_title("validation coverage")
    for axis in axes:
        axis.set_xlabel("step")
        axis.legend()
        axis.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
