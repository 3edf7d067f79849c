"""Pre-trained models shipped with symt, ``<name>.pt`` in this folder.

* ``<domain>.pt``: SymT-E heuristics (TorchScript, for Fast Downward and greedy guidance);
  ``<domain>-nocl.pt`` the same trained without the contrastive loss (the paper's ablation);
  ``<domain>-objects.pt`` a SymT-E with objects attention (``symt.model_routed``: a state costs
  time linear in its fluent atoms), picked by name or, where it is the only fitting model, by default;
  ``<domain>-local.pt`` one without global tokens, whose states the plugin values from their
  parents' (``symt.model_local``), picked before either where shipped;
* ``<domain>-ed.pt`` / ``<domain>-plangpt.pt``: plan generators (SymT-ED, the PlanGPT baseline);
  ``-ed-nocl`` / ``-plangpt-cl`` their ablations (contrastive loss inverted); ``<domain>-ed-first.pt``
  a SymT-ED trained on first actions, for regrounding, and ``-ed-first-nocl`` its ablation (in
  Blocksworld the other way round: :data:`NO_CONTRASTIVE_DEFAULTS`).

``resolve("gripper")`` finds the shipped Gripper model; any other string is taken as a path.
:func:`select_heuristic` and :func:`select_planner` pick the shipped model for a task's domain when
none is named (``symt()`` in Fast Downward, ``symt plan`` without ``--model``).

What a model was trained on: the paper-domain models (``gripper``, ``blocksworld``, ``logistics``,
``visitall`` and their ``-nocl``/``-ed``/``-plangpt`` variants) on the paper's training split
(:mod:`symt.generators.splits`), ``blocksworld`` with tasks of extra styles too
(:data:`symt.models.trained_on.EXTRA_STYLES`); the ``ipc2023-<domain>`` models on the IPC 2023
training problems listed in ``training.json`` beside this file (:mod:`symt.models.trained_on`).

Everything here reads the model files without torch: a heuristic's ``symt.json`` from the
TorchScript zip, a plan generator's metadata from its pickle with the tensors left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SymtError
from ..formats import (
    DOMAIN_PDDL_KEY,
    local_hops,
    model_file_kind,
    read_model_meta,
    read_planner_meta,
)

if TYPE_CHECKING:
    from ..pddl import Domain, Problem
    from ..pddl.canonical import DomainMatch

MODEL_DIR = Path(__file__).resolve().parent
ABLATION_SUFFIXES = ("-nocl", "-cl")
"""Name endings of the ablation models, which are never picked by default."""

NO_CONTRASTIVE_DEFAULTS = frozenset({"blocksworld-ed-first-nocl"})
"""First-action SymT-ED models trained without the contrastive terms that are their domain's
default, where that recipe wrote valid plans for at least as many tasks as the one with the terms
on every one of three seeds, and for more on some (recipe study of the plan generators, round 6:
``benchmarks/results/training/plan-recipe-study.md``). There the model with the terms (the name
without ``-nocl``) is the ablation instead."""

PLANNER_KINDS = {"symt-ed": "SymT-ED", "plangpt": "PlanGPT"}



def shipped() -> dict[str, Path]:
    """Shipped models by name."""
    return {path.stem: path for path in sorted(MODEL_DIR.glob("*.pt"))}


def _is_heuristic_file(path: Path) -> bool:
    """True for a TorchScript heuristic (it carries ``extra/symt.json``)."""
    try:
        return model_file_kind(path) == "heuristic"
    except SymtError:
        return False


def heuristics() -> dict[str, Path]:
    """Shipped SymT-E heuristic models (TorchScript) by name."""
    return {name: path for name, path in shipped().items() if _is_heuristic_file(path)}


def planners() -> dict[str, Path]:
    """Shipped plan generators (SymT-ED, PlanGPT) by name."""
    return {name: path for name, path in shipped().items() if not _is_heuristic_file(path)}


def resolve(name_or_path: str | Path) -> Path:
    """A shipped model's name, or a path to an exported model file."""
    models = shipped()
    if str(name_or_path) in models:
        return models[str(name_or_path)]
    path = Path(name_or_path)
    if path.is_file():
        return path
    names = ", ".join(models) or "none"
    raise SymtError(f"model '{name_or_path}' is neither a file nor a shipped model (shipped: {names})")


