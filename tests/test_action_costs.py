"""Action costs in the expander: h* is the cheapest cost to the goal (a Dijkstra search), the
distance layers are the fewest steps among the cheapest plans, and optimal plans (the ones
counted and sampled) are the cheapest with the fewest steps, so zero-cost actions cannot make
them infinitely many.

Independent truths: a pure-Python Dijkstra over the pure-Python reference expansion
(``_reference_expand``), plans enumerated by brute force, Fast Downward's own optimal search
(``astar(blind())``) on a classical IPC Transport task, and the plan costs Fast Downward reports.
"""

from __future__ import annotations

import heapq
import itertools
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from symt.pddl import ground
from symt.pddl.task import GroundAction, GroundTask
from symt.statespace import _reference_expand, expand

CLASSICAL = Path(__file__).resolve().parent / "classical_ipc"
FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"


def roads(light_cost: int = 0) -> GroundTask:
    """A truck on five places with roads of different costs (two routes to the goal place: three
    cheap roads or one dear one), a light it may switch on and off at ``light_cost`` (zero: a
    cycle that costs nothing), and a parcel to carry from p1 to p4."""
    places = [f"p{i}" for i in range(5)]
    fluents = [("at", (p,)) for p in places] + [("light", ()), ("parcel-at", ("p1",)), ("parcel-at", ("p4",)),
                                                 ("loaded", ())]
    index = {f: i for i, f in enumerate(fluents)}
    road = {("p0", "p1"): 2, ("p1", "p2"): 1, ("p2", "p3"): 1, ("p3", "p4"): 1, ("p1", "p4"): 4, ("p0", "p4"): 9}
    actions = []
    for (a, b), cost in road.items():
        for x, y in ((a, b), (b, a)):
            actions.append(GroundAction("drive", (x, y), (index[("at", (x,))],), (), (index[("at", (y,))],),
                                        (index[("at", (x,))],), cost))
    actions.append(GroundAction("switch-on", (), (), (index[("light", ())],), (index[("light", ())],), (), light_cost))
    actions.append(GroundAction("switch-off", (), (index[("light", ())],), (), (), (index[("light", ())],), light_cost))
    for p in ("p1", "p4"):
        at, parcel, loaded = index[("at", (p,))], index[("parcel-at", (p,))], index[("loaded", ())]
        actions.append(GroundAction("load", (p,), (at, parcel), (), (loaded,), (parcel,), 1))
        actions.append(GroundAction("unload", (p,), (at, loaded), (), (parcel,), (loaded,), 1))
    init = (index[("at", ("p0",))], index[("parcel-at", ("p1",))])
    return GroundTask("roads", "roads-1", places, {p: "object" for p in places}, {}, frozenset(), fluents, [],
                      [("parcel-at", ("p4",))], init, (index[("parcel-at", ("p4",))],), (), actions)


def reference_cost_to_go(task: GroundTask) -> tuple[list[frozenset[int]], list[tuple[float, float]]]:
    """Every reachable state and its (cheapest cost, fewest steps among the cheapest plans), by a
    Python Dijkstra search over the Python reference expansion."""
    states, edges, _ = _reference_expand(task, 100_000)
    predecessors: list[list[tuple[int, int]]] = [[] for _ in states]
    for s, out in enumerate(edges):
        for a, t in out:
            predecessors[t].append((s, task.actions[a].cost))
    best = [(float("inf"), float("inf"))] * len(states)
    heap = []
    for s, state in enumerate(states):
        if task.is_goal(state):
            best[s] = (0, 0)
            heap.append((0, 0, s))
    heapq.heapify(heap)
    while heap:
        cost, steps, t = heapq.heappop(heap)
        if (cost, steps) != best[t]:
            continue
        for s, c in predecessors[t]:
            if (cost + c, steps + 1) < best[s]:
                best[s] = (cost + c, steps + 1)
                heapq.heappush(heap, (cost + c, steps + 1, s))
    return states, best


