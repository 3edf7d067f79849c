"""The ``object-distance`` attention bias: object-graph distances against a truth the code does not
compute (a grid's Manhattan distances, read off the cell names of an IPC Visitall task), its
start as the ``shared-object`` model, its invariances, and the exported module's values."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from model_files import random_model
from symt.export import ExportedSymTE
from symt.model import SymTE
from symt.model_config import ModelConfig
from symt.model_objects import (
    DISTANCE_CHANNELS,
    distance_channels,
    graph_edges,
    object_distances,
    shared_objects,
)
from symt.pddl import ground, parse_domain, parse_problem
from symt.tokens import (
    collate,
    context_predicate_ids,
    domain_signature,
    encode_task,
    graph_predicate_ids,
    graph_slot_ids,
    identity_assignment,
    rename,
)

VISITALL = Path(__file__).parent / "classical_ipc" / "visitall-sat11-strips"
TINY = {"d_model": 16, "n_heads": 2, "n_layers": 2, "d_ff": 32, "d_embed": 8, "readout_hidden": 16, "k": 8}


@pytest.fixture(scope="module")
def visitall():
    """The IPC 2011 Visitall task on a full 12 x 12 grid: its encoding and its initial state's rows."""
    domain = parse_domain(VISITALL / "domain.pddl")
    task = ground(domain, parse_problem(VISITALL / "problem12.pddl", domain))
    signature = domain_signature(domain)
    encoded = encode_task(task, signature, domain)
    rows = rename(encoded.state_rows(list(task.init)), identity_assignment(len(task.objects)), 200)
    return task, signature, graph_predicate_ids(signature, domain, "object-distance"), rows


def model(seed: int, signature, graph: list[int] | None, bias: str, **overrides) -> SymTE:
    torch.manual_seed(seed)
    config = ModelConfig(num_predicates=signature.num_predicates, max_arity=signature.max_arity,
                         vocab_size=200, object_identity="hashed", attention_scale="log-length",
                         readout="atoms", attention_bias=bias, graph_predicates=graph, **{**TINY, **overrides})
    return SymTE(config).eval()


def test_graph_predicates_are_the_static_relations(visitall):
    _, signature, graph, _ = visitall
    assert [signature.predicates[i][0] for i in graph] == ["connected"]


def test_object_graph_distances_are_the_grids_manhattan_distances(visitall):
    task, signature, graph, rows = visitall
    net = model(0, signature, graph, "object-distance")
    pred, args, mask = collate([rows], 200)
    objects, distances = net.object_distances(pred[0], args[0], mask[0])
    xy = {i: tuple(int(v) for v in re.fullmatch(r"loc-x(\d+)-y(\d+)", name).groups())
          for i, name in enumerate(task.objects)}
    assert objects.tolist() == sorted(xy)  # identity tokens: token i is object i
    truth = torch.tensor([[abs(xy[a][0] - xy[b][0]) + abs(xy[a][1] - xy[b][1]) for b in objects.tolist()]
                          for a in objects.tolist()], dtype=torch.float32)
    assert torch.equal(distances, truth) and truth.max() == 22
    # Capped: beyond max_distance a pair reads max_distance.
    capped = model(0, signature, graph, "object-distance", max_distance=5)
    assert torch.equal(capped.object_distances(pred[0], args[0], mask[0])[1], truth.clamp(max=5))


def test_distance_channels_of_atoms_are_the_least_over_their_objects(visitall):
    """at-robot(c) against visited(c'): channel 3 is the cells' distance, channels 0-2 mark
    distances 1-3 (times ln n); a nullary atom and an object with no edge have no path."""
    task, signature, graph, _ = visitall
    net = model(0, signature, graph, "object-distance")
    ids = signature.predicate_ids()
    xy = {name: tuple(int(v) for v in re.fullmatch(r"loc-x(\d+)-y(\d+)", name).groups()) for name in task.objects}
    cells = [task.objects.index(n) for n in ("loc-x0-y0", "loc-x1-y0", "loc-x3-y4", "loc-x11-y11")]
    edges = [[ids["connected"], a, b] for a in range(len(task.objects)) for b in range(len(task.objects))
             if sum(abs(u - v) for u, v in zip(xy[task.objects[a]], xy[task.objects[b]], strict=True)) == 1]
    lonely = len(task.objects)  # an object in no connected atom
    rows = np.array(edges + [[ids["at-robot"], cells[0], -1]] + [[ids["visited"], c, -1] for c in cells]
                    + [[ids["visited"], lonely, -1]])
    pred, args, mask = collate([rename(rows, identity_assignment(lonely + 1), 200)], 200)
    objects, distances = net.object_distances(pred[0], args[0], mask[0])
    robot, visited = len(edges), range(len(edges) + 1, len(edges) + 6)
    query, key = args[0, [robot]], args[0, list(visited)]
    shared = shared_objects(query[None], key[None], 200, slots=False)[0][0]
    channels = distance_channels(objects, distances, query, key, shared, torch.full((1,), 2.0), 200)
    assert channels.shape == (DISTANCE_CHANNELS, 1, 5)
    assert channels[3, 0].tolist() == [0.0, 1.0, 7.0, 22.0, 0.0]
    assert channels[4, 0].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert channels[0, 0].tolist() == [0.0, 2.0, 0.0, 0.0, 0.0]
    assert channels[1:3].sum() == 0


