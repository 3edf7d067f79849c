"""One domain, every spelling: a canonical lifted form of a PDDL domain and the isomorphism between
two such forms (:mod:`symt.pddl.translate` writes a task in the other spelling's vocabulary).

The same domain reaches symt written many ways: the paper's Visitall guards its places with a
unary predicate where IPC 2011 declares a type; classical Satellite guards with ``(satellite ?s)``
where IPC 2023 types its parameters; Logistics-98 writes ``OBJ`` for ``package``; classical Rovers
carries two guards (``available``, ``channel_free``) that its actions delete and re-add, which Fast
Downward reads as no change; Transport and Floortile add action costs. A learned model reads only
predicate names, arities and argument positions, so it runs on any of these once the task's
atoms are written in the model's vocabulary -- and must not run on a domain whose predicates look
the same but whose actions differ (classical Miconic's ``board`` keeps ``(origin ?p ?f)``).

The canonical form (:func:`canonical_form`):

* names are kept for messages only; nothing below compares them;
* every declared type ``t`` is the static unary predicate ``type:t`` (an object of a subtype has it
  too); a parameter of type ``t`` is the precondition ``(type:t ?x)``; types that no action uses
  are dropped;
* effects read as Fast Downward reads them: an atom both deleted and added is added (so it stays),
  adding a positive precondition is no change;
* with a task: a static unary guard that, in this task, is implied on every parameter it guards by
  another guard there (``available`` holds for exactly the rovers; ``type:place`` for every
  object) is dropped, with its atoms -- it removes no action of the task;
* action costs are no part of the structure; :class:`CostProfile` keeps them.

:func:`find_isomorphism` builds a coloured graph of each form (predicates with one node per
argument position, constants, action schemas with one node per parameter, each literal with its
kind and one node per argument binding a parameter or constant to a predicate's position) and asks
networkx's VF2 for an isomorphism. It yields the renaming of predicates and actions and the
permutation of their arguments; among several, the one keeping the most names wins. When none
exists, :func:`explain_difference` names the first schema and literal that differ.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import SymtError
from .model import ROOT_TYPE, Domain, Literal, Problem

TYPE_PREFIX = "type:"
"""Predicate name of a declared type in the canonical form (as in :mod:`symt.tokens`)."""

PRE, NOT, ADD, DEL = "pre", "not", "add", "del"
"""Literal kinds: positive and negative precondition, add and delete effect."""

MAX_ISOMORPHISMS = 64
"""Isomorphisms compared (by names kept) before the best so far is taken."""

Term = tuple[str, object]
"""``("p", i)``: the action's i-th parameter; ``("c", name)``: a constant."""


@dataclass(frozen=True)
class CanonicalAction:
    """An action schema in canonical form: its literals ``(kind, predicate, terms)``."""

    name: str
    arity: int
    literals: frozenset[tuple[str, str, tuple[Term, ...]]]


@dataclass(frozen=True)
class CostProfile:
    """What a task's action costs are, as Fast Downward counts them.

    ``kind``: ``unit`` (every action costs 1: no costs, or no ``:metric``, or all 1), ``zero``,
    ``constant`` (every action costs :attr:`constant`), ``per-action`` (a constant per schema,
    not all equal) or ``object-dependent`` (a cost function of the objects, not constant)."""

    kind: str
    constant: float | None = None

    @property
    def uniform(self) -> bool:
        """Whether every action costs the same, so a step count times :attr:`scale` is the cost."""
        return self.kind in ("unit", "constant", "zero")

    @property
    def scale(self) -> float:
        """What one step costs where every action costs the same positive amount (1 otherwise:
        the model counts steps; with zero costs, scaling would leave a search no guidance)."""
        return self.constant if self.kind == "constant" and self.constant is not None else 1.0

    def describe(self) -> str:
        """The profile in words, for the start line and ``symt match``."""
        if self.kind == "constant":
            return f"every action costs {self.constant:g}"
        return {"unit": "unit action costs", "zero": "every action costs 0",
                "per-action": "action costs differ between schemas",
                "object-dependent": "action costs depend on the objects"}[self.kind]


