"""Random re-encodings of a PDDL task: the same task written another way (the test's own writer,
independent of ``symt.pddl.canonical``).

What changes: every predicate and action gets a new name (actions: unless ``rename_actions`` is
off); the arguments of each predicate of
arity 2 or more and the parameters of each action are permuted; declared types become unary
predicates (``untype``), guarded in every action's precondition and stated in ``:init``; every
action costs ``cost`` (1) through ``(increase (total-cost) N)`` with a metric (``unit_costs``); the problem's
objects are declared in another order (unless ``shuffle_objects`` is off) and, with
``rename_objects``, get new names (the domain's constants keep theirs). ``Reencoding.original``
maps a re-encoded atom back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from symt.pddl.model import ROOT_TYPE, Domain, Literal, Problem


@dataclass
class Reencoding:
    domain_text: str
    problem_text: str
    predicates: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)
    """Old predicate -> (new name, perm): new atom argument j is old argument perm[j]."""

    objects: dict[str, str] = field(default_factory=dict)
    """Original object name -> its name in the re-encoding (only those renamed)."""

    def original_object(self, name: str) -> str:
        """A re-encoded object's original name."""
        return next((old for old, new in self.objects.items() if new == name), name)

    def original(self, name: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """A re-encoded atom in the original names (predicate and objects) and argument order."""
        for old, (new, perm) in self.predicates.items():
            if new == name:
                restored = [""] * len(args)
                for j, i in enumerate(perm):
                    restored[i] = self.original_object(args[j])
                return old, tuple(restored)
        raise KeyError(name)


def _closure(domain: Domain, types: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    stack = list(types)
    while stack:
        t = stack.pop()
        if t == ROOT_TYPE or t in out:
            continue
        out.append(t)
        stack.extend(domain.supertypes.get(t, ()))
    return out


def reencode(domain: Domain, problem: Problem, seed: int, untype: bool = True, unit_costs: bool = True,
             shuffle_objects: bool = True, rename_actions: bool = True, cost: int = 1,
             rename_objects: bool = False) -> Reencoding:
    rng = random.Random(seed)
    untype = untype and bool(domain.supertypes)
    result = Reencoding("", "")
    for i, (name, params) in enumerate(domain.predicates.items()):
        perm = list(range(len(params)))
        rng.shuffle(perm)
        result.predicates[name] = (f"rel{i}-{rng.randrange(10**6)}", tuple(perm))
    type_pred = {t: f"kind{i}-{rng.randrange(10**6)}" for i, t in enumerate(sorted(domain.supertypes))}

    def atom(lit: Literal, rename: dict[str, str] | None = None) -> str:
        terms = tuple((rename or {}).get(t, t) for t in lit.terms)
        if lit.predicate == "=":
            text = f"(= {' '.join(terms)})"
        else:
            new, perm = result.predicates[lit.predicate]
            text = "(" + " ".join([new, *(terms[i] for i in perm)]) + ")"
        return f"(not {text})" if lit.negated else text

    def typed(name: str, types: tuple[str, ...]) -> str:
        if untype or types == (ROOT_TYPE,):
            return name
        return f"{name} - {types[0]}" if len(types) == 1 else f"{name} - (either {' '.join(types)})"

    lines = [f"(define (domain re-{domain.name})",
             "(:requirements :strips :typing :negative-preconditions :equality :action-costs)"]
    if not untype and domain.supertypes:
        lines.append("(:types " + " ".join(f"{t} - {(s or (ROOT_TYPE,))[0]}" for t, s in domain.supertypes.items()) + ")")
    if domain.constants:
        lines.append("(:constants " + " ".join(typed(c, t) for c, t in domain.constants.items()) + ")")
    preds = [f"({new} {' '.join(f'?a{j}' for j in range(len(perm)))})".replace(" )", ")")
             for new, perm in result.predicates.values()]
    if untype:
        preds += [f"({p} ?a0)" for p in type_pred.values()]
    lines.append("(:predicates " + " ".join(preds) + ")")
    if unit_costs:
        lines.append("(:functions (total-cost) - number)")
    actions = list(domain.actions)
    rng.shuffle(actions)
    for k, action in enumerate(actions):
        params = list(action.parameters)
        rng.shuffle(params)
        pre = [atom(x) for x in action.preconditions]
        if untype:
            for p in params:
                if len(p.types) == 1 and p.types[0] != ROOT_TYPE:
                    pre.append(f"({type_pred[p.types[0]]} {p.name})")
        eff = [atom(x) for x in action.add_effects] + [atom(Literal(d.predicate, d.terms, True)) for d in action.delete_effects]
        if unit_costs:
            eff.append(f"(increase (total-cost) {cost})")
        name = f"act{k}-{rng.randrange(10**6)}" if rename_actions else action.name
        lines.append(f"(:action {name} :parameters ({' '.join(typed(p.name, p.types) for p in params)})")
        lines.append(f"  :precondition (and {' '.join(pre)})")
        lines.append(f"  :effect (and {' '.join(eff)}))")
    lines.append(")")
    result.domain_text = "\n".join(lines) + "\n"

    objects = [o for o in problem.objects if o not in domain.constants]
    if rename_objects:
        result.objects = {o: f"thing{i}-{rng.randrange(10**6)}" for i, o in enumerate(objects)}
    if shuffle_objects:
        rng.shuffle(objects)
    names = result.objects
    init = [atom(x, names) for x in problem.init]
    if untype:
        for o, types in problem.objects.items():
            init += [f"({type_pred[t]} {names.get(o, o)})" for t in _closure(domain, types)]
    if unit_costs:
        init.append("(= (total-cost) 0)")
    rng.shuffle(init)
    goal = [atom(x, names) for x in problem.goal]
    plines = [f"(define (problem re-{problem.name}) (:domain re-{domain.name})",
              "(:objects " + " ".join(typed(names.get(o, o), problem.objects[o]) for o in objects) + ")",
              "(:init " + " ".join(init) + ")",
              "(:goal (and " + " ".join(goal) + "))"]
    if unit_costs:
        plines.append("(:metric minimize (total-cost))")
    plines.append(")")
    result.problem_text = "\n".join(plines) + "\n"
    return result