# ------------------------------------------------------------------------------ a model's domain

DOMAIN_DIR = MODEL_DIR / "domains"
"""The PDDL domains of the shipped ``ipc2023-<domain>`` models (IPC 2023's learning track files);
the paper-domain models' are the generators' (:func:`symt.generators.dataset.domain_file`)."""


def model_domain(path: Path, name: str | None = None, meta: dict | None = None) -> Domain | None:
    """The PDDL domain a model was trained on, parsed; None when nothing says which it is (a model
    exported before symt kept the domain: then only its predicates can be compared).

    Shipped models (by ``name``, ablation and variant suffixes aside): the generators' domain of a
    paper domain, ``domains/<name>.pddl`` of an ``ipc2023-<domain>`` model. Other files: the domain
    text kept in their metadata (``meta``; read from the file when not given)."""
    import tempfile

    from ..pddl import parse_domain

    path = Path(path)
    name = name or path.stem
    shipped_here = path.resolve().parent in (MODEL_DIR, WL_DIR)
    if shipped_here:
        base = re.sub(r"(-ed|-plangpt)?(-nocl|-cl)?$", "", name)
        if (DOMAIN_DIR / f"{base}.pddl").is_file():
            return parse_domain(DOMAIN_DIR / f"{base}.pddl")
        paper = paper_domain(name)
        if paper is not None:
            from ..generators.dataset import domain_file

            return parse_domain(domain_file(paper))
    if meta is None:
        try:
            meta = read_model_meta(path) if _is_heuristic_file(path) else json.loads(path.read_text())
        except (OSError, ValueError, SymtError):
            return None
    text = meta.get(DOMAIN_PDDL_KEY) if isinstance(meta, dict) else None
    if not isinstance(text, str):
        return None
    with tempfile.TemporaryDirectory(prefix="symt-domain-") as tmp:
        file = Path(tmp) / f"{path.stem}.domain.pddl"
        file.write_text(text)
        domain = parse_domain(file)
    domain.filename = f"{path} (its domain)"
    return domain


def fit_model(domain: Domain, problem: Problem | None, path: Path, name: str | None = None,
              meta: dict | None = None) -> DomainMatch | None:
    """How a task's domain maps onto a model's (:func:`symt.pddl.canonical.match_domains`): the
    isomorphism, or None for a model that does not say its domain (old exports). A
    :class:`SymtError` naming the first difference when the domains differ."""
    from ..pddl.canonical import match_domains

    theirs = model_domain(path, name, meta)
    if theirs is None:
        return None
    return match_domains(domain, theirs, problem)


# ------------------------------------------------------------------------------ WL baseline models

WL_DIR = MODEL_DIR / "wl"
"""Shipped WL baseline models (``symt train-wl``): ``<name>.json``."""


def wl_models() -> dict[str, Path]:
    """Shipped WL models by name."""
    return {path.stem: path for path in sorted(WL_DIR.glob("*.json"))}


def resolve_wl(name_or_path: str | Path) -> Path:
    """A shipped WL model's name (as ``symt models`` lists it, ``wl/<name>``, or without the
    prefix), or a path to a WL model file."""
    models = wl_models()
    name = str(name_or_path).removeprefix("wl/")
    if name in models:
        return models[name]
    path = Path(name_or_path)
    if path.is_file():
        return path
    names = ", ".join(models) or "none"
    raise SymtError(f"WL model '{name_or_path}' is neither a file nor a shipped WL model (shipped: {names})")


def select_wl(domain: Domain, problem: Problem | None = None) -> tuple[Path, str]:
    """The shipped WL model whose domain is ``domain`` up to spelling (:func:`fit_model`), and a
    line that says so and through which mapping; one clear error when none fits."""
    from ..wl import model_meta

    reasons: list[tuple[str, str, int]] = []
    for name, path in wl_models().items():
        meta = model_meta(path)
        try:
            match = fit_model(domain, problem, path, name, meta)
        except SymtError as error:
            shared = len(set(domain.predicates) & {p for p, _ in meta["predicates"]})
            reasons.append((name, _why_not(error), shared))
            continue
        if match is None:
            continue
        return path, (f"wl(): the shipped WL model '{name}' (trained on domain '{meta['domain']}'), "
                      f"{match.describe()}")
    raise SymtError(f"no shipped WL model fits domain '{domain.name}' ({domain.filename}){_closest(reasons, domain)}; "
                    "train one with `symt train-wl` and pass wl(model=FILE)")


