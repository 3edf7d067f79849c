"""Tests of the seeded problem generators and the dataset splits (independent of the parser)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter, deque
from itertools import permutations, product

import pytest

from symt.errors import SymtError
from symt.generators import (
    DOMAINS,
    blocksworld,
    domain_file,
    generate_sized_tasks,
    generate_split_tasks,
    generate_task,
    write_dataset,
)

# --------------------------------------------------------------------------------------------
# A minimal reader for the generated files (regexes are enough for our own flat output).

ATOM_RE = re.compile(r"\(([^()\s]+)((?:\s+[^()\s]+)*)\)")


def parse(text: str) -> dict:
    """Problem name, domain, objects (in file order), init atoms and goal atoms."""
    name = re.search(r"\(define \(problem ([^()\s]+)\)", text).group(1)
    domain = re.search(r"\(:domain ([^()\s]+)\)", text).group(1)
    objects = re.search(r"\(:objects([^()]*)\)", text).group(1).split()
    init_text = text[text.index("(:init") : text.index("(:goal")]
    goal_text = text[text.index("(:goal") :]
    init = [(m.group(1), *m.group(2).split()) for m in ATOM_RE.finditer(init_text[6:])]
    goal_body = goal_text[len("(:goal (and") :]
    goal = [(m.group(1), *m.group(2).split()) for m in ATOM_RE.finditer(goal_body)]
    return {"name": name, "domain": domain, "objects": objects, "init": init, "goal": goal}


@pytest.fixture(scope="module")
def all_tasks() -> dict:
    return {d: generate_split_tasks(d, seed=0) for d in DOMAINS}


# --------------------------------------------------------------------------------------------
# Splits: the paper's table (sizes, counts) plus our validation counts.

EXPECTED = {
    "blocksworld": {
        "train": {4: 3, 6: 3, 7: 3},
        "validation": {8: 3},
        "interpolation": {5: 3},
        "extrapolation": {9: 3, 10: 3, **{s: 2 for s in range(11, 18)}},
    },
    "gripper": {
        "train": {2: 1, 4: 1, 6: 1, 8: 1},
        "validation": {9: 1, 10: 1},
        "interpolation": {3: 1, 5: 1, 7: 1},
        "extrapolation": {s: 1 for s in range(12, 43, 2)},
    },
    "logistics": {
        "train": {1: 4, 3: 4, 5: 4},
        "validation": {6: 4},
        "interpolation": {2: 5, 4: 4},
        "extrapolation": {s: 2 for s in range(7, 16)},
    },
    "visitall": {
        "train": {s: 23 for s in (1, 3, 4, 6, 10, 11, 12, 14, 16)},
        "validation": {18: 15, 20: 15},
        "interpolation": {2: 8, 5: 8, 8: 7, 9: 7, 15: 7},
        "extrapolation": {s: (3 if s <= 46 else 2) for s in range(24, 122)},
    },
}
PAPER_TOTALS = {  # train / interpolation / extrapolation counts stated in the paper
    "blocksworld": (9, 3, 20),
    "gripper": (4, 3, 16),
    "logistics": (12, 9, 18),
    "visitall": (207, 37, 219),
}


@pytest.mark.parametrize("domain", DOMAINS)
def test_split_sizes_and_counts(all_tasks, domain):
    tasks = all_tasks[domain]
    got: dict = {}
    for t in tasks:
        got.setdefault(t.split, Counter())[t.size] += 1
    assert {s: dict(c) for s, c in got.items()} == EXPECTED[domain]
    train, interp, extrap = PAPER_TOTALS[domain]
    assert sum(got["train"].values()) == train
    assert sum(got["interpolation"].values()) == interp
    assert sum(got["extrapolation"].values()) == extrap
    # fixed order: splits, then sizes ascending, then index
    order = ["train", "validation", "interpolation", "extrapolation"]
    keys = [(order.index(t.split), t.size, t.index) for t in tasks]
    assert keys == sorted(keys)


@pytest.mark.parametrize("domain", DOMAINS)
def test_names_and_opaque_objects(all_tasks, domain):
    tasks = all_tasks[domain]
    assert len({t.name for t in tasks}) == len(tasks)
    pddl_domain = re.search(r"\(domain ([^()\s]+)\)", domain_file(domain).read_text()).group(1)
    for t in tasks:
        assert t.name == f"{domain}-{t.split}-n{t.size}-{t.index}"
        p = parse(t.pddl)
        assert p["name"] == t.name
        assert p["domain"] == pddl_domain
        n = len(p["objects"])
        assert n == t.num_objects
        assert sorted(p["objects"]) == sorted(f"o{i}" for i in range(1, n + 1))
        used = {a for atom in p["init"] + p["goal"] for a in atom[1:]}
        assert used <= set(p["objects"])


def test_object_order_is_shuffled(all_tasks):
    # Over many tasks, objects are not listed in numeric order (or any fixed role order).
    tasks = [t for d in DOMAINS for t in all_tasks[d] if t.num_objects >= 6]
    sorted_lists = sum(
        parse(t.pddl)["objects"] == sorted(parse(t.pddl)["objects"], key=lambda o: int(o[1:]))
        for t in tasks
    )
    assert sorted_lists <= len(tasks) // 50


@pytest.mark.slow
@pytest.mark.parametrize("domain", DOMAINS)
def test_determinism(domain):
    a = [t.pddl for t in generate_split_tasks(domain, seed=0)]
    b = [t.pddl for t in generate_split_tasks(domain, seed=0)]
    c = [t.pddl for t in generate_split_tasks(domain, seed=1)]
    assert a == b
    assert a != c
    assert sum(x != y for x, y in zip(a, c, strict=True)) >= len(a) // 2


@pytest.mark.parametrize("domain", DOMAINS)
def test_task_reproducible_from_recorded_seed(all_tasks, domain):
    seeds = set()
    for t in all_tasks[domain][::7]:
        assert generate_task(domain, t.size, t.seed, t.name) == t.pddl
        seeds.add(t.seed)
    assert len(seeds) == len(all_tasks[domain][::7])


def test_sized_tasks_outside_the_splits(all_tasks):
    """Tasks at a size no split uses (extend_dataset.py): distinct up to renaming, named and
    seeded apart from every split's, reproducible from their recorded seeds."""
    tasks = generate_sized_tasks("visitall", "planned", 21, 19, seed=0)
    assert [t.name for t in tasks] == [f"visitall-planned-n21-{i}" for i in range(19)]
    keys = set()
    for t in tasks:
        p = parse(t.pddl)
        cells = p["objects"]
        edges = {(a[1], a[2]) for a in p["init"] if a[0] == "connected"}
        rows, cols, coords = grid_coordinates(cells, edges)
        (robot,) = [a[1] for a in p["init"] if a[0] == "at-robot"]
        i, j = coords[robot]
        if rows > cols:  # the embedding may come out transposed
            rows, cols, i, j = cols, rows, j, i
        keys.add(((rows, cols), min((a, b) for a in (i, rows - 1 - i) for b in (j, cols - 1 - j))))
        assert generate_task("visitall", 21, t.seed, t.name) == t.pddl
    # shapes first (1 x 21 and 3 x 7 get 10 and 9 tasks), distinct start orbits within a shape:
    # 1 x 21 has 11 start orbits, 3 x 7 only 2 x 4 = 8
    per_shape = Counter(shape for shape, _ in keys)
    counts = Counter((t.info["rows"], t.info["cols"]) for t in tasks)
    assert sorted(counts.values()) == [9, 10]
    assert per_shape[(1, 21)] == min(counts[(1, 21)], 11)
    assert per_shape[(3, 7)] == min(counts[(3, 7)], 8)
    assert {t.seed for t in tasks}.isdisjoint({t.seed for t in all_tasks["visitall"]})
    assert [t.pddl for t in tasks] == [t.pddl for t in generate_sized_tasks("visitall", "planned", 21, 19)]


