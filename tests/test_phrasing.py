"""Goal phrasings, task styles and variants (issue 32): exact equivalence, checked by re-expanding.

The independent truth for a phrasing is the expander run again on the task with the rewritten goal
written as PDDL: the same reachable states must be goal states and every state must keep its h*.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from conftest import make_dataset
from symt.data import attach_goal_phrasings, load_dataset, phrased_fixed_rows
from symt.errors import SymtError
from symt.generators import domain_file, generate_split_tasks, generate_task
from symt.generators._problem import render
from symt.generators.dataset import generate_style_tasks, module_of, styles
from symt.generators.variants import VARIANTS, variant_problem, variant_split_tasks
from symt.pddl import ground, parse_domain
from symt.phrasing import GoalPhrasings, goal_closure
from symt.sampling import PairSampler
from symt.statespace import expand
from symt.tokens import domain_signature, encode_task

BW_TASK = """(define (problem bw5) (:domain blocks)
  (:objects a b c d e)
  (:init (handempty) (ontable a) (on b a) (clear b) (ontable c) (on d c) (on e d) (clear e))
  (:goal (and (ontable e) (on d e) (on c d) (on b c) (on a b))))
"""


def with_goal(problem_text: str, goal: list[str]) -> str:
    """``problem_text`` with its goal replaced by the conjunction of ``goal`` (atom texts)."""
    start = problem_text.index("(:goal")
    return problem_text[:start] + "(:goal (and " + " ".join(goal) + ")))\n"


def atom_text(atom: tuple[str, tuple[str, ...]]) -> str:
    return "(" + " ".join((atom[0], *atom[1])) + ")"


def reachable_hstar(domain: Path, problem: Path) -> dict[frozenset, float]:
    """h* of every reachable state, keyed by its set of true atoms (indices differ between tasks)."""
    task = ground(domain, problem)
    space = expand(task)
    return {frozenset(task.fluent_atoms[f] for f in space.state_facts(s)): float(space.hstar[s])
            for s in range(space.num_states)}


@pytest.fixture()
def bw_files(tmp_path: Path) -> tuple[Path, Path]:
    domain = tmp_path / "domain.pddl"
    domain.write_text(domain_file("blocksworld").read_text())
    problem = tmp_path / "p.pddl"
    problem.write_text(BW_TASK)
    return domain, problem


def test_closure_of_a_complete_tower_is_the_goal_state(bw_files) -> None:
    domain, problem = bw_files
    task = ground(domain, problem)
    closure = {task.fluent_atoms[f] for f in goal_closure(expand(task))}
    # The goal state of a complete tower is unique: the tower, its top clear, the hand empty.
    assert closure == {("ontable", ("e",)), ("on", ("d", "e")), ("on", ("c", "d")), ("on", ("b", "c")),
                       ("on", ("a", "b")), ("clear", ("a",)), ("handempty", ())}


def test_every_sampled_phrasing_has_the_same_goal_states_and_hstar(bw_files, tmp_path: Path) -> None:
    domain, problem = bw_files
    task = ground(domain, problem)
    phrasings = GoalPhrasings.of(expand(task))
    assert phrasings is not None
    truth = reachable_hstar(domain, problem)
    rng = np.random.default_rng(0)
    seen = set()
    for k in range(12):
        atoms = [task.fluent_atoms[f] for f in phrasings.sample(rng)]
        seen.add(frozenset(atoms))
        phrased = tmp_path / f"phrased{k}.pddl"
        phrased.write_text(with_goal(BW_TASK, [atom_text(a) for a in atoms]))
        assert reachable_hstar(domain, phrased) == truth
    assert len(seen) > 3  # phrasings vary
    minimal = {task.fluent_atoms[f] for f in phrasings.minimal()}
    # Leaving out the base's ontable is one of the minimal phrasings (the on atoms imply it).
    assert minimal == {("on", ("d", "e")), ("on", ("c", "d")), ("on", ("b", "c")), ("on", ("a", "b"))}


def test_a_phrasing_that_changes_the_goal_is_refused(bw_files, tmp_path: Path) -> None:
    domain, problem = bw_files
    task = ground(domain, problem)
    phrasings = GoalPhrasings.of(expand(task))
    index = task.fluent_index
    without_one_on = sorted(index[a] for a in [("on", ("c", "d")), ("on", ("b", "c")), ("on", ("a", "b"))])
    assert not phrasings.is_equivalent(np.array(without_one_on))
    # Checked independently: the weaker goal has more goal states.
    weaker = tmp_path / "weaker.pddl"
    weaker.write_text(with_goal(BW_TASK, ["(on c d)", "(on b c)", "(on a b)"]))
    assert len(expand(ground(domain, weaker)).goal_states) > len(expand(task).goal_states)
    outside = index[("holding", ("a",))]
    assert not phrasings.is_equivalent(np.array([outside]))


def test_phrased_rows_state_the_phrasing_as_goal_atoms(bw_files) -> None:
    domain, problem = bw_files
    parsed = parse_domain(domain)
    task = ground(domain, problem)
    signature = domain_signature(parsed)
    encoded = encode_task(task, signature, parsed)
    goal = [task.fluent_index[("on", ("a", "b"))], task.fluent_index[("clear", ("a",))]]
    rows = phrased_fixed_rows(encoded, np.array(goal))
    names = [name for name, _ in signature.predicates]
    p = signature.num_predicates
    decoded = {(names[r[0] - p], tuple(task.objects[o] for o in r[1:] if o >= 0)) for r in rows if r[0] >= p}
    assert decoded == {("on", ("a", "b")), ("clear", ("a",))}
    assert len(rows) == len(encoded.fixed_rows) - len(task.goal_atoms) + 2


def test_achieved_goals_are_marked_by_the_goal_shown(tmp_path: Path) -> None:
    """With --achieved-goals and --goal-phrasing together, a state's atoms read as achieved goals
    exactly where they are atoms of the phrased goal the batch shows, as a model would read a task
    written with that goal; the task's own goal marks nothing else."""
    root = make_dataset(tmp_path / "bw", "blocksworld", {"train": [4, 5], "validation": [4]})
    dataset = load_dataset(root, progress=False, achieved_goals=True)
    train = dataset.split("train")
    assert attach_goal_phrasings(train, 6, seed=0) == 2
    p = dataset.signature.num_predicates
    names = [name for name, _ in dataset.signature.predicates]

    def atom(data, row: np.ndarray, offset: int) -> tuple[str, tuple[str, ...]]:
        return names[row[0] - offset], tuple(data.task.objects[o] for o in row[1:] if o >= 0)

    checked = 0
    for data in train:
        assert len(data.goal_phrasing_fluents) == len(data.goal_phrasings) == 6
        for fixed, fluent in zip(data.goal_phrasings, data.goal_phrasing_fluents, strict=True):
            goal = {atom(data, r, p) for r in fixed if p <= r[0] < 2 * p}
            for position in range(0, data.space.num_states, 7):
                facts = data.space.state_facts(position)
                rows = data.encoded.state_rows(facts, fixed, fluent)[: len(facts)]
                marked = {atom(data, r, 2 * p) for r in rows if r[0] >= 2 * p}
                held = {data.task.fluent_atoms[f] for f in facts}
                assert marked == {a for a in held if a in goal}
                assert all(r[0] < p for r in rows if r[0] < 2 * p)  # the rest read as plain atoms
                checked += 1
    assert checked > 50
    # The sampler shows them together (the trainer refused the combination before).
    batch = PairSampler(train, 123, "off", seed=3, goal_phrasing=1.0).batch(0, 16)
    assert int((batch.pred >= 2 * p).sum()) > 0


