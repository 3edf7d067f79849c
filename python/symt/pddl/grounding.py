"""Ground a lifted task: the actions reachable under the delete relaxation.

A fixpoint over the relaxed reachable atoms: an action instance is reachable when its positive
preconditions are reachable, its static negative preconditions hold in the initial state and its
(in)equalities hold; its add effects then become reachable. Parameters are bound by joining the
positive preconditions (statics first, so that type and static-predicate pruning happen before any
enumeration), and remaining parameters range over the objects of their type.

The result separates static atoms (predicates no action changes), fluent atoms (indexed) and
goal atoms, because the learned models need all three.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ..errors import SymtError
from .model import ActionSchema, Domain, Literal, Problem
from .parser import parse_domain, parse_problem
from .task import Atom, GroundAction, GroundTask

Binding = dict[str, str]


def static_predicates(domain: Domain) -> frozenset[str]:
    """Predicates that no action adds or deletes."""
    changed = {lit.predicate for a in domain.actions for lit in (*a.add_effects, *a.delete_effects)}
    return frozenset(p for p in domain.predicates if p not in changed)


class _Relation:
    """The reachable tuples of one predicate, indexed by (argument position, object)."""

    def __init__(self) -> None:
        self.tuples: set[tuple[str, ...]] = set()
        self.by_position: dict[tuple[int, str], list[tuple[str, ...]]] = defaultdict(list)

    def add(self, args: tuple[str, ...]) -> bool:
        if args in self.tuples:
            return False
        self.tuples.add(args)
        for position, obj in enumerate(args):
            self.by_position[(position, obj)].append(args)
        return True

    def candidates(self, pattern: tuple[str | None, ...]) -> list[tuple[str, ...]] | set[tuple[str, ...]]:
        """Tuples that may match ``pattern`` (None = free); uses the most selective bound slot."""
        best: list[tuple[str, ...]] | None = None
        for position, value in enumerate(pattern):
            if value is not None:
                bucket = self.by_position.get((position, value), [])
                if best is None or len(bucket) < len(best):
                    best = bucket
        return self.tuples if best is None else best


class _Grounder:
    def __init__(self, domain: Domain, problem: Problem):
        self.domain = domain
        self.problem = problem
        self.statics = static_predicates(domain)
        self.relations: dict[str, _Relation] = defaultdict(_Relation)
        for atom in problem.init:
            self.relations[atom.predicate].add(atom.terms)
        self.objects_of_type: dict[tuple[str, ...], list[str]] = {}

    def objects_fitting(self, types: tuple[str, ...]) -> list[str]:
        if types not in self.objects_of_type:
            self.objects_of_type[types] = [
                obj
                for obj, obj_types in self.problem.objects.items()
                if self.domain.object_has_type(obj_types, types)
            ]
        return self.objects_of_type[types]

    def bindings(self, schema: ActionSchema) -> Iterator[Binding]:
        """Every binding of the schema's parameters that is relaxed-applicable now."""
        positive = [lit for lit in schema.preconditions if not lit.negated and lit.predicate != "="]
        # Statics first (they never grow), then the rest; the join picks bound slots greedily.
        positive.sort(key=lambda lit: (lit.predicate not in self.statics, -len(lit.terms)))
        param_types = {p.name: p.types for p in schema.parameters}
        fitting = {p.name: set(self.objects_fitting(p.types)) for p in schema.parameters}

        def resolve(term: str, binding: Binding) -> str | None:
            if term.startswith("?"):
                return binding.get(term)
            return term

        def join(index: int, binding: Binding) -> Iterator[Binding]:
            if index == len(positive):
                yield from complete(0, binding)
                return
            literal = positive[index]
            pattern = tuple(resolve(t, binding) for t in literal.terms)
            relation = self.relations.get(literal.predicate)
            if relation is None:
                return
            for args in relation.candidates(pattern):
                extended = dict(binding)
                ok = True
                for term, value, arg in zip(literal.terms, pattern, args):
                    if value is not None:
                        if value != arg:
                            ok = False
                            break
                    elif term in extended:
                        if extended[term] != arg:
                            ok = False
                            break
                    elif arg in fitting[term]:
                        extended[term] = arg
                    else:
                        ok = False
                        break
                if ok:
                    yield from join(index + 1, extended)

        unbound_order = [p.name for p in schema.parameters]

        def complete(index: int, binding: Binding) -> Iterator[Binding]:
            while index < len(unbound_order) and unbound_order[index] in binding:
                index += 1
            if index == len(unbound_order):
                if self.side_conditions_hold(schema, binding):
                    yield binding
                return
            name = unbound_order[index]
            for obj in self.objects_fitting(param_types[name]):
                extended = dict(binding)
                extended[name] = obj
                yield from complete(index + 1, extended)

        yield from join(0, {})

    def side_conditions_hold(self, schema: ActionSchema, binding: Binding) -> bool:
        """(In)equalities and negative static preconditions, which the join does not cover."""
        for literal in schema.preconditions:
            args = tuple(binding.get(t, t) for t in literal.terms)
            if literal.predicate == "=":
                if (args[0] == args[1]) == literal.negated:
                    return False
            elif literal.negated and literal.predicate in self.statics:
                if args in self.relations[literal.predicate].tuples:
                    return False
        return True

    def reachable_instances(self) -> list[tuple[ActionSchema, tuple[str, ...]]]:
        seen: set[tuple[str, tuple[str, ...]]] = set()
        instances: list[tuple[ActionSchema, tuple[str, ...]]] = []
        changed = True
        while changed:
            changed = False
            for schema in self.domain.actions:
                new: list[tuple[str, ...]] = []
                for binding in self.bindings(schema):
                    args = tuple(binding[p.name] for p in schema.parameters)
                    if (schema.name, args) not in seen:
                        seen.add((schema.name, args))
                        new.append(args)
                for args in new:
                    instances.append((schema, args))
                    binding = dict(zip((p.name for p in schema.parameters), args))
                    for effect in schema.add_effects:
                        atom_args = tuple(binding.get(t, t) for t in effect.terms)
                        if self.relations[effect.predicate].add(atom_args):
                            changed = True
        return instances


