"""Atom tokens: how a planning state becomes the input of a SymT model.

One token per atom (paper, "Input representation"). An atom ``p(o1, .., on)`` is a row
``[pred_id, o1, .., on, pad, ..]`` of length ``1 + max_arity``:

* ``pred_id`` in ``0..P-1`` for state atoms (fluent and static) and ``P + i`` for the goal version
  ``goal_p`` of predicate ``i``; with :attr:`Signature.achieved_goals`, a fluent atom of predicate
  ``i`` that is also a goal atom reads as ``2P + i`` (an achieved goal), as WL-GOOSE's instance
  learning graph colours it: the goal atom ``goal_p`` stays in every state, and the state says which
  of its atoms are goals, so a model need not match each goal atom's objects against the state's
  atoms to count what is left (``benchmarks/results/ipc/readout/README.md``: a Satellite model counted
  images taken, asked for or not);
* object slots hold object *indices* of the task (``0..n-1``) here, and ``-1`` for padding; the
  model sees object *tokens* ``0..V-1`` after a renaming (:func:`rename`), padding becomes ``V``.

For typed domains each object also gets one unary static atom ``type:<t>`` per declared type it
belongs to (its own and their supertypes, ``object`` excluded), so that types are not lost.

The files built on these tokens (model metadata, the plugin's task context) are defined in
:mod:`symt.formats`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .errors import SymtError
from .pddl import Domain, GroundTask, static_predicates
from .pddl.model import ROOT_TYPE

if TYPE_CHECKING:
    import torch

HASHED_TOKEN_SPACE = 1 << 20
"""Object tokens of ``hashed`` models (``symt.model_objects.HashedObjectCodes``): training draws distinct
tokens from this many, so a task may have up to this many objects; this token pads."""
TYPE_PREFIX = "type:"


@dataclass(frozen=True)
class Signature:
    """The predicates a model knows, in id order, and their maximal arity."""

    domain: str
    predicates: tuple[tuple[str, int], ...]
    achieved_goals: bool = False
    """Fluent atoms that are goal atoms take the ids ``2P..3P-1`` (``symt train --achieved-goals``)."""

    @property
    def max_arity(self) -> int:
        return max((arity for _, arity in self.predicates), default=0)

    @property
    def num_predicates(self) -> int:
        return len(self.predicates)

    def predicate_ids(self) -> dict[str, int]:
        """The id of each predicate by name (``0..P-1``; goal ids ``P + i`` are not listed)."""
        return {name: i for i, (name, _) in enumerate(self.predicates)}

    def to_json(self) -> dict:
        """The signature as a JSON object (domain, predicates with their arity, ``max_arity``, and
        ``achieved_goals`` only where set), as model metadata stores it."""
        data = {
            "domain": self.domain,
            "predicates": [{"name": n, "arity": a} for n, a in self.predicates],
            "max_arity": self.max_arity,
        }
        if self.achieved_goals:
            data["achieved_goals"] = True
        return data

    @staticmethod
    def from_json(data: dict) -> Signature:
        """The signature that :meth:`to_json` wrote (``max_arity`` is recomputed, not read)."""
        return Signature(data["domain"], tuple((p["name"], int(p["arity"])) for p in data["predicates"]),
                         bool(data.get("achieved_goals", False)))


def domain_signature(domain: Domain) -> Signature:
    """Domain predicates in declaration order, then one ``type:<t>`` per declared type."""
    predicates = [(name, len(params)) for name, params in domain.predicates.items()]
    predicates += [(TYPE_PREFIX + t, 1) for t in sorted(domain.supertypes) if t != ROOT_TYPE]
    return Signature(domain.name, tuple(predicates))


def context_predicate_ids(signature: Signature, domain: Domain, goals: bool = True) -> list[int]:
    """The predicate ids whose atoms are the same in every state of any task of ``domain``: its
    static predicates (no action changes them), the ``type:<t>`` predicates and every goal
    predicate ``P..2P-1``. These are exactly the ids of :attr:`EncodedTask.fixed_rows` (and of the
    plugin's task context), which a context-attention model caches once per task.

    ``goals=False`` leaves the goal predicates out: a model whose goal atoms are read with each
    state's atoms, so that they attend to the state (``symt train --context-attention static``)."""
    statics = static_predicates(domain)
    ids = [i for i, (name, _) in enumerate(signature.predicates)
           if name in statics or name.startswith(TYPE_PREFIX)]
    return ids + (list(range(signature.num_predicates, 2 * signature.num_predicates)) if goals else [])


def graph_predicate_ids(signature: Signature, domain: Domain, attention_bias: str) -> list[int] | None:
    """With the ``object-distance`` attention bias (``attention_bias``), the ids of the static
    predicates of arity 2 or more, whose atoms are the edges of a task's object graph
    (``ModelConfig.graph_predicates``); None with any other bias, which reads no graph."""
    if attention_bias != "object-distance":
        return None
    statics = static_predicates(domain)
    return [i for i, (name, arity) in enumerate(signature.predicates) if name in statics and arity >= 2]


def graph_slot_ids(signature: Signature, domain: Domain, graph_predicates: list[int] | None) -> list[list[int]] | None:
    """For each of ``graph_predicates`` (:func:`graph_predicate_ids`), the argument slots whose
    objects its atoms link (``ModelConfig.graph_slots``): the slots of the type that most of its
    arguments share when two or more share one, every slot otherwise. Sokoban's
    ``adjacent(?l1 ?l2 - location ?d - direction)`` links its two cells and not each cell with the
    direction, a domain constant that every cell's atoms name, which would put every cell two
    edges from every other; Rovers' ``can_traverse(?r - rover ?x ?y - waypoint)`` links the
    waypoints; ``in-city(?l - location ?c - city)`` links the location with its city, as before.
    None without a graph."""
    if graph_predicates is None:
        return None
    slots: list[list[int]] = []
    for i in graph_predicates:
        name, arity = signature.predicates[i]
        parameters = domain.predicates.get(name, ())
        types = [p.types for p in parameters] if len(parameters) == arity else [()] * arity
        counts = {t: types.count(t) for t in types}
        shared = max(counts.values(), default=0)
        if shared >= 2:
            common = next(t for t in types if counts[t] == shared)  # the first declared on a tie
            slots.append([k for k, t in enumerate(types) if t == common])
        else:
            slots.append(list(range(arity)))
    return slots


def type_predicate_ids(signature: Signature) -> list[int]:
    """The ids of the ``type:<t>`` predicates, whose atoms a type-folding model
    (``ModelConfig.type_predicates``) adds to their object's embedding instead of reading as tokens."""
    return [i for i, (name, _) in enumerate(signature.predicates) if name.startswith(TYPE_PREFIX)]


@dataclass
class EncodedTask:
    """A grounded task in index form, ready to turn states into token rows quickly."""

    task: GroundTask
    signature: Signature
    fixed_rows: np.ndarray
    """[S, 1+m] int64: static atoms, type atoms and goal atoms (the same in every state)."""
    fluent_rows: np.ndarray
    """[F, 1+m] int64: the row of each fluent atom, by fluent index."""

    @cached_property
    def unmarked_fluent_rows(self) -> np.ndarray:
        """:attr:`fluent_rows` without achieved-goal marks (ids ``2P + i`` read as ``i`` again)."""
        rows = self.fluent_rows.copy()
        marked = 2 * self.signature.num_predicates
        rows[rows[:, 0] >= marked, 0] -= marked
        return rows

    def fluent_rows_marked_for(self, goal_fluents: np.ndarray) -> np.ndarray:
        """:attr:`fluent_rows` of a model that marks achieved goals, marked for the goal
        ``goal_fluents`` (fluent indices) instead of the task's own (``symt.data`` phrasings)."""
        return _marked_as_goals(self.unmarked_fluent_rows, goal_fluents, self.signature.num_predicates)

    @property
    def num_objects(self) -> int:
        return len(self.task.objects)

    @cached_property
    def assignment(self) -> np.ndarray:
        """The object tokens at inference (:func:`canonical_assignment`), computed once."""
        return canonical_assignment(self)

    def state_rows(self, facts: np.ndarray | list[int], fixed: np.ndarray | None = None,
                   fluent: np.ndarray | None = None) -> np.ndarray:
        """Token rows (object indices, -1 padding) of a state given its true fluent indices;
        ``fixed`` replaces :attr:`fixed_rows` (the goal stated another way, ``symt.sampling``) and
        ``fluent`` :attr:`fluent_rows` (the achieved-goal marks of that goal)."""
        facts = np.asarray(facts, dtype=np.int64)
        fluent_rows = self.fluent_rows if fluent is None else fluent
        return np.concatenate([fluent_rows[facts], self.fixed_rows if fixed is None else fixed], axis=0)


def encode_task(task: GroundTask, signature: Signature, domain: Domain | None = None) -> EncodedTask:
    """Index form of ``task``; a clear error when the task does not fit the model's predicates."""
    ids = signature.predicate_ids()
    width = 1 + signature.max_arity
    object_index = {obj: i for i, obj in enumerate(task.objects)}
    num_predicates = signature.num_predicates

    def row(name: str, args: tuple[str, ...], goal: bool) -> list[int]:
        if name not in ids:
            raise SymtError(
                f"predicate '{name}' of task '{task.problem_name}' is unknown to the model "
                f"(trained for domain '{signature.domain}')"
            )
        arity = signature.predicates[ids[name]][1]
        if arity != len(args):
            raise SymtError(f"predicate '{name}' has arity {len(args)} in the task but {arity} in the model")
        values = [ids[name] + (num_predicates if goal else 0)] + [object_index[a] for a in args]
        return values + [-1] * (width - len(values))

    fixed = [row(name, args, False) for name, args in task.static_atoms]
    if domain is not None and domain.supertypes:
        for obj, obj_type in task.object_types.items():
            for type_name in sorted(_all_types(domain, obj_type)):
                fixed.append(row(TYPE_PREFIX + type_name, (obj,), False))
    fixed += [row(name, args, True) for name, args in task.goal_atoms]
    fluent = [row(name, args, False) for name, args in task.fluent_atoms]
    empty = np.zeros((0, width), dtype=np.int64)
    fluent_rows = np.array(fluent, dtype=np.int64).reshape(-1, width) if fluent else empty
    if signature.achieved_goals:
        goals = [task.fluent_index.get((name, tuple(args))) for name, args in task.goal_atoms]
        fluent_rows = _marked_as_goals(fluent_rows, [i for i in goals if i is not None], num_predicates)
    return EncodedTask(
        task,
        signature,
        np.array(fixed, dtype=np.int64).reshape(-1, width) if fixed else empty,
        fluent_rows,
    )


def _marked_as_goals(fluent_rows: np.ndarray, goal_fluents: Iterable[int],
                     num_predicates: int) -> np.ndarray:
    """A copy of ``fluent_rows`` whose atoms ``goal_fluents`` (fluent indices) read as achieved
    goals (predicate id ``i`` becomes ``2P + i``); the one place that sets the mark."""
    rows = fluent_rows.copy()
    rows[np.asarray(list(goal_fluents), dtype=np.int64), 0] += 2 * num_predicates
    return rows


def _all_types(domain: Domain, type_name: str) -> set[str]:
    result: set[str] = set()
    stack = [type_name]
    while stack:
        current = stack.pop()
        if current == ROOT_TYPE or current in result:
            continue
        result.add(current)
        stack.extend(domain.supertypes.get(current, ()))
    return result


def check_vocabulary(num_objects: int, vocab_size: int, what: str) -> None:
    """Raise a :class:`~symt.errors.SymtError` naming ``what`` when it has more objects than the
    model's object vocabulary has tokens (every object needs a distinct token)."""
    if num_objects > vocab_size:
        raise SymtError(
            f"{what} has {num_objects} objects but the model's object vocabulary has only "
            f"{vocab_size} tokens"
        )


def rename(rows: np.ndarray, assignment: np.ndarray, vocab_size: int) -> np.ndarray:
    """Replace object indices by tokens (``assignment[i]`` for object ``i``), padding by ``V``."""
    renamed = rows.copy()
    objects = renamed[:, 1:]
    pad = objects < 0
    objects[~pad] = assignment[objects[~pad]]
    objects[pad] = vocab_size
    return renamed


def collate(batch: list[np.ndarray], vocab_size: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Pad renamed token rows of several states to ``(pred [B,N], args [B,N,m], mask [B,N])``."""
    import torch  # here, not at module level: the fast-downward wrapper imports this module
    width = batch[0].shape[1]
    longest = max(len(rows) for rows in batch)
    pred = np.zeros((len(batch), longest), dtype=np.int64)
    args = np.full((len(batch), longest, width - 1), vocab_size, dtype=np.int64)
    mask = np.zeros((len(batch), longest), dtype=bool)
    for i, rows in enumerate(batch):
        pred[i, : len(rows)] = rows[:, 0]
        args[i, : len(rows)] = rows[:, 1:]
        mask[i, : len(rows)] = True
    return torch.from_numpy(pred), torch.from_numpy(args), torch.from_numpy(mask)


def identity_assignment(num_objects: int) -> np.ndarray:
    """The fixed renaming of X in Rename-One (training): object i -> token i."""
    return np.arange(num_objects, dtype=np.int64)


_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _mix(values: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, elementwise on uint64 (wrapping arithmetic): a fixed hash, so
    that colours are the same numbers in every run and on every machine."""
    with np.errstate(over="ignore"):
        z = values ^ (values >> np.uint64(30))
        z = z * _MIX1
        z = z ^ (z >> np.uint64(27))
        z = z * _MIX2
        return z ^ (z >> np.uint64(31))


def canonical_assignment(encoded: EncodedTask, initial_rows: np.ndarray | None = None) -> np.ndarray:
    """The renaming used at inference: object -> token by the object's place in a canonical
    order of the task's objects, so that a task gets the same tokens however its file orders or
    names its objects (a model's object codes are not exactly interchangeable: the contrastive
    loss only pulls renamed copies together).

    The graph is the task's fixed atoms (static, type, goal) and its initial state's atoms
    (``initial_rows``; default: the fluent rows of ``encoded.task.init``), atoms coloured by
    predicate id (the model's, so a spelling translated to the model's vocabulary gets the same
    colours) and objects by the argument positions they take. Colour refinement (1-WL) splits the
    objects; where a class of several remains, its first object in the file's order is set apart
    and refinement runs again (individualisation-refinement, as canonical labelling tools do), so
    that the choices made in one class constrain the others consistently. Where refinement is
    exact (planning tasks are rarely regular graphs) the objects of a class are symmetric in the
    task, so two spellings' tokens differ only by a symmetry of the task: the two searches are the
    same search up to that symmetry, with the same value at the initial state.
    """
    n = encoded.num_objects
    if initial_rows is None:
        initial_rows = encoded.fluent_rows[list(encoded.task.init)]
    rows = np.concatenate([encoded.fixed_rows, initial_rows], axis=0)
    if n == 0 or len(rows) == 0:
        return identity_assignment(n)
    predicates, args = _mix(rows[:, 0].astype(np.uint64) + np.uint64(1)), rows[:, 1:]
    colours = _refine(np.zeros(n, dtype=np.uint64), predicates, args)
    while True:
        values, first, counts = np.unique(colours, return_index=True, return_counts=True)
        if len(values) == n:
            break
        # The class of several with the smallest colour; its first object in the file's order.
        chosen = int(first[np.argmax(counts > 1)])
        with np.errstate(over="ignore"):
            colours[chosen] = _mix(colours[chosen] ^ np.uint64(0x9E3779B97F4A7C15))
        colours = _refine(colours, predicates, args)
    assignment = np.empty(n, dtype=np.int64)
    assignment[np.argsort(colours, kind="stable")] = np.arange(n, dtype=np.int64)
    return assignment


def _refine(colours: np.ndarray, predicates: np.ndarray, args: np.ndarray) -> np.ndarray:
    """Colour refinement of the objects to a stable partition: an atom's colour is its predicate's
    and its arguments' in position order; an object's next colour, its colour and the multiset (a
    wrapping sum of hashes) of the (atom colour, position) pairs it takes part in."""
    n = len(colours)
    distinct = len(np.unique(colours))
    slots = [(args[:, j] >= 0, j) for j in range(args.shape[1])]
    for _ in range(n):
        with np.errstate(over="ignore"):
            atom = predicates.copy()
            for present, j in slots:
                atom[present] = _mix(atom[present] ^ colours[args[present, j]])
            total = np.zeros(n, dtype=np.uint64)
            for present, j in slots:
                np.add.at(total, args[present, j], _mix(atom[present] + np.uint64(j + 1)))
            colours = _mix(colours ^ _mix(total))
        count = len(np.unique(colours))
        if count == distinct:
            break  # stable: the partition did not split further
        distinct = count
    return colours
