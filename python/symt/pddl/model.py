"""Lifted PDDL domains and problems in symt's STRIPS fragment.

Terms are strings: a variable starts with ``?``, anything else is an object or constant name.
Every construct keeps its source line so that later errors can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROOT_TYPE = "object"


@dataclass(frozen=True)
class Literal:
    """``(pred t1 .. tn)`` or its negation; ``pred == "="`` is equality."""

    predicate: str
    terms: tuple[str, ...]
    negated: bool = False
    line: int = 0

    def __str__(self) -> str:
        atom = "(" + " ".join((self.predicate, *self.terms)) + ")"
        return f"(not {atom})" if self.negated else atom


@dataclass(frozen=True)
class Parameter:
    """A typed parameter of an action schema or predicate: its variable name (``?x``) and type(s)."""

    name: str
    types: tuple[str, ...]
    """One type, or several for ``(either t1 t2)``."""


CostTerm = int | tuple[str, tuple[str, ...]]
"""An action's cost (``(increase (total-cost) X)``): a whole number, or a function term
``(name, terms)`` whose value the problem's ``:init`` gives (``(= (road-length a b) 12)``)."""


@dataclass
class ActionSchema:
    """A lifted action: its parameters, its precondition literals and its add and delete effects,
    and its cost (None: no ``increase`` of ``total-cost``, which Fast Downward counts as 1 without
    a metric and as 0 with one)."""

    name: str
    parameters: list[Parameter]
    preconditions: list[Literal]
    add_effects: list[Literal]
    delete_effects: list[Literal]
    line: int = 0
    cost: CostTerm | None = None


@dataclass
class Domain:
    """A parsed PDDL domain: requirements, type hierarchy, constants, predicates (with their
    parameters) and action schemas, in declaration order."""

    name: str
    filename: str
    requirements: set[str] = field(default_factory=set)
    supertypes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Each declared type and its direct supertypes (``object`` has none)."""
    constants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    predicates: dict[str, tuple[Parameter, ...]] = field(default_factory=dict)
    actions: list[ActionSchema] = field(default_factory=list)
    functions: dict[str, int] = field(default_factory=dict)
    """Declared numeric functions (``:functions``) and their arities: only action costs, i.e.
    ``total-cost`` and functions that an action's ``increase`` of it reads."""

    def action(self, name: str) -> ActionSchema | None:
        """The action schema called ``name``, or None when the domain has none."""
        for schema in self.actions:
            if schema.name == name:
                return schema
        return None

    def is_subtype(self, sub: str, sup: str) -> bool:
        """Reflexive-transitive subtype relation over the declared hierarchy."""
        if sup == ROOT_TYPE or sub == sup:
            return True
        seen: set[str] = set()
        stack = [sub]
        while stack:
            current = stack.pop()
            if current == sup:
                return True
            if current in seen:
                continue
            seen.add(current)
            stack.extend(self.supertypes.get(current, ()))
        return False

    def object_has_type(self, object_types: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
        """Whether an object declared with ``object_types`` may fill a slot of type ``wanted``.

        An object declared ``(either a b)`` fits a slot when one of its types does, the reading
        used by Fast Downward's translator.
        """
        return any(self.is_subtype(have, want) for have in object_types for want in wanted)


@dataclass
class Problem:
    """A parsed PDDL problem: its objects with their types, initial state and goal literals."""

    name: str
    domain_name: str
    filename: str
    objects: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Objects in declaration order (problem objects after the domain's constants)."""
    init: list[Literal] = field(default_factory=list)
    goal: list[Literal] = field(default_factory=list)
    function_values: dict[tuple[str, tuple[str, ...]], float] = field(default_factory=dict)
    """``(= (f a b) v)`` of ``:init``: the values of the cost functions."""
    metric: bool = False
    """Whether the problem says ``(:metric minimize (total-cost))``: then plans are measured by cost."""