def test_unknown_domain():
    with pytest.raises(SymtError, match="blocksworld.*gripper.*logistics.*visitall"):
        generate_split_tasks("sokoban")
    with pytest.raises(SymtError):
        domain_file("sokoban")


# --------------------------------------------------------------------------------------------
# Blocksworld


def brute_force_states(n: int) -> int:
    """Count hand-empty states: 'below' maps (block -> block or table), injective, acyclic."""
    count = 0
    for below in product(range(-1, n), repeat=n):
        if any(below[b] == b for b in range(n)):
            continue
        supports = [x for x in below if x >= 0]
        if len(supports) != len(set(supports)):
            continue
        acyclic = True
        for b in range(n):
            seen, x = set(), b
            while x >= 0 and acyclic:
                if x in seen:
                    acyclic = False
                seen.add(x)
                x = below[x]
        count += acyclic
    return count


def test_blocksworld_state_counts():
    assert [blocksworld.num_states(n) for n in range(8)] == [1, 1, 3, 13, 73, 501, 4051, 37633]
    assert [brute_force_states(n) for n in (1, 2, 3, 4)] == [1, 3, 13, 73]


def test_blocksworld_sampler_uniform_on_three_blocks():
    rng = random.Random(12345)
    samples = 6500
    counts = Counter(
        blocksworld.canonical_state(blocksworld.sample_state(3, rng)) for _ in range(samples)
    )
    assert len(counts) == 13
    expected = samples / 13
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 32.9  # chi-square, 12 degrees of freedom, p = 0.001


