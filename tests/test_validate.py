"""The plan validator, cross-checked against VAL (an independent implementation) on many plans."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from symt.generators import domain_file
from symt.pddl import GroundTask, ground, parse_domain, parse_problem
from symt.pddl.validate import read_plan, validate_plan
from symt.val import run_val

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
DOMAINS = domain_file("gripper").parent  # the package's copies of the paper domains
IPC = SHARED / "benchmarks" / "ipc2023-learning"

GRIPPER_3 = """
(define (problem g3) (:domain gripper)
  (:objects ra rb l r b1 b2 b3)
  (:init (room ra) (room rb) (gripper l) (gripper r) (ball b1) (ball b2) (ball b3)
         (free l) (free r) (at-robby ra) (at b1 ra) (at b2 ra) (at b3 ra))
  (:goal (and (at b1 rb) (at b2 rb) (at b3 rb))))
"""
BLOCKS_4 = """
(define (problem bw4) (:domain blocks)
  (:objects a b c d)
  (:init (handempty) (on a b) (ontable b) (clear a) (ontable c) (on d c) (clear d))
  (:goal (and (on b a) (on a d) (on d c) (ontable c))))
"""
VISITALL_2x2 = """
(define (problem v4) (:domain grid-visit-all)
  (:objects p q r s)
  (:init (place p) (place q) (place r) (place s) (at-robot p) (visited p)
         (connected p q) (connected q p) (connected q s) (connected s q)
         (connected s r) (connected r s) (connected r p) (connected p r))
  (:goal (and (visited p) (visited q) (visited r) (visited s))))
"""
LOGISTICS_1 = """
(define (problem l1) (:domain logistics)
  (:objects c1 c2 l1 l2 a1 a2 t1 t2 pl pk)
  (:init (city c1) (city c2) (location l1) (location l2) (location a1) (location a2)
         (airport a1) (airport a2) (in-city l1 c1) (in-city a1 c1) (in-city l2 c2) (in-city a2 c2)
         (truck t1) (truck t2) (airplane pl) (package pk)
         (at t1 l1) (at t2 a2) (at pl a1) (at pk l1))
  (:goal (and (at pk l2))))
