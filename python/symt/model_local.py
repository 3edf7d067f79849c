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
  term, and the sum changes by the difference (:meth:`LocalValues.update`);
* or, with the parent's token states after every layer kept (:meth:`LocalValues.step`), a pass
  over the atoms that name an object within ``n_layers`` steps only: the tokens the change has not
  yet reached take the parent's states after each layer.

:class:`LocalValues` is the reference of both in Python: it defines what the plugin's incremental
evaluation computes (``fd_plugin/symt_local*``, file pair and ``symt_local_pass.cc``) and measures
how much of a state each recomputes (``benchmarks/speed/bench_local_update.py``).
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
    of differences does not drift); with ``layers``, each atom's and object's states after every
    layer ([L,d] each), from which a successor is computed reading less (:meth:`LocalValues.step`)."""

    terms: dict[Atom, Tensor]
    total: Tensor
    atom_layers: dict[Atom, Tensor] | None = None
    object_layers: dict[int, Tensor] | None = None


def atom_inputs(atoms: list[Atom]) -> tuple[Tensor, Tensor, Tensor]:
    """One state of ``atoms`` as a pass takes it: pred [1,N], args [1,N,m], mask [1,N]."""
    pred = torch.tensor([a[0] for a in atoms])[None]
    args = torch.tensor([list(a[1:]) for a in atoms])[None]
    return pred, args, torch.ones(1, len(atoms), dtype=torch.bool)


class LocalValues:
    """The values of a task's states under a local objects model, whole or from a parent's.
    ``context_pred`` [C], ``context_args`` [C,m]: the task's context atoms as tokens (what
    ``encode_context`` takes); states are given by their fluent atoms (:data:`Atom`)."""

    def __init__(self, net: RoutedSymTE, context_pred: Tensor, context_args: Tensor, native: bool = False):
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
        # ``native``: passes from the parent's layers by the plugin's C++ pass (symt._core.LocalNet).
        self.native = None
        if native:
            from symt import _core

            with torch.no_grad():
                weights = {name: w.numpy() for name, w in net.local_weights().items()}
            self.native = _core.LocalNet(weights)
            self.native.set_context(self.cache[1].float().numpy())

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

    def layer_inputs(self, atoms: list[Atom], keep: dict[int, int], new: set[Atom],
                     parent: LocalState | None) -> tuple[list[int], list[Tensor]]:
        """The object tokens of a pass over ``atoms`` in its order, and what it takes of a
        ``parent`` (:meth:`RoutedSymTE.run`; empty without one): the parent's states after every
        layer [L,1,N,d] and [L,O,d], and which tokens keep them. After layer l (1-based) an object
        whose distance ``keep`` from the change is at least l keeps them, and so does an atom not
        in ``new`` whose objects all do (the change has not reached them yet)."""
        tokens = sorted({o for a in atoms for o in self.objects(a)})
        if parent is None or parent.atom_layers is None or parent.object_layers is None:
            return tokens, []
        zero = torch.zeros(self.net.n_layers, self.net.layer.n_heads * self.net.layer.head_dim)
        far = self.hops + 1
        reach = torch.arange(self.net.n_layers)[:, None]  # layer l (0-based) is kept beyond distance l
        atom_distance = torch.tensor([-1 if a in new else min((keep.get(o, far) for o in self.objects(a)), default=far)
                                      for a in atoms])
        object_distance = torch.tensor([keep.get(o, far) for o in tokens], dtype=torch.long)
        return tokens, [torch.stack([parent.atom_layers.get(a, zero) for a in atoms], dim=1)[:, None],
                        (atom_distance[None] > reach)[:, None],
                        torch.stack([parent.object_layers.get(o, zero) for o in tokens], dim=1),
                        object_distance[None] > reach]

    def native_pass(self, atoms: list[Atom], keep: dict[int, int], new: set[Atom], parent: LocalState | None
                    ) -> tuple[list[int], Tensor, Tensor, Tensor]:
        """What :meth:`layer_pass` computes, by the C++ pass (``native``) from the inputs the plugin
        gives it: the pass's object tokens, the atoms' terms [N,t], their states [L,N,d] and the
        objects' [L,O,d]."""
        assert self.native is not None
        net = self.net
        # The keep rule has one home (layer_inputs): its masks [L,...] hold for a token's first
        # layers, so their count is how many layers the token keeps.
        tokens, inputs = self.layer_inputs(atoms, keep, new, parent)
        index = {o: i for i, o in enumerate(tokens)}
        pred, args, _ = atom_inputs(atoms)
        keys, _, _, _, links = self.cache
        found = torch.searchsorted(keys, torch.tensor(tokens, dtype=keys.dtype)).clamp(max=max(keys.numel() - 1, 0))
        context_row = [int(r) if keys.numel() and int(keys[r]) == o else -1 for o, r in zip(tokens, found.tolist())]
        pairs = [(index[r], index[s], t) for r, s, t in zip(*links.tolist()) if r in index and s in index]
        with torch.no_grad():
            atom_start = net.atom_starts(pred[0], args[0]).numpy()
            object_start = net.object_starts(torch.tensor(tokens, dtype=torch.long)).numpy()
        slots = [[index.get(t, -1) for t in a[1:]] for a in atoms]
        atom_keep: list[int] = []
        object_keep: list[int] = []
        parent_atoms = parent_objects = torch.zeros(0)
        if inputs:
            parent_atoms, parent_objects = inputs[0][:, 0], inputs[2]
            atom_keep = inputs[1][:, 0].sum(dim=0).tolist()
            object_keep = inputs[3].sum(dim=0).tolist()
        terms, atom_layers, object_layers = self.native.run(
            atom_start, slots, object_start, context_row, pairs or torch.zeros(0, 3, dtype=torch.int32).numpy(),
            atom_keep, object_keep, parent_atoms.float().numpy(), parent_objects.float().numpy())
        return tokens, torch.from_numpy(terms), torch.from_numpy(atom_layers), torch.from_numpy(object_layers)

    def layer_pass(self, atoms: list[Atom], keep: dict[int, int], new: set[Atom],
                   parent: LocalState | None) -> tuple[dict[Atom, Tensor], dict[Atom, Tensor], dict[int, Tensor]]:
        """One pass over ``atoms`` that keeps every layer's states (:meth:`layer_inputs`): the
        atoms' terms, their states and the pass's objects' states, each by atom or object."""
        if not atoms:
            return {}, {}, {}
        if self.native is not None:
            tokens, terms_, atom_layers_, object_layers_ = self.native_pass(atoms, keep, new, parent)
            return (dict(zip(atoms, terms_)), dict(zip(atoms, atom_layers_.unbind(1))),
                    dict(zip(tokens, object_layers_.unbind(1))))
        keys, objects, globals_, _, links = self.cache
        tokens, inputs = self.layer_inputs(atoms, keep, new, parent)
        with torch.no_grad():
            terms, atom_layers, object_layers, object_keys = self.net.layer_terms(
                keys, objects, globals_, links, *atom_inputs(atoms), inputs)
        if object_keys.tolist() != tokens:
            raise AssertionError("the pass ordered its objects otherwise than layer_inputs")
        return (dict(zip(atoms, terms[0])), dict(zip(atoms, atom_layers[:, 0].unbind(1))),
                dict(zip(tokens, object_layers.unbind(1))))

    def evaluate(self, atoms: Iterable[Atom], layers: bool = False) -> LocalState:
        """A state from one pass over all its atoms; with ``layers`` it keeps every layer's states."""
        atoms = list(atoms)
        atom_layers = object_layers = None
        if layers and atoms:
            terms, atom_layers, object_layers = self.layer_pass(atoms, {}, set(), None)
        else:
            terms = self.terms(atoms)
        width = 1 if self.net.atom_readout else self.net.k
        total = torch.stack(list(terms.values())).double().sum(dim=0) if terms else torch.zeros(width).double()
        return LocalState(terms, total, atom_layers, object_layers)

    def value(self, state: LocalState) -> float:
        """h of an evaluated state."""
        with torch.no_grad():
            return float(self.net.value_of_terms(state.total.float()[None], self.cache[3])[0])

    def distances(self, atoms: set[Atom], sources: set[int], limit: int,
                  earlier: frozenset[int] = frozenset()) -> dict[int, int]:
        """Steps from ``sources`` to each object within ``limit`` steps in the object graph of
        ``atoms`` (neighbours: named by one atom, or linked by a context atom, both present);
        ``earlier`` sources start one step before the others (at -1)."""
        present: set[int] = set()
        named: dict[int, set[int]] = {}
        for atom in atoms:
            objects = self.objects(atom)
            present.update(objects)
            for o in objects:
                named.setdefault(o, set()).update(objects)
        found = {o: -1 for o in earlier} | {o: 0 for o in sources - earlier}
        queue = deque(sorted(found, key=found.__getitem__))
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
        terms, total = self.combine(parent, child, near, self.terms(read))
        return LocalState(terms, total), read

    @staticmethod
    def combine(parent: LocalState, child: list[Atom], near: set[Atom],
                new: dict[Atom, Tensor]) -> tuple[dict[Atom, Tensor], Tensor]:
        """The child's terms and their sum: ``new`` terms for the ``near`` atoms (those of either
        state whose term may differ), the parent's for the others; the sum from the parent's by
        the differences."""
        total = parent.total.clone()
        for atom in near:
            if atom in parent.terms:
                total -= parent.terms[atom].double()
            if atom in new:
                total += new[atom].double()
        return {a: new[a] if a in near else parent.terms[a] for a in child}, total

    def step_plan(self, parent: LocalState, child: list[Atom]) -> tuple[list[Atom], dict[int, int], set[Atom]]:
        """What :meth:`step` passes: the child's atoms it reads (those that changed or name an
        object within ``n_layers`` steps of the change), each object's distance from the change
        (the one-step-earlier rule applied) and the atoms new in the child."""
        before, after = set(parent.terms), set(child)
        changed = before ^ after
        if not changed:
            return [], {}, set()
        sources = {o for atom in changed for o in self.objects(atom)}
        # An object that appears or disappears changes what its linked objects read at the first
        # layer already: it counts from one step before the change.
        present = [{o for a in atoms for o in self.objects(a)} for atoms in (before, after)]
        distance = self.distances(before | after, sources, self.hops, frozenset(present[0] ^ present[1]))
        read = [a for a in child if a in changed or any(o in distance for o in self.objects(a))]
        return read, distance, after - before

    def step(self, parent: LocalState, child: Iterable[Atom]) -> tuple[LocalState, list[Atom]]:
        """The child state from its parent's layers (``evaluate(..., layers=True)`` or an earlier
        step), and the atoms the pass read: those that name an object within ``n_layers`` steps of
        the change, half the border :meth:`update` reads. At layer l only the tokens within l - 1
        steps of the change's objects can differ from the parent's (a layer moves information one
        step, and the first reads only the atoms themselves and the objects present; an object that
        appears or disappears counts from one step earlier), so the others take the parent's states
        after every layer, and the tokens computed see all they would see in the whole state."""
        if parent.atom_layers is None or parent.object_layers is None:
            raise ValueError("step needs the parent's layers (evaluate(..., layers=True))")
        child = list(child)
        read, distance, new = self.step_plan(parent, child)
        if not read and not (set(parent.terms) ^ set(child)):
            return parent, []
        terms, atom_layers, object_layers = self.layer_pass(read, distance, new, parent)
        # An atom's term differs from the parent's only if its last layer was computed.
        near = {a for a in set(parent.terms) | set(child)
                if a in new or a not in child or any(distance.get(o, self.hops) < self.hops for o in self.objects(a))}
        kept_objects = {o: t for o, t in parent.object_layers.items() if o not in object_layers}
        state = LocalState(*self.combine(parent, child, near, terms),
                           {a: atom_layers.get(a, parent.atom_layers.get(a)) for a in child},
                           {**kept_objects, **object_layers})
        return state, read
