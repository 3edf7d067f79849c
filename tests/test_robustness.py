"""The shipped Blocksworld and Logistics models on tasks phrased and posed as other generators write
them (issue 32).

Independent truths: the tasks come from ``tests/other_generators.py`` (no symt code) or are the
paper split's tasks with an implied goal atom deleted by text; plans are checked by VAL.

Two of these are issue 32's targets that the Blocksworld model shipped before 2026-11-28
(``blocksworld-r7``) failed: greedy guidance looped and plain GBFS timed out once the tower's base was
left out of the goal. The shipped ``blocksworld`` (trained with goal phrasings) meets them
(``benchmarks/results/robustness/variants/README.md`` has the numbers). Logistics with four cities and two
airplanes, which the paper's generator never writes, was out of reach of the ``logistics`` models
shipped before 2026-11-29 (``lg-hashed``: 1 of 9 such tasks of 7-15 packages).
"""

from __future__ import annotations

import importlib.util
import math
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from other_generators import blocksworld_task, logistics_task
from symt.errors import SymtError
from symt.export import load_exported
from symt.generators import domain_file, generate_split_tasks
from symt.guidance import plan_with_exported_model
from symt.models import shipped
from symt.pddl import ground, parse_domain, parse_problem
from symt.val import run_val

IPC_ROOT = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning"

FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"


def without_base(problem_text: str) -> str:
    """The goal without its ``(ontable x)`` atom, deleted as text."""
    head, goal = problem_text.split("(:goal", 1)
    return head + "(:goal" + re.sub(r"\(ontable [^()]+\)\s*", "", goal)


def test_greedy_guidance_solves_the_five_block_tasks_without_their_base(tmp_path: Path) -> None:
    """The issue's example: the paper's three 5-block interpolation tasks, goal base deleted."""
    domain_path = domain_file("blocksworld")
    domain = parse_domain(domain_path)
    module, meta = load_exported(shipped()["blocksworld"])
    tasks = [t for t in generate_split_tasks("blocksworld") if t.split == "interpolation"]
    assert [t.size for t in tasks] == [5, 5, 5]
    for generated in tasks:
        problem = tmp_path / f"{generated.name}.pddl"
        problem.write_text(without_base(generated.pddl))
        assert "ontable" not in problem.read_text().split("(:goal")[1]
        task = ground(domain, parse_problem(problem, domain))
        result = plan_with_exported_model(module, meta, domain, task)
        assert result.solved, f"{generated.name}: {result.reason}"
        plan = tmp_path / f"{generated.name}.plan"
        plan.write_text("\n".join(result.labels(task)) + "\n")
        verdict = run_val(domain_path, problem, plan)
        assert verdict.valid, verdict.output


def assert_plain_gbfs_solves(domain_path: Path, problem: Path, time_limit: int, timeout: int) -> None:
    """Plain GBFS with the shipped model alone (``--alias symt-gbfs``) finds a plan for ``problem``
    within ``time_limit`` seconds, and VAL accepts it (plan and work files beside ``problem``)."""
    plan = problem.with_suffix(".plan")
    result = subprocess.run(
        [str(FAST_DOWNWARD), "--overall-time-limit", str(time_limit), "--plan-file", str(plan), "--alias",
         "symt-gbfs", str(domain_path), str(problem)],
        cwd=problem.parent, capture_output=True, text=True, timeout=timeout, check=False)
    assert result.returncode == 0, f"{problem.name}: exit {result.returncode}\n{result.stdout[-2000:]}"
    verdict = run_val(domain_path, problem, plan)
    assert verdict.valid, verdict.output


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize("style", ["tower", "towers"])
def test_plain_gbfs_solves_another_generators_blocksworld_tasks(tmp_path: Path, style: str) -> None:
    """Plain GBFS with the learned heuristic alone (``--alias symt-gbfs``) on tasks of 9-12 blocks
    from the independent generator: one tower stated without its base, or several stated in full
    (as IPC 2023 states them)."""
    domain_path = domain_file("blocksworld")
    for size in range(9, 13):
        problem = tmp_path / f"{style}-{size}.pddl"
        problem.write_text(blocksworld_task(size, random.Random(f"test-{style}-{size}"), style))
        assert_plain_gbfs_solves(domain_path, problem, time_limit=30, timeout=180)


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize(("cities", "airplanes", "packages"), [(3, 1, 8), (4, 2, 7), (4, 2, 9)])
def test_plain_gbfs_solves_another_generators_logistics_tasks(
        tmp_path: Path, cities: int, airplanes: int, packages: int) -> None:
    """Plain GBFS with the shipped Logistics model alone on tasks of the independent generator,
    larger than any training task (1-5 packages, always one airplane): the held-out set's tasks of
    ``benchmarks/experiments/robustness/held_out.py`` (seed 1), which the shipped model solves in 200-2,100
    expansions, well inside the limit."""
    domain_path = domain_file("logistics")
    group = f"c{cities}-a{airplanes}"
    name = f"{group}-{packages}"
    problem = tmp_path / f"{name}.pddl"
    problem.write_text(logistics_task(packages, random.Random(f"{group}-1-{packages}"), cities, 2,
                                      airplanes, name))
    assert_plain_gbfs_solves(domain_path, problem, time_limit=60, timeout=240)


@pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")
def test_ipc_partial_goals_keep_half_of_each_goal_and_parse(tmp_path: Path) -> None:
    """``benchmarks/experiments/robustness/ipc_partial.py`` edits an IPC goal's text: in every
    domain the result parses, its goal is a subset of the task's of ceil(n/2) atoms, the rest of the
    file is unchanged, and a goal that is not a conjunction is refused with the file named."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "experiments" / "robustness" / "ipc_partial.py"
    spec = importlib.util.spec_from_file_location("ipc_partial", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for domain_dir in sorted(p for p in IPC_ROOT.iterdir() if (p / "domain.pddl").exists()):
        domain = parse_domain(domain_dir / "domain.pddl")
        source = domain_dir / "testing" / "easy" / "p10.pddl"
        text = source.read_text()
        variant, kept, total = module.partial_goal(text, 0.5, random.Random(1), str(source))
        path = tmp_path / f"{domain_dir.name}.pddl"
        path.write_text(variant)
        original = {(g.predicate, g.terms) for g in parse_problem(source, domain).goal}
        partial = [(g.predicate, g.terms) for g in parse_problem(path, domain).goal]
        assert total == len(original) and kept == len(partial) == max(1, math.ceil(total / 2)), domain_dir.name
        assert set(partial) <= original, domain_dir.name
        assert variant.split("(:goal")[0] == text.split("(:goal")[0]
    with pytest.raises(SymtError, match="broken.pddl: the goal is not a conjunction"):
        module.partial_goal("(define (problem p) (:goal (or (a) (b))))", 0.5, random.Random(1), "broken.pddl")
