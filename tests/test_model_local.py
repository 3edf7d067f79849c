"""A local objects model's value from its parent's (``symt.model_local``, issue 65): on a random
walk over a grid the update gives the whole pass's features and values at every step, reads a
part of the state once the state is larger than the change's surroundings, and a model with
global tokens is refused."""

from __future__ import annotations

import random

import pytest
import torch

from symt.model_config import ModelConfig
from symt.model_local import LocalValues
from symt.model_routed import heuristic_model

V = 256  # vocabulary: a 12 x 12 grid's cells are objects 0..143
P = 3  # state predicates: 0 connected (static), 1 visited, 2 at-robot; goal versions P..2P-1


def local_model(global_tokens: int = 0, readout: str = "pooled"):
    torch.manual_seed(31)
    config = ModelConfig(num_predicates=P, max_arity=2, d_model=16, n_heads=2, n_layers=2, d_ff=32, d_embed=8,
                         k=8, readout_hidden=16, attention="objects", vocab_size=V, global_tokens=global_tokens,
                         context_predicates=[0, P, P + 1, P + 2], object_links=True, readout=readout,
                         attention_scale="log-length")
    return heuristic_model(config).eval()


def grid(n: int) -> tuple[torch.Tensor, torch.Tensor, dict[int, list[int]]]:
    """The context of an n x n Visitall grid: connected(c, d) both ways and the goal visited(c) for
    every cell; and each cell's neighbours."""
    neighbours: dict[int, list[int]] = {}
    rows = []
    for r in range(n):
        for c in range(n):
            cell = r * n + c
            neighbours[cell] = [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                                if 0 <= rr < n and 0 <= cc < n]
            rows += [(0, cell, d) for d in neighbours[cell]] + [(P + 1, cell, V)]
    return torch.tensor([r[0] for r in rows]), torch.tensor([list(r[1:]) for r in rows]), neighbours


@pytest.mark.parametrize("readout", ["pooled", "atoms"])
def test_values_from_the_parent_equal_the_whole_pass(readout: str) -> None:
    pred, args, neighbours = grid(12)
    values = LocalValues(local_model(readout=readout), pred, args)
    rng = random.Random(0)
    robot = 0
    state = {(1, 0, V), (2, 0, V)}
    current = values.evaluate(state)
    read = []
    for _ in range(80):
        step = rng.choice(neighbours[robot])
        state = (state - {(2, robot, V)}) | {(2, step, V), (1, step, V)}
        robot = step
        current, atoms_read = values.update(current, state)
        whole = values.evaluate(state)
        assert set(current.terms) == set(whole.terms)
        for atom, row in whole.terms.items():
            assert current.terms[atom].tolist() == pytest.approx(row.tolist(), abs=1e-5)
        assert values.value(current) == pytest.approx(values.value(whole), abs=1e-4)
        read.append((len(atoms_read), len(state)))
    # Late in the walk a step's update reads a part of the state only (2 hops: the change's
    # surroundings are the cells within 4 steps of the robot's two cells).
    assert all(count <= 2 * (1 + 2 * 5 * 6) for count, _ in read)
    assert read[-1][0] < read[-1][1]


def test_a_revisit_changes_only_the_robot() -> None:
    """Moving onto a visited cell adds no visited atom; the value still follows the whole pass."""
    pred, args, _ = grid(4)
    values = LocalValues(local_model(), pred, args)
    state = {(1, 0, V), (1, 1, V), (2, 1, V)}
    child = {(1, 0, V), (1, 1, V), (2, 0, V)}
    updated, atoms_read = values.update(values.evaluate(state), child)
    assert 0 < len(atoms_read) <= len(child)
    assert values.value(updated) == pytest.approx(values.value(values.evaluate(child)), abs=1e-4)
    same, none = values.update(updated, child)
    assert none == [] and values.value(same) == pytest.approx(values.value(updated))