@pytest.mark.parametrize("light_cost", [0, 1, 3])
def test_cost_to_go_is_a_dijkstra_search(light_cost: int) -> None:
    task = roads(light_cost)
    space = expand(task)
    states, best = reference_cost_to_go(task)
    assert space.num_states == len(states)
    ids = {space.state_set(s): s for s in range(space.num_states)}
    for state, (cost, steps) in zip(states, best, strict=True):
        s = ids[state]
        assert space.hstar[s] == cost
        assert space.steps[s] == (steps if np.isfinite(cost) else 2**31 - 1)
    # p0 -> p1 (2), load, p1 -> p4 via p2, p3 (3) or directly (4): 2 + 1 + 3 + 1 = 7 in 6 steps.
    assert space.hstar[0] == 7 and space.steps[0] == 6
    assert space.max_finite_hstar == max(c for c, _ in best if np.isfinite(c))
    assert space.max_finite_steps == max(s for _, s in best if np.isfinite(s))
    layer = {int(s) for d in range(space.max_finite_steps + 1) for s in space.states_at_distance(d)}
    assert layer == {ids[state] for state, (c, _) in zip(states, best, strict=True) if np.isfinite(c)}


def optimal_plans_by_brute_force(task: GroundTask, cost: int, steps: int) -> set[tuple[int, ...]]:
    """Every action sequence of ``steps`` actions from the initial state that costs ``cost`` and
    reaches the goal (no self-loops, as the expander has none)."""
    plans = set()

    def extend(state: frozenset[int], plan: tuple[int, ...], spent: int) -> None:
        if spent > cost:
            return
        if len(plan) == steps:
            if spent == cost and task.is_goal(state):
                plans.add(plan)
            return
        for a, action in enumerate(task.actions):
            if task.applicable(action, state):
                following = task.apply(action, state)
                if following != state:
                    extend(following, (*plan, a), spent + action.cost)

    extend(frozenset(task.init), (), 0)
    return plans


def test_zero_cost_actions_leave_finitely_many_optimal_plans_sampled_uniformly() -> None:
    """The light switches for free: a cheapest plan may switch it any number of times, but the
    optimal plans (the fewest steps among the cheapest) never do: here the one plan through p2
    and p3 (cost 7; the direct road p1 -> p4 makes it 8), counted and sampled; every sampled
    state's sampled plan has its steps and costs its h*."""
    task = roads(light_cost=0)
    space = expand(task)
    plans = optimal_plans_by_brute_force(task, int(space.hstar[0]), int(space.steps[0]))
    assert space.num_optimal_plans(0) == pytest.approx(len(plans))
    sampler = space.sampler(7)
    drawn = {tuple(sampler.random_optimal_plan(0)) for _ in range(50)}
    assert drawn == plans
    for s in sampler.sample_states(200).tolist():
        plan = sampler.random_optimal_plan(s)
        assert len(plan) == space.steps[s]
        assert sum(task.actions[a].cost for a in plan) == space.hstar[s]


def test_optimal_plans_with_ties_are_uniform() -> None:
    """The direct road p1 -> p4 made to cost 3, as the route through p2 and p3 does: two cheapest
    plans, the direct one with fewer steps, so it is the one optimal plan. A second road from p0
    to p1 of the same cost: two plans tie in cost and steps, and are drawn uniformly."""
    task = roads(light_cost=0)
    same = [replace(a, cost=3) if a.name == "drive" and set(a.args) == {"p1", "p4"} else a for a in task.actions]
    space = expand(replace(task, actions=same))
    assert space.hstar[0] == 7 and space.steps[0] == 4
    assert space.num_optimal_plans(0) == pytest.approx(1)
    index = {f: i for i, f in enumerate(task.fluent_atoms)}
    at0, at1 = index[("at", ("p0",))], index[("at", ("p1",))]
    twin = GroundAction("ferry", ("p0", "p1"), (at0,), (), (at1,), (at0,), 2)
    tied = replace(task, actions=[*same, twin])
    space = expand(tied)
    plans = optimal_plans_by_brute_force(tied, int(space.hstar[0]), int(space.steps[0]))
    assert len(plans) == 2 and space.num_optimal_plans(0) == pytest.approx(2)
    sampler = space.sampler(3)
    counts = Counter(tuple(sampler.random_optimal_plan(0)) for _ in range(4000))
    assert set(counts) == plans
    assert all(abs(c - 2000) < 200 for c in counts.values()), counts