def test_sampler_shows_equivalent_goals_with_unchanged_labels(tmp_path: Path) -> None:
    root = make_dataset(tmp_path / "bw", "blocksworld", {"train": [4, 5], "validation": [4]})
    dataset = load_dataset(root, progress=False)
    train = dataset.split("train")
    assert attach_goal_phrasings(train, 6, seed=0) == 2
    p = dataset.signature.num_predicates
    plain = PairSampler(train, 123, "off", seed=3)
    phrased = PairSampler(train, 123, "off", seed=3, goal_phrasing=1.0)
    batch = phrased.batch(0, 16)
    assert not torch_equal(plain.batch(0, 16).pred, batch.pred)  # goals are rephrased
    for data in train:
        space = data.space
        phrasings = GoalPhrasings.of(space)
        for rows in data.goal_phrasings:
            goal = [data.task.fluent_index[(dataset.signature.predicates[r[0] - p][0],
                                            tuple(data.task.objects[o] for o in r[1:] if o >= 0))]
                    for r in rows if r[0] >= p]
            assert phrasings.is_equivalent(np.array(sorted(goal)))
    # Targets are h* of the sampled states, whatever the phrasing: every target occurs in a task.
    finite = {float(h) for data in train for h in data.space.hstar}
    assert set(batch.target.tolist()) <= finite
    with pytest.raises(SymtError, match="goal-phrasing"):
        PairSampler(train, 123, "off", seed=3, goal_phrasing=1.5)
    # A task without phrasings (none attached) is shown as written, drawing nothing more.
    for data in train:
        data.goal_phrasings = []
    assert torch_equal(PairSampler(train, 123, "off", seed=3, goal_phrasing=1.0).batch(0, 16).pred,
                       plain.batch(0, 16).pred)