def blocks_state(atoms: list, blocks: list) -> dict:
    """Check a blocksworld initial state and return block -> what it is on (None = table)."""
    on = [a for a in atoms if a[0] == "on"]
    ontable = {a[1] for a in atoms if a[0] == "ontable"}
    clear = {a[1] for a in atoms if a[0] == "clear"}
    assert ("handempty",) in atoms
    assert not [a for a in atoms if a[0] == "holding"]
    below: dict = {}
    for _, x, y in on:
        assert x not in below
        below[x] = y
    for x in ontable:
        assert x not in below
        below[x] = None
    assert set(below) == set(blocks)
    supports = [y for y in below.values() if y is not None]
    assert len(supports) == len(set(supports))
    for x in blocks:  # no cycles
        seen = set()
        while x is not None:
            assert x not in seen
            seen.add(x)
            x = below[x]
    assert clear == set(blocks) - set(supports)
    return below


def test_blocksworld_tasks_valid_and_distinct(all_tasks):
    by_size: dict = {}
    for t in all_tasks["blocksworld"]:
        p = parse(t.pddl)
        blocks = p["objects"]
        assert len(blocks) == t.size
        assert {a[0] for a in p["init"]} <= {"on", "ontable", "clear", "handempty"}
        below = blocks_state(p["init"], blocks)
        # goal: one tower of all blocks: n-1 `on` atoms and the bottom block on the table
        goal_on = {a[1]: a[2] for a in p["goal"] if a[0] == "on"}
        goal_table = [a[1] for a in p["goal"] if a[0] == "ontable"]
        assert len(p["goal"]) == t.size and len(goal_on) == t.size - 1 and len(goal_table) == 1
        tower = [goal_table[0]]
        upper = {v: k for k, v in goal_on.items()}
        assert len(upper) == t.size - 1
        while tower[-1] in upper:
            tower.append(upper[tower[-1]])
        assert sorted(tower) == sorted(blocks)
        goal_below = {b: (tower[i - 1] if i else None) for i, b in enumerate(tower)}
        assert below != goal_below  # the goal does not hold initially
        pos = {b: i for i, b in enumerate(tower)}
        key = frozenset((pos[x], None if y is None else pos[y]) for x, y in below.items())
        by_size.setdefault((t.split, t.size), []).append(key)
    for keys in by_size.values():
        assert len(set(keys)) == len(keys)


def test_blocksworld_initial_states_vary():
    rng = random.Random(3)
    towers = Counter(len(blocksworld.sample_state(10, rng)) for _ in range(300))
    assert len(towers) >= 4


# --------------------------------------------------------------------------------------------
# Gripper


def test_gripper_structure(all_tasks):
    for t in all_tasks["gripper"]:
        p = parse(t.pddl)
        init, goal = p["init"], p["goal"]
        rooms = {a[1] for a in init if a[0] == "room"}
        grippers = {a[1] for a in init if a[0] == "gripper"}
        balls = {a[1] for a in init if a[0] == "ball"}
        assert len(rooms) == 2 and len(grippers) == 2 and len(balls) == t.size
        assert len(rooms | grippers | balls) == len(p["objects"]) == t.size + 4
        (robby,) = [a[1] for a in init if a[0] == "at-robby"]
        (other,) = rooms - {robby}
        assert {a[1] for a in init if a[0] == "free"} == grippers
        assert {(a[1], a[2]) for a in init if a[0] == "at"} == {(b, robby) for b in balls}
        assert not [a for a in init if a[0] == "carry"]
        assert len(init) == 2 + 2 + t.size + 1 + 2 + t.size
        assert sorted(goal) == sorted(("at", b, other) for b in balls)


# --------------------------------------------------------------------------------------------
# Logistics


