"""Training the WL baseline (WL-GOOSE) on a symt dataset: ``symt train-wl``.

The same datasets as ``symt train`` (exhaustive h* from the expanded state spaces, or states along
a planner's plan for ``symt ipc-dataset`` tasks). Features: WLPlan's WL colours of the instance
learning graph (``symt.wl``), collected on the training states. Learners, as published:

* ``rank`` (current GOOSE): a linear ranking SVM. For a sampled state s with successors, one
  successor g on an optimal path ("good") must get a value at least 1 below every other
  successor and below s itself: pairs (g, o) with features x_o - x_g, fitted by scikit-learn's
  ``LinearSVC`` without intercept (its margin constraint is w.(x_o - x_g) >= 1).
* ``gpr`` (WL-GOOSE, ICAPS 2024): Gaussian-process regression on h* with a dot-product kernel
  plus noise. With a linear kernel the posterior mean is Bayesian linear regression, fitted
  here in the primal by scikit-learn's ``BayesianRidge`` (weight and noise variances by evidence
  maximisation, as the GP's marginal likelihood fits them), which scales to every state instead
  of a few thousand; the model keeps the posterior mean's weights.
* ``svr`` (WL-GOOSE, ICAPS 2024): linear support-vector regression on h* (``LinearSVR``,
  epsilon 0).

No intercept anywhere: WLPlan's model is a dot product with the feature counts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from ..data import LABELS, PlanLabels, plan_labels, read_manifest
from ..errors import StateLimitError, SymtError
from ..formats import DOMAIN_PDDL_KEY
from ..pddl import GroundTask, ground, parse_domain, parse_problem
from ..statespace import StateSpace, expand
from ..wl import (
    DEFAULT_FD_OFFSET,
    DEFAULT_FD_SCALE,
    WLPLAN_VERSION,
    _wlplan,
    domain_description,
    native_output_silenced,
    wl_domain,
    wl_task,
    write_model,
)

LEARNERS = ("rank", "gpr", "svr")


@dataclass
class WLTrainConfig:
    """The options of a WL training run (``symt train-wl``): dataset and model file, learner, WL
    iterations and pruning, which states to learn from and how many."""

    data: str
    out: Path
    learner: str = "rank"
    iterations: int = 2
    """WL iterations. GOOSE's published models for the IPC 2023 learning track: 2 iterations on the
    ILG, a ranking SVM, feature pruning ``i-mf`` (``none`` for Blocksworld, where it cost 30 of 90
    tasks). ``none`` is the default here: pruning merges features that are equivalent on the
    training states, which is what the published models did without measuring it on symt's data."""
    pruning: str = "none"
    states: str = "sampled"
    """Which states of an exhaustively labelled task to learn from: ``sampled`` (symt's sampler,
    goal distance uniform over the layers, as SymT-E is trained) or ``plans`` (the states along
    random optimal plans from the initial state, as GOOSE trains on planner's plans)."""
    states_per_task: int = 2000
    """Sampled states (``sampled``) or optimal plans (``plans``) per exhaustively labelled task."""
    c: float = 1.0
    """Regularisation of the SVMs (``rank``, ``svr``): scikit-learn's C."""
    seed: int = 0
    max_total_states: int | None = None
    """Upper bound on the training states of all tasks together, the successors that ranking
    pairs need included: each task gets an equal share and stops sampling when it is used up, so
    that the WLPlan states (every one carries the task's static atoms) of a dataset with many tasks
    fit in memory (IPC Miconic: 87 tasks, hundreds of static atoms); None: no bound."""
    max_states: int = 2_000_000
    with_validation: bool = False
    """Learn from the validation split's tasks too. WL chooses no checkpoint, so a validation
    split is data it would otherwise leave unused: ``symt learn`` validates SymT-E on the problems
    with optimal plans, which WL then learns from, as it would if they were training problems."""
    progress: bool = True


@dataclass
class Examples:
    """The training states of all tasks, and what the learners fit on them."""

    problems: list = field(default_factory=list)
    states: list[list] = field(default_factory=list)
    """WLPlan states per problem."""
    hstar: list[float] = field(default_factory=list)
    """Label of each state in order (problem by problem); ``inf`` for a dead end."""
    pairs: list[tuple[int, int]] = field(default_factory=list)
    """(better, worse): indices into the flat state list."""

    def add_problem(self, problem: object) -> None:
        """Start the states of a new task, given as its WLPlan problem."""
        self.problems.append(problem)
        self.states.append([])

    def add_state(self, state: object, hstar: float) -> int:
        """Add a WLPlan state of the current task with its label; returns its index in the flat
        state list (for ranking pairs)."""
        self.states[-1].append(state)
        self.hstar.append(hstar)
        return len(self.hstar) - 1


