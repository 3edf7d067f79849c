"""A task of one spelling written in the vocabulary of another: the model's domain and the task
as a problem of it, for a :class:`~symt.pddl.canonical.DomainMatch` between the two domains.

The plugin's task context (:func:`symt.formats.write_task_context`), ``wl()`` and ``symt plan``
read a task through this, so that no file of the user's is rewritten: objects keep their names and
order; the task's atoms are renamed and their arguments permuted; type atoms come from whichever
predicates the model's types are in the task (a declared ``(place ?x)`` or a type); guards the task
makes redundant are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SymtError
from .canonical import (
    TYPE_PREFIX,
    CostProfile,
    DomainMatch,
    cost_profile,
    extension,
    types_with_supertypes,
)
from .model import ROOT_TYPE, Domain, Literal, Problem


@dataclass
class TaskTranslation:
    """A task of one spelling in the vocabulary of another (the model's): the model's domain and
    the task as a problem of it (objects keep their names and order), the map of the task's
    predicates to the model's, and the task's cost profile."""

    match: DomainMatch
    problem: Problem
    cost: CostProfile

    @property
    def domain(self) -> Domain:
        """The model's domain, whose vocabulary :attr:`problem` is written in."""
        return self.match.target.domain

    def atom(self, predicate: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
        """A task atom in the model's vocabulary (None: a dropped guard, no atom of the model)."""
        mapped = self.match.predicates.get(predicate)
        if mapped is None:
            return None
        name, perm = mapped
        return name, tuple(args[i] for i in perm)

    def task_action(self, name: str, args: tuple[str, ...]) -> tuple[str, ...]:
        """An action of the model's domain as the task writes it: ``(name, arg, ...)`` in the
        task's action name and parameter order (a plan found on :attr:`problem`, written back)."""
        mine, perm = next((a, perm) for a, (b, perm) in self.match.actions.items() if b == name)
        ordered = [""] * len(perm)
        for j, i in enumerate(perm):  # the model's parameter j is the task's parameter perm[j]
            ordered[i] = args[j]
        return (mine, *ordered)

    @property
    def model_counts_cost(self) -> bool:
        """Whether the model's values are costs: its domain has action costs, so its training
        labels were the cheapest cost to the goal (the expander's Dijkstra search); else they
        were numbers of steps."""
        return any(action.cost is not None for action in self.domain.actions)

    @property
    def value_scale(self) -> float:
        """What the model's values are multiplied by to estimate the task's cost: the cost of one
        step where a step-counting model meets a task whose actions all cost the same, else 1."""
        return 1.0 if self.model_counts_cost else self.cost.scale

    def fact_map(self) -> dict[str, tuple[str, tuple[int, ...]] | None]:
        """Every predicate of the task's domain: its model predicate and argument order, or None."""
        return {p: self.match.predicates.get(p) for p in self.match.source.domain.predicates}


def translate_task(match: DomainMatch, problem: Problem) -> TaskTranslation:
    """``problem`` (of ``match.source``'s domain) as a problem of ``match.target``'s domain."""
    source, target = match.source.domain, match.target.domain
    type_atoms: dict[str, set[str]] = {o: set() for o in problem.objects}
    init: list[Literal] = []

    def add(predicate: str, args: tuple[str, ...], line: int) -> None:
        name, perm = match.predicates[predicate]
        terms = tuple(args[i] for i in perm)
        if name.startswith(TYPE_PREFIX):
            type_atoms[terms[0]].add(name[len(TYPE_PREFIX):])
        else:
            init.append(Literal(name, terms, False, line))

    for p in match.predicates:
        if p.startswith(TYPE_PREFIX):
            for obj in sorted(extension(source, problem, p)):
                add(p, (obj,), 0)
    for lit in problem.init:
        if lit.predicate in match.predicates:
            add(lit.predicate, lit.terms, lit.line)
    objects: dict[str, tuple[str, ...]] = {}
    for obj in problem.objects:
        have = type_atoms[obj]
        if any("|" in t or t.startswith("either:") for t in have):
            raise SymtError(f"{problem.filename}: object '{obj}' has an (either ...) type of the model domain")
        minimal = [t for t in have if not any(u != t and t in types_with_supertypes(target, (u,)) for u in have)]
        mapped = {q[len(TYPE_PREFIX):] for q, _ in match.predicates.values() if q.startswith(TYPE_PREFIX)}
        # Supertypes the model's domain implies and no action of it reads need no counterpart.
        if len(minimal) > 1 or (minimal and types_with_supertypes(target, (minimal[0],)) & mapped != have):
            raise SymtError(f"{problem.filename}: object '{obj}' would have the types {sorted(have)} of "
                            f"{target.filename}, which no one declared type of it gives")
        objects[obj] = (minimal[0],) if minimal else (ROOT_TYPE,)
    goal = []
    for lit in problem.goal:
        if lit.predicate == "=":
            goal.append(lit)
            continue
        name, perm = match.predicates[lit.predicate]
        goal.append(Literal(name, tuple(lit.terms[i] for i in perm), lit.negated, lit.line))
    translated = Problem(problem.name, target.name, problem.filename, objects, init, goal,
                         dict(problem.function_values), problem.metric)
    return TaskTranslation(match, translated, cost_profile(source, problem))