def torch_equal(a, b) -> bool:
    return a.shape == b.shape and bool((a == b).all())


# ------------------------------------------------------------------------------------- styles


def test_extra_styles_leave_the_paper_tasks_unchanged() -> None:
    paper = generate_split_tasks("blocksworld", seed=0)
    mixed = generate_split_tasks("blocksworld", seed=0, extra_styles=["towers", "partial"])
    names = {t.name: t.pddl for t in mixed}
    assert all(names[t.name] == t.pddl for t in paper)
    extra = [t for t in mixed if t.name not in {p.name for p in paper}]
    assert len(extra) == 18 and {t.split for t in extra} == {"train"}
    assert {t.info["style"] for t in extra} == {"towers", "partial"}
    for task in extra:  # reproducible from the recorded seed, name and style
        assert generate_task("blocksworld", task.size, task.seed, task.name, task.info["style"]) == task.pddl
    with pytest.raises(SymtError, match="no task style"):
        generate_split_tasks("blocksworld", extra_styles=["spiral"])
    assert styles("logistics") == ("paper", "wide", "three-cities", "two-airplanes")
    assert styles("gripper") == ("paper",)


@pytest.mark.parametrize(("style", "sizes", "cities", "airplanes", "places", "vehicle_placements"), [
    # 4 cities of 2 locations, 4 trucks, 2 airplanes: a package is at one of 8 locations or in one
    # of 6 vehicles, every truck at one of 2 places and every airplane at one of 4 airports, and all
    # of it is reachable, so a wide task with g packages has exactly 14**g * 2**4 * 4**2 states.
    ("wide", [1, 2, 3], 4, 2, 14, 2**4 * 4**2),
    # 3 cities, 1 airplane: 6 locations + 4 vehicles per package; trucks 2**3, the airplane 3.
    ("three-cities", [1, 2, 3, 4], 3, 1, 10, 2**3 * 3),
    # 2 cities, 2 airplanes: 4 locations + 4 vehicles per package; trucks 2**2, airplanes 2**2.
    ("two-airplanes", [1, 3, 5], 2, 2, 8, 2**2 * 2**2),
])
def test_logistics_style_training_tasks_have_their_shape_and_expand(
    tmp_path: Path, style: str, sizes: list[int], cities: int, airplanes: int, places: int,
    vehicle_placements: int,
) -> None:
    tasks = [t for t in generate_split_tasks("logistics", seed=0, extra_styles=[style])
             if t.info.get("style") == style]
    assert len(tasks) == 12 and {t.split for t in tasks} == {"train"}
    assert sorted({t.size for t in tasks}) == sizes
    domain_path = tmp_path / "domain.pddl"
    domain_path.write_text(domain_file("logistics").read_text())
    for task in (next(t for t in tasks if t.size == size) for size in sizes[:2]):
        init = _atoms(task.pddl, "(:init")
        assert sum(a[0] == "city" for a in init) == cities
        assert sum(a[0] == "airplane" for a in init) == airplanes
        problem = tmp_path / f"{task.name}.pddl"
        problem.write_text(task.pddl)
        assert len(expand(ground(domain_path, problem)).hstar) == places**task.size * vehicle_placements


def _atoms(text: str, section: str) -> list[tuple[str, ...]]:
    """The atoms of the generated file's ``(:init`` or ``(:goal`` section (our own flat output)."""
    if section == "(:init":
        body = text[text.index("(:init") + len("(:init"): text.index("(:goal")]
    else:
        body = text[text.index("(:goal (and") + len("(:goal (and"):]
    return [tuple(m.group(1).split()) for m in re.finditer(r"\(([^()]+)\)", body)]


def test_towers_and_partial_goals_are_what_they_say() -> None:
    for task in generate_style_tasks("blocksworld", "towers", 6, 5):
        goal = _atoms(task.pddl, "(:goal")
        on = [a for a in goal if a[0] == "on"]
        bases = [a for a in goal if a[0] == "ontable"]
        assert len(on) + len(bases) == 6  # every block placed: on another or on the table
    for task in generate_style_tasks("blocksworld", "partial", 7, 5):
        goal = _atoms(task.pddl, "(:goal")
        blocks = {b for a in goal for b in a[1:]}
        assert 2 <= len(blocks) < 7
    wide = generate_style_tasks("logistics", "wide", 2, 2)
    for task in wide:
        init = _atoms(task.pddl, "(:init")
        assert sum(a[0] == "city" for a in init) == 4 and sum(a[0] == "airplane" for a in init) == 2