@pytest.mark.parametrize("native", [False, True], ids=["python", "native"])
@pytest.mark.parametrize("readout", ["pooled", "atoms"])
def test_values_from_the_parents_layers_equal_the_whole_pass(readout: str, native: bool) -> None:
    """``step`` (the parent's states after every layer kept) gives the whole pass's values along
    the walk, reading the change's surroundings only: fewer atoms than ``update``'s border. Both
    ways of passing: the model's ``layer_terms`` and the plugin's C++ pass (``native``)."""
    pred, args, neighbours = grid(12)
    values = LocalValues(local_model(readout=readout), pred, args, native=native)
    rng = random.Random(1)
    robot = 0
    state = {(1, 0, V), (2, 0, V)}
    by_layers, by_border = values.evaluate(state, layers=True), values.evaluate(state)
    counts = []
    for _ in range(80):
        step = rng.choice(neighbours[robot])
        state = (state - {(2, robot, V)}) | {(2, step, V), (1, step, V)}
        robot = step
        by_layers, read = values.step(by_layers, state)
        by_border, border = values.update(by_border, state)
        whole = values.evaluate(state)
        for atom, row in whole.terms.items():
            assert by_layers.terms[atom].tolist() == pytest.approx(row.tolist(), abs=1e-5)
        assert values.value(by_layers) == pytest.approx(values.value(whole), abs=1e-4)
        assert len(read) <= len(border)
        counts.append((len(read), len(border)))
    # 2 hops: the visited cells within 2 steps of the robot's cells (3 for a new cell), against 4.
    assert sum(r for r, _ in counts) < 0.7 * sum(b for _, b in counts)


@pytest.mark.parametrize("native", [False, True], ids=["python", "native"])
def test_values_from_the_parents_layers_with_atoms_of_two_objects(native: bool) -> None:
    """Binary fluent atoms (an atom joins its objects) changed at random, added and removed."""
    pred, args, _ = grid(4)
    values = LocalValues(local_model(), pred, args, native=native)
    rng = random.Random(2)
    pairs = [(1, a, b) for a in range(16) for b in range(16) if a != b]
    state = {(1, c, V) for c in range(0, 16, 3)} | {(2, 5, V)} | set(rng.sample(pairs, 3))
    current = values.evaluate(state, layers=True)
    for _ in range(30):
        gone = rng.choice(sorted(state))
        state = (state - {gone}) | {rng.choice([(1, rng.randrange(16), V), rng.choice(pairs)])}
        current, _ = values.step(current, state)
        assert values.value(current) == pytest.approx(values.value(values.evaluate(state)), abs=1e-4)


@pytest.mark.parametrize("native", [False, True], ids=["python", "native"])
def test_keeping_the_parents_states_one_layer_too_long_is_caught(native: bool) -> None:
    """The rule of ``step`` is tight: keeping a token's parent states through the layer at which
    the change reaches it (distances one more than they are) gives values other than the whole
    pass's, so the tests above can fail."""
    pred, args, _ = grid(6)
    values = LocalValues(local_model(), pred, args, native=native)
    state = {(1, c, V) for c in range(12)} | {(2, 5, V)}
    parent = values.evaluate(state, layers=True)
    child = (state - {(2, 5, V)}) | {(2, 11, V)}
    exact, read = values.step(parent, child)
    sources = {5, 11}
    distance = values.distances(state | child, sources, values.hops)
    shifted = {o: d + 1 for o, d in distance.items()}
    terms, _, _ = values.layer_pass(read, shifted, child - state, parent)
    assert any(abs(float((terms[a] - exact.terms[a]).abs().max())) > 1e-4 for a in terms)


def test_a_model_with_global_tokens_is_refused() -> None:
    pred, args, _ = grid(3)
    with pytest.raises(ValueError, match="no global tokens"):
        LocalValues(local_model(global_tokens=2), pred, args)


