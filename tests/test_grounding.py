"""Grounding: counts known in closed form, type and static pruning, the three atom sets."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from symt.generators import domain_file
from symt.pddl import ground, parse_domain, static_predicates

DOMAINS = domain_file("gripper").parent  # the package's copies of the paper domains


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def blocks_problem(tmp_path: Path, n: int) -> Path:
    blocks = [f"b{i}" for i in range(n)]
    init = " ".join(f"(ontable {b}) (clear {b})" for b in blocks)
    goal = " ".join(f"(on {a} {b})" for a, b in zip(blocks, blocks[1:]))
    return write(tmp_path, f"bw{n}.pddl", f"""
        (define (problem bw{n}) (:domain blocks)
          (:objects {' '.join(blocks)})
          (:init (handempty) {init})
          (:goal (and {goal})))
        """)


def gripper_problem(tmp_path: Path, n: int) -> Path:
    balls = [f"ball{i}" for i in range(n)]
    init = " ".join(f"(ball {b}) (at {b} rooma)" for b in balls)
    goal = " ".join(f"(at {b} roomb)" for b in balls)
    return write(tmp_path, f"gripper{n}.pddl", f"""
        (define (problem gripper{n}) (:domain gripper)
          (:objects rooma roomb left right {' '.join(balls)})
          (:init (room rooma) (room roomb) (gripper left) (gripper right)
                 (free left) (free right) (at-robby rooma) {init})
          (:goal (and {goal})))
        """)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_blocksworld_counts(tmp_path, n):
    task = ground(DOMAINS / "blocksworld.pddl", blocks_problem(tmp_path, n))
    # pick-up, put-down: n each. stack and unstack: n^2 each, not n(n-1): the domain has no
    # inequality, holding(x) and clear(x) are both relaxed-reachable, so stack(x, x) is too, and it
    # adds on(x, x), which makes unstack(x, x) reachable. (They never apply in a real state.)
    stack = [a for a in task.actions if a.name == "stack"]
    assert len([a for a in task.actions if a.name == "pick-up"]) == n
    assert len([a for a in task.actions if a.name == "put-down"]) == n
    assert len(stack) == n * n
    assert len([a for a in task.actions if a.name == "unstack"]) == n * n
    assert task.static_atoms == []
    assert len(task.fluent_atoms) == n * n + 3 * n + 1
    assert len(task.goal_atoms) == n - 1
    assert len(task.init) == 2 * n + 1


@pytest.mark.parametrize("n", [1, 4, 7])
def test_gripper_counts(tmp_path, n):
    task = ground(DOMAINS / "gripper.pddl", gripper_problem(tmp_path, n))
    assert task.static_predicates == frozenset({"room", "ball", "gripper"})
    assert len(task.static_atoms) == 2 + 2 + n
    counts = {name: sum(a.name == name for a in task.actions) for name in ("move", "pick", "drop")}
    # move: 2 x 2 rooms (from = to is allowed by the domain); pick/drop: ball x room x gripper,
    # and type pruning removes every binding of a ball slot to a room or gripper.
    assert counts == {"move": 4, "pick": 4 * n, "drop": 4 * n}
    # at-robby 2, at 2n, free 2, carry 2n.
    assert len(task.fluent_atoms) == 4 + 4 * n
    assert all(a[0] == "at" for a in task.goal_atoms) and len(task.goal_atoms) == n
    # Static preconditions are compiled away: only fluent indices remain.
    pick = next(a for a in task.actions if a.name == "pick")
    assert len(pick.pre_pos) == 3


def test_static_predicates_of_paper_domains():
    assert static_predicates(parse_domain(DOMAINS / "visitall.pddl")) == {"place", "connected"}
    assert static_predicates(parse_domain(DOMAINS / "logistics.pddl")) == {
        "package", "truck", "airplane", "airport", "location", "in-city", "city",
    }


TYPED = """
    (define (domain typed)
      (:requirements :strips :typing :negative-preconditions :equality)
      (:types vehicle place - object truck plane - vehicle city airport - place)
      (:constants hub - airport)
      (:predicates (at ?v - vehicle ?p - place) (link ?a ?b - place) (blocked ?p - place)
                   (visited ?p - place))
      (:action go
        :parameters (?v - vehicle ?from ?to - place)
        :precondition (and (at ?v ?from) (link ?from ?to) (not (blocked ?to)) (not (= ?from ?to)))
        :effect (and (not (at ?v ?from)) (at ?v ?to) (visited ?to)))
      (:action fly
        :parameters (?v - plane ?to - (either airport city))
        :precondition (and (at ?v hub) (not (visited ?to)))
        :effect (and (not (at ?v hub)) (at ?v ?to))))
    """


def test_typing_either_constants_equality_negative_static(tmp_path):
    domain = write(tmp_path, "d.pddl", TYPED)
    problem = write(tmp_path, "p.pddl", """
        (define (problem p) (:domain typed)
          (:objects t1 - truck pl - plane c1 c2 - city)
          (:init (at t1 c1) (at pl hub)
                 (link c1 c2) (link c2 c1) (link c1 c1) (link hub c1) (link c2 hub)
                 (blocked hub))
          (:goal (and (at t1 c2) (not (visited c1)))))
        """)
    task = ground(domain, problem)
    assert task.objects == ["hub", "t1", "pl", "c1", "c2"]
    assert task.static_predicates == {"link", "blocked"}
    labels = {a.label() for a in task.actions}
    # (go t1 c1 c1) fails the inequality, (go t1 c2 hub) the negative static precondition.
    assert "(go t1 c1 c1)" not in labels
    assert "(go t1 c2 hub)" not in labels
    assert {"(go t1 c1 c2)", "(go t1 c2 c1)"} <= labels
    # fly: only planes (type pruning), to airports or cities; the truck never flies.
    assert {label for label in labels if label.startswith("(fly")} == {
        "(fly pl hub)", "(fly pl c1)", "(fly pl c2)",
    }
    assert task.goal_atoms == [("at", ("t1", "c2"))]
    assert task.goal_negative_atoms == [("visited", ("c1",))]
    assert len(task.goal_neg) == 1
    fly_c1 = next(a for a in task.actions if a.label() == "(fly pl c1)")
    assert [task.fluent_atoms[f] for f in fly_c1.pre_neg] == [("visited", ("c1",))]


def test_false_static_goal_makes_task_unsolvable(tmp_path):
    domain = write(tmp_path, "d.pddl", TYPED)
    problem = write(tmp_path, "p.pddl", """
        (define (problem p) (:domain typed)
          (:objects t1 - truck c1 c2 - city)
          (:init (at t1 c1) (link c1 c2))
          (:goal (and (link c2 c1))))
        """)
    task = ground(domain, problem)
    assert not task.solvable_by_statics
    assert not task.is_goal(frozenset(task.init))


def test_unreachable_goal_atom_keeps_an_index(tmp_path):
    domain = write(tmp_path, "d.pddl", TYPED)
    problem = write(tmp_path, "p.pddl", """
        (define (problem p) (:domain typed)
          (:objects t1 - truck c1 c2 - city)
          (:init (at t1 c1))
          (:goal (and (at t1 c2))))
        """)
    task = ground(domain, problem)
    assert task.actions == []
    assert ("at", ("t1", "c2")) in task.fluent_index
    assert not task.is_goal(frozenset(task.init))


@pytest.mark.parametrize("domain, problem", [
    ("blocksworld.pddl", lambda tmp: blocks_problem(tmp, 5)),
    ("gripper.pddl", lambda tmp: gripper_problem(tmp, 4)),
])
def test_applicable_actions_match_a_scan_of_every_action(tmp_path, domain, problem):
    """The precondition index finds exactly the actions a scan of all actions finds, in order,
    on random walks through the task (and on arbitrary fluent subsets, reachable or not)."""
    import random

    task = ground(DOMAINS / domain, problem(tmp_path))
    rng = random.Random(3)
    states = [frozenset(rng.sample(range(task.num_fluents), rng.randint(0, task.num_fluents)))
              for _ in range(50)]
    state = frozenset(task.init)
    for _ in range(100):
        states.append(state)
        applicable = task.applicable_actions(state)
        state = task.apply(task.actions[rng.choice(applicable)], state)
    for state in states:
        scan = [i for i, a in enumerate(task.actions) if task.applicable(a, state)]
        assert task.applicable_actions(state) == scan


IPC_ROOT = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning"


@pytest.mark.parametrize(("domain_path", "problem_path"), [
    *((domain_file(d), None) for d in ("gripper", "blocksworld", "logistics", "visitall")),
    *((IPC_ROOT / d / "domain.pddl", IPC_ROOT / d / "testing" / "easy" / "p05.pddl")
      for d in ("ferry", "miconic", "transport")),
])
def test_fixed_part_is_grounds_fixed_atoms_without_grounding(tmp_path: Path, domain_path: Path,
                                                              problem_path: Path | None) -> None:
    """The task context's atoms (objects, types, static and goal atoms, in order) from the fixed
    part equal those of the full grounding, typed IPC domains included."""
    from symt.generators import generate_task
    from symt.pddl import parse_problem
    from symt.pddl.grounding import fixed_part
    from symt.tokens import domain_signature, encode_task

    if problem_path is None:
        problem_path = tmp_path / "task.pddl"
        problem_path.write_text(generate_task(domain_path.stem, 4, 7, "task"))
    if not problem_path.is_file():
        pytest.skip("../shared/benchmarks/ipc2023-learning is missing")
    domain = parse_domain(domain_path)
    problem = parse_problem(problem_path, domain)
    full, fixed = ground(domain, problem), fixed_part(domain, problem)
    signature = domain_signature(domain)
    assert fixed.objects == full.objects and fixed.object_types == full.object_types
    assert fixed.static_atoms == full.static_atoms and fixed.goal_atoms == full.goal_atoms
    assert (encode_task(fixed, signature, domain).fixed_rows == encode_task(full, signature, domain).fixed_rows).all()
    assert not fixed.actions and not fixed.fluent_atoms