def _why_not(error: SymtError) -> str:
    """A candidate's refusal without the task's file in front (the no-fit line names it once)."""
    from ..pddl.canonical import DomainMismatch

    if isinstance(error, DomainMismatch):
        return f"not the domain of {error.target}: {error.why}"
    return str(error).split(": ", 1)[-1]


def _closest(reasons: list[tuple[str, str, int]], domain: Domain) -> str:
    """`` (closest: 'X', why)`` for the candidate whose domain differs least visibly: one whose
    reason names a schema (the structures agree up to it) before one that counts predicates, then
    the one sharing the most predicate names with ``domain``."""
    if not reasons:
        return ""
    ranked = sorted(reasons, key=lambda item: ("schema '" not in item[1], -item[2], item[0]))
    name, why, _ = ranked[0]
    return f" (closest: '{name}', {why})"


# ------------------------------------------------------------------------------ model metadata


@dataclass(frozen=True)
class ModelInfo:
    """What a model file says about itself, read without torch."""

    name: str
    path: Path
    kind: str
    """``SymT-E`` (heuristic), ``SymT-ED`` or ``PlanGPT`` (plan generators)."""
    domain: str
    """The PDDL domain name of its training data."""
    predicates: tuple[tuple[str, int], ...]
    """Predicate names and arities (``type:<t>`` included), in id order."""
    vocab_size: int
    """Object tokens: the most objects a task may have."""
    schemas: tuple[tuple[str, int], ...] | None = None
    """A plan generator's action schemas (names and arities), in the domain's order."""
    plan_prefix: int = 0
    """A plan generator trained on the first ``plan_prefix`` actions of each plan (0: whole plans);
    it plans by regrounding only."""
    attention: str = "full"
    """A SymT-E model's attention (``ModelConfig.attention``): ``full`` (the paper's; a cost per
    state that grows with the square of its atoms) or ``objects`` (linear in them)."""
    local: bool = False
    """Objects attention without global tokens: Fast Downward values a state from its parent's,
    passing only the atoms near the change through the model (``symt.model_local``)."""

    @property
    def cost_rank(self) -> int:
        """0 for a local model, 1 for objects attention, 2 for full attention: the default's fourth criterion."""
        return 0 if self.local else 1 if self.attention == "objects" else 2

    @property
    def ablation(self) -> bool:
        """Never picked by default: the paper's ablations (:data:`ABLATION_SUFFIXES`), except where a
        no-contrastive model is the default (:data:`NO_CONTRASTIVE_DEFAULTS`), whose sibling with
        the contrastive terms then is the ablation."""
        if self.name in NO_CONTRASTIVE_DEFAULTS:
            return False
        if f"{self.name}-nocl" in NO_CONTRASTIVE_DEFAULTS:
            return True
        return self.name.endswith(ABLATION_SUFFIXES)

    @property
    def hashed_objects(self) -> bool:
        """Hashed object codes (no table): the vocabulary size only bounds objects, in practice not at all."""
        from ..tokens import HASHED_TOKEN_SPACE

        return self.vocab_size >= HASHED_TOKEN_SPACE


