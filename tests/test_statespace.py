"""Tests of the explicit state-space expander (symt.statespace / symt._core).

The ground tasks here are built directly in Python (no parser), an independent path to the
expander; the truths are closed-form state counts and plan lengths, and a pure-Python BFS.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from symt.errors import StateLimitError
from symt.generators.blocksworld import tower_reversal_problem
from symt.pddl.task import Atom, GroundAction, GroundTask
from symt.statespace import _reference_expand, expand, python_reference_bfs

# ------------------------------------------------------------------------------------------------
# Hand-built ground tasks

ActionSpec = tuple[str, tuple[str, ...], list[Atom], list[Atom], list[Atom], list[Atom]]


def make_task(
    name: str,
    fluents: list[Atom],
    actions: list[ActionSpec],
    init: list[Atom],
    goal: list[Atom],
    goal_negative: Sequence[Atom] = (),
    solvable_by_statics: bool = True,
) -> GroundTask:
    """A GroundTask from atom-level action specs ``(name, args, pre+, pre-, add, del)``."""
    index = {atom: i for i, atom in enumerate(fluents)}

    def ids(atoms: list[Atom]) -> tuple[int, ...]:
        return tuple(index[a] for a in atoms)

    objects = sorted({o for _, args in fluents for o in args})
    predicates: dict[str, int] = {}
    for pred, args in fluents:
        predicates[pred] = len(args)
    return GroundTask(
        domain_name=name,
        problem_name=name + "-problem",
        objects=objects,
        object_types={o: "object" for o in objects},
        predicates=predicates,
        static_predicates=frozenset(),
        fluent_atoms=list(fluents),
        static_atoms=[],
        goal_atoms=list(goal),
        init=ids(init),
        goal_pos=ids(goal),
        goal_neg=ids(list(goal_negative)),
        actions=[
            GroundAction(n, args, ids(pp), ids(pn), ids(ad), ids(de))
            for n, args, pp, pn, ad, de in actions
        ],
        solvable_by_statics=solvable_by_statics,
    )


def blocksworld(n: int, tower: bool = True) -> GroundTask:
    """4-operator Blocksworld; init: one tower b1 on b2 on ... (or all on the table); goal: the
    reverse tower."""
    blocks = [f"b{i}" for i in range(1, n + 1)]
    fluents: list[Atom] = [("handempty", ())]
    for x in blocks:
        fluents += [("ontable", (x,)), ("clear", (x,)), ("holding", (x,))]
    pairs = [(x, y) for x in blocks for y in blocks if x != y]
    fluents += [("on", p) for p in pairs]
    he: Atom = ("handempty", ())
    actions: list[ActionSpec] = []
    for x in blocks:
        ont, cl, ho = ("ontable", (x,)), ("clear", (x,)), ("holding", (x,))
        actions.append(("pick-up", (x,), [cl, ont, he], [], [ho], [ont, cl, he]))
        actions.append(("put-down", (x,), [ho], [], [cl, he, ont], [ho]))
    for x, y in pairs:
        ho, cy, cx, on = ("holding", (x,)), ("clear", (y,)), ("clear", (x,)), ("on", (x, y))
        actions.append(("stack", (x, y), [ho, cy], [], [cx, he, on], [ho, cy]))
        actions.append(("unstack", (x, y), [on, cx, he], [], [ho, cy], [cx, he, on]))
    if tower:
        init = [he, ("clear", (blocks[0],)), ("ontable", (blocks[-1],))]
        init += [("on", (blocks[i], blocks[i + 1])) for i in range(n - 1)]
    else:
        init = [he] + [("ontable", (x,)) for x in blocks] + [("clear", (x,)) for x in blocks]
    goal = [("on", (blocks[i + 1], blocks[i])) for i in range(n - 1)]
    if n == 1:
        goal = [("holding", (blocks[0],))]
    return make_task(f"blocksworld-{n}", fluents, actions, init, goal)


def gripper(n: int) -> GroundTask:
    """Gripper: 2 rooms, 2 grippers, n balls all in room A; goal: all balls in room B."""
    rooms, grippers = ["rooma", "roomb"], ["left", "right"]
    balls = [f"ball{i}" for i in range(1, n + 1)]
    fluents: list[Atom] = [("at-robby", (r,)) for r in rooms]
    fluents += [("free", (g,)) for g in grippers]
    fluents += [("at", (b, r)) for b in balls for r in rooms]
    fluents += [("carry", (b, g)) for b in balls for g in grippers]
    actions: list[ActionSpec] = []
    for r1, r2 in itertools.permutations(rooms, 2):
        actions.append(
            (
                "move",
                (r1, r2),
                [("at-robby", (r1,))],
                [],
                [("at-robby", (r2,))],
                [("at-robby", (r1,))],
            )
        )
    for b in balls:
        for r in rooms:
            for g in grippers:
                at, robby, free, carry = (
                    ("at", (b, r)),
                    ("at-robby", (r,)),
                    ("free", (g,)),
                    ("carry", (b, g)),
                )
                actions.append(("pick", (b, r, g), [at, robby, free], [], [carry], [at, free]))
                actions.append(("drop", (b, r, g), [carry, robby], [], [at, free], [carry]))
    init = [("at-robby", ("rooma",)), ("free", ("left",)), ("free", ("right",))]
    init += [("at", (b, "rooma")) for b in balls]
    goal = [("at", (b, "roomb")) for b in balls]
    return make_task(f"gripper-{n}", fluents, actions, init, goal)


def random_task(seed: int, num_fluents: int = 10, num_actions: int = 14) -> GroundTask:
    """A random STRIPS task with negative preconditions and a negative goal atom."""
    rng = random.Random(seed)
    fluents: list[Atom] = [("p", (f"o{i}",)) for i in range(num_fluents)]
    actions: list[ActionSpec] = []
    for a in range(num_actions):
        pool = rng.sample(fluents, 6)
        pre_pos = pool[: rng.randint(0, 2)]
        pre_neg = pool[2 : 2 + rng.randint(0, 1)]
        add = pool[3 : 3 + rng.randint(1, 2)]
        dele = rng.sample(pre_pos + [pool[5]], rng.randint(0, len(pre_pos) + 1))
        actions.append((f"a{a}", (), pre_pos, pre_neg, add, dele))
    init = rng.sample(fluents, 3)
    achievable = sorted({f for spec in actions for f in spec[4]} | set(init))
    goal = rng.sample(achievable, 2)
    goal_negative = [f for f in fluents if f not in goal][:1]
    return make_task(f"random-{seed}", fluents, actions, init, goal, goal_negative)


def set_bits_task() -> GroundTask:
    """Set three bits x1..x3 (two parallel actions set x1): 3! * 2 = 12 optimal plans."""
    fluents: list[Atom] = [("x", (str(i),)) for i in range(1, 4)]
    actions: list[ActionSpec] = [
        ("set1a", (), [], [], [fluents[0]], []),
        ("set1b", (), [], [], [fluents[0]], []),
        ("set2", (), [], [], [fluents[1]], []),
        ("set3", (), [], [], [fluents[2]], []),
        ("reset", (), [fluents[0]], [], [], [fluents[0]]),
    ]
    return make_task("bits", fluents, actions, [], fluents)


def dead_end_task() -> GroundTask:
    """From {a}: 'win' reaches the goal, 'fall' leads to {b}, from which only 'spin' is possible."""
    a, b, g, c = ("a", ()), ("b", ()), ("g", ()), ("c", ())
    actions: list[ActionSpec] = [
        ("fall", (), [a], [], [b], [a]),
        ("win", (), [a], [], [g], []),
        ("spin", (), [b], [c], [c], []),
    ]
    return make_task("deadend", [a, b, g, c], actions, [a], [g])


A000262 = [1, 1, 3, 13, 73, 501, 4051, 37633]


def blocksworld_states(n: int) -> int:
    return A000262[n] + n * A000262[n - 1]


def gripper_states(n: int) -> int:
    return 2 * (2**n + n * 2**n + n * (n - 1) * 2**n // 4)


# ------------------------------------------------------------------------------------------------
# Closed-form truths


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_blocksworld_state_counts(n):
    for tower in (True, False):
        space = expand(blocksworld(n, tower))
        assert space.num_states == blocksworld_states(n)
    if n == 4:
        assert space.num_states == 125


def test_blocksworld_7_count_and_speed():
    space = expand(blocksworld(7))
    assert space.num_states == 65990
    assert space.num_fluents == 64 and space.words_per_state == 1  # exactly one full word
    assert np.isfinite(space.hstar).all()  # the Blocksworld state graph is strongly connected
    assert space.seconds < 5.0


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_gripper_counts_and_plan_length(n):
    space = expand(gripper(n))
    assert space.num_states == gripper_states(n)
    assert space.hstar[0] == (3 * n - 1 if n % 2 == 0 else 3 * n)


# ------------------------------------------------------------------------------------------------
# Cross-check against the pure-Python reference


REFERENCE_TASKS = [
    pytest.param(lambda: blocksworld(4), id="blocksworld-4"),
    pytest.param(lambda: blocksworld(3, tower=False), id="blocksworld-3-table"),
    pytest.param(lambda: gripper(3), id="gripper-3"),
    pytest.param(set_bits_task, id="bits"),
    pytest.param(dead_end_task, id="deadend"),
    *[pytest.param(lambda s=s: random_task(s), id=f"random-{s}") for s in range(12)],
    pytest.param(lambda: random_task(10, num_fluents=70, num_actions=25), id="random-70-fluents"),
]


@pytest.mark.parametrize("make", REFERENCE_TASKS)
def test_matches_python_reference(make):
    task = make()
    space = expand(task)
    states, edges, hstar = _reference_expand(task, 10**6)
    assert python_reference_bfs(task) == (
        space.num_states,
        space.num_transitions,
        float(space.hstar[0]),
    )
    # Same BFS numbering, same successor lists, same h* everywhere.
    assert [space.state_set(s) for s in range(space.num_states)] == states
    for s, out in enumerate(edges):
        actions, targets = space.successors(s)
        assert list(zip(actions.tolist(), targets.tolist())) == out
    np.testing.assert_array_equal(space.hstar, np.array(hstar))
    goals = [s for s, st in enumerate(states) if task.is_goal(st)]
    assert space.goal_states.tolist() == goals


@pytest.mark.parametrize("make", REFERENCE_TASKS)
def test_hstar_is_consistent(make):
    task = make()
    space = expand(task)
    h = space.hstar
    for s in range(space.num_states):
        _, targets = space.successors(s)
        if task.is_goal(space.state_set(s)):
            assert h[s] == 0
        elif len(targets) and np.isfinite(h[targets]).any():
            assert h[s] == 1 + h[targets].min()
        else:
            assert h[s] == math.inf


def test_packed_states_and_memory():
    task = blocksworld(5)
    space = expand(task)
    packed = space.packed_states
    assert packed.dtype == np.uint64
    assert packed.shape == (space.num_states, space.words_per_state)
    assert not packed.flags.writeable
    for s in (0, 1, space.num_states - 1):
        facts = space.state_facts(s)
        assert facts.dtype == np.int32
        assert list(facts) == sorted(facts)
        bits = [f for f in range(space.num_fluents) if (int(packed[s, f // 64]) >> (f % 64)) & 1]
        assert bits == facts.tolist()
    assert space.state_set(0) == frozenset(task.init)
    assert 8 <= space.bytes_per_state < 40
    assert space.memory_bytes > space.bytes_per_state * space.num_states
    offsets = space.transition_offsets
    assert offsets[0] == 0 and offsets[-1] == space.num_transitions
    assert len(space.transition_targets) == space.num_transitions
    with pytest.raises(IndexError):
        space.state_facts(space.num_states)
    with pytest.raises(IndexError):
        space.successors(-1)


# ------------------------------------------------------------------------------------------------
# Sampling


def test_sampler_is_deterministic():
    space = expand(gripper(3))
    a, b, c = space.sampler(7), space.sampler(7), space.sampler(8)
    draws_a = [a.sample_state() for _ in range(200)]
    assert draws_a == [b.sample_state() for _ in range(200)]
    assert draws_a != [c.sample_state() for _ in range(200)]
    plans_a = [a.random_optimal_plan(s) for s in draws_a[:50]]
    assert plans_a == [b.random_optimal_plan(s) for s in draws_a[:50]]
    batch = space.sampler(3).sample_states(100)
    one_by_one = space.sampler(3)
    assert batch.tolist() == [one_by_one.sample_state() for _ in range(100)]


def test_sampled_distances_are_uniform():
    space = expand(blocksworld(5))
    sampler = space.sampler(123)
    n = 30_000
    draws = sampler.sample_states(n)
    h = space.hstar[draws].astype(int)
    layers = space.max_finite_hstar + 1
    counts = np.bincount(h, minlength=layers)
    expected = n / layers
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 3 * layers + 30, counts  # loose: mean is layers - 1
    # Within one layer, states are uniform too.
    layer = space.states_at_distance(layers // 2)
    in_layer = draws[h == layers // 2]
    per_state = Counter(in_layer.tolist())
    assert set(per_state) <= set(layer.tolist())
    assert len(per_state) > 0.5 * min(len(layer), len(in_layer))


def test_random_optimal_plans_reach_the_goal():
    task = gripper(4)
    space = expand(task)
    sampler = space.sampler(5)
    for _ in range(100):
        s = sampler.sample_state()
        plan = sampler.random_optimal_plan(s)
        assert len(plan) == space.hstar[s]
        state = space.state_set(s)
        for a in plan:
            action = task.actions[a]
            assert task.applicable(action, state)
            state = task.apply(action, state)
        assert task.is_goal(state)
    goal = int(space.goal_states[0])
    assert sampler.random_optimal_plan(goal) == []


def _all_optimal_plans(space, s):
    if space.hstar[s] == 0:
        return [()]
    plans = []
    actions, targets = space.successors(s)
    for a, t in zip(actions.tolist(), targets.tolist()):
        if space.hstar[t] == space.hstar[s] - 1:
            plans += [(a, *rest) for rest in _all_optimal_plans(space, t)]
    return plans


def test_optimal_plans_are_uniform():
    space = expand(set_bits_task())
    plans = _all_optimal_plans(space, 0)
    assert len(plans) == 12
    assert space.num_optimal_plans(0) == pytest.approx(12)
    sampler = space.sampler(2024)
    n = 24_000
    counts = Counter(tuple(sampler.random_optimal_plan(0)) for _ in range(n))
    assert set(counts) == set(plans)
    expected = n / 12
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 40, counts  # 11 degrees of freedom; P(chi2 > 40) < 1e-4


def test_plan_counts_match_enumeration():
    space = expand(gripper(2))
    for s in range(0, space.num_states, 3):
        if np.isfinite(space.hstar[s]):
            assert space.num_optimal_plans(s) == pytest.approx(len(_all_optimal_plans(space, s)))


# ------------------------------------------------------------------------------------------------
# Limits and dead ends


def test_state_limit():
    task = blocksworld(4)
    with pytest.raises(StateLimitError, match=r"exceeds the limit of 100 states.*--max-states"):
        expand(task, max_states=100)
    assert expand(task, max_states=125).num_states == 125
    with pytest.raises(StateLimitError, match=r"limit of 1,000 states"):
        expand(blocksworld(6), max_states=1000)
    with pytest.raises(StateLimitError):
        python_reference_bfs(task, max_states=100)


def test_memory_and_transition_limits():
    with pytest.raises(StateLimitError, match="memory"):
        expand(blocksworld(7), max_memory_bytes=1 << 20)
    with pytest.raises(StateLimitError, match="transitions"):
        expand(blocksworld(5), max_transitions=1000)


def test_dead_ends_have_infinite_hstar():
    task = dead_end_task()
    space = expand(task)
    h = space.hstar
    assert h.dtype == np.float64
    dead = [
        s
        for s in range(space.num_states)
        if 1 in space.state_set(s) and 2 not in space.state_set(s)
    ]
    assert dead and all(h[s] == math.inf for s in dead)
    assert h[0] == 1
    assert space.hstar_int[dead[0]] == 2**31 - 1
    sampler = space.sampler(0)
    with pytest.raises(ValueError, match="dead end"):
        sampler.random_optimal_plan(dead[0])
    assert all(h[sampler.sample_state()] < math.inf for _ in range(50))
    assert space.num_optimal_plans(dead[0]) == 0


def test_unsolvable_by_statics():
    task = blocksworld(3)
    task.solvable_by_statics = False
    space = expand(task)
    assert space.num_states == blocksworld_states(3)
    assert np.isinf(space.hstar).all()
    assert len(space.goal_states) == 0
    assert python_reference_bfs(task)[2] == math.inf
    with pytest.raises(RuntimeError, match="no goal"):
        space.sampler(0).sample_state()


# ------------------------------------------------------------------------------------------------
# Through the PDDL front end


def test_through_pddl_grounder(tmp_path):
    from symt import pddl
    from symt.generators import domain_file

    domain = domain_file("blocksworld")  # the package's copy of the paper's domain
    problem = tmp_path / "bw4.pddl"
    problem.write_text(tower_reversal_problem(4))
    task = pddl.ground(str(domain), str(problem))
    space = expand(task)
    assert space.num_states == 125
    assert python_reference_bfs(task) == (125, space.num_transitions, float(space.hstar[0]))
    assert space.hstar[0] == expand(blocksworld(4)).hstar[0]