"""


def bfs_plan(task: GroundTask) -> list[int] | None:
    """Shortest plan by plain BFS (tests only: tiny tasks)."""
    start = frozenset(task.init)
    parent: dict[frozenset[int], tuple[frozenset[int], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if task.is_goal(state):
            plan: list[int] = []
            while parent[state] is not None:
                state, action = parent[state]
                plan.append(action)
            return plan[::-1]
        for index, action in enumerate(task.actions):
            if task.applicable(action, state):
                succ = task.apply(action, state)
                if succ not in parent:
                    parent[succ] = (state, index)
                    queue.append(succ)
    return None


def cases(tmp_path: Path) -> list[tuple[Path, Path]]:
    result = []
    for name, domain, text in [
        ("g3", "gripper", GRIPPER_3),
        ("bw4", "blocksworld", BLOCKS_4),
        ("v4", "visitall", VISITALL_2x2),
        ("l1", "logistics", LOGISTICS_1),
    ]:
        path = tmp_path / f"{name}.pddl"
        path.write_text(text)
        result.append((DOMAINS / f"{domain}.pddl", path))
    # Typed IPC domains with constants and negative preconditions.
    for ipc_domain in ("ferry", "miconic", "childsnack"):
        smallest = min((IPC / ipc_domain / "training" / "easy").glob("*.pddl"), key=lambda p: p.stat().st_size)
        result.append((IPC / ipc_domain / "domain.pddl", smallest))
    return result


def mutate(plan: list[tuple[str, ...]], task: GroundTask, rng: random.Random) -> list[tuple[str, ...]]:
    plan = list(plan)
    kind = rng.randrange(5)
    if kind == 0 and plan:
        del plan[rng.randrange(len(plan))]
    elif kind == 1 and len(plan) > 1:
        i, j = rng.sample(range(len(plan)), 2)
        plan[i], plan[j] = plan[j], plan[i]
    elif kind == 2:
        action = rng.choice(task.actions)
        plan.insert(rng.randrange(len(plan) + 1), (action.name, *action.args))
    elif kind == 3 and plan:
        i = rng.randrange(len(plan))
        step = list(plan[i])
        if len(step) > 1:
            step[rng.randrange(1, len(step))] = rng.choice(task.objects)
        plan[i] = tuple(step)
    else:
        plan = plan[: rng.randrange(len(plan) + 1)]
    return plan


def test_validator_agrees_with_val(tmp_path):
    rng = random.Random(7)
    checked = valid_seen = invalid_seen = 0
    for domain_path, problem_path in cases(tmp_path):
        domain = parse_domain(domain_path)
        problem = parse_problem(problem_path, domain)
        task = ground(domain, problem)
        optimal = bfs_plan(task)
        assert optimal is not None, problem_path
        base = [(task.actions[a].name, *task.actions[a].args) for a in optimal]
        plans = [base] + [mutate(base, task, rng) for _ in range(12)]
        for number, plan in enumerate(plans):
            plan_path = tmp_path / f"{problem_path.stem}.{number}.plan"
            plan_path.write_text("".join("(" + " ".join(step) + ")\n" for step in plan))
            ours = validate_plan(task, read_plan(plan_path), domain, problem)
            theirs = run_val(domain_path, problem_path, plan_path)
            assert ours.valid == theirs.valid, (problem_path, plan, ours.reason, theirs.output)
            checked += 1
            valid_seen += ours.valid
            invalid_seen += not ours.valid
    assert checked >= 80 and valid_seen >= 7 and invalid_seen >= 30


def test_reasons_are_specific(tmp_path):
    problem_path = tmp_path / "g3.pddl"
    problem_path.write_text(GRIPPER_3)
    domain = parse_domain(DOMAINS / "gripper.pddl")
    problem = parse_problem(problem_path, domain)
    task = ground(domain, problem)

    def reason(*steps: str) -> str:
        plan = [tuple(step.strip("()").split()) for step in steps]
        result = validate_plan(task, plan, domain, problem)
        assert not result.valid
        return result.reason

    assert reason("(drop b1 ra l)") == (
        "step 1 (drop b1 ra l) is not applicable: precondition (carry b1 l) is false"
    )
    assert reason("(fly b1)") == "step 1 (fly b1): unknown action 'fly'"
    assert reason("(pick b1 ra)") == "step 1 (pick b1 ra): action 'pick' takes 3 argument(s), got 2"
    assert reason("(pick b1 ra zz)") == "step 1 (pick b1 ra zz): unknown object 'zz'"
    # A type error in an untyped domain shows up as a false static precondition.
    assert reason("(pick ra ra l)") == (
        "step 1 (pick ra ra l): is not applicable: precondition (ball ra) is false"
    )
    assert reason("(pick b1 ra l)").startswith("the goal is not reached after 1 step(s): unsatisfied (at b1 rb)")


def test_read_plan_formats_and_errors(tmp_path):
    path = tmp_path / "plan"
    path.write_text("; cost = 2 (unit cost)\n0: (PICK b1 ra l) [1]\n\n(move ra rb) ; comment\n")
    assert read_plan(path) == [("pick", "b1", "ra", "l"), ("move", "ra", "rb")]
    path.write_text("(pick b1 ra l)\npick b2\n")
    with pytest.raises(Exception, match=r"plan:2: expected '\(action arg \.\.\.\)'"):
        read_plan(path)


@pytest.mark.slow
def test_validate_command_exit_codes(tmp_path):
    problem_path = tmp_path / "bw4.pddl"
    problem_path.write_text(BLOCKS_4)
    task = ground(DOMAINS / "blocksworld.pddl", problem_path)
    plan = bfs_plan(task)
    good = tmp_path / "good.plan"
    good.write_text("".join(task.actions[a].label() + "\n" for a in plan))
    bad = tmp_path / "bad.plan"
    bad.write_text("".join(task.actions[a].label() + "\n" for a in plan[:-1]))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "symt.cli", *args], capture_output=True, text=True)

    ok = run("validate", str(DOMAINS / "blocksworld.pddl"), str(problem_path), str(good))
    assert ok.returncode == 0 and ok.stdout.startswith("valid: valid plan of length 4")  # unstack a b, stack a d, pick-up b, stack b a
    ko = run("validate", str(DOMAINS / "blocksworld.pddl"), str(problem_path), str(bad))
    assert ko.returncode == 1 and "the goal is not reached" in ko.stdout
    missing = run("validate", str(DOMAINS / "blocksworld.pddl"), str(problem_path), str(tmp_path / "none"))
    assert missing.returncode == 2
    assert missing.stderr.strip().startswith("symt: error:") and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