def test_the_exported_module_sums_a_value_from_its_atoms_terms() -> None:
    """What the plugin will call: ``atom_terms`` of a state's atoms, summed, through
    ``value_of_terms`` gives ``forward_states``' value, also over two parts of the state."""
    from symt.export import ExportedRoutedSymTE

    pred, args, _ = grid(5)
    net = local_model()
    scripted = torch.jit.script(ExportedRoutedSymTE(net).eval())
    keys, objects, globals_, share, links = scripted.encode_context(pred, args)
    state = torch.tensor([[1] * 6 + [2]]), torch.tensor([[[c, V] for c in range(6)] + [[5, V]]])
    mask = torch.ones(1, 7, dtype=torch.bool)
    with torch.no_grad():
        expected = scripted.forward_states(keys, objects, globals_, share, links, *state, mask)
        terms = scripted.atom_terms(keys, objects, globals_, links, *state, mask)
        assert scripted.value_of_terms(terms.sum(dim=1), share).tolist() == pytest.approx(expected.tolist(), abs=1e-5)
        values = LocalValues(net, pred, args)
        atoms = [tuple(int(t) for t in (p, *a)) for p, a in zip(state[0][0], state[1][0])]
        assert values.value(values.evaluate(atoms)) == pytest.approx(float(expected[0]), abs=1e-5)


def test_module_attributes_name_a_local_models_hops() -> None:
    from symt.formats import module_attributes

    meta = {"format": "symt-e", "format_version": 6, "domain": "d", "predicates": [], "max_arity": 2,
            "vocab_size": V, "model": {"attention": "objects", "n_layers": 4, "global_tokens": 0}}
    assert module_attributes(meta)["symt_local_hops"] == 4
    meta["model"]["global_tokens"] = 4
    assert module_attributes(meta)["symt_local_hops"] == 0
    meta["model"] = {"attention": "full", "n_layers": 4, "global_tokens": 0}
    assert module_attributes(meta)["symt_local_hops"] == 0


def test_an_exported_local_model_keeps_its_terms_methods(tmp_path) -> None:
    """symt export freezes the module and keeps only the methods it is told to: a local model's
    file says its hops and keeps ``atom_terms``, ``layer_terms`` and ``value_of_terms``; other files
    do not."""
    from model_files import random_model
    from symt.export import load_exported

    local, _ = load_exported(random_model("visitall", tmp_path / "local.pt", context=True, attention="objects",
                                          object_links=True, global_tokens=0))
    assert local.symt_local_hops == 2 and hasattr(local, "atom_terms") and hasattr(local, "value_of_terms")
    assert hasattr(local, "layer_terms")
    routed, _ = load_exported(random_model("visitall", tmp_path / "routed.pt", context=True, attention="objects"))
    assert routed.symt_local_hops == 0 and not hasattr(routed, "atom_terms")


def test_the_native_pass_refuses_weights_and_passes_that_do_not_fit() -> None:
    """A model file is untrusted: ``LocalNet`` names the weight that is missing or misshapen, and
    refuses a pass whose indices point outside it, instead of reading out of bounds."""
    from symt import _core

    net = local_model()
    with torch.no_grad():
        weights = {name: w.numpy() for name, w in net.local_weights().items()}
    native = _core.LocalNet(weights)
    for broken, message in (({k: v for k, v in weights.items() if k != "layer.atom_out.bias"}, "layer.atom_out.bias"),
                            ({**weights, "layer.slot_out": weights["layer.slot_out"][:1]}, "layer.slot_out is 1x2x16"),
                            ({**weights, "n_heads": weights["n_heads"] + 0.5}, "n_heads is not a whole number")):
        with pytest.raises(ValueError, match=message):
            _core.LocalNet(broken)
    native.set_context(torch.zeros(2, 2, 3, 16).numpy())
    start = torch.zeros(1, 16).numpy()
    no_links = torch.zeros(0, 3, dtype=torch.int32).numpy()
    for slots, context_row, message in (([[1, -1]], [0], "naming no object"), ([[0, -1]], [3], "context row")):
        with pytest.raises(ValueError, match=message):
            native.run(start, slots, start, context_row, no_links, [], [], torch.zeros(0).numpy(), torch.zeros(0).numpy())
    terms, atom_layers, object_layers = native.run(start, [[0, -1]], start, [0], no_links, [], [],
                                                   torch.zeros(0).numpy(), torch.zeros(0).numpy())
    assert terms.shape == (1, 8) and atom_layers.shape == (2, 1, 16) and object_layers.shape == (2, 1, 16)
