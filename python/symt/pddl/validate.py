"""Plan validation on the grounded task, with a precise reason when a plan is invalid.

Steps are checked one by one (applicability in the current state, then STRIPS application) and
the goal at the end. An action that is not among the grounded ones (a typo, a wrong type, an
instance the relaxation proved unreachable) is diagnosed against its lifted schema so that the
reason names what is wrong rather than just "unknown".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import PlanError
from .model import Domain, Problem
from .task import GroundAction, GroundTask, format_atom

_STEP = re.compile(r"^\s*(?:\d+(?:\.\d+)?\s*:\s*)?\(([^()]*)\)\s*(?:\[[^\]]*\])?\s*$")


def read_plan(path: str | Path) -> list[tuple[str, ...]]:
    """Read a plan file: one ``(name arg ...)`` per line; ``;`` comments and blank lines ignored.

    The IPC/VAL spelling ``0: (name arg ...) [1]`` is accepted too. Names are lower-cased.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise PlanError(f"{path}: cannot read plan: {error.strerror}") from None
    steps: list[tuple[str, ...]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        match = _STEP.match(line)
        if not match or not match.group(1).split():
            raise PlanError(f"{path}:{number}: expected '(action arg ...)', found {raw.strip()!r}")
        steps.append(tuple(match.group(1).lower().split()))
    return steps


@dataclass
class ValidationResult:
    """The verdict on a plan: whether it is valid, why (or why not), how many steps were applied
    before it failed, and the state reached; true in a boolean context when valid."""

    valid: bool
    reason: str
    steps_checked: int
    final_state: frozenset[int]

    def __bool__(self) -> bool:
        return self.valid


def validate_plan(
    task: GroundTask,
    plan: list[tuple[str, ...]],
    domain: Domain | None = None,
    problem: Problem | None = None,
) -> ValidationResult:
    """Simulate ``plan`` from the initial state. ``domain``/``problem`` sharpen error reasons."""
    by_label: dict[tuple[str, ...], GroundAction] = {(a.name, *a.args): a for a in task.actions}
    state = frozenset(task.init)
    for step, label in enumerate(plan, start=1):
        spelled = "(" + " ".join(label) + ")"
        action = by_label.get(label)
        if action is None:
            why = _diagnose_unknown(task, label, state, domain, problem)
            return ValidationResult(False, f"step {step} {spelled}: {why}", step - 1, state)
        if not task.applicable(action, state):
            missing = [format_atom(task.fluent_atoms[f]) for f in action.pre_pos if f not in state]
            present = [format_atom(task.fluent_atoms[f]) for f in action.pre_neg if f in state]
            parts = [f"precondition {a} is false" for a in missing]
            parts += [f"negative precondition (not {a}) is violated" for a in present]
            return ValidationResult(
                False, f"step {step} {spelled} is not applicable: " + "; ".join(parts), step - 1, state
            )
        state = task.apply(action, state)
    if not task.is_goal(state):
        unmet = [format_atom(task.fluent_atoms[f]) for f in task.goal_pos if f not in state]
        unmet += [f"(not {format_atom(task.fluent_atoms[f])})" for f in task.goal_neg if f in state]
        if not task.solvable_by_statics:
            unmet.append("a static goal atom that is false in every state")
        return ValidationResult(
            False,
            f"the goal is not reached after {len(plan)} step(s): unsatisfied "
            + ", ".join(unmet),
            len(plan),
            state,
        )
    return ValidationResult(True, f"valid plan of length {len(plan)}", len(plan), state)


def _diagnose_unknown(
    task: GroundTask,
    label: tuple[str, ...],
    state: frozenset[int],
    domain: Domain | None,
    problem: Problem | None,
) -> str:
    name, args = label[0], label[1:]
    if domain is None:
        return "no such ground action in the task"
    schema = domain.action(name)
    if schema is None:
        return f"unknown action '{name}'"
    if len(args) != len(schema.parameters):
        return f"action '{name}' takes {len(schema.parameters)} argument(s), got {len(args)}"
    objects = problem.objects if problem is not None else {o: (task.object_types[o],) for o in task.objects}
    for arg, param in zip(args, schema.parameters):
        if arg not in objects:
            return f"unknown object '{arg}'"
        if not domain.object_has_type(objects[arg], param.types):
            return f"object '{arg}' is not of type {'/'.join(param.types)} required for {param.name}"
    binding = dict(zip((p.name for p in schema.parameters), args))
    true_atoms = set(task.static_atoms) | {task.fluent_atoms[f] for f in state}
    for literal in schema.preconditions:
        atom = (literal.predicate, tuple(binding.get(t, t) for t in literal.terms))
        if literal.predicate == "=":
            if (atom[1][0] == atom[1][1]) == literal.negated:
                return f"is not applicable: {literal} does not hold"
            continue
        holds = atom in true_atoms
        if holds == literal.negated:
            what = f"(not {format_atom(atom)}) is violated" if literal.negated else f"{format_atom(atom)} is false"
            return f"is not applicable: precondition {what}"
    return "not applicable in this state"
