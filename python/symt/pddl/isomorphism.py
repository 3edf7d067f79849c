"""Domains that are the same up to names: a renaming of predicates and types under which two
domains have the same actions.

IPC 2023's Blocksworld and the paper's Blocksworld are one domain written twice (``on-table`` for
``ontable``, ``arm-empty`` for ``handempty``, ``pickup`` for ``pick-up``). A learned heuristic only
sees predicate and type names, so a model of one runs on the other once those names are mapped
(:func:`symt.export.retarget`). :func:`find_renaming` finds the mapping and proves it: under it,
every action of one domain equals an action of the other (the same parameter types, preconditions,
add and delete effects, up to the order of parameters), so both domains have the same tasks,
states and transitions, and h* is unchanged.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ..errors import SymtError
from .model import ROOT_TYPE, ActionSchema, Domain, Literal

MAX_CANDIDATES = 20_000
"""Renamings tried before giving up and asking for ``--map``."""


@dataclass(frozen=True)
class Renaming:
    """Source name -> target name, for predicates and for declared types."""

    predicates: dict[str, str]
    types: dict[str, str]

    def changed(self) -> dict[str, str]:
        """Only the names that differ (what a user reads)."""
        pairs = {**self.predicates, **{f"type {a}": f"type {b}" for a, b in self.types.items()}}
        return {a: b for a, b in pairs.items() if a.split()[-1] != b.split()[-1]}


def _declared_types(domain: Domain) -> list[str]:
    return sorted(t for t in domain.supertypes if t != ROOT_TYPE)


def _map_type(name: str, types: dict[str, str]) -> str:
    return name if name == ROOT_TYPE else types[name]


def _term_key(term: str, positions: dict[str, int]) -> tuple[int, str]:
    # Variables compare by their parameter position, constants by name.
    return (0, str(positions[term])) if term in positions else (1, term)


def _literal_keys(literals: list[Literal], positions: dict[str, int],
                  predicates: dict[str, str] | None) -> frozenset:
    keys = set()
    for lit in literals:
        name = lit.predicate if predicates is None or lit.predicate == "=" else predicates[lit.predicate]
        keys.add((name, tuple(_term_key(t, positions) for t in lit.terms), lit.negated))
    return frozenset(keys)


def _action_key(action: ActionSchema, order: tuple[int, ...], renaming: Renaming | None) -> tuple:
    """The action with its parameters in ``order``, its names mapped (``None``: kept)."""
    params = [action.parameters[i] for i in order]
    positions = {p.name: k for k, p in enumerate(params)}
    predicates = None if renaming is None else renaming.predicates

    def types(t: tuple[str, ...]) -> frozenset:
        return frozenset(t if renaming is None else (_map_type(x, renaming.types) for x in t))

    return (
        tuple(types(p.types) for p in params),
        _literal_keys(action.preconditions, positions, predicates),
        _literal_keys(action.add_effects, positions, predicates),
        _literal_keys([Literal(d.predicate, d.terms) for d in action.delete_effects], positions, predicates),
    )


def _target_keys(target: Domain) -> list[tuple]:
    """Each target action's key, its parameters in declared order (the same for every renaming)."""
    return [_action_key(action, tuple(range(len(action.parameters))), None) for action in target.actions]


def _actions_match(source: Domain, target_keys: list[tuple], renaming: Renaming) -> bool:
    """Whether a one-to-one matching of the actions exists under ``renaming``."""
    source_keys = []
    for action in source.actions:
        n = len(action.parameters)
        source_keys.append({_action_key(action, order, renaming) for order in itertools.permutations(range(n))})
    # Few actions per domain: plain backtracking over the bipartite matching suffices.
    used = [False] * len(target_keys)

    def assign(i: int) -> bool:
        if i == len(source_keys):
            return True
        for j, key in enumerate(target_keys):
            if not used[j] and key in source_keys[i]:
                used[j] = True
                if assign(i + 1):
                    return True
                used[j] = False
        return False

    return len(source.actions) == len(target_keys) and assign(0)


def _signature_matches(source: Domain, target: Domain, renaming: Renaming) -> bool:
    for t, sups in source.supertypes.items():
        if t == ROOT_TYPE:
            continue
        mapped = {_map_type(s, renaming.types) for s in sups}
        if mapped != set(target.supertypes.get(renaming.types[t], ())):
            return False
    for p, params in source.predicates.items():
        mapped = tuple(frozenset(_map_type(x, renaming.types) for x in q.types) for q in params)
        if mapped != tuple(frozenset(q.types) for q in target.predicates[renaming.predicates[p]]):
            return False
    if len(source.constants) != len(target.constants):
        return False
    for c, ctypes in source.constants.items():
        if c not in target.constants or {_map_type(x, renaming.types) for x in ctypes} != set(target.constants[c]):
            return False
    return True


def _classes(source: list[tuple[str, object]], target: list[tuple[str, object]]
             ) -> list[tuple[list[str], list[str]]] | None:
    """Names grouped by class (arity, say); None when a class has different sizes."""
    classes: dict[object, tuple[list[str], list[str]]] = {}
    for name, cls in source:
        classes.setdefault(cls, ([], []))[0].append(name)
    for name, cls in target:
        classes.setdefault(cls, ([], []))[1].append(name)
    groups = list(classes.values())
    return None if any(len(src) != len(tgt) for src, tgt in groups) else groups