def _instantiate(literal: Literal, binding: Binding) -> Atom:
    return literal.predicate, tuple(binding.get(t, t) for t in literal.terms)


def _action_cost(schema: ActionSchema, binding: Binding, problem: Problem) -> int:
    """What a ground action costs, as Fast Downward counts it (see :attr:`GroundAction.cost`)."""
    if not problem.metric:
        return 1
    if schema.cost is None:
        return 0
    if isinstance(schema.cost, int):
        return schema.cost
    name, terms = schema.cost
    key = (name, tuple(binding.get(t, t) for t in terms))
    if key not in problem.function_values:
        raise SymtError(f"{problem.filename or problem.name}: no value for ({' '.join((name, *key[1]))}), "
                        f"which action '{schema.name}' costs")
    value = problem.function_values[key]
    if value != int(value) or value < 0:
        raise SymtError(f"{problem.filename or problem.name}: ({' '.join((name, *key[1]))}) = {value:g} is "
                        "not a whole number >= 0 (Fast Downward's action costs are)")
    return int(value)


def ground(domain: Domain | str | Path, problem: Problem | str | Path) -> GroundTask:
    """Ground ``problem`` over ``domain`` (objects or file paths)."""
    if not isinstance(domain, Domain):
        domain = parse_domain(domain)
    if not isinstance(problem, Problem):
        problem = parse_problem(problem, domain)
    grounder = _Grounder(domain, problem)
    instances = grounder.reachable_instances()
    statics = grounder.statics
    init_atoms = {(lit.predicate, lit.terms) for lit in problem.init}

    fluent_atoms = sorted(
        (pred, args)
        for pred, relation in grounder.relations.items()
        if pred not in statics
        for args in relation.tuples
    )
    # A goal atom no action can reach still needs an index: it keeps the task (correctly) unsolvable.
    reachable = set(fluent_atoms)
    fixed = fixed_part(domain, problem)  # objects, types, static and goal atoms: one definition
    goal_negative: list[Atom] = []
    solvable = True
    for literal in problem.goal:
        atom = (literal.predicate, literal.terms)
        if literal.predicate == "=":
            if (atom[1][0] == atom[1][1]) == literal.negated:
                solvable = False
            continue
        if literal.negated:
            goal_negative.append(atom)
            if literal.predicate in statics and atom in init_atoms:
                solvable = False
            continue
        if literal.predicate in statics:
            if atom not in init_atoms:
                solvable = False
        elif atom not in reachable:
            fluent_atoms.append(atom)
            reachable.add(atom)
    index = {atom: i for i, atom in enumerate(fluent_atoms)}

    actions: list[GroundAction] = []
    for schema, args in instances:
        binding = dict(zip((p.name for p in schema.parameters), args))
        pre_pos: list[int] = []
        pre_neg: list[int] = []
        for literal in schema.preconditions:
            if literal.predicate == "=" or literal.predicate in statics:
                continue  # checked during grounding
            atom = _instantiate(literal, binding)
            if literal.negated:
                if atom in index:  # an atom never reachable is always false: nothing to check
                    pre_neg.append(index[atom])
            else:
                pre_pos.append(index[atom])
        add = [index[_instantiate(lit, binding)] for lit in schema.add_effects]
        delete = [
            index[atom]
            for atom in (_instantiate(lit, binding) for lit in schema.delete_effects)
            if atom in index
        ]
        actions.append(
            GroundAction(
                schema.name,
                args,
                tuple(sorted(set(pre_pos))),
                tuple(sorted(set(pre_neg))),
                tuple(sorted(set(add))),
                tuple(sorted(set(delete))),
                _action_cost(schema, binding, problem),
            )
        )
    actions.sort(key=lambda a: (a.name, a.args))

    return replace(
        fixed,
        fluent_atoms=fluent_atoms,
        init=tuple(sorted(index[a] for a in init_atoms if a[0] not in statics)),
        goal_pos=tuple(index[a] for a in fixed.goal_atoms if a[0] not in statics),
        goal_neg=tuple(index[a] for a in goal_negative if a in index),
        actions=actions,
        fluent_index=index,
        goal_negative_atoms=goal_negative,
        solvable_by_statics=solvable,
    )


def fixed_part(domain: Domain, problem: Problem) -> GroundTask:
    """What ``ground(domain, problem)`` says of the atoms that are the same in every state --
    objects and their types, static atoms, goal atoms, in the same order -- without grounding a
    single action: a ``GroundTask`` with no fluent atoms and no actions. The fast-downward wrapper
    writes the plugin's task context from it; grounding every action of an IPC hard task in Python
    takes minutes, which no planner time limit counts."""
    statics = static_predicates(domain)
    goal_atoms = [(lit.predicate, lit.terms) for lit in problem.goal if lit.predicate != "=" and not lit.negated]
    return GroundTask(
        domain_name=domain.name,
        problem_name=problem.name,
        objects=list(problem.objects),
        object_types={obj: types[0] for obj, types in problem.objects.items()},
        predicates={name: len(params) for name, params in domain.predicates.items()},
        static_predicates=statics,
        fluent_atoms=[],
        static_atoms=sorted({(lit.predicate, lit.terms) for lit in problem.init if lit.predicate in statics}),
        goal_atoms=goal_atoms,
        init=(),
        goal_pos=(),
        goal_neg=(),
        actions=[],
    )