def _optimal_plan_states(space: object, sampler: object) -> list[int]:
    """The states of one random optimal plan from the initial state (state 0)."""
    states = [0]
    for action in sampler.random_optimal_plan(0):
        actions, targets = space.successors(states[-1])
        states.append(int(targets[np.flatnonzero(actions == action)[0]]))
    return states


def _exhaustive_examples(task: GroundTask, space: StateSpace, wtask: object, rng: np.random.Generator,
                         limit: int, states: str, examples: Examples, budget: float = float("inf")) -> None:
    hstar = space.hstar
    atoms = task.fluent_atoms
    index: dict[int, int] = {}

    def add(state_id: int) -> int:
        if state_id not in index:
            facts = space.state_facts(state_id)
            index[state_id] = examples.add_state(wtask.state([atoms[f] for f in facts]), float(hstar[state_id]))
        return index[state_id]

    if states == "plans":
        if not np.isfinite(hstar[0]):
            return
        sampler = space.sampler(int(rng.integers(1 << 62)))
        chosen = sorted({s for _ in range(limit) for s in _optimal_plan_states(space, sampler)})
    else:
        chosen = np.unique(space.sampler(int(rng.integers(1 << 62))).sample_states(limit))
    for state_id in chosen:
        if len(index) >= budget:
            break
        state_id = int(state_id)
        me = add(state_id)
        if space.steps[state_id] == 0:
            continue
        _, targets = space.successors(state_id)
        good = np.unique(targets[space.optimal_transitions(state_id)])
        if len(good) == 0:
            continue
        chosen = int(rng.choice(good))
        g = add(chosen)
        examples.pairs.append((g, me))
        # Successors farther from the goal than the chosen one (without costs: every successor
        # off an optimal plan, h* being consistent; with costs one off every cheapest plan may be
        # nearer, reached by a dear action, and makes no pair).
        targets = np.unique(targets[targets != state_id])
        for other in targets[hstar[targets] > hstar[chosen]]:
            examples.pairs.append((g, add(int(other))))


def _plan_examples(task: GroundTask, plan: PlanLabels, wtask: object, examples: Examples) -> None:
    atoms = task.fluent_atoms
    ids = [examples.add_state(wtask.state([atoms[f] for f in facts]), float(plan.remaining[i]))
           for i, facts in enumerate(plan.states)]
    for i, siblings in enumerate(plan.siblings):
        examples.pairs.append((ids[i + 1], ids[i]))
        for facts in siblings:
            # A sibling's distance is unknown: only its order against the plan's next state.
            other = examples.add_state(wtask.state([atoms[f] for f in facts]), float("nan"))
            examples.pairs.append((ids[i + 1], other))


def fit(learner: str, features: object, examples: Examples, c: float, seed: int) -> np.ndarray:
    """The linear weights of ``learner`` on the embedded states."""
    from sklearn.linear_model import BayesianRidge
    from sklearn.svm import LinearSVC, LinearSVR

    if learner == "rank":
        if not examples.pairs:
            raise SymtError("no ranking pairs in the training data (every state is a goal or a dead end)")
        better, worse = np.array(examples.pairs).T
        differences = features[worse] - features[better]
        from scipy import sparse

        inputs = sparse.vstack([differences, -differences], format="csr")
        labels = np.concatenate([np.ones(differences.shape[0]), -np.ones(differences.shape[0])])
        model = LinearSVC(C=c, fit_intercept=False, max_iter=20_000, random_state=seed)
        model.fit(inputs, labels)
        return model.coef_[0]
    labelled = np.flatnonzero(np.isfinite(np.array(examples.hstar)))
    inputs, targets = features[labelled], np.array(examples.hstar)[labelled]
    if learner == "gpr":
        if inputs.shape[0] * inputs.shape[1] > 200_000_000:
            raise SymtError(f"gpr needs the dense feature matrix ({inputs.shape[0]:,} states x "
                            f"{inputs.shape[1]:,} features): fewer --states-per-task or --iterations")
        inputs = inputs.toarray()
        model = BayesianRidge(fit_intercept=False, max_iter=1000)
    else:
        model = LinearSVR(epsilon=0.0, C=c, fit_intercept=False, max_iter=20_000, random_state=seed)
    model.fit(inputs, targets)
    return np.asarray(model.coef_)


