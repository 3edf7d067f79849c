"""A local objects model's value computed from its parent state's, exactly (issue 65).

With objects attention and no global tokens (``ModelConfig.global_tokens = 0``) a token reads only
what lies near it: each application of the layer moves information one step in a state's *object
graph* (two objects are neighbours where a fluent atom names both or a context atom links them,
``object_links``), so an atom's final features depend only on the objects within ``n_layers`` steps
of its arguments, on the atoms that name them and on which of their linked objects are present.
The value is the readout of a sum over atoms (:meth:`RoutedSymTE.atom_terms`: their features, or
their values with the per-atom readout) plus the context's share, so a state that differs from an
evaluated parent in a few atoms needs new terms only for the atoms near the change:

* ``changed``: the objects of the atoms in one state and not the other; ``near``: the objects
  within ``n_layers`` steps of them in the union of both states' object graphs;
* the child's atoms that changed or name a ``near`` object are computed again by a state pass over
  the child's atoms that name an object within ``2 n_layers`` steps (a border wide enough that the
  atoms recomputed see all they would see in the whole state); every other atom keeps its parent's
  term, and the sum changes by the difference.

:class:`LocalValues` is the reference of that update in Python: it defines what the plugin's
incremental evaluation must compute and measures how much of a state it recomputes
(``benchmarks/speed/bench_local_update.py``). The plugin still evaluates whole states.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

import torch
from torch import Tensor

from .model_routed import RoutedSymTE

Atom = tuple[int, ...]
"""A fluent atom as its token row: the predicate id, then the argument slots' object tokens
(``vocab_size`` for an empty slot)."""


@dataclass
class LocalState:
    """An evaluated state: its atoms' readout terms and their sum (float64, so that a long chain
    of differences does not drift)."""

    terms: dict[Atom, Tensor]
    total: Tensor


def atom_inputs(atoms: list[Atom]) -> tuple[Tensor, Tensor, Tensor]:
    """One state of ``atoms`` as a pass takes it: pred [1,N], args [1,N,m], mask [1,N]."""
    pred = torch.tensor([a[0] for a in atoms])[None]
    args = torch.tensor([list(a[1:]) for a in atoms])[None]
    return pred, args, torch.ones(1, len(atoms), dtype=torch.bool)


class LocalValues:
    """The values of a task's states under a local objects model, whole or from a parent's.
    ``context_pred`` [C], ``context_args`` [C,m]: the task's context atoms as tokens (what
    ``encode_context`` takes); states are given by their fluent atoms (:data:`Atom`)."""

    def __init__(self, net: RoutedSymTE, context_pred: Tensor, context_args: Tensor):
        if not isinstance(net, RoutedSymTE) or net.global_tokens != 0:
            raise ValueError("a value is computed from its parent's only with objects attention and no "
                             "global tokens (global tokens read every atom)")
        self.net = net.eval()
        self.hops = net.n_layers
        self.vocab_size = net.vocab_size
        with torch.no_grad():
            self.cache = net.encode_context(context_pred, context_args)
        self.linked: dict[int, set[int]] = {}
        links = self.cache[4]
        for receiving, sending in zip(links[0].tolist(), links[1].tolist()):
            self.linked.setdefault(receiving, set()).add(sending)

    def objects(self, atom: Atom) -> list[int]:
        """The object tokens an atom names."""
        return [t for t in atom[1:] if t < self.vocab_size]

    def terms(self, atoms: list[Atom]) -> dict[Atom, Tensor]:
        """The readout terms of ``atoms`` as one state pass over exactly these atoms computes them."""
        if not atoms:
            return {}
        keys, objects, globals_, _, links = self.cache
        pred, args, mask = atom_inputs(atoms)
        with torch.no_grad():
            x = self.net.state_pass(keys, objects, globals_, links, pred, args, mask)
            return dict(zip(atoms, self.net.atom_terms(x, mask)[0]))

    def evaluate(self, atoms: Iterable[Atom]) -> LocalState:
        """A state from one pass over all its atoms."""
        terms = self.terms(list(atoms))
        width = 1 if self.net.atom_readout else self.net.k
        total = torch.stack(list(terms.values())).double().sum(dim=0) if terms else torch.zeros(width).double()
        return LocalState(terms, total)

    def value(self, state: LocalState) -> float:
        """h of an evaluated state."""
        with torch.no_grad():
            return float(self.net.value_of_terms(state.total.float()[None], self.cache[3])[0])

    def distances(self, atoms: set[Atom], sources: set[int], limit: int) -> dict[int, int]:
        """Steps from ``sources`` to each object within ``limit`` steps in the object graph of
        ``atoms`` (neighbours: named by one atom, or linked by a context atom, both present)."""
        present: set[int] = set()
        named: dict[int, set[int]] = {}
        for atom in atoms:
            objects = self.objects(atom)
            present.update(objects)
            for o in objects:
                named.setdefault(o, set()).update(objects)
        found = {o: 0 for o in sources}
        queue = deque(sources)
        while queue:
            o = queue.popleft()
            if found[o] == limit:
                continue
            for n in named.get(o, set()) | (self.linked.get(o, set()) & present):
                if n not in found:
                    found[n] = found[o] + 1
                    queue.append(n)
        return found

    def update(self, parent: LocalState, child: Iterable[Atom]) -> tuple[LocalState, list[Atom]]:
        """The child state from its parent's terms, and the atoms the one pass it made read
        (none: nothing changed)."""
        child = list(child)
        before, after = set(parent.terms), set(child)
        changed = before ^ after
        sources = {o for atom in changed for o in self.objects(atom)}
        distance = self.distances(before | after, sources, 2 * self.hops)
        near = {a for a in before | after
                if a in changed or any(distance.get(o, self.hops + 1) <= self.hops for o in self.objects(a))}
        read = [a for a in child if a in near or any(o in distance for o in self.objects(a))]
        new = self.terms(read)
        total = parent.total.clone()
        for atom in near:
            if atom in parent.terms:
                total -= parent.terms[atom].double()
            if atom in new:
                total += new[atom].double()
        terms = {a: new[a] if a in near else parent.terms[a] for a in child}
        return LocalState(terms, total), read