def model_info(path: Path, name: str | None = None) -> ModelInfo:
    """The :class:`ModelInfo` of a model file (heuristic or plan generator)."""
    path = Path(path)
    name = name or path.stem
    if _is_heuristic_file(path):
        meta = read_model_meta(path)
        try:
            predicates = tuple((p["name"], int(p["arity"])) for p in meta["predicates"])
            attention = str(meta.get("model", {}).get("attention", "full"))
            return ModelInfo(name, path, "SymT-E", str(meta["domain"]), predicates, int(meta["vocab_size"]),
                             attention=attention, local=local_hops(meta) > 0)
        except (KeyError, TypeError, ValueError) as error:
            raise SymtError(f"{path}: incomplete symt.json ({error})") from None
    meta = read_planner_meta(path)
    try:
        signature = meta["signature"]
        vocab = meta["plan_vocab"]
        return ModelInfo(
            name, path, PLANNER_KINDS.get(meta["kind"], str(meta["kind"])), str(signature["domain"]),
            tuple((p["name"], int(p["arity"])) for p in signature["predicates"]), int(vocab["vocab_size"]),
            tuple((s["name"], int(s["arity"])) for s in vocab["schemas"]), int(meta.get("plan_prefix", 0)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise SymtError(f"{path}: incomplete planner metadata ({error})") from None


def catalogue() -> list[ModelInfo]:
    """Every shipped model's :class:`ModelInfo`, heuristics first, each group by name."""
    infos = [model_info(path, name) for name, path in shipped().items()]
    return sorted(infos, key=lambda info: (info.kind != "SymT-E", info.name))


# ------------------------------------------------------------------------------ training sizes


def paper_domain(name: str) -> str | None:
    """The paper domain whose generated training split a shipped model was trained on, if any.

    A model name is the generator's domain name plus a variant suffix (``gripper``,
    ``gripper-nocl``, ``gripper-ed``, ``gripper-plangpt-cl``; see :mod:`symt.generators`).
    """
    from ..generators.dataset import DOMAINS

    base = name.split("-", 1)[0]
    return base if base in DOMAINS else None


# ------------------------------------------------------------------------------ the default model


def _select(candidates: list[ModelInfo], domain_file: str | Path, problem_file: str | Path | None,
            what: str, how_to_get_one: str) -> tuple[Path, str]:
    """The ranking shared by :func:`select_heuristic` and :func:`select_planner`.

    A candidate fits when the task's domain is its domain up to spelling (:func:`fit_model`; a
    plan generator's plans, in its own vocabulary, are written back in the task's by ``symt
    plan``); a model that does not say its domain fits when it knows all of the domain's
    predicates (the old rule). A model of the domain as written ranks before one up to names."""
    from ..pddl import parse_domain, parse_problem
    from ..tokens import domain_signature

    domain = parse_domain(domain_file)
    problem = parse_problem(problem_file, domain) if problem_file is not None else None
    signature = domain_signature(domain)
    ours = set(signature.predicates)
    fitting: list[tuple[ModelInfo, DomainMatch | None]] = []
    reasons: list[tuple[str, str, int]] = []
    for c in candidates:
        try:
            match = fit_model(domain, problem, c.path, c.name)
        except SymtError as error:
            shared = len(set(domain.predicates) & {p for p, _ in c.predicates})
            reasons.append((c.name, _why_not(error), shared))
            continue
        if match is None:
            if ours <= set(c.predicates):
                fitting.append((c, None))
            continue
        fitting.append((c, match))
    where = f"domain '{signature.domain}' ({domain_file})"
    if not fitting:
        raise SymtError(f"no shipped {what} model fits {where}{_closest(reasons, domain)}; {how_to_get_one} "
                        "(`symt models` lists the shipped ones)")
    objects = len(problem.objects) if problem is not None else None

    def rank(item: tuple[ModelInfo, DomainMatch | None]) -> tuple[int, int, int, int, str]:
        c, match = item
        how = (0 if not match.renamed() else 1) if match is not None else (2 if set(c.predicates) == ours else 3)
        return (int(objects is not None and objects > c.vocab_size), how, int(c.domain != signature.domain),
                c.cost_rank, c.name)

    fitting.sort(key=rank)
    chosen, match = fitting[0]
    how = rank(fitting[0])[1]
    why = [f"its domain is this one ({match.describe()})" if match is not None else
           "its predicates match exactly (it does not say its domain's actions)" if how == 2 else
           f"its predicates include all {len(ours)} of the domain's (it does not say its domain's actions)"]
    if rank(fitting[0])[2] == 0:
        why.append("its PDDL domain name is the same")
    if objects is not None and rank(fitting[0])[0] == 0:
        why.append(f"its hashed object codes take the task's {objects} objects"
                   if chosen.hashed_objects else
                   f"its vocabulary ({chosen.vocab_size}) holds the task's {objects} objects")
    if rank(fitting[0])[3] == 0:
        why.append("its states are valued from their parents' (a local model)")
    elif rank(fitting[0])[3] == 1:
        why.append("its cost per state is linear in the task's atoms (objects attention)")
    reasons_against = (f"its vocabulary is smaller than the task's {objects} objects", "its domain matches {how}",
                       "its PDDL domain name is '{domain}'", "{cost}", "later by name")
    costs = ("", "its states are valued whole (objects attention with global tokens)",
             "its cost per state grows with the square of the atoms (full attention)")
    others = []
    for other in fitting[1:]:
        criterion = next(i for i, (a, b) in enumerate(zip(rank(fitting[0]), rank(other))) if a != b)
        how_other = ("up to names", "up to names", "by its predicates only", "by a superset of the predicates")
        reason = reasons_against[criterion].format(how=how_other[rank(other)[1]], domain=other[0].domain,
                                                   cost=costs[rank(other)[3]])
        others.append(f"'{other[0].name}' ({reason})")
    tail = (f"; {len(others)} other candidate{'s' if len(others) > 1 else ''}: {', '.join(others)}"
            if others else "")
    return chosen.path, (f"no model given; chose shipped {what} model '{chosen.name}' for {where}: "
                         f"{', '.join(why)}{tail}")


def select_heuristic(domain_file: str | Path, problem_file: str | Path | None = None,
                     use: str = "symt(model=MODEL.pt)") -> tuple[Path, str]:
    """The shipped SymT-E heuristic for a task's domain, and why: ``(path, reason)``.

    Rule. Candidates are the shipped SymT-E models except the ablations (names ending in
    ``-nocl``). A model *fits* when the task's domain is the model's domain up to spelling
    (:func:`fit_model`: the same action schemas in canonical form, through a renaming of
    predicates, types and actions and a permutation of arguments; guards the task makes
    redundant may be dropped). Among the fitting ones, the first by: (1) when ``problem_file`` is
    given, a vocabulary large enough for the problem's objects; (2) the domain as written before
    one up to names (and, for a model that does not say its domain, the same predicates before a
    superset); (3) the model's PDDL domain name equal to the task domain's; (4) a local model
    (states valued from their parents') before objects attention (a cost per state linear in the
    atoms) before full attention: each is shipped only where it was measured to guide as well and
    to solve more in Fast Downward than the one after it (issue 65); (5) the model's name in sort
    order.

    Where none fits: a one-line :class:`SymtError` naming the domain and its file, the closest
    shipped heuristic and why it does not fit, and how to learn and pass one (``use``: how a model file is
    passed where the caller is, e.g. ``symt(model=MODEL.pt)`` or ``--model MODEL.pt``).
    """
    candidates = [model_info(path, name) for name, path in heuristics().items()]
    candidates = [c for c in candidates if not c.ablation]
    how = ("learn one from a few of the domain's problems with `symt learn DOMAIN PROBLEMS --out DIR` "
           "(or step by step: `symt dataset`, `symt train`, `symt export`) and pass DIR/model.pt as "
           f"{use}")
    return _select(candidates, domain_file, problem_file, "heuristic", how)


def select_planner(domain_file: str | Path, problem_file: str | Path | None = None,
                   strategy: str = "greedy") -> tuple[Path, str]:
    """The shipped SymT-ED plan generator for a task's domain and a decoding ``strategy``, and why:
    for ``regrounding`` the one trained on first actions (``<domain>-ed-first``) where one fits,
    else the whole-plan one (``<domain>-ed``), which greedy and applicable decoding need.

    The rule of :func:`select_heuristic`, over the shipped SymT-ED models except the ablations
    (``-ed-nocl``; the PlanGPT baselines are never picked), where fitting also needs the domain's
    action schemas (names and arities, in order) to equal the model's plan vocabulary.
    """
    candidates = [model_info(path, name) for name, path in planners().items()]
    candidates = [c for c in candidates if c.kind == "SymT-ED" and not c.ablation]
    if strategy.startswith("regrounding"):
        first = [c for c in candidates if c.plan_prefix]
        try:
            if first:
                return _select(first, domain_file, problem_file, "plan-generation (SymT-ED)", "")
        except SymtError:
            pass  # no first-action model fits: a whole-plan one regrounds too
    candidates = [c for c in candidates if not c.plan_prefix]
    how = ("train one with `symt train-plans DOMAIN_OR_DATASET --kind symt-ed` and pass its "
           "best.pt with --model")
    return _select(candidates, domain_file, problem_file, "plan-generation (SymT-ED)", how)