def test_logistics_structure(all_tasks):
    for t in all_tasks["logistics"]:
        p = parse(t.pddl)
        init = p["init"]

        def of(pred, init=init):
            return {a[1] for a in init if a[0] == pred}

        packages, trucks, planes = of("package"), of("truck"), of("airplane")
        locations, airports, cities = of("location"), of("airport"), of("city")
        kinds = [packages, trucks, planes, locations, cities]
        assert sum(map(len, kinds)) == len(p["objects"])  # every object has exactly one type
        assert set().union(*kinds) == set(p["objects"])
        assert airports <= locations
        city_of = {a[1]: a[2] for a in init if a[0] == "in-city"}
        assert set(city_of) == locations and set(city_of.values()) == cities
        assert sorted(city_of[a] for a in airports) == sorted(cities)  # one airport per city
        at = {a[1]: a[2] for a in init if a[0] == "at"}
        assert len(at) == len([a for a in init if a[0] == "at"])
        assert set(at) == packages | trucks | planes
        assert not [a for a in init if a[0] == "in"]
        assert all(at[x] in locations for x in packages | trucks)
        assert all(at[x] in airports for x in planes)
        assert len(trucks) == len(cities)
        assert sorted(city_of[at[x]] for x in trucks) == sorted(cities)  # one truck per city
        # goals: one per package, each different from the package's start
        goal = p["goal"]
        assert len(goal) == t.size == len(packages)
        assert {g[1] for g in goal} == packages
        for _, pkg, dest in goal:
            assert dest in locations and dest != at[pkg]
        if t.split in ("train", "validation"):  # state space small enough to expand
            positions = len(locations) + len(trucks) + len(planes)
            bound = positions**t.size * len(airports) ** len(planes)
            for c in cities:  # a truck stays in its city
                bound *= sum(city_of[loc] == c for loc in locations)
            assert bound < 1_000_000


def logistics_canonical(p: dict) -> tuple:
    """The task up to renaming: cities are the only objects not told apart by the atoms below,
    so minimise over their permutations (packages and airplanes compared as sorted lists)."""
    init = p["init"]
    cities = sorted(a[1] for a in init if a[0] == "city")
    airports = {a[1] for a in init if a[0] == "airport"}
    city_of = {a[1]: a[2] for a in init if a[0] == "in-city"}
    at = {a[1]: a[2] for a in init if a[0] == "at"}
    packages = [a[1] for a in init if a[0] == "package"]
    goal = {g[1]: g[2] for g in p["goal"]}
    # locations per city are one airport + one other, so (city, is-airport) identifies them
    best = None
    for perm in permutations(range(len(cities))):
        idx = {c: perm[i] for i, c in enumerate(cities)}

        def enc(loc, idx=idx):
            return (idx[city_of[loc]], loc in airports)

        key = (
            sorted((enc(at[x]), enc(goal[x])) for x in packages),
            sorted(enc(at[a[1]]) for a in init if a[0] == "truck"),
            sorted(enc(at[a[1]]) for a in init if a[0] == "airplane"),
        )
        best = key if best is None or key < best else best
    return best


def test_logistics_tasks_distinct(all_tasks):
    groups: dict = {}
    for t in all_tasks["logistics"]:
        groups.setdefault((t.split, t.size), []).append(repr(logistics_canonical(parse(t.pddl))))
    for keys in groups.values():
        assert len(set(keys)) == len(keys)


# --------------------------------------------------------------------------------------------
# Visitall


def grid_coordinates(cells: list, edges: set) -> tuple[int, int, dict]:
    """Reconstruct an r x c grid embedding of the `connected` graph, or fail an assertion."""
    n = len(cells)
    adj = {c: set() for c in cells}
    for x, y in edges:
        assert (y, x) in edges  # both directions
        adj[x].add(y)

    def bfs(src):
        dist = {src: 0}
        queue = deque([src])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist

    if n == 1:
        return 1, 1, {cells[0]: (0, 0)}
    corners = [c for c in cells if len(adj[c]) <= 2]
    a = min(corners, key=lambda c: (len(adj[c]), c))
    da = bfs(a)
    assert len(da) == n  # connected
    far = max(da.values())
    if len(adj[a]) == 1:  # a path 1 x n
        rows, cols = 1, n
        coords = {c: (0, da[c]) for c in cells}
    else:
        others = [c for c in corners if c != a and len(adj[c]) == 2]
        dists = sorted(da[c] for c in others)
        assert len(others) == 3 and dists[2] == far
        rows, cols = dists[0] + 1, dists[1] + 1
        b = next(c for c in others if da[c] == cols - 1)
        db = bfs(b)
        coords = {}
        for c in cells:
            j2 = da[c] - db[c] + cols - 1
            assert j2 % 2 == 0
            j = j2 // 2
            coords[c] = (da[c] - j, j)
    assert rows * cols == n
    assert sorted(coords.values()) == [(i, j) for i in range(rows) for j in range(cols)]
    expected = {
        (x, y)
        for x in cells
        for y in cells
        if abs(coords[x][0] - coords[y][0]) + abs(coords[x][1] - coords[y][1]) == 1
    }
    assert edges == expected
    return rows, cols, coords