@dataclass
class CanonicalForm:
    """A domain (and optionally a task) in canonical form; see the module docstring."""

    domain: Domain
    predicates: dict[str, int]
    """Predicates the actions use (declared ones and ``type:<t>``), with arities."""
    actions: list[CanonicalAction]
    constants: list[str]
    static: frozenset[str]
    dropped: dict[str, str] = field(default_factory=dict)
    """Predicates left out, and why (unused; a guard implied in this task)."""


def types_with_supertypes(domain: Domain, types: tuple[str, ...]) -> set[str]:
    """Every declared type an object declared with ``types`` has (supertypes included)."""
    result: set[str] = set()
    stack = list(types)
    while stack:
        current = stack.pop()
        if current == ROOT_TYPE or current in result:
            continue
        result.add(current)
        stack.extend(domain.supertypes.get(current, ()))
    return result


def _type_predicate(types: tuple[str, ...]) -> str | None:
    """The canonical predicate of a parameter's type (None: ``object``, no guard)."""
    named = sorted(t for t in types if t != ROOT_TYPE)
    if len(named) != len(types) or not named:
        return None  # an (either ...) with object in it holds for every object
    return TYPE_PREFIX + named[0] if len(named) == 1 else TYPE_PREFIX + "either:" + "|".join(named)


def _term(term: str, positions: dict[str, int]) -> Term:
    return ("p", positions[term]) if term in positions else ("c", term)


def _action_literals(domain: Domain) -> list[tuple[str, int, set[tuple[str, str, tuple[Term, ...]]]]]:
    """Each action's literals with Fast Downward's reading of its effects."""
    result = []
    for action in domain.actions:
        positions = {p.name: i for i, p in enumerate(action.parameters)}

        def lit(kind: str, literal: Literal, positions: dict[str, int] = positions) -> tuple[str, str, tuple[Term, ...]]:
            return (kind, literal.predicate, tuple(_term(t, positions) for t in literal.terms))

        pre = {lit(NOT if x.negated else PRE, x) for x in action.preconditions}
        for i, param in enumerate(action.parameters):
            guard = _type_predicate(param.types)
            if guard is not None:
                pre.add((PRE, guard, (("p", i),)))
        adds = {lit(ADD, x) for x in action.add_effects}
        dels = {lit(DEL, x) for x in action.delete_effects}
        # Fast Downward: an atom deleted and added is added; adding a precondition changes nothing.
        dels = {d for d in dels if (ADD, d[1], d[2]) not in adds}
        adds = {a for a in adds if (PRE, a[1], a[2]) not in pre}
        result.append((action.name, len(action.parameters), pre | adds | dels))
    return result


def extension(domain: Domain, problem: Problem, predicate: str) -> frozenset[str]:
    """The objects for which a unary static predicate (or ``type:<t>``) holds in ``problem``."""
    if predicate.startswith(TYPE_PREFIX):
        wanted = set(predicate[len(TYPE_PREFIX):].removeprefix("either:").split("|"))
        return frozenset(o for o, types in problem.objects.items() if types_with_supertypes(domain, types) & wanted)
    return frozenset(lit.terms[0] for lit in problem.init if lit.predicate == predicate and len(lit.terms) == 1)


