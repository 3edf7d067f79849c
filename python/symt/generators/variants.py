"""Task variants: the paper's tasks as other generators and people would write or pose them (issue 32).

A model trained on one generator's tasks can learn its habits: how it phrases a goal, which goals
and initial states it draws, which ratios of objects it makes. Each variant below changes one such
habit and nothing else, at the sizes of a paper split, so that a model's numbers on a variant can
be set beside its numbers on the split itself (``symt experiment variants``):

=========== ================== ==================================================================
domain      variant            what changes
=========== ================== ==================================================================
all         ``as-generated``   nothing: the paper's generator (the in-distribution reference)
blocksworld ``no-base``        the goal tower's base ``(ontable x)`` left out (implied by the rest)
blocksworld ``spelt-out``      ``(clear top)`` and ``(handempty)`` added (implied, as the goal
                               state spelt out)
blocksworld ``towers``         the goal is several towers (style ``towers``)
blocksworld ``partial``        only some blocks are in the goal (style ``partial``)
blocksworld ``table-start``    every block starts on the table (the classic "build a tower" task)
blocksworld ``stacks``         1-3 tall towers at both ends, the goal's tops sometimes ``clear``
                               (style ``stacks``: as the IPC 2023 generator draws its tasks)
gripper     ``spelt-out``      ``(free g)`` added for both grippers (implied)
gripper     ``partial``        only some balls must reach room B
logistics   ``partial``        only some packages have a goal location
logistics   ``wide``           4 cities and 2 airplanes (style ``wide``)
visitall    ``partial``        only some cells must be visited (as in the IPC 2011 generator)
=========== ================== ==================================================================

Implied-atom variants keep the task's meaning exactly (same goal states, same h*); the others are
other tasks of the same size. Object declaration order needs no variant: every generated task
already lists its objects in random order under random names.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from symt.generators import blocksworld, gripper, logistics, visitall
from symt.generators._problem import Problem, render
from symt.generators.dataset import GeneratedTask, generate_one_split, module_of

AS_GENERATED = "as-generated"


def _blocksworld_no_base(n: int, rng: random.Random) -> Problem:
    problem = blocksworld.generate(n, rng)
    problem.goal = [atom for atom in problem.goal if atom[0] != "ontable"]
    return problem


def _blocksworld_spelt_out(n: int, rng: random.Random) -> Problem:
    problem = blocksworld.generate(n, rng)
    below = {atom[2] for atom in problem.goal if atom[0] == "on"}
    tops = [b for b in problem.objects if b not in below]
    problem.goal = [*problem.goal, *(("clear", b) for b in tops), ("handempty",)]
    return problem


def _blocksworld_table_start(n: int, rng: random.Random) -> Problem:
    problem = blocksworld.generate(n, rng)
    problem.init = [("handempty",), *(("ontable", b) for b in problem.objects),
                    *(("clear", b) for b in problem.objects)]
    return problem


def _gripper_spelt_out(n: int, rng: random.Random) -> Problem:
    problem = gripper.generate(n, rng)
    problem.goal = [*problem.goal, ("free", "left"), ("free", "right")]
    return problem


def _subset_goal(problem: Problem, rng: random.Random) -> Problem:
    """Keep a uniformly random number (at least one, fewer than all when there are two or more)
    of ``problem``'s goal atoms, chosen uniformly."""
    goal = problem.goal
    keep = rng.randint(1, max(1, len(goal) - 1))
    problem.goal = [goal[i] for i in sorted(rng.sample(range(len(goal)), keep))]
    return problem


def _visitall_partial(n: int, rng: random.Random) -> Problem:
    problem = visitall.generate(n, rng)
    start_visited = {atom for atom in problem.init if atom[0] == "visited"}
    unvisited = [atom for atom in problem.goal if atom not in start_visited]
    problem.goal = unvisited
    return _subset_goal(problem, rng)


VARIANTS: dict[str, dict[str, Callable[[int, random.Random], Problem]]] = {
    "blocksworld": {
        AS_GENERATED: blocksworld.generate,
        "no-base": _blocksworld_no_base,
        "spelt-out": _blocksworld_spelt_out,
        "towers": lambda n, rng: blocksworld.generate(n, rng, "towers"),
        "partial": lambda n, rng: blocksworld.generate(n, rng, "partial"),
        "table-start": _blocksworld_table_start,
        "stacks": lambda n, rng: blocksworld.generate(n, rng, "stacks"),
    },
    "gripper": {
        AS_GENERATED: gripper.generate,
        "spelt-out": _gripper_spelt_out,
        "partial": lambda n, rng: _subset_goal(gripper.generate(n, rng), rng),
    },
    "logistics": {
        AS_GENERATED: logistics.generate,
        "partial": lambda n, rng: _subset_goal(logistics.generate(n, rng), rng),
        "wide": lambda n, rng: logistics.generate(n, rng, "wide"),
    },
    "visitall": {
        AS_GENERATED: visitall.generate,
        "partial": _visitall_partial,
    },
}
"""Variant name -> ``(size, rng) -> Problem``, per paper domain (see the module docstring)."""
ALL_VARIANTS: tuple[str, ...] = tuple(dict.fromkeys(v for table in VARIANTS.values() for v in table))
"""Every variant name, ``as-generated`` first (each domain has some of them)."""


def variant_problem(domain: str, variant: str, size: int, rng: random.Random) -> Problem:
    """One task of ``variant`` (:data:`VARIANTS`) of ``domain`` at ``size``; ``KeyError`` for an
    unknown domain or variant."""
    return VARIANTS[domain][variant](size, rng)


def variant_split_tasks(domain: str, variant: str, split: str = "extrapolation", seed: int = 0) -> list[GeneratedTask]:
    """``variant`` of every task of a paper split (dataset ``seed``), named ``<domain>-<variant>-n<size>-<index>``.

    Each variant task is drawn from its split task's own seed, so an implied-atom variant is the
    split's task itself with its goal rewritten, and the other variants are tasks of the same sizes."""
    if variant not in VARIANTS[domain]:
        raise KeyError(f"{domain} has no variant {variant!r} (choose from {', '.join(VARIANTS[domain])})")
    module = module_of(domain)
    tasks = []
    for task in generate_one_split(domain, split, seed):
        rng = random.Random(task.seed)
        problem = variant_problem(domain, variant, task.size, rng)
        name = f"{domain}-{variant}-n{task.size}-{task.index}"
        tasks.append(GeneratedTask(domain, variant, task.size, task.index, task.seed, name,
                                   render(problem, module.PDDL_DOMAIN, name, rng),
                                   len(problem.objects), dict(problem.info)))
    return tasks
