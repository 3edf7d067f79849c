"""The options of a SymT-E training run: :class:`TrainConfig` (``symt train``, ``symt learn``),
which :class:`symt.training.trainer.Trainer` runs and the plan generators' ``PlanTrainConfig``
(``symt.plangen.train``) extends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..sampling import DEFAULT_PLAN_WEIGHT


@dataclass
class TrainConfig:
    """The options of a SymT-E training run (``symt train``): data and run folder, model preset,
    optimisation, losses and their schedule, sampling, validation and hardware."""

    data: str
    out: str
    preset: str = "small"
    vocab_size: int = 123
    steps: int = 6000
    batch_size: int = 32
    lr: float = 1e-3
    min_lr: float = 1e-7
    warmup: int = 200
    weight_decay: float = 0.1
    beta1: float = 0.9
    beta2: float = 0.999
    grad_clip: float = 1.0
    weight_ema: float = 0.0
    """Decay of an exponential moving average of the weights, which validation, checkpoint
    selection and the exported model use (``TrainerBase.weight_average``; 0: off, the paper's)."""
    rename: str = "rename-one"
    w_pred: float = 1.0
    w_att: float = 1.0
    w_hid: float = 1.0
    w_rank: float = 0.0
    rank_loss: str = "hinge"
    plan_weight: float = DEFAULT_PLAN_WEIGHT
    """Share of samples drawn from plan-labelled tasks when the dataset has them (``symt.sampling``)."""
    task_size_power: float = 0.0
    """Draw a training task with probability proportional to its size to this power (0: uniformly,
    as the paper does; ``symt.sampling.PairSampler``)."""
    goal_phrasing: float = 0.0
    """Probability of showing a sampled state's task under another, equivalent phrasing of its goal
    (``symt.phrasing``; 0: as written, the paper's)."""
    goal_phrasings_per_task: int = 32
    dead_end_bound: bool = False
    """Regress dead-end siblings to at least their task's largest finite h* plus one (``symt.sampling``;
    off: a dead end only takes part in the ranking)."""
    dead_end_states: float = 0.0
    """Share of sampled states drawn among their task's dead ends, regressed to at least its largest
    finite h* plus one (``symt.sampling``; 0: only states that reach the goal, the paper's)."""
    dead_end_head: bool = False
    """Give the model a dead-end head (``ModelConfig.dead_end_head``), trained with a binary
    cross-entropy on every row of a batch whose state is known to be a dead end or not: the sampled
    states (dead ends among them with ``dead_end_states``) and their siblings; rows of plan-labelled
    tasks carry no label."""
    w_dead_end: float = 1.0
    dead_end_linear: bool = False
    """The dead-end head is one linear layer (``ModelConfig.dead_end_linear``)."""
    dead_end_count: bool = False
    """The dead-end head is a pure weighed count of the state's fluents (``ModelConfig.dead_end_count``)."""
    object_identity: str = "table"
    context_attention: bool = False
    """Static, type and goal atoms attend only among themselves (``ModelConfig.context_predicates``)."""
    goals_with_state: bool = False
    """With ``context_attention``: the goal atoms are not cached but read with each state's atoms,
    to which they attend (``--context-attention static``); only static and type atoms are cached."""
    fold_types: bool = False
    """``type:<t>`` atoms are added to their object's embedding, not tokens (``ModelConfig.type_predicates``)."""
    achieved_goals: bool = False
    """A state's fluent atoms that are goal atoms read as their own predicate ids (``symt.tokens``)."""
    teacher: str | None = None
    """A SymT-E training checkpoint whose values the model also learns (a smaller model for
    search, issue 15): MSE to the teacher's value on every sampled state and sibling."""
    w_teacher: float = 1.0
    init_from_teacher: bool = False
    """Start from the teacher's weights: a student as wide as its teacher that applies the shared
    layer fewer times (``--n-layers``) begins from the teacher's layer."""
    init_from: str | None = None
    """Start from the weights of this training checkpoint (a fine-tune), whatever the teacher: a
    dead-end head it lacks starts fresh. Exclusive with ``init_from_teacher``."""
    train_layers: list[int] | None = None
    """[low, high]: each step applies the shared layer a number of times drawn uniformly from
    low..high (the model's ``n_layers`` stays the depth of validation and export), so that a
    ``recall`` model learns an update that any depth may stop at (``ModelConfig.recall``). None:
    always ``n_layers``."""
    contrastive: bool = True
    schedule: str = "after-plateau"
    plateau_fraction: float = 0.2
    contrastive_by: float = 0.0
    """With ``after-plateau``: the share of the run's steps by which the contrastive terms are
    switched on even if the regression never left its plateau (0: only when it does), so that a
    run on a hard new domain still trains with the paper's loss (``symt learn`` uses 0.5)."""
    ramp_steps: int = 1000
    eval_every: int = 500
    time_budget: float = 0.0
    """Seconds the training loop may take (0: no limit); ``TrainerBase.fit_to_budget`` cuts the
    run to the epochs that fit."""
    val_samples: int = 512
    coverage_tasks: int = 30
    coverage_search: str = "greedy"
    """How the validation tasks' coverage is measured: ``greedy``, the paper's greedy guidance (no
    backtracking, 500 steps); ``gbfs``, greedy best-first search with at most
    ``coverage_expansions`` expansions per task, and among epochs of equal coverage the one with
    the fewest expansions (geometric mean, an unsolved task counted at the limit) is best. Greedy
    guidance fails on any plateau, so on a new domain it is often 0 in every epoch and the
    checkpoint falls to the validation MSE alone."""
    coverage_expansions: int = 1000
    max_states: int = 2_000_000
    seed: int = 0
    device: str = "auto"
    threads: int = 0
    length_buckets: int = 1
    """Draw each batch's tasks from one of this many groups of similar length (``PairSampler``):
    less padding on a GPU, the same distribution of samples; 1: the paper's draw."""
    workers: int = -1
    """Worker processes that make batches ahead of training (``symt.training.batches.BatchStream``); -1:
    none on a CPU, all cores but two on a GPU."""
    precision: str = "auto"
    """``bf16`` (autocast; fp32 weights and optimiser state), ``fp32``, or ``auto``: bf16 on a GPU
    with bf16 matrix units, fp32 elsewhere."""
    compile: bool = False
    """``torch.compile`` the training forward pass (GPU runs; the first steps pay the compile)."""
    divergence_factor: float = 10.0
    divergence_patience: int = 3
    model_overrides: dict = field(default_factory=dict)

    @staticmethod
    def paper_defaults() -> dict:
        """The paper's optimisation (Appendix E), for the ``paper`` preset."""
        return dict(lr=1e-4, warmup=2000, batch_size=64, steps=500_000, eval_every=100_000 // 64)