def droppable_guards(domain: Domain, problem: Problem) -> dict[str, str]:
    """The static unary guards of ``domain`` that ``problem`` makes redundant, each on its own,
    and why: on every parameter it guards, another guard implies it in this task (``available``
    holds for exactly the rovers), or it holds for every object. None occurs in the goal."""
    actions = _action_literals(domain)
    changed = _changed(actions)
    unary = {p for _, _, lits in actions for _, p, t in lits if len(t) == 1 and p not in changed and p != "="}
    unary -= {lit.predicate for lit in problem.goal}
    ext = {p: extension(domain, problem, p) for p in unary}
    everything = frozenset(problem.objects)
    result: dict[str, str] = {}
    for p in sorted(unary):
        occurrences = [(lits, t) for _, _, lits in actions for kind, q, t in lits if q == p]
        if any(kind != PRE or t[0][0] != "p" for _, _, lits in actions for kind, q, t in lits if q == p):
            continue
        if ext[p] == everything:
            result[p] = "holds for every object in this task"
        elif all(any(k == PRE and q != p and q in ext and t2 == t and ext[q] <= ext[p] for k, q, t2 in lits)
                 for lits, t in occurrences):
            result[p] = "implied by another guard on each parameter in this task"
    return result


def _drop_is_sound(domain: Domain, problem: Problem, drop: set[str]) -> bool:
    """Whether dropping all of ``drop`` at once removes no action (each implied by a kept guard)."""
    actions = _action_literals(domain)
    changed = _changed(actions)
    everything = frozenset(problem.objects)
    extensions: dict[str, frozenset[str]] = {}

    def ext(predicate: str) -> frozenset[str]:
        if predicate not in extensions:
            extensions[predicate] = extension(domain, problem, predicate)
        return extensions[predicate]

    for p in drop:
        ext_p = ext(p)
        if ext_p == everything:
            continue
        for _, _, lits in actions:
            for _kind, q, t in lits:
                if q == p and not any(k == PRE and r != p and r not in drop and len(t2) == 1 and t2 == t
                                      and r not in changed and ext(r) <= ext_p
                                      for k, r, t2 in lits):
                    return False
    return True


def _changed(actions: list) -> set[str]:
    """The predicates some action adds or deletes (of :func:`_action_literals`); the others are static."""
    return {p for _, _, lits in actions for kind, p, _ in lits if kind in (ADD, DEL)}


def canonical_form(domain: Domain, drop: dict[str, str] | None = None) -> CanonicalForm:
    """The canonical form of ``domain`` (see the module docstring), without the predicates in
    ``drop`` (name -> why; :func:`droppable_guards` of a task)."""
    actions = _action_literals(domain)
    changed = _changed(actions)
    used = {p for _, _, lits in actions for _, p, _ in lits}
    declared = {**{p: len(params) for p, params in domain.predicates.items()},
                **{p: 1 for _, _, lits in actions for _, p, _ in lits if p.startswith(TYPE_PREFIX)}}
    dropped = {p: "no action uses it" for p in declared if p not in used}
    dropped.update(drop or {})
    static = frozenset(p for p in declared if p not in changed)
    canonical_actions = []
    for name, n, lits in actions:
        adds = {(p, t) for kind, p, t in lits if kind == ADD}
        # A negative precondition on the action's own add effect only excludes groundings where
        # that atom already holds; IPC 2023 added such preconditions (Satellite's turn_to) to
        # exclude self-loops, which a state's distance to the goal never uses.
        kept = {(k, p, t) for k, p, t in lits if p not in dropped and not (k == NOT and (p, t) in adds)}
        canonical_actions.append(CanonicalAction(name, n, frozenset(kept)))
    predicates = {p: a for p, a in declared.items() if p not in dropped}
    return CanonicalForm(domain, predicates, canonical_actions, list(domain.constants),
                         static - set(dropped), dropped)


# ------------------------------------------------------------------------------ cost profile


def cost_profile(domain: Domain, problem: Problem | None = None) -> CostProfile:
    """How the task's actions cost, as Fast Downward counts them: without ``(:metric minimize
    (total-cost))`` every action costs 1; with it, an action without ``increase`` costs 0."""
    if problem is not None and not problem.metric:
        return CostProfile("unit")
    costs = [a.cost for a in domain.actions]
    if problem is None and all(c is None for c in costs):
        return CostProfile("unit")
    values: set[float] = set()
    for cost in costs:
        if cost is None:
            values.add(0.0)
        elif isinstance(cost, int):
            values.add(float(cost))
        elif problem is None:
            return CostProfile("object-dependent")
        else:
            name = cost[0]
            found = {v for (f, _), v in problem.function_values.items() if f == name}
            if len(found) != 1:
                return CostProfile("object-dependent")
            values |= found
    if len(values) > 1:
        return CostProfile("per-action")
    value = values.pop() if values else 1.0
    return CostProfile("unit" if value == 1 else "zero" if value == 0 else "constant", value)