def _count(groups: list[tuple[list[str], list[str]]], fixed: dict[str, str]) -> int:
    """How many bijections honour ``fixed`` (before enumerating them)."""
    count = 1
    for src, _ in groups:
        free = sum(name not in fixed for name in src)
        count *= math.factorial(free)
    return count


def _bijections(groups: list[tuple[list[str], list[str]]], fixed: dict[str, str]) -> list[list[dict[str, str]]]:
    """Per class: the bijections that honour ``fixed``."""
    options = []
    for src, tgt in groups:
        pinned = {a: fixed[a] for a in src if a in fixed}
        free_src = [a for a in src if a not in pinned]
        free_tgt = [b for b in tgt if b not in pinned.values()]
        if len(free_src) != len(free_tgt):
            return []
        options.append([{**pinned, **dict(zip(free_src, perm, strict=True))}
                        for perm in itertools.permutations(free_tgt)])
    return options


def _search(source: Domain, target: Domain, predicate_groups: list, type_groups: list,
            fixed: dict[str, str], where: str, limit: bool) -> list[tuple[int, Renaming]]:
    """Every valid renaming that honours ``fixed``, with how many names it keeps."""
    count = _count(predicate_groups, fixed) * _count(type_groups, fixed)
    if count > MAX_CANDIDATES:
        if not limit:
            return []
        raise SymtError(f"{where}: {count:,} candidate renamings; pin names with --map SOURCE=TARGET")
    predicate_options = _bijections(predicate_groups, fixed)
    type_options = _bijections(type_groups, fixed)
    if len(predicate_options) != len(predicate_groups) or len(type_options) != len(type_groups):
        if not limit:
            return []
        raise SymtError(f"{where}: --map pins a name to one of another arity")
    target_keys = _target_keys(target)
    found: list[tuple[int, Renaming]] = []
    for p_parts in itertools.product(*predicate_options):
        predicates = {k: v for part in p_parts for k, v in part.items()}
        for t_parts in itertools.product(*type_options):
            renaming = Renaming(predicates, {k: v for part in t_parts for k, v in part.items()})
            if _signature_matches(source, target, renaming) and _actions_match(source, target_keys, renaming):
                kept = sum(a == b for a, b in (*renaming.predicates.items(), *renaming.types.items()))
                found.append((kept, renaming))
    return found


def find_renaming(source: Domain, target: Domain, fixed: dict[str, str] | None = None) -> Renaming:
    """The renaming of ``source``'s predicates and types under which it is ``target``.

    ``fixed`` pins names (source -> target; predicates or types). Among several valid renamings
    (a domain with symmetric predicates), the one keeping the most names wins; a tie is an error
    that asks for ``fixed``. Raises :class:`SymtError` naming the first difference when none exists.
    """
    fixed = dict(fixed or {})
    where = f"{source.filename} -> {target.filename}"
    source_types, target_types = _declared_types(source), _declared_types(target)
    known = set(source.predicates) | set(source_types)
    for name, to in fixed.items():
        if name not in known:
            raise SymtError(f"{where}: --map {name}={to}: {source.filename} has no predicate or type '{name}'")
        if to not in set(target.predicates) | set(target_types):
            raise SymtError(f"{where}: --map {name}={to}: {target.filename} has no predicate or type '{to}'")
    if len(source.predicates) != len(target.predicates) or len(source_types) != len(target_types):
        raise SymtError(
            f"{where}: not the same domain: {len(source.predicates)} predicates and {len(source_types)} types "
            f"against {len(target.predicates)} and {len(target_types)}")
    predicate_groups = _classes([(p, len(a)) for p, a in source.predicates.items()],
                                [(p, len(a)) for p, a in target.predicates.items()])
    type_groups = _classes([(t, 0) for t in source_types], [(t, 0) for t in target_types])
    if predicate_groups is None or type_groups is None:
        raise SymtError(f"{where}: not the same domain: the predicates' arities differ")
    # The renaming that keeps every name both domains share is tried first: it is the best
    # candidate when it exists, and it keeps large domains (Rovers, Childsnack) searchable.
    shared = {p: p for p in source.predicates if p in target.predicates
              and len(source.predicates[p]) == len(target.predicates[p])}
    shared.update({t: t for t in source_types if t in target_types})
    found = _search(source, target, predicate_groups, type_groups, {**shared, **fixed}, where, limit=False)
    if not found:
        found = _search(source, target, predicate_groups, type_groups, fixed, where, limit=True)
    if not found:
        raise SymtError(f"{where}: not the same domain: no renaming of predicates and types makes "
                        "their actions equal (parameter types, preconditions, add and delete effects)")
    found.sort(key=lambda item: -item[0])
    if len(found) > 1 and found[0][0] == found[1][0]:
        a, b = found[0][1].changed(), found[1][1].changed()
        raise SymtError(f"{where}: the domains match in {len(found)} ways (for example {a} and {b}); "
                        "pin names with --map SOURCE=TARGET")
    return found[0][1]
