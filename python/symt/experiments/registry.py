"""Named experiments (``symt experiment NAME``) and the models they use.

The full experiments mirror the competitions' per-task limits scaled to this kind of machine
(300 s and 4 GiB per run, two runs in parallel); the ``-smoke`` ones take a few tasks per group
and 10 s per run, for development. Every field can be overridden on the command line.

Models: the paper suite uses the shipped SymT-E models (``symt models``). The IPC suite uses the
shipped ``ipc2023-<domain>`` model when there is one; otherwise it trains one first with the recipe
of the first shipped IPC models (:data:`IPC_TRAIN_OPTIONS`: ``symt ipc-dataset`` + ``symt train`` +
``symt export``). The shipped models' own commands are rows of ``benchmarks/training/models.toml``
(``benchmarks/training/train_models.py NAME`` runs one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import SymtError
from ..generators.variants import ALL_VARIANTS
from ..models import MODEL_DIR, shipped
from . import suites
from .algorithms import (
    MODEL_FAMILIES,
    PLAN_GENERATION,
    PLAN_GENERATION_ABLATION,
    Algorithm,
    algorithms,
)
from .runner import ExperimentSpec

PAPER_DOMAINS = ("blocksworld", "gripper", "logistics", "visitall")
IPC_FIRST_DOMAINS = ("blocksworld", "ferry", "miconic", "transport")
IPC_ALL_DOMAINS = ("blocksworld", "childsnack", "ferry", "floortile", "miconic", "rovers",
                   "satellite", "sokoban", "spanner", "transport")
PAPER_DOMAIN_SUITES = ("paper", "variants", "held-out")
"""Suites of paper-domain tasks, whose models are the shipped paper-domain ones (``held-out``:
another generator's tasks, ``benchmarks/experiments/robustness/held_out.py``); every other suite is IPC's."""
IPC_VOCAB_SIZE = 160
"""Object vocabulary of the IPC models: every easy and medium test task of the first four domains
has at most 146 objects; larger tasks are refused with a clear error (recorded as such)."""
IPC_TRAIN_OPTIONS: dict[str, object] = {"preset": "small", "seed": 0, "steps": 12000, "lr": 1e-3,
                                        "eval_every": 1000, "vocab_size": IPC_VOCAB_SIZE}
"""How a missing IPC model is trained (:class:`symt.training.config.TrainConfig` fields; the same as
``symt train DATA --preset small --seed 0 --steps 12000 --lr 1e-3 --eval-every 1000 --vocab-size 160``)."""


@dataclass(frozen=True)
class NamedExperiment:
    """A named experiment: which suite, domains, task groups and algorithms it runs, at most how
    many tasks per domain and group (None: all), and the per-run limits (seconds, MiB)."""

    name: str
    suite: str
    domains: tuple[str, ...]
    groups: tuple[str, ...]
    algorithms: tuple[str, ...]
    max_tasks: int | None
    time_limit: int
    memory_limit: int
    description: str
    stride: int = 1
    """Every ``stride``-th task of a group in numeric order, before ``max_tasks`` (IPC suite)."""


_PAPER_GROUPS = ("validation", "interpolation", "extrapolation")
_ALL = ("symt", "symt-batch", "wl", "ff", "lama-first", "add", "blind", "symt-guidance")
_PLANS = PLAN_GENERATION + PLAN_GENERATION_ABLATION
_IPC_ALGORITHMS = ("symt", "wl", "ff", "lama-first")
_CONFIGS = ("symt-batch", "symt-first", "symt-first-lazy", "wl", "ff", "ff-pref", "lama-first")
"""Search configurations with symt() (the fast-downward aliases) against Fast Downward's own."""
_TRACK = ("symt-first", "symt-first-lazy", "symt-batch", "wl", "ff", "ff-pref", "lama-first")
"""The track run (issue 35): symt's best configurations, the learned heuristic alone, WL, Fast Downward's."""
LEARNED_ALONE = ("symt", "symt-batch")
"""The learned heuristic alone under plain GBFS, in the order a report looks for it."""


def learned_algorithm(algorithms: Sequence[str]) -> str | None:
    """The algorithm a report compares pairwise against the others: the learned heuristic alone
    (``symt``, else ``symt-batch``, the configuration experiments' name for it), None without one."""
    return next((name for name in LEARNED_ALONE if name in algorithms), None)


_VARIANT_ALGORITHMS = ("symt-guidance", "symt-batch", "wl", "ff", "lama-first")
CLASSICAL_FOLDERS = ("blocks", "gripper", "logistics00", "logistics98", "visitall-sat11-strips",
                     "visitall-sat14-strips", "rovers", "satellite", "transport-sat08-strips",
                     "transport-sat11-strips", "transport-sat14-strips", "childsnack-sat14-strips",
                     "floortile-sat11-strips", "floortile-sat14-strips")
"""The folders of Fast Downward's benchmark collection whose domain is a shipped model's, written
another way or as written (``symt.pddl.canonical``; tests/classical_ipc)."""
_CLASSICAL_ALGORITHMS = ("symt-first", "symt-first-lazy", "symt", "wl", "ff", "lama-first")

EXPERIMENTS: dict[str, NamedExperiment] = {
    e.name: e
    for e in (
        NamedExperiment("paper", "paper", PAPER_DOMAINS, _PAPER_GROUPS, _ALL, None, 300, 4096,
                        "the paper's four domains, every test split, every algorithm"),
        NamedExperiment("paper-smoke", "paper", PAPER_DOMAINS, _PAPER_GROUPS, _ALL, 1, 10, 2048,
                        "one task per domain and split (the smallest), every algorithm"),
        NamedExperiment("plans", "paper", PAPER_DOMAINS, _PAPER_GROUPS, _PLANS, None, 300, 4096,
                        "the paper's plan-generation comparison: PlanGPT and SymT-ED with greedy, "
                        "applicability-filtered and regrounding decoding, SymT-E's greedy guidance, "
                        "and the ablation models (contrastive loss inverted)"),
        NamedExperiment("plans-smoke", "paper", PAPER_DOMAINS, _PAPER_GROUPS, _PLANS, 1, 20, 2048,
                        "the plan-generation comparison on one task per domain and split"),
        NamedExperiment("ipc", "ipc2023", IPC_FIRST_DOMAINS, ("easy", "medium", "hard"), _IPC_ALGORITHMS,
                        None, 300, 4096, "IPC 2023 learning track: Blocksworld, Ferry, Miconic, Transport"),
        NamedExperiment("ipc-smoke", "ipc2023", IPC_FIRST_DOMAINS, ("easy",), _IPC_ALGORITHMS, 2, 10, 2048,
                        "two easy IPC tasks per domain"),
        NamedExperiment("configs-paper", "paper", PAPER_DOMAINS, ("extrapolation",), _CONFIGS, 20, 60, 4096,
                        "symt() search configurations against ff, ff with preferred operators and "
                        "lama-first on the paper's extrapolation split (at most 20 tasks per domain, "
                        "evenly spread over the sizes: all of Blocksworld, Gripper and Logistics, "
                        "20 of the 219 Visitall tasks)"),
        NamedExperiment("configs-ipc", "ipc2023", IPC_FIRST_DOMAINS, ("easy", "medium"), _CONFIGS, 5, 60, 4096,
                        "symt() search configurations against ff, ff with preferred operators and "
                        "lama-first on IPC 2023 easy and medium tasks (5 per domain and level, evenly "
                        "spread over the 30)"),
        NamedExperiment("configs-smoke", "paper", PAPER_DOMAINS, ("extrapolation",), _CONFIGS, 1, 20, 2048,
                        "the configuration comparison on the smallest extrapolation task per domain"),
        NamedExperiment("variants", "variants", PAPER_DOMAINS, ALL_VARIANTS, _VARIANT_ALGORITHMS, 5, 60, 4096,
                        "the shipped models on the paper's extrapolation tasks as generated and as other "
                        "generators and people would write or pose them (symt.generators.variants: implied "
                        "goal atoms left out or added, other goals, starts and object ratios; 5 tasks per "
                        "domain and variant, evenly spread over the sizes): greedy guidance and plain GBFS "
                        "against ff and lama-first"),
        NamedExperiment("variants-smoke", "variants", PAPER_DOMAINS, ALL_VARIANTS, _VARIANT_ALGORITHMS, 1, 10, 2048,
                        "the variants experiment on the smallest extrapolation task per domain and variant"),
        NamedExperiment("ipc-track", "ipc2023", IPC_ALL_DOMAINS, ("easy", "medium", "hard"), _TRACK, None, 60, 4096,
                        "the IPC 2023 learning track as researchers report it: every third test task of "
                        "each level (p01, p04, ..., p28) of all ten domains, the best symt configurations, "
                        "the learned heuristic alone, WL-GOOSE and Fast Downward's own", stride=3),
        NamedExperiment("classical", "classical", CLASSICAL_FOLDERS, ("all",), _CLASSICAL_ALGORITHMS, None, 60, 4096,
                        "the shipped domains as the classical IPCs wrote them (Fast Downward's benchmark "
                        "collection, --classical-root): every second task of each folder, the model "
                        "symt() and wl() pick for it, against ff and lama-first", stride=2),
        NamedExperiment("own", "own", (), ("all",), _CLASSICAL_ALGORITHMS, None, 60, 4096,
                        "your own domain and problems (--domain-file, --problems) with the model and WL "
                        "baseline of a `symt learn` folder (--learned), or else those symt() and wl() "
                        "pick, against ff and lama-first"),
        NamedExperiment("ipc-all", "ipc2023", IPC_ALL_DOMAINS, ("easy", "medium", "hard"), _IPC_ALGORITHMS,
                        None, 300, 4096, "IPC 2023 learning track, all ten domains (trains missing models)"),
    )
}


def named(name: str, **overrides) -> NamedExperiment:
    """The experiment called ``name`` with the fields of ``overrides`` that are not None replaced
    (the command line's options); an error for an unknown name."""
    if name not in EXPERIMENTS:
        raise SymtError(f"unknown experiment '{name}' (known: {', '.join(EXPERIMENTS)})")
    return replace(EXPERIMENTS[name], **{k: v for k, v in overrides.items() if v is not None})


def ipc_model_name(domain: str) -> str:
    """The name of the IPC 2023 model of ``domain`` (``ipc2023-<domain>``), shipped or trained."""
    return f"ipc2023-{domain}"


def ensure_ipc_model(domain: str, ipc_root: Path, models_dir: Path, runs_dir: Path) -> Path:
    """The IPC model of ``domain``: shipped, already trained into ``models_dir``, or trained now."""
    name = ipc_model_name(domain)
    if name in shipped():
        return shipped()[name]
    target = Path(models_dir) / f"{name}.pt"
    if target.exists():
        return target
    from ..export import export
    from ..training.config import TrainConfig
    from ..training.trainer import Trainer
    from .ipc import write_training_dataset

    data = Path("data") / name
    run = Path(runs_dir) / name
    options = ", ".join(f"{key}={value}" for key, value in IPC_TRAIN_OPTIONS.items())
    print(f"[experiment] no model {name}: training one ({options}) in {run}")
    try:
        if not (data / "manifest.json").exists():
            write_training_dataset(Path(ipc_root) / domain, data, progress=False)
        config = TrainConfig(data=str(data), out=str(run), **IPC_TRAIN_OPTIONS)  # type: ignore[arg-type]
        Trainer(config, resume=(run / "last.pt").exists(), progress=False).run()
        target.parent.mkdir(parents=True, exist_ok=True)
        export(run / "best.pt", target)
    except SymtError as error:
        raise SymtError(f"training the {name} model failed: {error}") from None
    return target


def paper_model(domain: str, family: str = "symt-e") -> Path:
    """The shipped model of ``family`` (:data:`.algorithms.MODEL_FAMILIES`) for a paper domain."""
    name = f"{domain}{MODEL_FAMILIES[family]}"
    models = shipped()
    if name not in models:
        raise SymtError(f"no shipped {family} model for the paper domain {domain} ({name} in {MODEL_DIR}); "
                        "benchmarks/training/train_models.py NAME trains them (benchmarks/training/models.toml)")
    return models[name]


def wl_model(domain: str, suite: str, ipc_root: Path, models_dir: Path) -> Path:
    """The WL model of a domain: shipped (``<domain>`` for the paper suites, ``ipc2023-<domain>``
    for IPC), already trained into ``models_dir``, or trained now on the IPC domain's dataset (the
    one :func:`ensure_ipc_model` trains SymT-E on; seconds once it exists)."""
    from ..models import wl_models

    name = domain if suite in PAPER_DOMAIN_SUITES else ipc_model_name(domain)
    if name in wl_models():
        return wl_models()[name]
    if suite in PAPER_DOMAIN_SUITES:
        raise SymtError(f"no shipped WL model for the paper domain {domain}; "
                        "benchmarks/training/train_models.py 'wl/*' trains them (benchmarks/training/models.toml)")
    target = Path(models_dir) / f"{name}-wl.json"
    if target.exists():
        return target
    from ..training.wl import WLTrainConfig, train_wl
    from .ipc import write_training_dataset

    data = Path("data") / name
    print(f"[experiment] no WL model {name}: training one on {data}")
    try:
        if not (data / "manifest.json").exists():
            write_training_dataset(Path(ipc_root) / domain, data, progress=False)
        target.parent.mkdir(parents=True, exist_ok=True)
        train_wl(WLTrainConfig(data=str(data), out=target, progress=False))
    except SymtError as error:
        raise SymtError(f"training the WL model {name} failed: {error}") from None
    return target


def suite_models(
    suite: str, domains: list[str], chosen: list[Algorithm], out: Path, ipc_root: Path,
    heuristic_models: dict[str, str],
) -> dict[tuple[str, str, str], str]:
    """The model file of every (suite, domain, model family) that the ``chosen`` algorithms need:
    ``heuristic_models`` first for SymT-E, then the shipped ones (paper-domain suites,
    :data:`PAPER_DOMAIN_SUITES`) or the IPC ones, trained into ``out/models`` when missing."""
    models: dict[tuple[str, str, str], str] = {}
    for family in sorted({a.model for a in chosen if a.model}):
        for domain in domains:
            if suite == "classical" and not (family == "symt-e" and domain in heuristic_models):
                models[(suite, domain, family)] = str(classical_model(ipc_root / domain, family).resolve())
                continue
            if family == "symt-e" and domain in heuristic_models:
                path = Path(heuristic_models[domain])
            elif family == "wl":
                path = wl_model(domain, suite, ipc_root, Path(out) / "models")
            elif suite in PAPER_DOMAIN_SUITES:
                path = paper_model(domain, family)
            elif family == "symt-e":
                path = ensure_ipc_model(domain, ipc_root, Path(out) / "models", Path("runs"))
            else:
                raise SymtError(f"the IPC suite has only SymT-E models; {family} runs on the paper suite")
            models[(suite, domain, family)] = str(Path(path).resolve())
    return models


def classical_model(folder: Path, family: str) -> Path:
    """The shipped model that ``symt()`` (``symt-e``) or ``wl()`` (``wl``) picks for a folder of the
    classical collection, by its domain and first problem (:func:`picked_model`)."""
    problems = sorted(p for p in folder.glob("*.pddl") if not p.name.startswith("domain"))
    return picked_model(folder / "domain.pddl", problems[0] if problems else None, family)


def picked_model(domain_file: Path, problem_file: Path | None, family: str) -> Path:
    """The shipped model that ``symt()`` (``symt-e``, :func:`symt.models.select_heuristic`) or
    ``wl()`` (``wl``, :func:`symt.models.select_wl`) picks for a domain and one of its problems."""
    from ..models import select_heuristic, select_wl
    from ..pddl import parse_domain, parse_problem

    if family == "symt-e":
        return select_heuristic(domain_file, problem_file)[0]
    if family == "wl":
        parsed = parse_domain(domain_file)
        return select_wl(parsed, parse_problem(problem_file, parsed) if problem_file else None)[0]
    raise SymtError(f"this suite runs SymT-E heuristics and WL models, not {family}")


def model_options(items: list[str] | None) -> dict[str, str]:
    """``--model DOMAIN=FILE`` options as ``{domain: file}``; :class:`SymtError` for a malformed one."""
    models = {}
    for item in items or ():
        domain, sep, path = item.partition("=")
        if not sep or not domain or not path:
            raise SymtError(f"--model {item}: expected DOMAIN=MODEL_FILE")
        models[domain] = path
    return models


@dataclass(frozen=True)
class OwnTasks:
    """What ``symt experiment own`` runs on: a domain file, problems (files or folders), and
    optionally a ``symt learn`` folder whose ``model.pt`` and ``wl.json`` are the models."""

    domain_file: Path
    problems: tuple[Path, ...]
    learned: Path | None = None


def _own_spec(experiment: NamedExperiment, processes: int, own: OwnTasks | None) -> ExperimentSpec:
    """The runs of the ``own`` experiment (:class:`OwnTasks`)."""
    if own is None or not own.problems:
        raise SymtError("the own experiment needs --domain-file and --problems (and, for one's own models, "
                        "--learned: a symt learn folder)")
    tasks = suites.own_tasks(own.domain_file, list(own.problems))
    chosen = algorithms(list(experiment.algorithms))
    domain = tasks[0].domain
    models: dict[tuple[str, str, str], str] = {}
    for family in sorted({a.model for a in chosen if a.model}):
        if own.learned is not None:
            path = Path(own.learned) / {"symt-e": "model.pt", "wl": "wl.json"}[family]
            if not path.is_file():
                raise SymtError(f"--learned {own.learned}: no {path.name} (a symt learn folder has model.pt "
                                "and wl.json)")
        else:
            path = picked_model(own.domain_file, Path(tasks[0].problem_file), family)
        models[("own", domain, family)] = str(Path(path).resolve())
    return ExperimentSpec(experiment.name, tasks, chosen, models, experiment.time_limit,
                          experiment.memory_limit, processes, {})


def make_spec(
    experiment: NamedExperiment, out: Path, ipc_root: Path | None = None, processes: int = 2,
    heuristic_models: dict[str, str] | None = None, own: OwnTasks | None = None,
) -> ExperimentSpec:
    """The runs of ``experiment``: its tasks (generated into ``out/tasks`` for the paper suite),
    algorithms and models (IPC models trained first when missing). ``heuristic_models`` maps a
    domain to a SymT-E model file used instead of the shipped one (a candidate before shipping);
    ``own``: the tasks and models of the ``own`` experiment."""
    heuristic_models = dict(heuristic_models or {})
    unknown = sorted(set(heuristic_models) - set(experiment.domains))
    if unknown:
        raise SymtError(f"--model for {', '.join(unknown)}: not a domain of this experiment "
                        f"({', '.join(experiment.domains)})")
    for domain, path in heuristic_models.items():
        if not Path(path).is_file():
            raise SymtError(f"--model {domain}={path}: no such model file")
    if experiment.suite == "own":
        return _own_spec(experiment, processes, own)
    if experiment.suite == "classical" and ipc_root is None:
        raise SymtError("the classical experiment needs --classical-root (a copy of Fast Downward's benchmark "
                        "collection, github aibasel/downward-benchmarks)")
    ipc_root = Path(ipc_root) if ipc_root else suites.DEFAULT_IPC_ROOT
    chosen = algorithms(list(experiment.algorithms))
    if experiment.suite == "paper":
        tasks = suites.paper_tasks(Path(out) / "tasks", list(experiment.domains), list(experiment.groups),
                                   experiment.max_tasks)
    elif experiment.suite == "variants":
        tasks = suites.variant_tasks(Path(out) / "tasks", list(experiment.domains), list(experiment.groups),
                                     experiment.max_tasks)
    elif experiment.suite == "classical":
        tasks = suites.classical_tasks(ipc_root, list(experiment.domains), experiment.max_tasks, experiment.stride)
    else:
        tasks = suites.ipc_tasks(ipc_root, list(experiment.domains), list(experiment.groups),
                                 experiment.max_tasks, experiment.stride)
    models = suite_models(experiment.suite, list(experiment.domains), chosen, out, ipc_root, heuristic_models)
    task_models = ({} if experiment.suite in (*PAPER_DOMAIN_SUITES, "classical")
                   else fallback_models(tasks, models, set(heuristic_models)))
    return ExperimentSpec(experiment.name, tasks, chosen, models, experiment.time_limit,
                          experiment.memory_limit, processes, task_models)


def fallback_models(tasks: list[suites.BenchmarkTask], models: dict[tuple[str, str, str], str],
                    given: set[str]) -> dict[tuple[str, str], str]:
    """For each IPC task with more objects than its domain's SymT-E model has tokens, the shipped
    heuristic that ``symt()`` without a model picks for it (:func:`symt.models.select_heuristic`:
    one whose vocabulary takes the task), so that the run shows
    what a user's ``symt()`` does rather than a refusal. Domains whose model was given with
    ``--model`` keep it on every task."""
    from ..models import model_info, select_heuristic

    chosen: dict[tuple[str, str], str] = {}
    infos = {path: model_info(Path(path)) for (_, domain, family), path in models.items()
             if family == "symt-e" and domain not in given}
    for task in tasks:
        path = models.get((task.suite, task.domain, "symt-e"))
        if path is None or task.domain in given:
            continue
        info = infos[path]
        if info.hashed_objects or task.size <= info.vocab_size:
            continue
        choice, _ = select_heuristic(task.domain_file, task.problem_file)
        if Path(choice).resolve() != Path(path).resolve():
            chosen[(task.problem_file, "symt-e")] = str(Path(choice).resolve())
    return chosen


def describe(experiment: NamedExperiment, spec: ExperimentSpec) -> tuple[str, str]:
    """(limits, notes) lines for the report."""
    limits = f"{experiment.time_limit} s and {experiment.memory_limit} MiB per run"
    notes = (f"{experiment.description}. {len(spec.tasks)} tasks x {len(spec.algorithms)} algorithms; "
             f"{limits}, {spec.processes} runs in parallel. Models: "
             + (", ".join(Path(m).name for _, m in sorted(spec.models.items())) or "none"))
    return limits, notes