# ------------------------------------------------------------------------------ isomorphism


@dataclass(frozen=True)
class DomainMatch:
    """An isomorphism from one canonical form (``source``, the user's) to another (``target``,
    the model's): predicate and action renamings with argument permutations.

    ``predicates[p] = (q, perm)``: atom ``p(a_0..a_k)`` is ``q(a_perm[0]..a_perm[k])``.
    ``actions[a] = (b, perm)``: action ``a(x_0..)`` is ``b(x_perm[0]..)``."""

    source: CanonicalForm
    target: CanonicalForm
    predicates: dict[str, tuple[str, tuple[int, ...]]]
    actions: dict[str, tuple[str, tuple[int, ...]]]
    constants: dict[str, str]

    def renamed(self) -> list[str]:
        """What differs from the identity, in words (``OBJ -> package``, ``at(x,y) -> at(y,x)``)."""
        out = []
        for p, (q, perm) in sorted(self.predicates.items()):
            if p != q or perm != tuple(range(len(perm))):
                args = "" if perm == tuple(range(len(perm))) else f" (arguments {','.join(map(str, perm))})"
                out.append(f"{p} -> {q}{args}")
        for a, (b, perm) in sorted(self.actions.items()):
            if a != b or perm != tuple(range(len(perm))):
                args = "" if perm == tuple(range(len(perm))) else f" (parameters {','.join(map(str, perm))})"
                out.append(f"action {a} -> {b}{args}")
        return out

    def describe(self) -> str:
        """One line: identity, or the renamings and dropped guards."""
        parts = self.renamed()
        dropped = [f"{p} dropped ({why})" for p, why in sorted(self.source.dropped.items())
                   if why != "no action uses it"]
        if not parts and not dropped:
            return "the same domain as written"
        return "; ".join(parts + dropped)


def _graph(form: CanonicalForm, names_only: bool = False):  # -> networkx.DiGraph
    """The coloured graph of a canonical form. ``names_only``: argument positions keep their
    index and types stay types (a renaming of names alone, as ``symt retarget`` writes)."""
    import networkx as nx

    # Nodes go in by name, so that their order (VF2's order of candidates) is the same in every run.
    g = nx.DiGraph()
    for p, arity in sorted(form.predicates.items()):
        kind = "type" if names_only and p.startswith(TYPE_PREFIX) else "pred"
        g.add_node(("P", p), label="eq" if p == "=" else f"{kind}/{arity}", name=p)
        for i in range(arity):
            g.add_node(("A", p, i), label=f"arg{i}" if names_only else "arg")
            g.add_edge(("P", p), ("A", p, i), label="arg")
    for c in sorted(form.constants):
        g.add_node(("C", c), label="const")
    for action in sorted(form.actions, key=lambda a: a.name):
        g.add_node(("a", action.name), label=f"action/{action.arity}")
        for i in range(action.arity):
            g.add_node(("v", action.name, i), label="param")
            g.add_edge(("a", action.name), ("v", action.name, i), label="param")
        for k, (kind, p, terms) in enumerate(sorted(action.literals, key=repr)):
            lit = ("l", action.name, k)
            g.add_node(lit, label=kind)
            g.add_edge(("a", action.name), lit, label="lit")
            g.add_edge(lit, ("P", p), label="of")
            for i, (what, value) in enumerate(terms):
                node = ("t", action.name, k, i)
                g.add_node(node, label="term")
                g.add_edge(lit, node, label="term")
                g.add_edge(node, ("A", p, i), label="pos")
                g.add_edge(node, ("v", action.name, value) if what == "p" else ("C", value), label="bind")
    return g


