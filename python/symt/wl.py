"""WL-GOOSE, the field's reference learned heuristic, beside SymT-E: a linear model on
Weisfeiler-Leman features of a task's instance learning graph (ILG), computed by WLPlan.

This module is the light half, which needs neither torch nor scikit-learn: it turns symt's PDDL
objects into WLPlan's, reads and writes WL model files, and evaluates a model on states -- in
Python (tests, ``symt.training.wl``) and inside Fast Downward, whose ``wl()`` evaluator
(``fd_plugin/wl_heuristic.cc``) embeds a Python interpreter and calls :class:`FastDownwardWL`.
Training lives in ``symt.training.wl``.

Model file (``FORMAT`` version ``FORMAT_VERSION``): WLPlan's own JSON model (the feature
generator's colour tables and the linear weights, what ``Features.save`` writes, so that WLPlan's
``load_feature_generator`` reads it unchanged) with one more top-level key, ``"symt"``: the format
and version, the PDDL domain's name and predicates (checked against a task before search), the
learner and the scale Fast Downward multiplies the value by before rounding (see
:data:`DEFAULT_FD_SCALE`), and what the model was trained on.

The graph: WLPlan's ILG over the task's objects, the state's atoms (fluent and static: every
state carries the task's static atoms, see :class:`WLTask`) and the goal atoms (coloured by
whether the state achieves them). Types are
not part of it (as in WLPlan's own PDDL reader): typed domains that need them state them with
static predicates, as the IPC 2023 learning-track domains do.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SymtError
from .pddl import Domain, Problem, parse_domain, parse_problem
from .pddl.canonical import match_domains
from .pddl.grounding import fixed_part
from .pddl.task import Atom as GroundAtom
from .pddl.translate import TaskTranslation, translate_task

FORMAT = "symt-wl"
FORMAT_VERSION = 1
WLPLAN_VERSION = "2.1.0"
"""The WLPlan release the model files are written with (their colour tables are WLPlan's)."""

DEFAULT_FD_SCALE = {"rank": 100.0, "gpr": 1.0, "svr": 1.0}
"""Fast Downward's heuristic values are integers. A regression model (``gpr``, ``svr``) estimates
h* and is rounded as symt() rounds SymT-E's estimate; a ranking model's values only order states,
and the learner's margin between a better and a worse successor is 1, so they are multiplied by
100 first: two states whose values differ by the margin never round to a tie."""

DEFAULT_FD_OFFSET = {"rank": 1_000_000, "gpr": 0, "svr": 0}
"""Added to the scaled, rounded value in Fast Downward, which takes values up to 2**29 and treats
negative ones as dead ends: a ranking model's values have no zero and are negative as often as not,
so they are shifted up (by 10**4 units of the margin) instead of being cut off at 0. Goal states
get 0 either way."""

_FACT = re.compile(r"^Atom (?P<name>[^(]+)\((?P<args>.*)\)$")


@contextlib.contextmanager
def native_output_silenced() -> Iterator[None]:
    """WLPlan's C++ core prints its progress ("Collecting.", the pruning's MaxSAT) to file
    descriptor 1; inside this block it goes nowhere, so that symt's own output stays readable."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _wlplan() -> Any:
    """WLPlan's modules, with one clear line when the library is missing."""
    try:
        import wlplan.feature_generator as feature_generator
        import wlplan.planning as planning
    except ImportError as error:  # pragma: no cover - a broken installation
        raise SymtError(f"the WL baseline needs WLPlan ({error}): pip install wlplan=={WLPLAN_VERSION}") from None
    return planning, feature_generator


def domain_description(domain: Domain) -> dict:
    """What a WL model keeps of its domain (in its ``"symt"`` entry): the name, every predicate
    (static ones included) and action schema with its arity, and the constants; sorted by name."""
    return {
        "domain": domain.name,
        "predicates": [[name, len(params)] for name, params in sorted(domain.predicates.items())],
        "schemata": sorted([a.name, len(a.parameters)] for a in domain.actions),
        "constants": sorted(domain.constants),
    }


def wl_domain(description: dict) -> Any:
    """WLPlan's domain of a :func:`domain_description` (WLPlan numbers predicates by it, so a model
    is always used with the domain it was trained with)."""
    planning, _ = _wlplan()
    # In the order WLPlan's own reader gives them (by repr, "at-robby/1" before "at/2"): WLPlan
    # numbers predicates by the order they are given, but a model file stores them in the order
    # the Domain reports, so any other order gives a loaded model other colours than training had.
    predicates = sorted((planning.Predicate(name, int(arity)) for name, arity in description["predicates"]), key=repr)
    schemata = sorted((planning.Schema(name, int(arity)) for name, arity in description["schemata"]), key=repr)
    return planning.Domain(description["domain"], predicates, [], schemata, list(description["constants"]))


@dataclass
class WLTask:
    """A task in WLPlan's terms: the problem (objects and goal) and its static atoms, which every
    state carries (WLPlan 2.1's instance learning graph is built from the state's atoms and the
    goal; it leaves ``Problem.statics`` out, so static atoms given there would not be seen)."""

    problem: Any
    predicates: dict[str, Any]
    statics: list[Any]

    def atom(self, atom: GroundAtom) -> Any:
        """The WLPlan atom of a ground atom ``(predicate, args)``; a ``KeyError`` for a predicate
        the domain lacks."""
        planning, _ = _wlplan()
        name, args = atom
        return planning.Atom(self.predicates[name], list(args))

    def state(self, atoms: list[GroundAtom]) -> Any:
        """A WLPlan state of the given fluent atoms and the task's static atoms."""
        return self.state_of([self.atom(atom) for atom in atoms])

    def state_of(self, atoms: list[Any]) -> Any:
        """A WLPlan state of WLPlan atoms (fluent ones) and the task's static atoms."""
        planning, _ = _wlplan()
        return planning.State(atoms + self.statics)


def wl_task(wdomain: Any, domain: Domain, problem: Problem) -> WLTask:
    """The WLPlan problem of ``problem`` (symt's parsed PDDL of ``domain``) over ``wdomain``
    (:func:`wl_domain`)."""
    planning, _ = _wlplan()
    predicates = {p.name: p for p in wdomain.predicates}
    fixed = fixed_part(domain, problem)
    objects = sorted(obj for obj in fixed.objects if obj not in domain.constants)
    positive = [planning.Atom(predicates[name], list(args)) for name, args in fixed.goal_atoms]
    negative = [planning.Atom(predicates[lit.predicate], list(lit.terms))
                for lit in problem.goal if lit.negated and lit.predicate != "="]
    statics = [planning.Atom(predicates[name], list(args)) for name, args in fixed.static_atoms]
    wproblem = planning.Problem(wdomain, objects, [], [], [], positive, negative, [])
    return WLTask(wproblem, predicates, statics)


# ------------------------------------------------------------------------------ model files


def model_meta(path: Path) -> dict:
    """The ``"symt"`` part of a WL model file, checked: one clear error when it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise SymtError(f"{path}: no such WL model file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SymtError(f"{path}: not a WL model file ({error})") from None
    meta = data.get("symt") if isinstance(data, dict) else None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise SymtError(f"{path}: not a WL model file of symt (no \"symt\" entry of format '{FORMAT}'; "
                        "make one with `symt train-wl`)")
    if meta.get("format_version") != FORMAT_VERSION:
        raise SymtError(f"{path}: WL model format version {meta.get('format_version')}, but this symt "
                        f"reads version {FORMAT_VERSION}")
    problem = _schema_problem(data)
    if problem:
        raise SymtError(f"{path}: not a well-formed WL model: {problem}")
    return meta


MAX_WL_ITERATIONS = 16
"""More WL iterations than any model uses; a file asking for more is refused before WLPlan reads it."""


def _schema_problem(data: dict) -> str | None:
    """What is wrong with the WLPlan part of a model file, checked before WLPlan (native code)
    reads it, or None: the fields and their types, one colour map per iteration, and as many
    weights as features."""
    expected = {"colour_hash": list, "colour_to_layer": list, "domain": dict, "feature_name": str,
                "graph_representation": str, "iterations": int, "pruning": str, "weights": list}
    for key, kind in expected.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            return f"'{key}' is missing or not a {kind.__name__}"
    if not 0 <= data["iterations"] <= MAX_WL_ITERATIONS:
        return f"{data['iterations']} WL iterations (at most {MAX_WL_ITERATIONS})"
    if len(data["colour_hash"]) != data["iterations"] + 1 or not all(isinstance(m, dict) for m in data["colour_hash"]):
        return f"{len(data['colour_hash'])} colour maps for {data['iterations']} iterations (one more is needed)"
    features = len(data["colour_to_layer"])
    if len(data["weights"]) != features:
        return f"{len(data['weights'])} weights for {features} features"
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in data["weights"]):
        return "a weight that is not a finite number"
    def pair(entry: object) -> bool:  # [colour, the iteration that made it]
        return (isinstance(entry, list) and len(entry) == 2 and all(type(x) is int for x in entry)
                and 0 <= entry[0] < features and 0 <= entry[1] <= data["iterations"])
    if not all(pair(entry) for entry in data["colour_to_layer"]):
        return "an entry of 'colour_to_layer' is not [a feature index, an iteration]"
    colours = {int(c) for m in data["colour_hash"] for c in m.values() if isinstance(c, int)}
    if any(not isinstance(c, int) for m in data["colour_hash"] for c in m.values()) or \
            (colours and (min(colours) < 0 or max(colours) >= features)):
        return "a colour that is not a feature index"
    return None


def write_model(features: Any, weights: list[float], meta: dict, path: Path) -> None:
    """Write a WL model file: WLPlan's JSON with ``meta`` under ``"symt"``. Written to a
    temporary file beside ``path`` and renamed, so that a failure leaves no half-written model."""
    path = Path(path)
    meta = {"format": FORMAT, "format_version": FORMAT_VERSION, **meta}
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        features.save(temporary, [float(w) for w in weights])
        data = json.loads(Path(temporary).read_text())
        data["symt"] = meta
        Path(temporary).write_text(json.dumps(data))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would hide a shipped model from others
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def check_domain(meta: dict, domain: Domain, where: str) -> None:
    """Refuse a task whose domain's predicates differ from the model's (names and arities): the
    model's features are counts over exactly those."""
    theirs = {name: len(params) for name, params in domain.predicates.items()}
    mine = {name: int(arity) for name, arity in meta["predicates"]}
    for name, arity in sorted(mine.items()):
        if theirs.get(name) != arity:
            found = "missing" if name not in theirs else f"of arity {theirs[name]}"
            raise SymtError(f"{where}: the WL model was trained on domain '{meta['domain']}', whose "
                            f"predicate {name}/{arity} is {found} in domain '{domain.name}'")
    extra = sorted(set(theirs) - set(mine))
    if extra:
        raise SymtError(f"{where}: domain '{domain.name}' has predicates the WL model (trained on "
                        f"'{meta['domain']}') does not know: {', '.join(extra)}")


class WLModel:
    """A trained WL model, ready to evaluate the states of one task at a time."""

    def __init__(self, path: Path) -> None:
        _, feature_generator = _wlplan()
        self.path = Path(path)
        self.meta = model_meta(self.path)
        with native_output_silenced():
            self.features = feature_generator.load_feature_generator(str(self.path), quiet=True)
        self.task: WLTask | None = None

    def set_task(self, domain: Domain, problem: Problem) -> WLTask:
        """Make ``problem`` the task whose states :meth:`value` evaluates, and return it in WLPlan's
        terms; a :class:`~symt.errors.SymtError` when its domain's predicates differ from the model's."""
        check_domain(self.meta, domain, str(problem.filename))
        self.task = wl_task(wl_domain(self.meta), domain, problem)
        self.features.set_problem(self.task.problem)
        return self.task

    def value(self, state: Any) -> float:
        """The model's value of a WLPlan state of the current task (not scaled)."""
        return float(self.features.predict(state))


class FastDownwardWL:
    """What the ``wl()`` evaluator in Fast Downward calls (``fd_plugin/wl_heuristic.cc``).

    Fast Downward names its facts ``Atom p(a, b)`` (or ``NegatedAtom ...``, ``<none of those>``);
    the plugin sends every fact's name once, then states as lists of fact numbers, and gets the
    model's values back (unscaled: the plugin scales and rounds).
    """

    def __init__(self, model_file: str, domain_file: str, problem_file: str) -> None:
        domain = parse_domain(domain_file)
        problem = parse_problem(problem_file, domain)
        self.model = WLModel(Path(model_file))
        # The model's own domain (SYMT_WL_MODEL_DOMAINS, set by the fast-downward wrapper): the
        # task may spell it another way; its facts are then translated (symt.pddl.canonical).
        self.translation: TaskTranslation | None = None
        model_domain = json.loads(os.environ.get("SYMT_WL_MODEL_DOMAINS", "{}")).get(str(model_file))
        if model_domain:
            match = match_domains(domain, parse_domain(model_domain), problem)
            self.translation = translate_task(match, problem)
            domain, problem = self.translation.domain, self.translation.problem
        self.task = self.model.set_task(domain, problem)
        self.fact_atoms: list[Any] = []
        self.fd_scale = float(self.model.meta.get("fd_scale", 1.0))
        self.fd_offset = int(self.model.meta.get("fd_offset", 0))

    def set_facts(self, names: list[str]) -> int:
        """Map Fast Downward's fact names to WLPlan atoms; returns how many are atoms of the model."""
        self.fact_atoms = []
        for name in names:
            match = _FACT.match(name)
            if match is None:
                self.fact_atoms.append(None)
                continue
            args = tuple(a.strip() for a in match["args"].split(",") if a.strip())
            predicate = match["name"].strip()
            if self.translation is not None:
                atom = self.translation.atom(predicate, args)
                if atom is None:  # a guard the task makes redundant
                    self.fact_atoms.append(None)
                    continue
                predicate, args = atom
            if predicate not in self.task.predicates:
                raise SymtError(f"Fast Downward's fact '{name}' has a predicate the WL model does not know")
            self.fact_atoms.append(self.task.atom((predicate, args)))
        return sum(atom is not None for atom in self.fact_atoms)

    def evaluate(self, states: list[list[int]]) -> list[float]:
        """The model's values of states given as lists of fact numbers."""
        atoms, task = self.fact_atoms, self.task
        return [self.model.value(task.state_of([atoms[f] for f in facts if atoms[f] is not None]))
                for facts in states]

    def describe(self) -> str:
        """One line naming the model file, its learner, WL iterations, feature count and domain."""
        meta = self.model.meta
        return (f"WL model {self.model.path.name} ({meta.get('learner')}, {meta.get('iterations')} "
                f"iterations, {meta.get('num_features')} features, domain {meta.get('domain')})")
