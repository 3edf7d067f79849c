"""Gripper problems: ``n`` balls, two rooms, a robot with two grippers.

All balls and the robot start in room A, both grippers are free, and the goal is every ball in
room B. The type predicates ``room``, ``ball`` and ``gripper`` are part of the initial state.
For a given ``n`` the task is unique up to renaming; only object names and atom order vary.
"""

from __future__ import annotations

import random

from symt.generators._problem import Atom, Problem

PDDL_DOMAIN = "gripper"


def num_distinct(n: int) -> int:
    """Number of distinct ``n``-ball tasks up to renaming: always one."""
    return 1


def generate(n: int, rng: random.Random) -> Problem:
    """The Gripper problem with ``n >= 1`` balls (``rng`` is unused: the task is unique)."""
    if n < 1:
        raise ValueError("gripper needs at least 1 ball")
    rooms = ["room-a", "room-b"]
    grippers = ["left", "right"]
    balls = [f"ball{i}" for i in range(n)]
    init: list[Atom] = [("room", r) for r in rooms]
    init += [("gripper", g) for g in grippers]
    init += [("ball", b) for b in balls]
    init.append(("at-robby", rooms[0]))
    init += [("free", g) for g in grippers]
    init += [("at", b, rooms[0]) for b in balls]
    goal: list[Atom] = [("at", b, rooms[1]) for b in balls]
    return Problem(objects=rooms + grippers + balls, init=init, goal=goal, key=n)