def test_object_distance_starts_as_shared_object_keeps_its_invariances_and_exports(visitall):
    """Its distance weights at 0, the model computes the shared-object model's values (same
    weights); set, it computes others, unchanged by atom order, its bias unchanged by a renaming
    of the objects; the scripted
    module written for Fast Downward gives the Python model's values, padding included."""
    task, signature, graph, rows = visitall
    distance = model(3, signature, graph, "object-distance")
    shared = model(3, signature, None, "shared-object")
    assert {"layer.distance_bias"} == set(distance.state_dict()) - set(shared.state_dict())
    rng = np.random.default_rng(4)
    raw = rows.copy()
    # A second state of another graph: the grid cut in two along column 5 (no connected atom
    # touches it), some of the other atoms left out.
    column = [i for i, name in enumerate(task.objects) if name.startswith("loc-x5-")]
    cut = (raw[:, 0] == signature.predicate_ids()["connected"]) & np.isin(raw[:, 1:], column).any(axis=1)
    second = raw[~cut][rng.permutation(int((~cut).sum()))[:-40]]
    batch = collate([raw, second], 200)
    with torch.no_grad():
        assert torch.allclose(distance(*batch)[0], shared(*batch)[0], atol=1e-5)
        distance.layer.distance_bias.normal_(generator=torch.Generator().manual_seed(0))
        h = distance(*batch)[0]
        assert not torch.allclose(h, shared(*batch)[0], atol=1e-3)
        # The two states' graphs differ (the second lacks some edges): each is valued by its own.
        assert torch.allclose(distance(*collate([second], 200))[0], h[1:], atol=1e-5)
        shuffled = collate([r[rng.permutation(len(r))] for r in (raw, second)], 200)
        assert torch.allclose(distance(*shuffled)[0], h, atol=1e-4)
        # The object codes change with a renaming (the contrastive loss teaches the model not to
        # mind); the bias reads token equality only, so its channels do not change at all.
        renaming = rng.permutation(200)
        renamed = batch[1].clone()
        real = renamed < 200
        renamed[real] = torch.from_numpy(renaming)[renamed[real]]
        log_n = torch.ones(batch[0].shape)
        assert torch.equal(distance.object_bias_channels(batch[0], renamed, batch[2], log_n),
                           distance.object_bias_channels(batch[0], batch[1], batch[2], log_n))
        scripted = torch.jit.script(ExportedSymTE(distance))
        assert torch.allclose(scripted(*batch), h, atol=1e-5)
        # The internals' path (the contrastive loss's) computes the same values.
        assert torch.allclose(distance(*batch, True)[0], h, atol=1e-5)


@pytest.mark.parametrize("context_keys", ["all", "object-means"])
def test_context_cache_gives_the_full_models_values_with_object_distance(visitall, context_keys: str):
    """A context-attention model with the bias: the task's graph cached once by encode_context
    (in one piece and in chunks alike), then forward_states on the fluent atoms of three states
    (padded) equals forward on all atoms, state by state; with the context's keys pooled per
    object (a state's atoms then read the bias against the objects) as with every atom's."""
    task, signature, graph, _ = visitall
    domain = parse_domain(VISITALL / "domain.pddl")
    net = model(1, signature, graph, "object-distance",
                context_predicates=context_predicate_ids(signature, domain), context_keys=context_keys)
    with torch.no_grad():
        net.layer.distance_bias.normal_(generator=torch.Generator().manual_seed(2))
    encoded = encode_task(task, signature, domain)
    assignment = identity_assignment(len(task.objects))
    rng = np.random.default_rng(6)
    states = [sorted(set(task.init) | set(rng.choice(len(task.fluent_atoms), size, replace=False).tolist()))
              for size in (0, 5, 30)]
    fluents = [rename(encoded.fluent_rows[s], assignment, 200) for s in states]
    context = rename(encoded.fixed_rows, assignment, 200)
    with torch.no_grad():
        full = [float(net(*collate([np.concatenate([f, context])], 200))[0][0]) for f in fluents]
        pred, args = (t[0] for t in collate([context], 200)[:2])
        cache = net.encode_context(pred, args)
        cached = net.forward_states(*cache, *collate(fluents, 200))
        net.context_chunk_scores = 7 * len(context)
        chunked = net.encode_context(pred, args)
    assert cached.tolist() == pytest.approx(full, abs=1e-4)
    assert len(set(full)) == 3
    for a, b in zip(cache, chunked, strict=True):
        assert torch.allclose(a.float(), b.float(), atol=1e-5)