def _match_from(mapping: dict, source: CanonicalForm, target: CanonicalForm) -> DomainMatch:
    predicates = {}
    for p, arity in source.predicates.items():
        q = mapping[("P", p)][1]
        perm = [0] * arity
        for i in range(arity):
            j = mapping[("A", p, i)][2]
            perm[j] = i
        predicates[p] = (q, tuple(perm))
    actions = {}
    for a in source.actions:
        b = mapping[("a", a.name)][1]
        perm = [0] * a.arity
        for i in range(a.arity):
            perm[mapping[("v", a.name, i)][2]] = i
        actions[a.name] = (b, tuple(perm))
    constants = {c: mapping[("C", c)][1] for c in source.constants if ("C", c) in mapping}
    return DomainMatch(source, target, predicates, actions, constants)


def _kept(match: DomainMatch) -> int:
    same = sum(p == q and perm == tuple(range(len(perm))) for p, (q, perm) in match.predicates.items())
    return same + sum(a == b for a, (b, _) in match.actions.items())


def isomorphisms(source: CanonicalForm, target: CanonicalForm, names_only: bool = False,
                 pins: dict[str, str] | None = None) -> Iterator[DomainMatch]:
    """Every isomorphism of ``source`` onto ``target`` (VF2), lazily; ``pins`` fixes predicates
    (source name -> target name), ``names_only`` forbids argument permutations and types becoming
    predicates (:func:`_graph`)."""
    import networkx as nx
    from networkx.algorithms.isomorphism import DiGraphMatcher

    if sorted(source.predicates.values()) != sorted(target.predicates.values()) or \
            sorted(a.arity for a in source.actions) != sorted(a.arity for a in target.actions) or \
            len(source.constants) != len(target.constants):
        return
    gs, gt = _graph(source, names_only), _graph(target, names_only)
    if gs.number_of_nodes() != gt.number_of_nodes() or gs.number_of_edges() != gt.number_of_edges():
        return
    pins = pins or {}

    def node_match(a: dict, b: dict) -> bool:
        return a["label"] == b["label"] and (a.get("name") not in pins or pins[a["name"]] == b.get("name"))

    # Integer nodes: VF2 keeps candidate nodes in sets, and a set of strings iterates in an order
    # that string hashing changes from run to run; integers hash to themselves, so the
    # isomorphisms (a symmetric domain's mirror images) come in the same order in every run.
    gs = nx.convert_node_labels_to_integers(gs, label_attribute="key")
    gt = nx.convert_node_labels_to_integers(gt, label_attribute="key")
    matcher = DiGraphMatcher(gs, gt, node_match=node_match, edge_match=lambda a, b: a["label"] == b["label"])
    for mapping in matcher.isomorphisms_iter():
        yield _match_from({gs.nodes[a]["key"]: gt.nodes[b]["key"] for a, b in mapping.items()}, source, target)


def find_isomorphism(source: CanonicalForm, target: CanonicalForm) -> DomainMatch | None:
    """An isomorphism of ``source`` onto ``target`` keeping the most names, or None."""
    best: DomainMatch | None = None
    for match in itertools.islice(isomorphisms(source, target), MAX_ISOMORPHISMS):
        if best is None or _kept(match) > _kept(best):
            best = match
        if _kept(best) == len(source.predicates) + len(source.actions):
            break
    return best


def _literal_text(kind: str, predicate: str, terms: tuple[Term, ...], params: list[str]) -> str:
    args = " ".join(params[v] if what == "p" else str(v) for what, v in terms)  # type: ignore[index]
    atom = f"({predicate}{' ' + args if args else ''})"
    return {PRE: f"precondition {atom}", NOT: f"precondition (not {atom})",
            ADD: f"add effect {atom}", DEL: f"delete effect {atom}"}[kind]


