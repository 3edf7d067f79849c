"""The domain-independent part of problem generation: an abstract problem and its PDDL rendering.

Generators build a :class:`Problem` over *internal* object names that carry their role
(``b3``, ``cell-2-1``, ``truck0``...). :func:`render` then replaces every name by an opaque
``o1 .. oN`` drawn through a seeded random permutation and shuffles the order of objects, initial
atoms and goal atoms, so nothing in the written file reveals an object's role, position or
coordinates.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field

Atom = tuple[str, ...]
"""A ground atom as ``(predicate, arg1, arg2, ...)``."""


@dataclass
class Problem:
    """A planning problem over role-revealing internal object names (never written to disk).

    ``key`` identifies the problem up to renaming of objects (two problems with equal keys are
    isomorphic); the split driver uses it to keep tasks of the same size distinct. ``info`` holds
    structural metadata worth recording in the manifest (e.g. the Visitall grid shape).
    """

    objects: list[str]
    init: list[Atom]
    goal: list[Atom]
    key: Hashable
    info: dict[str, object] = field(default_factory=dict)


def render(problem: Problem, pddl_domain: str, name: str, rng: random.Random) -> str:
    """Write ``problem`` as PDDL text with opaque shuffled names and shuffled atom order.

    Object ``problem.objects[i]`` becomes ``o{perm[i]}`` for a uniformly random permutation
    ``perm`` of ``1..N``; objects, initial atoms and goal atoms are listed in random order.
    """
    n = len(problem.objects)
    numbers = list(range(1, n + 1))
    rng.shuffle(numbers)
    rename = {obj: f"o{k}" for obj, k in zip(problem.objects, numbers, strict=True)}
    if len(rename) != n:
        raise ValueError("duplicate object names in generated problem")

    def atom_text(atom: Atom) -> str:
        return "(" + " ".join((atom[0], *(rename[a] for a in atom[1:]))) + ")"

    objects = [rename[o] for o in problem.objects]
    rng.shuffle(objects)
    init = [atom_text(a) for a in problem.init]
    rng.shuffle(init)
    goal = [atom_text(a) for a in problem.goal]
    rng.shuffle(goal)

    lines = [f"(define (problem {name})", f"  (:domain {pddl_domain})"]
    lines.append("  (:objects " + " ".join(objects) + ")")
    lines.append("  (:init")
    lines.extend(f"    {a}" for a in init)
    lines.append("  )")
    lines.append("  (:goal (and")
    lines.extend(f"    {a}" for a in goal)
    lines.append("  ))")
    lines.append(")")
    return "\n".join(lines) + "\n"
