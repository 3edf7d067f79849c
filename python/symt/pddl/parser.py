"""Interpret PDDL s-expressions as a ``Domain`` or ``Problem`` in symt's STRIPS fragment.

Supported: STRIPS, ``:typing`` (hierarchies, ``either``), constants, ``:negative-preconditions``,
``:equality``, ``:action-costs`` (``(increase (total-cost) X)`` with X a number or a function term
whose values ``:init`` gives, ``(:metric minimize (total-cost))``). Anything else that a file *uses* is refused with the construct's
name and its file:line; requirements that are declared but unused are accepted.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import PDDLSyntaxError, UnsupportedConstructError
from .model import ROOT_TYPE, ActionSchema, CostTerm, Domain, Literal, Parameter, Problem
from .sexpr import SExpr, SList, Symbol, parse_file

# Constructs outside the fragment, by the keyword that introduces them.
_UNSUPPORTED_CONDITIONS = {
    "or": "disjunctive preconditions (or)",
    "imply": "disjunctive preconditions (imply)",
    "exists": "existential quantifiers (exists)",
    "forall": "universal quantifiers (forall)",
    "when": "conditional effects (when)",
    "<": "numeric fluents (<)",
    ">": "numeric fluents (>)",
    "<=": "numeric fluents (<=)",
    ">=": "numeric fluents (>=)",
}
_UNSUPPORTED_EFFECTS = {
    "when": "conditional effects (when)",
    "forall": "universal quantifiers in effects (forall)",
    "decrease": "numeric fluents (decrease)",
    "assign": "numeric fluents (assign)",
    "scale-up": "numeric fluents (scale-up)",
    "scale-down": "numeric fluents (scale-down)",
    "or": "disjunction in effects (or)",
}
_UNSUPPORTED_DOMAIN_SECTIONS = {
    ":derived": "derived predicates (:derived)",
    ":durative-action": "durative actions (:durative-action)",
    ":constraints": "state-trajectory constraints (:constraints)",
    ":process": "processes (:process)",
    ":event": "events (:event)",
}


class _Reader:
    """Shared helpers: every error names the file and the line of the offending construct."""

    def __init__(self, filename: str):
        self.filename = filename

    def syntax(self, node: SExpr, message: str) -> PDDLSyntaxError:
        return PDDLSyntaxError(self.filename, node.line, message, node.column)

    def unsupported(self, node: SExpr, construct: str) -> UnsupportedConstructError:
        return UnsupportedConstructError(
            self.filename,
            node.line,
            f"unsupported construct: {construct}; symt handles STRIPS with typing, "
            "negative preconditions, equality and action costs",
        )

    def expect_list(self, node: SExpr, what: str) -> SList:
        if not isinstance(node, SList):
            raise self.syntax(node, f"expected {what} in parentheses, found '{node.text}'")
        return node

    def expect_symbol(self, node: SExpr, what: str) -> str:
        if not isinstance(node, Symbol):
            raise self.syntax(node, f"expected {what}, found a parenthesised list")
        return node.text

    def define(self, exprs: list[SExpr], kind: str) -> tuple[str, SList]:
        """Check the ``(define (kind NAME) ...)`` frame and return (NAME, the define list)."""
        if not exprs:
            raise PDDLSyntaxError(self.filename, 1, f"empty file: expected (define ({kind} ...))")
        if len(exprs) > 1:
            raise self.syntax(exprs[1], "unexpected text after the closing ')' of define")
        top = self.expect_list(exprs[0], "(define ...)")
        if top.head() != "define" or len(top) < 2:
            raise self.syntax(top, f"expected (define ({kind} NAME) ...)")
        header = self.expect_list(top[1], f"({kind} NAME)")
        if header.head() != kind or len(header) != 2:
            other = "problem" if kind == "domain" else "domain"
            if header.head() == other:
                raise self.syntax(header, f"this is a {other} file, expected a {kind} file")
            raise self.syntax(header, f"expected ({kind} NAME)")
        return self.expect_symbol(header[1], f"a {kind} name"), top

    def typed_list(self, items: tuple[SExpr, ...], what: str, variables: bool) -> list[Parameter]:
        """``a b - t c - (either u v) d`` -> names with their types (untyped: ``object``)."""
        result: list[Parameter] = []
        pending: list[str] = []
        index = 0
        while index < len(items):
            item = items[index]
            if isinstance(item, Symbol) and item.text == "-":
                if index + 1 >= len(items):
                    raise self.syntax(item, f"'-' without a type in {what}")
                if not pending:
                    raise self.syntax(item, f"'-' with no names before it in {what}")
                types = self.type_spec(items[index + 1])
                result.extend(Parameter(name, types) for name in pending)
                pending = []
                index += 2
                continue
            name = self.expect_symbol(item, f"a name in {what}")
            if variables and not name.startswith("?"):
                raise self.syntax(item, f"expected a variable (?name) in {what}, found '{name}'")
            if not variables and name.startswith("?"):
                raise self.syntax(item, f"unexpected variable '{name}' in {what}")
            pending.append(name)
            index += 1
        result.extend(Parameter(name, (ROOT_TYPE,)) for name in pending)
        return result

    def type_spec(self, node: SExpr) -> tuple[str, ...]:
        if isinstance(node, Symbol):
            return (node.text,)
        if node.head() == "either" and len(node) > 1:
            return tuple(self.expect_symbol(t, "a type in (either ...)") for t in node.items[1:])
        raise self.syntax(node, "expected a type name or (either TYPE ...)")


def parse_domain(path: str | Path) -> Domain:
    """Parse a domain file; raise ``PDDLError`` (with file:line) on anything unsupported."""
    exprs, filename = parse_file(path)
    reader = _Reader(filename)
    name, top = reader.define(exprs, "domain")
    domain = Domain(name=name, filename=filename)
    for section_node in top.items[2:]:
        section = reader.expect_list(section_node, "a domain section")
        key = section.head()
        if key in _UNSUPPORTED_DOMAIN_SECTIONS:
            raise reader.unsupported(section, _UNSUPPORTED_DOMAIN_SECTIONS[key])
        if key == ":requirements":
            domain.requirements = {reader.expect_symbol(r, "a requirement") for r in section.items[1:]}
        elif key == ":types":
            for declared in reader.typed_list(section.items[1:], ":types", variables=False):
                if declared.name == ROOT_TYPE:
                    continue
                domain.supertypes.setdefault(declared.name, ())
                domain.supertypes[declared.name] = tuple(
                    dict.fromkeys(domain.supertypes[declared.name] + declared.types)
                )
        elif key == ":constants":
            for constant in reader.typed_list(section.items[1:], ":constants", variables=False):
                domain.constants[constant.name] = constant.types
        elif key == ":predicates":
            for node in section.items[1:]:
                declaration = reader.expect_list(node, "a predicate declaration")
                predicate = reader.expect_symbol(declaration[0], "a predicate name") if len(declaration) else None
                if predicate is None:
                    raise reader.syntax(declaration, "empty predicate declaration")
                if predicate in domain.predicates:
                    raise reader.syntax(declaration, f"predicate '{predicate}' declared twice")
                domain.predicates[predicate] = tuple(
                    reader.typed_list(declaration.items[1:], f"predicate '{predicate}'", variables=True)
                )
        elif key == ":functions":
            _parse_functions(reader, section, domain)
        elif key == ":action":
            domain.actions.append(_parse_action(reader, section, domain))
        else:
            raise reader.syntax(section, f"unknown domain section '{key or section}'")
    _check_types(reader, domain, top)
    names = [a.name for a in domain.actions]
    for schema in domain.actions:
        if names.count(schema.name) > 1:
            raise PDDLSyntaxError(filename, schema.line, f"action '{schema.name}' defined twice")
    return domain


def _parse_functions(reader: _Reader, section: SList, domain: Domain) -> None:
    """``(:functions (total-cost) - number (road-length ?a ?b - location) - number)``: numeric
    functions, which symt accepts only as action costs (their only use it reads)."""
    items = section.items[1:]
    index = 0
    while index < len(items):
        declaration = reader.expect_list(items[index], "a function declaration")
        name = reader.expect_symbol(declaration[0], "a function name") if len(declaration) else None
        if name is None:
            raise reader.syntax(declaration, "empty function declaration")
        params = reader.typed_list(declaration.items[1:], f"function '{name}'", variables=True)
        domain.functions[name] = len(params)
        index += 1
        if index < len(items) and isinstance(items[index], Symbol) and items[index].text == "-":
            if index + 1 >= len(items) or reader.expect_symbol(items[index + 1], "a function type") != "number":
                raise reader.unsupported(declaration, f"object fluents (function '{name}' not of type number)")
            index += 2


def _cost(reader: _Reader, effect: SList, domain: Domain, scope: set[str]) -> CostTerm:
    """The X of ``(increase (total-cost) X)``; every other numeric effect is refused."""
    if len(effect) != 3 or not isinstance(effect[1], SList) or effect[1].head() != "total-cost":
        raise reader.unsupported(effect, "numeric fluents (increase of something other than total-cost)")
    amount = effect[2]
    if isinstance(amount, Symbol):
        try:
            value = float(amount.text)
        except ValueError:
            raise reader.syntax(amount, f"expected a number or a function term, found '{amount.text}'") from None
        if value < 0 or value != int(value):
            raise reader.unsupported(amount, f"action cost {amount.text} (Fast Downward takes whole numbers >= 0)")
        return int(value)
    name = amount.head()
    if name is None or name not in domain.functions:
        raise reader.syntax(amount, f"unknown function '{name}' in an action cost")
    terms = tuple(reader.expect_symbol(t, f"an argument of '{name}'") for t in amount.items[1:])
    if len(terms) != domain.functions[name]:
        raise reader.syntax(amount, f"function '{name}' takes {domain.functions[name]} argument(s), found {len(terms)}")
    for term in terms:
        if term.startswith("?") and term not in scope:
            raise reader.syntax(amount, f"undeclared variable '{term}'")
        if not term.startswith("?") and term not in domain.constants:
            raise reader.syntax(amount, f"'{term}' is neither a parameter nor a declared constant")
    return (name, terms)


def _check_types(reader: _Reader, domain: Domain, top: SList) -> None:
    known = set(domain.supertypes) | {ROOT_TYPE}
    for sub, sups in domain.supertypes.items():
        for sup in sups:
            if sup not in known:
                raise reader.syntax(top, f"type '{sub}' has undeclared supertype '{sup}'")
    def check(types: tuple[str, ...], where: str) -> None:
        for t in types:
            if t not in known:
                raise PDDLSyntaxError(reader.filename, None, f"unknown type '{t}' in {where}")

    for predicate, params in domain.predicates.items():
        for param in params:
            check(param.types, f"predicate '{predicate}'")
    for constant, types in domain.constants.items():
        check(types, f"constant '{constant}'")
    for schema in domain.actions:
        for param in schema.parameters:
            if any(t not in known for t in param.types):
                bad = next(t for t in param.types if t not in known)
                raise PDDLSyntaxError(
                    reader.filename, schema.line, f"unknown type '{bad}' in action '{schema.name}'"
                )


def _parse_action(reader: _Reader, section: SList, domain: Domain) -> ActionSchema:
    if len(section) < 2:
        raise reader.syntax(section, "expected (:action NAME ...)")
    name = reader.expect_symbol(section[1], "an action name")
    schema = ActionSchema(name, [], [], [], [], line=section.line)
    fields: dict[str, SExpr] = {}
    index = 2
    while index < len(section):
        key_node = section[index]
        key = reader.expect_symbol(key_node, f"a keyword (:parameters, :precondition, :effect) in action '{name}'")
        if key not in (":parameters", ":precondition", ":effect"):
            raise reader.syntax(key_node, f"unknown keyword '{key}' in action '{name}'")
        if index + 1 >= len(section):
            raise reader.syntax(key_node, f"'{key}' without a value in action '{name}'")
        fields[key] = section[index + 1]
        index += 2
    if ":parameters" in fields:
        params = reader.expect_list(fields[":parameters"], ":parameters")
        schema.parameters = reader.typed_list(params.items, f"the parameters of '{name}'", variables=True)
        seen: set[str] = set()
        for param in schema.parameters:
            if param.name in seen:
                raise reader.syntax(params, f"parameter '{param.name}' repeated in action '{name}'")
            seen.add(param.name)
    scope = {p.name for p in schema.parameters}
    if ":precondition" in fields:
        schema.preconditions = _conjunction(reader, fields[":precondition"], domain, scope, "precondition")
    if ":effect" in fields:
        costs: list[CostTerm] = []
        for literal in _effects(reader, fields[":effect"], domain, scope, costs):
            (schema.delete_effects if literal.negated else schema.add_effects).append(literal)
        if len(costs) > 1:
            raise reader.unsupported(fields[":effect"], f"more than one (increase (total-cost) ...) in action '{name}'")
        schema.cost = costs[0] if costs else None
    return schema


def _literal(
    reader: _Reader,
    node: SList,
    domain: Domain,
    scope: set[str] | None,
    negated: bool,
) -> Literal:
    """An atom ``(p t1 .. tn)`` checked against the predicate declarations.

    ``scope`` is the set of variables allowed (None: a ground atom, variables forbidden).
    """
    predicate = node.head()
    if predicate is None:
        raise reader.syntax(node, "expected an atom (predicate arguments...)")
    terms = tuple(reader.expect_symbol(t, f"an argument of '{predicate}'") for t in node.items[1:])
    if predicate == "=":
        if len(terms) != 2:
            raise reader.syntax(node, "equality (=) takes exactly 2 arguments")
    elif predicate not in domain.predicates:
        raise reader.syntax(node, f"unknown predicate '{predicate}'")
    elif len(terms) != len(domain.predicates[predicate]):
        raise reader.syntax(
            node,
            f"predicate '{predicate}' takes {len(domain.predicates[predicate])} "
            f"argument(s), found {len(terms)}",
        )
    for term in terms:
        if term.startswith("?"):
            if scope is None:
                raise reader.syntax(node, f"variable '{term}' in a ground atom")
            if term not in scope:
                raise reader.syntax(node, f"undeclared variable '{term}'")
        elif scope is not None and term not in domain.constants:
            raise reader.syntax(node, f"'{term}' is neither a parameter nor a declared constant")
    return Literal(predicate, terms, negated, node.line)


def _conjunction(
    reader: _Reader, node: SExpr, domain: Domain, scope: set[str] | None, what: str
) -> list[Literal]:
    """A conjunction of literals (a precondition or goal), refusing other connectives."""
    condition = reader.expect_list(node, f"a {what}")
    head = condition.head()
    if head is None and len(condition) == 0:
        return []
    if head == "and":
        result: list[Literal] = []
        for part in condition.items[1:]:
            result.extend(_conjunction(reader, part, domain, scope, what))
        return result
    if head in _UNSUPPORTED_CONDITIONS:
        raise reader.unsupported(condition, _UNSUPPORTED_CONDITIONS[head])
    if head == "not":
        if len(condition) != 2:
            raise reader.syntax(condition, "(not ...) takes exactly one argument")
        inner = reader.expect_list(condition[1], "an atom inside (not ...)")
        inner_head = inner.head()
        if inner_head in ("and", "not") or inner_head in _UNSUPPORTED_CONDITIONS:
            raise reader.unsupported(inner, f"negation of a compound formula (not ({inner_head} ...))")
        return [_literal(reader, inner, domain, scope, negated=True)]
    if head in _UNSUPPORTED_EFFECTS:
        raise reader.unsupported(condition, _UNSUPPORTED_EFFECTS[head])
    return [_literal(reader, condition, domain, scope, negated=False)]


def _effects(reader: _Reader, node: SExpr, domain: Domain, scope: set[str], costs: list[CostTerm]) -> list[Literal]:
    """The literals of an effect; an action cost found on the way is appended to ``costs``."""
    effect = reader.expect_list(node, "an effect")
    head = effect.head()
    if head is None and len(effect) == 0:
        return []
    if head == "and":
        result: list[Literal] = []
        for part in effect.items[1:]:
            result.extend(_effects(reader, part, domain, scope, costs))
        return result
    if head == "increase":
        costs.append(_cost(reader, effect, domain, scope))
        return []
    if head in _UNSUPPORTED_EFFECTS:
        raise reader.unsupported(effect, _UNSUPPORTED_EFFECTS[head])
    if head in ("exists", "imply"):
        raise reader.unsupported(effect, _UNSUPPORTED_CONDITIONS[head])
    if head == "not":
        if len(effect) != 2:
            raise reader.syntax(effect, "(not ...) takes exactly one argument")
        literal = _literal(reader, reader.expect_list(effect[1], "an atom"), domain, scope, True)
    else:
        literal = _literal(reader, effect, domain, scope, False)
    if literal.predicate == "=":
        raise reader.syntax(effect, "equality (=) cannot be an effect")
    return [literal]


def parse_problem(path: str | Path, domain: Domain) -> Problem:
    """Parse a problem file against its (already parsed) domain."""
    exprs, filename = parse_file(path)
    reader = _Reader(filename)
    name, top = reader.define(exprs, "problem")
    problem = Problem(name=name, domain_name="", filename=filename)
    problem.objects = dict(domain.constants)
    goal_node: SExpr | None = None
    for section_node in top.items[2:]:
        section = reader.expect_list(section_node, "a problem section")
        key = section.head()
        if key == ":domain":
            if len(section) != 2:
                raise reader.syntax(section, "expected (:domain NAME)")
            problem.domain_name = reader.expect_symbol(section[1], "a domain name")
            if problem.domain_name != domain.name:
                raise reader.syntax(
                    section,
                    f"problem is for domain '{problem.domain_name}' but the domain file "
                    f"defines '{domain.name}'",
                )
        elif key == ":requirements":
            continue
        elif key == ":objects":
            for obj in reader.typed_list(section.items[1:], ":objects", variables=False):
                for t in obj.types:
                    if t != ROOT_TYPE and t not in domain.supertypes:
                        raise reader.syntax(section, f"unknown type '{t}' of object '{obj.name}'")
                if obj.name in problem.objects and obj.name not in domain.constants:
                    raise reader.syntax(section, f"object '{obj.name}' declared twice")
                problem.objects[obj.name] = obj.types
        elif key == ":init":
            for atom in section.items[1:]:
                if isinstance(atom, SList) and atom.head() == "=":
                    _init_value(reader, atom, domain, problem)
                else:
                    problem.init.append(_init_atom(reader, atom, domain, problem))
        elif key == ":goal":
            if len(section) != 2:
                raise reader.syntax(section, "expected (:goal FORMULA)")
            goal_node = section[1]
        elif key == ":metric":
            metric = [item.text if isinstance(item, Symbol) else str(item.head()) for item in section.items[1:]]
            if metric != ["minimize", "total-cost"] or len(section[2]) != 1:
                raise reader.unsupported(section, "plan metrics other than (:metric minimize (total-cost))")
            problem.metric = True
        elif key == ":constraints":
            raise reader.unsupported(section, "state-trajectory constraints (:constraints)")
        else:
            raise reader.syntax(section, f"unknown problem section '{key or section}'")
    if goal_node is None:
        raise PDDLSyntaxError(filename, top.line, "problem has no (:goal ...)")
    goal = _conjunction(reader, goal_node, domain, None, "goal")
    for literal in goal:
        _check_ground_objects(reader, literal, goal_node, problem)
    problem.goal = goal
    return problem


def _init_value(reader: _Reader, atom: SList, domain: Domain, problem: Problem) -> None:
    """``(= (f a b) 12)`` in ``:init``: a value of a cost function."""
    if len(atom) != 3 or not isinstance(atom[1], SList) or not isinstance(atom[2], Symbol):
        raise reader.unsupported(atom, "numeric fluents in :init (= ...) other than (= (FUNCTION OBJECTS) NUMBER)")
    name = atom[1].head()
    if name not in domain.functions:
        raise reader.syntax(atom, f"unknown function '{name}' in :init")
    terms = tuple(reader.expect_symbol(t, f"an argument of '{name}'") for t in atom[1].items[1:])
    for term in terms:
        if term not in problem.objects:
            raise PDDLSyntaxError(reader.filename, atom.line, f"unknown object '{term}' in (= ({name} ...))")
    try:
        problem.function_values[(str(name), terms)] = float(atom[2].text)
    except ValueError:
        raise reader.syntax(atom[2], f"expected a number, found '{atom[2].text}'") from None


def _init_atom(reader: _Reader, node: SExpr, domain: Domain, problem: Problem) -> Literal:
    atom = reader.expect_list(node, "an initial atom")
    head = atom.head()
    if head == "not":
        raise reader.syntax(atom, "negative literals are not allowed in :init (closed world)")
    if head == "at" and len(atom) == 3 and isinstance(atom[2], SList):
        raise reader.unsupported(atom, "timed initial literals (at NUMBER ...)")
    literal = _literal(reader, atom, domain, None, negated=False)
    _check_ground_objects(reader, literal, atom, problem)
    return literal


def _check_ground_objects(reader: _Reader, literal: Literal, node: SExpr, problem: Problem) -> None:
    for term in literal.terms:
        if term not in problem.objects:
            raise PDDLSyntaxError(
                reader.filename,
                literal.line or node.line,
                f"unknown object '{term}' in {literal}",
            )