def train_wl(config: WLTrainConfig) -> dict:
    """Train a WL model on ``config.data`` and write it to ``config.out``; returns its metadata."""
    if config.learner not in LEARNERS:
        raise SymtError(f"unknown learner '{config.learner}' (choose from {', '.join(LEARNERS)})")
    _, feature_generator = _wlplan()

    root = Path(config.data)
    start = time.perf_counter()
    manifest_path = root / "manifest.json"
    splits = ("train", "validation") if config.with_validation else ("train",)
    manifest = [e for e in read_manifest(root) if e["split"] in splits]
    if not manifest:
        raise SymtError(f"{root}: the dataset has no training tasks")
    domain = parse_domain(root / "domain.pddl")
    description = domain_description(domain)
    wdomain = wl_domain(description)
    rng = np.random.default_rng(config.seed)
    examples = Examples()
    per_task = config.states_per_task
    budget = config.max_total_states / len(manifest) if config.max_total_states else float("inf")
    # One task at a time: its state space is freed before the next is expanded.
    for entry in tqdm(manifest, desc=f"states of {root.name}", unit="task", disable=not config.progress):
        problem = parse_problem(root / entry["file"], domain)
        task = ground(domain, problem)
        wtask = wl_task(wdomain, domain, problem)
        examples.add_problem(wtask.problem)
        labels = entry.get("labels", "exhaustive")
        if labels not in LABELS:
            raise SymtError(f"{manifest_path}: task {entry['name']} has unknown labels '{labels}'")
        if labels != "exhaustive":
            plan = plan_labels(task, root / entry["plan_file"], exact=labels == "optimal-plan")
            _plan_examples(task, plan, wtask, examples)
            continue
        try:
            space = expand(task, max_states=config.max_states)
        except StateLimitError:
            raise SymtError(f"training task {root / entry['file']} has more than {config.max_states:,} "
                            "states (raise --max-states or drop the task)") from None
        _exhaustive_examples(task, space, wtask, rng, per_task, config.states, examples, budget)
        del space
    tasks = [e["name"] for e in manifest]
    load_seconds = time.perf_counter() - start

    from wlplan.data import DomainDataset, ProblemDataset

    wl_data = DomainDataset(wdomain, [ProblemDataset(p, s) for p, s in zip(examples.problems, examples.states)])
    with native_output_silenced():
        features = feature_generator.init_feature_generator(
            "wl", wdomain, graph_representation="ilg", iterations=config.iterations, pruning=config.pruning)
        features.collect(wl_data)
        matrix = _embed(features, examples)
    fit_start = time.perf_counter()
    weights = fit(config.learner, matrix, examples, config.c, config.seed)
    fit_seconds = time.perf_counter() - fit_start
    values = np.asarray(matrix @ weights).ravel()
    quality = _training_quality(values, examples, regression=config.learner != "rank")
    meta = {
        **description,
        "learner": config.learner,
        "iterations": config.iterations,
        "pruning": config.pruning,
        "graph": "ilg",
        "num_features": int(matrix.shape[1]),
        "fd_scale": DEFAULT_FD_SCALE[config.learner],
        "fd_offset": DEFAULT_FD_OFFSET[config.learner],
        "wlplan": WLPLAN_VERSION,
        "trained_on": {"dataset": str(root), "tasks": tasks,
                       "states": len(examples.hstar), "pairs": len(examples.pairs),
                       "states_from": config.states, "states_per_task": per_task, "seed": config.seed, "c": config.c},
        "training": {"load_seconds": round(load_seconds, 2), "fit_seconds": round(fit_seconds, 2), **quality},
        # The domain's text, so that a task written another way is matched by its actions
        # (symt.models.fit_model).
        DOMAIN_PDDL_KEY: (root / "domain.pddl").read_text(),
    }
    Path(config.out).parent.mkdir(parents=True, exist_ok=True)
    with native_output_silenced():
        write_model(features, list(weights), meta, Path(config.out))
    return meta


def _embed(features: object, examples: Examples, chunk: int = 2048) -> object:
    """The feature counts of every training state, as a sparse matrix built in chunks: with more
    iterations the colours number in the tens of thousands, and a dense matrix of every state
    would not fit in memory."""
    from scipy import sparse

    rows = []
    for problem, states in zip(examples.problems, examples.states):
        features.set_problem(problem)
        for begin in range(0, len(states), chunk):
            dense = np.asarray([features.embed(s) for s in states[begin : begin + chunk]], dtype=np.float64)
            rows.append(sparse.csr_matrix(dense.reshape(-1, features.get_n_features())))
    return sparse.vstack(rows, format="csr")


def _training_quality(values: np.ndarray, examples: Examples, regression: bool) -> dict:
    """Ranking accuracy over the pairs and, for regression, the MSE to h* on the training states."""
    quality: dict = {}
    if examples.pairs:
        better, worse = np.array(examples.pairs).T
        quality["pair_accuracy"] = round(float(np.mean(values[better] < values[worse])), 4)
    hstar = np.array(examples.hstar)
    labelled = np.isfinite(hstar)
    if regression and labelled.any():
        quality["mse"] = round(float(np.mean((values[labelled] - hstar[labelled]) ** 2)), 4)
    return quality