def explain_difference(source: CanonicalForm, target: CanonicalForm) -> str:
    """Why no isomorphism exists, in one clause naming the first schema and literal that differ
    (the predicates and actions compared by name where the names agree)."""
    sa = sorted(a.arity for a in source.actions)
    ta = sorted(a.arity for a in target.actions)
    if len(sa) != len(ta):
        return f"{len(sa)} action schemas against the model domain's {len(ta)}"
    for arity in sorted(set(source.predicates.values()) | set(target.predicates.values())):
        ns = sorted(p for p, a in source.predicates.items() if a == arity)
        nt = sorted(p for p, a in target.predicates.items() if a == arity)
        if len(ns) != len(nt):
            return (f"{len(ns)} predicates of arity {arity} ({' '.join(ns) or 'none'}) against the model "
                    f"domain's {len(nt)} ({' '.join(nt) or 'none'})")
    if sa != ta:
        return f"action schema arities {sa} against the model domain's {ta}"
    by_name = {a.name: a for a in target.actions}
    for action in source.actions:
        other = by_name.get(action.name)
        if other is None or other.arity != action.arity:
            continue
        mine = {(k, p, t) for k, p, t in action.literals}
        best: tuple[int, set, set] | None = None
        for perm in itertools.permutations(range(action.arity)):
            mapped = {(k, p, tuple(("p", perm[v]) if w == "p" else (w, v) for w, v in t)) for k, p, t in mine}
            missing, extra = set(other.literals) - mapped, mapped - set(other.literals)
            if best is None or len(missing) + len(extra) < best[0]:
                best = (len(missing) + len(extra), missing, extra)
        if best and best[0]:
            theirs = [x.name for x in target.domain.action(action.name).parameters]  # type: ignore[union-attr]
            if best[1]:
                k, p, t = sorted(best[1], key=repr)[0]
                return f"schema '{action.name}': the model domain has the {_literal_text(k, p, t, theirs)}, this domain does not"
            k, p, t = sorted(best[2], key=repr)[0]
            return f"schema '{action.name}': this domain has the {_literal_text(k, p, t, theirs)}, the model domain does not"
    return ("no renaming of predicates and actions makes the schemas equal (preconditions, add and "
            "delete effects as Fast Downward reads them, types as unary predicates)")


class DomainMismatch(SymtError):
    """No isomorphism: the one-line error, with its parts for callers that list several models
    (``target``: the model domain's file; ``why``: :func:`explain_difference`)."""

    def __init__(self, source: str, target: str, why: str):
        super().__init__(f"{source}: not the domain of {target}: {why}")
        self.target = target
        self.why = why


def match_domains(source: Domain, target: Domain, problem: Problem | None = None) -> DomainMatch:
    """The isomorphism of ``source`` (with its task ``problem``, if given) onto ``target``;
    a :class:`DomainMismatch` saying what differs when there is none.

    With a task, guards it makes redundant (:func:`droppable_guards`) may be dropped: as many as
    ``source`` has unary predicates more than ``target``, those whose names ``target`` lacks tried
    first."""
    tgt = canonical_form(target)
    src = canonical_form(source)
    match = find_isomorphism(src, tgt)
    if match is None and problem is not None:
        candidates = droppable_guards(source, problem)
        excess = sum(a == 1 for a in src.predicates.values()) - sum(a == 1 for a in tgt.predicates.values())
        if 0 < excess <= len(candidates):
            subsets = sorted(itertools.combinations(sorted(candidates), excess),
                             key=lambda names: sum(n in tgt.predicates or n in target.predicates for n in names))
            for names in itertools.islice(subsets, MAX_ISOMORPHISMS):
                if not _drop_is_sound(source, problem, set(names)):
                    continue
                match = find_isomorphism(canonical_form(source, {n: candidates[n] for n in names}), tgt)
                if match is not None:
                    break
    if match is None:
        raise DomainMismatch(source.filename, target.filename, explain_difference(src, tgt))
    return match