def test_a_task_without_static_relations_has_an_empty_graph():
    """No graph predicate (Blocksworld has none): no objects, and every pair of atoms with no
    object in common reads no path; atoms sharing an object read distance 0."""
    pred, args = torch.tensor([0, 1, 1]), torch.tensor([[3, 4], [5, 9], [6, 9]])  # 9 pads
    edges = graph_edges(pred, args, torch.ones(3, dtype=torch.bool), torch.tensor([False, False]),
                        torch.ones(2, 2, dtype=torch.bool), 9)
    assert edges.shape == (0, 3)
    objects, distances = object_distances(edges, 9, 64)
    assert objects.numel() == 0 and distances.shape == (0, 0)
    shared = shared_objects(args[None], args[None], 9, slots=False)[0][0]
    channels = distance_channels(objects, distances, args, args, shared, torch.ones(3), 9)
    assert channels[:4].sum() == 0
    assert channels[4].tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


@pytest.mark.parametrize("damage", [{"graph_predicates": [99]}, {"graph_predicates": ["connected"]},
                                    {"distance_values": True}], ids=["id-out-of-range", "name-not-id", "unknown-key"])
def test_a_damaged_checkpoint_config_is_refused_in_one_line(tmp_path: Path, damage: dict) -> None:
    """A checkpoint is a file from others: a graph predicate id out of range, or an option this
    symt does not know, is one error line naming the file, exit 2, and nothing written."""
    random_model("visitall", tmp_path / "m.pt", attention_bias="object-distance")
    checkpoint = torch.load(tmp_path / "m.ckpt", weights_only=True)
    checkpoint["model_config"].update(damage)
    torch.save(checkpoint, tmp_path / "best.pt")
    result = subprocess.run([sys.executable, "-m", "symt.cli", "export", str(tmp_path / "best.pt"),
                             str(tmp_path / "out.pt")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "best.pt: damaged checkpoint" in lines[0], result.stderr
    assert not (tmp_path / "out.pt").exists()


def test_sokoban_links_cells_not_the_direction_constant():
    """IPC 2023 Sokoban's ``adjacent(?l1 ?l2 - location ?d - direction)``: the graph links the two
    cells only (``graph_slots``), so its distances are the maze's shortest walks, counted here by
    a breadth-first search over the problem file's own ``adjacent`` facts; linking every slot
    (files written before ``graph_slots``) puts every cell within two edges of every other,
    through the four direction constants."""
    folder = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning" / "sokoban"
    domain = parse_domain(folder / "domain.pddl")
    problem = folder / "training" / "easy" / "p05.pddl"
    task = ground(domain, parse_problem(problem, domain))
    signature = domain_signature(domain)
    graph = graph_predicate_ids(signature, domain, "object-distance")
    assert [signature.predicates[i][0] for i in graph] == ["adjacent"]
    assert graph_slot_ids(signature, domain, graph) == [[0, 1]]
    encoded = encode_task(task, signature, domain)
    rows = rename(encoded.state_rows(list(task.init)), identity_assignment(len(task.objects)), 200)
    pred, args, mask = collate([rows], 200)
    neighbours: dict[str, set[str]] = {}
    for a, b in re.findall(r"\(adjacent\s+(\S+)\s+(\S+)\s+\S+\)", problem.read_text().lower()):
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    (box, start), = [args for name, args in task.goal_atoms if name == "at"]  # walks from the goal cell
    walk, frontier = {start: 0}, [start]
    while frontier:
        reached = []
        for cell in frontier:
            for n in neighbours[cell] - walk.keys():
                walk[n] = walk[cell] + 1
                reached.append(n)
        frontier = reached
    cells = sorted(task.objects.index(c) for c in neighbours)
    net = model(0, signature, graph, "object-distance", graph_slots=[[0, 1]])
    objects, distances = net.object_distances(pred[0], args[0], mask[0])
    assert objects.tolist() == cells  # the directions are no nodes of the graph
    row = distances[objects.tolist().index(task.objects.index(start))]
    truth = [float(walk[task.objects[o]]) for o in objects.tolist()]
    assert row.tolist() == truth and max(truth) > 2
    everything = model(0, signature, graph, "object-distance")  # graph_slots None: every slot
    assert everything.object_distances(pred[0], args[0], mask[0])[1].max() == 2
    # The box's atom against its goal atom: they share the box, which is no node of the graph.
    # Read over the graph (distance_over_graph) their distance is the box's walk to its goal cell;
    # read the old way, the box in common makes it 0.
    ids = signature.predicate_ids()
    (at_box,) = [i for i, r in enumerate(rows) if r[0] == ids["at"] and r[1] == task.objects.index(box)]
    (goal,) = [i for i, r in enumerate(rows) if r[0] == signature.num_predicates + ids["at"]]
    cell = task.objects[rows[at_box][2]]
    assert walk[cell] > 0
    query, key = args[0, [at_box]], args[0, [goal]]
    shared = shared_objects(query[None], key[None], 200, slots=False)[0][0]
    for over_graph, truth in ((True, walk[cell]), (False, 0)):
        channels = distance_channels(objects, distances, query, key, shared, torch.ones(1), 200, over_graph)
        assert channels[3, 0, 0] == truth
    # A model reading so values the state otherwise, and its scripted module (Fast Downward's) alike.
    over = model(0, signature, graph, "object-distance", graph_slots=[[0, 1]], distance_over_graph=True)
    with torch.no_grad():
        for m in (net, over):
            m.layer.distance_bias.normal_(generator=torch.Generator().manual_seed(0))
        h = over(pred, args, mask)[0]
        assert not torch.allclose(h, net(pred, args, mask)[0], atol=1e-4)
        assert torch.allclose(torch.jit.script(ExportedSymTE(over))(pred, args, mask), h, atol=1e-5)


def test_graph_slots_that_do_not_fit_the_predicates_are_refused(visitall):
    _, signature, graph, _ = visitall
    with pytest.raises(ValueError, match="graph slots"):
        model(0, signature, graph, "object-distance", graph_slots=[[0, 7]])
    with pytest.raises(ValueError, match="graph slots"):
        model(0, signature, graph, "object-distance", graph_slots=[[0], [1]])


SPANNER = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "ipc2023-learning" / "spanner"


@pytest.mark.parametrize("directed", [False, True], ids=["both-ways", "directed"])
def test_a_directed_graph_reads_spanners_one_way_path(directed: bool) -> None:
    """IPC 2023 Spanner's ``link(l1 l2)`` atoms form one path from the shed to the gate. Both ways,
    two locations' distance is the difference of their places on it; directed
    (``ModelConfig.directed_graph``) it is that difference going forward and no path going back.
    The places are read off the problem file's text, not by the code under test. A context model
    with the directed bias gives forward's values from its cache."""
    domain = parse_domain(SPANNER / "domain.pddl")
    problem = SPANNER / "training" / "easy" / "p50.pddl"
    task = ground(domain, parse_problem(problem, domain))
    links = dict(re.findall(r"\(\s*link\s+([\w-]+)\s+([\w-]+)\s*\)", problem.read_text().lower()))
    place = {(set(links) - set(links.values())).pop(): 0}
    while len(place) <= len(links):
        last = max(place, key=place.get)
        place[links[last]] = place[last] + 1
    signature = domain_signature(domain)
    graph = graph_predicate_ids(signature, domain, "object-distance")
    encoded = encode_task(task, signature, domain)
    rows = rename(encoded.state_rows(list(task.init)), identity_assignment(len(task.objects)), 200)
    pred, args, mask = (t[0] for t in collate([rows], 200))
    slots = graph_slot_ids(signature, domain, graph)
    net = model(3, signature, graph, "object-distance", graph_slots=slots, directed_graph=directed)
    edges = graph_edges(pred, args, mask, net.is_graph, net.graph_links, 200)
    objects, distances = object_distances(edges, 200, 64, directed=directed)
    names = [task.objects[int(t)] for t in objects]
    assert sorted(names) == sorted(place)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            step = place[b] - place[a]
            expected = float(abs(step)) if not directed else (float(step) if step >= 0 else float("inf"))
            assert float(distances[i, j]) == expected, (a, b)
    contextual = model(4, signature, graph, "object-distance", graph_slots=slots, directed_graph=directed,
                       context_predicates=context_predicate_ids(signature, domain))
    with torch.no_grad():
        contextual.layer.distance_bias.normal_(generator=torch.Generator().manual_seed(5))
        fluent = rename(encoded.fluent_rows[list(task.init)], identity_assignment(len(task.objects)), 200)
        context = rename(encoded.fixed_rows, identity_assignment(len(task.objects)), 200)
        full = float(contextual(*collate([np.concatenate([fluent, context])], 200))[0][0])
        cpred, cargs = (t[0] for t in collate([context], 200)[:2])
        cached = float(contextual.forward_states(*contextual.encode_context(cpred, cargs), *collate([fluent], 200))[0])
    assert cached == pytest.approx(full, abs=1e-4)