def test_visitall_grids(all_tasks):
    shapes_by_size: dict = {}
    starts: dict = {}
    for t in all_tasks["visitall"]:
        p = parse(t.pddl)
        init = p["init"]
        cells = p["objects"]
        assert len(cells) == t.size
        assert {a[1] for a in init if a[0] == "place"} == set(cells)
        edges = {(a[1], a[2]) for a in init if a[0] == "connected"}
        assert len(edges) == len([a for a in init if a[0] == "connected"])
        rows, cols, coords = grid_coordinates(cells, edges)
        assert (rows, cols) in ((t.info["rows"], t.info["cols"]), (t.info["cols"], t.info["rows"]))
        (robot,) = [a[1] for a in init if a[0] == "at-robot"]
        assert [a[1] for a in init if a[0] == "visited"] == [robot]
        assert len(init) == t.size + len(edges) + 2
        assert sorted(p["goal"]) == sorted(("visited", c) for c in cells)
        shapes_by_size.setdefault(t.size, set()).add((min(rows, cols), max(rows, cols)))
        i, j = coords[robot]
        orbit = (
            min((min(a, b), max(a, b)) for a in (i, rows - 1 - i) for b in (j, cols - 1 - j))
            if rows == cols
            else min((a, b) for a in (i, rows - 1 - i) for b in (j, cols - 1 - j))
        )
        starts.setdefault((t.split, t.size), []).append(((rows, cols), orbit))
    # every factorisation r <= c is used when a size has enough tasks
    for n in EXPECTED["visitall"]["train"]:
        factorisations = {(r, n // r) for r in range(1, n + 1) if n % r == 0 and r <= n // r}
        assert shapes_by_size[n] == factorisations
    assert shapes_by_size[16] == {(1, 16), (2, 8), (4, 4)}
    # tasks of one size are distinct up to symmetry when there are enough distinct tasks
    assert len(set(starts[("train", 16)])) == 15  # all distinct (shape, start) classes of 16 cells
    for key, items in starts.items():
        if key[0] == "extrapolation":
            assert len(set(items)) == len(items)


# --------------------------------------------------------------------------------------------
# write_dataset


def test_write_dataset(tmp_path):
    calls = []

    def fake_lengths(domain_path, problem_path):
        calls.append((domain_path, problem_path))
        assert domain_path.exists() and problem_path.exists()
        return None if "extrapolation" in problem_path.parts else len(problem_path.name)

    manifest_path = write_dataset(
        "gripper", tmp_path / "out", seed=0, optimal_lengths=fake_lengths, progress=False
    )
    out = tmp_path / "out"
    assert manifest_path == out / "manifest.json"
    assert (out / "domain.pddl").read_text() == domain_file("gripper").read_text()
    entries = json.loads(manifest_path.read_text())
    tasks = generate_split_tasks("gripper", seed=0)
    assert len(entries) == len(tasks) == len(calls)
    for e, t in zip(entries, tasks, strict=True):
        assert (e["split"], e["size"], e["index"], e["seed"]) == (t.split, t.size, t.index, t.seed)
        assert e["file"] == f"{t.split}/{t.name}.pddl"
        assert (out / e["file"]).read_text() == t.pddl
        assert e["num_objects"] == t.size + 4
        if t.split == "extrapolation":
            assert e["optimal_plan_length"] is None
        else:
            assert e["optimal_plan_length"] == len(t.name) + len(".pddl")
    # without a length function the field is null
    entries = json.loads(write_dataset("blocksworld", tmp_path / "b", progress=False).read_text())
    assert all(e["optimal_plan_length"] is None for e in entries)
    assert {p.name for p in (tmp_path / "b").iterdir()} == {
        ".lock",  # symt.folders' lock file (kept: removing it would race with a waiting writer)
        "domain.pddl",
        "manifest.json",
        "train",
        "validation",
        "interpolation",
        "extrapolation",
    }


@pytest.mark.parametrize("domain", DOMAINS)
def test_domain_files_shipped(domain):
    text = domain_file(domain).read_text()
    assert text.lstrip().startswith("(define (domain")
