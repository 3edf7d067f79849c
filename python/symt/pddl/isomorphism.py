"""Domains that are the same up to names: the renaming of predicates and types that
``symt retarget`` writes into a model file.

IPC 2023's Blocksworld and the paper's Blocksworld are one domain written twice (``on-table`` for
``ontable``, ``arm-empty`` for ``handempty``, ``pickup`` for ``pick-up``). ``symt()`` maps a task
of either spelling into its model's names itself (:mod:`symt.pddl.canonical`); a model *file* in
the other names (:func:`symt.export.retarget`) needs the renaming of names alone: no argument
permutation, types staying types. :func:`find_renaming` asks the canonical forms' isomorphism
(:func:`symt.pddl.canonical.isomorphisms`) for exactly that, so both domains have the same tasks,
states and transitions, and h* is unchanged.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..errors import SymtError
from .canonical import TYPE_PREFIX, canonical_form, explain_difference, isomorphisms
from .model import ROOT_TYPE, Domain

MAX_ISOMORPHISMS = 20_000
"""Isomorphisms looked at (most differ only in how they map literals, not names) before the
renamings found so far are taken as all there are."""


@dataclass(frozen=True)
class Renaming:
    """Source name -> target name, for predicates and for declared types."""

    predicates: dict[str, str]
    types: dict[str, str]

    def changed(self) -> dict[str, str]:
        """Only the names that differ (what a user reads)."""
        pairs = {**self.predicates, **{f"type {a}": f"type {b}" for a, b in self.types.items()}}
        return {a: b for a, b in pairs.items() if a.split()[-1] != b.split()[-1]}

    def kept(self) -> int:
        """How many names the renaming keeps (the most wins among valid renamings)."""
        return sum(a == b for a, b in (*self.predicates.items(), *self.types.items()))


def _declared_types(domain: Domain) -> list[str]:
    return sorted(t for t in domain.supertypes if t != ROOT_TYPE)


def _unused(names: list[str], used: dict[str, int], others: list[str], fixed: dict[str, str], where: str,
            what: str) -> dict[str, str]:
    """Names no action uses: paired by ``fixed``, else by the same name; nothing else tells them apart."""
    pairs = {}
    free = [n for n in others if n not in fixed.values()]
    for name in names:
        if name in used:
            continue
        to = fixed.get(name, name if name in free else None)
        if to is None:
            raise SymtError(f"{where}: {what} '{name}' is used by no action, so nothing says which one it is; "
                            f"pin it with --map {name}=TARGET")
        pairs[name] = to
    return pairs


def find_renaming(source: Domain, target: Domain, fixed: dict[str, str] | None = None) -> Renaming:
    """The renaming of ``source``'s predicates and types under which it is ``target``.

    ``fixed`` pins names (source -> target; predicates or types). Among several valid renamings
    (a domain with symmetric predicates), the one keeping the most names wins; a tie is an error
    that asks for ``fixed``. Raises :class:`SymtError` naming the first difference when none exists.
    """
    fixed = dict(fixed or {})
    where = f"{source.filename} -> {target.filename}"
    source_types, target_types = _declared_types(source), _declared_types(target)
    for name, to in fixed.items():
        if name not in set(source.predicates) | set(source_types):
            raise SymtError(f"{where}: --map {name}={to}: {source.filename} has no predicate or type '{name}'")
        if to not in set(target.predicates) | set(target_types):
            raise SymtError(f"{where}: --map {name}={to}: {target.filename} has no predicate or type '{to}'")
    if len(source.predicates) != len(target.predicates) or len(source_types) != len(target_types):
        raise SymtError(
            f"{where}: not the same domain: {len(source.predicates)} predicates and {len(source_types)} types "
            f"against {len(target.predicates)} and {len(target_types)}")
    src, tgt = canonical_form(source), canonical_form(target)
    pins = {(TYPE_PREFIX + a if a in source_types else a): (TYPE_PREFIX + b if b in target_types else b)
            for a, b in fixed.items()}
    found: dict[tuple, Renaming] = {}
    for match in itertools.islice(isomorphisms(src, tgt, names_only=True, pins=pins), MAX_ISOMORPHISMS):
        predicates = {p: q for p, (q, _) in match.predicates.items() if not p.startswith(TYPE_PREFIX)}
        types = {p[len(TYPE_PREFIX):]: q[len(TYPE_PREFIX):] for p, (q, _) in match.predicates.items()
                 if p.startswith(TYPE_PREFIX)}
        key = (tuple(sorted(predicates.items())), tuple(sorted(types.items())))
        found.setdefault(key, Renaming(predicates, types))
    if not found:
        raise SymtError(f"{where}: not the same domain: no renaming of predicates and types makes their actions "
                        f"equal ({explain_difference(src, tgt)})")
    ranked = sorted(found.values(), key=lambda r: -r.kept())
    if len(ranked) > 1 and ranked[0].kept() == ranked[1].kept():
        raise SymtError(f"{where}: the domains match in {len(ranked)} ways (for example {ranked[0].changed()} and "
                        f"{ranked[1].changed()}); pin names with --map SOURCE=TARGET")
    best = ranked[0]
    predicates = {**best.predicates, **_unused(list(source.predicates), src.predicates, list(target.predicates),
                                               fixed, where, "predicate")}
    used_types = {t[len(TYPE_PREFIX):]: 1 for t in src.predicates if t.startswith(TYPE_PREFIX)}
    types = {**best.types, **_unused(source_types, used_types, target_types, fixed, where, "type")}
    # The actions see a type through its objects only; a model's type atoms include supertypes.
    for t, sups in source.supertypes.items():
        mapped = {types.get(x, x) for x in sups if x != ROOT_TYPE}
        theirs = {x for x in target.supertypes.get(types.get(t, t), ()) if x != ROOT_TYPE}
        if t != ROOT_TYPE and mapped != theirs:
            raise SymtError(f"{where}: not the same domain: type '{t}' has the supertypes {sorted(mapped) or 'none'} "
                            f"there against {sorted(theirs) or 'none'}")
    return Renaming(predicates, types)