def _tower_heights(atoms: list[tuple[str, ...]]) -> list[int]:
    """Heights of the towers that ``ontable`` and ``on`` atoms describe (from each base up)."""
    above = {a[2]: a[1] for a in atoms if a[0] == "on"}
    heights = []
    for base in (a[1] for a in atoms if a[0] == "ontable"):
        height, block = 1, base
        while block in above:
            block, height = above[block], height + 1
        heights.append(height)
    return sorted(heights)


def test_stacks_tasks_are_a_few_tall_towers_at_both_ends(tmp_path: Path) -> None:
    tasks = generate_split_tasks("blocksworld", seed=0, extra_styles=["stacks"])
    stacks = [t for t in tasks if t.info.get("style") == "stacks"]
    assert len(stacks) == 9 and sorted({t.size for t in stacks}) == [6, 7, 8]
    heights_seen = set()
    for task in stacks + generate_style_tasks("blocksworld", "stacks", 10, 20):
        init, goal = _atoms(task.pddl, "(:init"), _atoms(task.pddl, "(:goal")
        for atoms in (init, goal):
            heights = _tower_heights(atoms)
            assert sum(heights) == task.size and 1 <= len(heights) <= 3
            heights_seen.add(max(heights))
        supporting = {a[2] for a in goal if a[0] == "on"}
        assert all(a[1] not in supporting for a in goal if a[0] == "clear")  # only tops are clear
        assert not set(goal) <= set(init)
    assert max(heights_seen) >= 8  # tall towers, unlike uniform states (about sqrt(n) towers)
    # The whole state space of a 6-block task: A000262(6) = 4,051 hand-empty states and
    # 6 * A000262(5) = 3,006 with a block held, all reachable.
    domain_path = tmp_path / "domain.pddl"
    domain_path.write_text(domain_file("blocksworld").read_text())
    problem = tmp_path / "stacks.pddl"
    problem.write_text(next(t for t in stacks if t.size == 6).pddl)
    space = expand(ground(domain_path, problem))
    assert len(space.hstar) == 4051 + 3006 and np.isfinite(space.hstar).all()


# ------------------------------------------------------------------------------------ variants


@pytest.mark.slow
@pytest.mark.parametrize("domain", sorted(VARIANTS))
def test_variants_are_solvable_tasks_of_the_split_sizes(domain: str, tmp_path: Path) -> None:
    domain_path = tmp_path / "domain.pddl"
    domain_path.write_text(domain_file(domain).read_text())
    small = {"blocksworld": 5, "gripper": 3, "logistics": 2, "visitall": 6}[domain]
    for variant in VARIANTS[domain]:
        problem = tmp_path / f"{variant}.pddl"
        tasks = variant_split_tasks(domain, variant)
        assert tasks and all(t.split == variant for t in tasks)
        problem.write_text(render(variant_problem(domain, variant, small, random.Random(7)),
                                  module_of(domain).PDDL_DOMAIN, f"v-{variant}", random.Random(7)))
        space = expand(ground(domain_path, problem))
        assert np.isfinite(space.hstar[0]) and space.hstar[0] > 0, variant


def test_implied_atom_variants_keep_the_task(tmp_path: Path) -> None:
    """no-base and spelt-out are the as-generated task with another goal text and the same h*."""
    domain_path = tmp_path / "domain.pddl"
    domain_path.write_text(domain_file("blocksworld").read_text())
    values = {}
    for variant in ("as-generated", "no-base", "spelt-out"):
        problem = tmp_path / f"{variant}.pddl"
        problem.write_text(render(variant_problem("blocksworld", variant, 6, random.Random(11)),
                                  module_of("blocksworld").PDDL_DOMAIN, "p", random.Random(3)))
        values[variant] = reachable_hstar(domain_path, problem)
    # Same names (same seeds), so the same states by their atoms, each with the same h*.
    assert values["no-base"] == values["as-generated"] == values["spelt-out"]
    goal = {variant: _atoms((tmp_path / f"{variant}.pddl").read_text(), "(:goal") for variant in values}
    assert len(goal["no-base"]) == len(goal["as-generated"]) - 1 == 5
    assert len(goal["spelt-out"]) == len(goal["as-generated"]) + 2