def test_unit_costs_are_breadth_first() -> None:
    """Every action costing 1 is no costs: steps are h*, as before."""
    task = roads()
    unit = replace(task, actions=[replace(a, cost=1) for a in task.actions])
    space = expand(unit)
    assert len(space.action_costs) == 0
    assert np.array_equal(space.steps, space.hstar_int)


def test_ground_reads_action_costs_as_fast_downward_does() -> None:
    """With a metric, an action costs its ``increase`` (a number or a function value of the
    problem), 0 without one; without a metric, every action costs 1."""
    folder = CLASSICAL / "transport-sat08-strips"
    task = ground(folder / "domain.pddl", folder / "p01.pddl")
    costs = {(a.name, a.args): a.cost for a in task.actions}
    assert {c for (name, _), c in costs.items() if name in ("pick-up", "drop")} == {1}
    assert len({c for (name, _), c in costs.items() if name == "drive"}) > 1
    text = (folder / "p01.pddl").read_text()
    assert "(:metric minimize (total-cost))" in text


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_cost_to_go_is_fast_downwards_optimal_cost(tmp_path: Path) -> None:
    """On IPC 2008 Transport p01 (road lengths as action costs), h* of the initial state is the
    cost of the plan Fast Downward's optimal search finds, and a sampled optimal plan costs as
    much by Fast Downward's own count (its plan file's cost line, VAL-free)."""
    folder = CLASSICAL / "transport-sat08-strips"
    result = subprocess.run([str(FAST_DOWNWARD), str(folder / "domain.pddl"), str(folder / "p01.pddl"),
                             "--search", "astar(blind())"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-2000:]
    cost = int(next(line for line in result.stdout.splitlines() if "Plan cost:" in line).split()[-1])
    task = ground(folder / "domain.pddl", folder / "p01.pddl")
    space = expand(task)
    assert space.hstar[0] == cost
    plan = space.sampler(1).random_optimal_plan(0)
    from symt.data import plan_labels

    plan_file = tmp_path / "plan"
    plan_file.write_text("".join(task.actions[a].label() + "\n" for a in plan))
    labels = plan_labels(task, plan_file, exact=True)
    assert labels.remaining[0] == cost and labels.remaining[-1] == 0
    # Along an optimal plan the remaining cost is h* of each state.
    ids = {space.state_set(s): s for s in range(space.num_states)}
    for facts, remaining in zip(labels.states, labels.remaining, strict=True):
        assert space.hstar[ids[frozenset(facts.tolist())]] == remaining
    assert list(itertools.accumulate(task.actions[a].cost for a in plan))[-1] == cost


@pytest.mark.parametrize("light_cost", [0, 1, 3])
def test_ranking_pairs_agree_with_the_cost_to_go(light_cost: int) -> None:
    """A sibling pair for the ranking loss is (a successor on a cheapest plan, one at least one
    unit farther from the goal): with costs, a successor off every cheapest plan can be nearer the
    goal (reached by a dear action), and such a pair would pull the ranking against the regression."""
    from symt.sampling import PairSampler

    space = expand(roads(light_cost))
    rng = np.random.default_rng(0)
    pairs = 0
    for state in range(space.num_states):
        for _ in range(5):
            pair = PairSampler.sibling_pair(space, state, rng)
            if pair is None:
                continue
            good, bad = pair
            assert space.optimal_transitions(state)[list(space.successors(state)[1]).index(good)]
            assert space.hstar[bad] >= space.hstar[good] + 1
            pairs += 1
    assert pairs > 50
