"""The grounded task: what every later stage (expander, validator, learned models) consumes."""

from __future__ import annotations

from dataclasses import dataclass, field

Atom = tuple[str, tuple[str, ...]]
"""A ground atom: predicate name and object names, e.g. ``("on", ("b1", "b2"))``."""


def format_atom(atom: Atom) -> str:
    """``("on", ("a", "b"))`` -> ``"(on a b)"``."""
    name, args = atom
    return "(" + " ".join((name, *args)) + ")"


@dataclass(frozen=True)
class GroundAction:
    """A ground action over fluent-atom indices (static preconditions are already checked)."""

    name: str
    args: tuple[str, ...]
    pre_pos: tuple[int, ...]
    pre_neg: tuple[int, ...]
    add: tuple[int, ...]
    delete: tuple[int, ...]
    cost: int = 1
    """What the action costs, as Fast Downward counts it: 1 in a task without ``(:metric minimize
    (total-cost))``; with one, its ``increase`` of ``total-cost`` (0 without)."""

    def label(self) -> str:
        """The plan-file spelling: ``(name arg1 arg2)``."""
        return "(" + " ".join((self.name, *self.args)) + ")"


@dataclass
class GroundTask:
    """A STRIPS task grounded under the delete relaxation.

    Atoms come in three named sets because the learned models need all three:
    ``fluent_atoms`` (indexed; states are sets of these indices), ``static_atoms`` (true in every
    state: atoms of predicates no action changes) and ``goal_atoms`` (the positive goal, fluent or
    static). ``goal_pos``/``goal_neg`` are the goal over fluent indices.
    """

    domain_name: str
    problem_name: str
    objects: list[str]
    object_types: dict[str, str]
    predicates: dict[str, int]
    """Every domain predicate and its arity (static and fluent alike)."""
    static_predicates: frozenset[str]
    fluent_atoms: list[Atom]
    static_atoms: list[Atom]
    goal_atoms: list[Atom]
    init: tuple[int, ...]
    goal_pos: tuple[int, ...]
    goal_neg: tuple[int, ...]
    actions: list[GroundAction]
    fluent_index: dict[Atom, int] = field(default_factory=dict)
    goal_negative_atoms: list[Atom] = field(default_factory=list)
    _triggers: tuple[list[int], dict[int, list[int]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    solvable_by_statics: bool = True
    """False when a static goal atom is false (the task is then trivially unsolvable)."""

    def __post_init__(self) -> None:
        if not self.fluent_index:
            self.fluent_index = {atom: i for i, atom in enumerate(self.fluent_atoms)}

    @property
    def num_fluents(self) -> int:
        return len(self.fluent_atoms)

    def is_goal(self, state: frozenset[int] | set[int]) -> bool:
        """Whether a state (a set of true fluent indices) satisfies the goal."""
        return (
            self.solvable_by_statics
            and all(f in state for f in self.goal_pos)
            and not any(f in state for f in self.goal_neg)
        )

    def applicable(self, action: GroundAction, state: frozenset[int] | set[int]) -> bool:
        """Whether ``action``'s fluent preconditions hold in ``state`` (a set of true fluent indices)."""
        return all(f in state for f in action.pre_pos) and not any(
            f in state for f in action.pre_neg
        )

    def applicable_actions(self, state: frozenset[int] | set[int]) -> list[int]:
        """Indices of the actions applicable in ``state``, in task order.

        Each action is filed under one of its positive preconditions (the one fewest actions
        share), so only actions whose trigger atom is true are checked: scanning every ground
        action per state is what made search-free guidance and plan labelling slow on IPC tasks.
        (The expander's pure-Python reference keeps the plain scan, as an independent check.)
        """
        if self._triggers is None:
            uses: dict[int, int] = {}
            for action in self.actions:
                for f in action.pre_pos:
                    uses[f] = uses.get(f, 0) + 1
            unconditional: list[int] = []
            by_atom: dict[int, list[int]] = {}
            for index, action in enumerate(self.actions):
                if action.pre_pos:
                    by_atom.setdefault(min(action.pre_pos, key=uses.__getitem__), []).append(index)
                else:
                    unconditional.append(index)
            self._triggers = (unconditional, by_atom)
        unconditional, by_atom = self._triggers
        candidates = list(unconditional)
        for f in state:
            candidates.extend(by_atom.get(f, ()))
        candidates.sort()
        return [i for i in candidates if self.applicable(self.actions[i], state)]

    @staticmethod
    def apply(action: GroundAction, state: frozenset[int]) -> frozenset[int]:
        """STRIPS semantics: delete first, then add (an atom both deleted and added stays true)."""
        return (state - frozenset(action.delete)) | frozenset(action.add)

    def state_atoms(self, state: frozenset[int] | set[int]) -> list[Atom]:
        """The fluent atoms true in ``state``, in fluent-index order (static atoms not included)."""
        return [self.fluent_atoms[f] for f in sorted(state)]
