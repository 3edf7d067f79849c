"""SymT-E with objects attention (``symt.model_routed``, issue 65): the per-task cache gives the
full pass's values, the values do not depend on the order of atoms or on padding, the exported
module computes what the Python one does, the work per state grows linearly with its atoms (counted
in floating-point operations, not timed), and options it cannot honour are refused."""

from __future__ import annotations

import math

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

from symt.export import ExportedRoutedSymTE
from symt.model import SymTE
from symt.model_config import ModelConfig
from symt.model_objects import global_log_keys_of, object_log_keys_of, resolve_links
from symt.model_routed import RoutedSymTE, Routes, context_links, heuristic_model

P = 4  # state predicates; goal versions P..2P-1
CONTEXT = [0, P, P + 1, P + 2, P + 3]  # predicate 0 static, every goal predicate


def model(seed: int = 0, **options) -> RoutedSymTE:
    torch.manual_seed(seed)
    config = ModelConfig(num_predicates=P, max_arity=2, d_model=16, n_heads=2, n_layers=3, d_ff=32, d_embed=8,
                         k=8, readout_hidden=16,
                         **{"attention": "objects", "vocab_size": 64, "context_predicates": CONTEXT,
                            "global_tokens": 2, **options})
    built = heuristic_model(config).eval()
    assert isinstance(built, RoutedSymTE)
    return built


def batch(seed: int, states: int = 3, atoms: int = 12) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Random states over 10 objects; the last state padded; unary predicate 3 has a padded slot."""
    generator = torch.Generator().manual_seed(seed)
    pred = torch.randint(0, 2 * P, (states, atoms), generator=generator)
    args = torch.randint(0, 10, (states, atoms, 2), generator=generator)
    args[..., 1][pred % P == 3] = 64
    mask = torch.ones(states, atoms, dtype=torch.bool)
    mask[-1, atoms - 4:] = False
    pred[~mask] = 0
    args[~mask] = 64
    return pred, args, mask


def cached_values(net: RoutedSymTE, pred, args, mask) -> list[float]:
    """Each state's h through encode_context (its context atoms) and forward_states (the rest)."""
    values = []
    for b in range(pred.shape[0]):
        p, a = pred[b][mask[b]], args[b][mask[b]]
        context = net.is_context[p]
        cache = net.encode_context(p[context], a[context])
        fluent = torch.ones(1, int((~context).sum()), dtype=torch.bool)
        values.append(float(net.forward_states(*cache, p[~context][None], a[~context][None], fluent)[0]))
    return values


def gather_objects(layer, y, q, kv_atoms, kv_globals, routes: Routes, links, kv_objects, log_keys) -> torch.Tensor:
    """``layer.gather_objects`` without a context, from keys and values given apart (``kv_atoms``
    [2,B,N,heads,head_dim], ``kv_globals`` [2,B,G,heads,head_dim]); the per-pass constants as a
    pass computes them."""
    heads, head_dim = q.shape[1:]
    return layer.gather_objects(y, q, torch.stack(list(kv_atoms), 2).reshape(-1, 2, heads, head_dim),
                                torch.stack(list(kv_globals), 2), routes, None, links, kv_objects,
                                layer.object_query_scale(log_keys), *layer.edge_and_link_offsets(routes, links))


@pytest.mark.parametrize("options", [{}, {"readout": "atoms", "object_identity": "hashed"},
                                     {"context_predicates": None}, {"attention_scale": "log-length"},
                                     {"object_links": True}, {"object_links": True, "attention_scale": "log-length"},
                                     {"global_tokens": 0}, {"global_tokens": 0, "object_links": True}])
def test_cache_gives_the_full_pass_values(options: dict) -> None:
    net = model(**options)
    pred, args, mask = batch(1)
    with torch.no_grad():
        full, _, _ = net(pred, args, mask)
        assert cached_values(net, pred, args, mask) == pytest.approx(full.tolist(), abs=1e-5)


@pytest.mark.parametrize(("scale", "links", "globals_"), [("fixed", False, 2), ("log-length", False, 2),
                                                         ("fixed", True, 2), ("log-length", True, 0)])
def test_values_ignore_atom_order_and_padding(scale: str, links: bool, globals_: int) -> None:
    net = model(seed=2, attention_scale=scale, object_links=links, global_tokens=globals_)
    pred, args, mask = batch(3)
    order = torch.randperm(pred.shape[1], generator=torch.Generator().manual_seed(0))
    padded = (torch.cat([pred, torch.zeros(3, 5, dtype=torch.long)], dim=1),
              torch.cat([args, torch.full((3, 5, 2), 64)], dim=1),
              torch.cat([mask, torch.zeros(3, 5, dtype=torch.bool)], dim=1))
    with torch.no_grad():
        h, _, _ = net(pred, args, mask)
        shuffled, _, _ = net(pred[:2, order], args[:2, order], mask[:2, order])
        with_padding, _, _ = net(*padded)
    assert shuffled.tolist() == pytest.approx(h[:2].tolist(), abs=1e-5)
    assert with_padding.tolist() == pytest.approx(h.tolist(), abs=1e-5)


def test_values_depend_on_the_state() -> None:
    """Not a constant: two states that differ in one fluent atom get different values, and the
    internals the contrastive loss compares have one map and one hidden state per layer."""
    net = model(seed=4)
    pred, args, mask = batch(5, states=2)
    pred[1], args[1], mask[1] = pred[0], args[0], mask[0]
    fluent = (~net.is_context[pred[1]]).nonzero()[0, 0]
    args[1, fluent, 0] = (args[1, fluent, 0] + 1) % 10
    with torch.no_grad():
        h, attentions, hiddens = net(pred, args, mask, return_internals=True)
    assert abs(float(h[0] - h[1])) > 1e-4
    assert len(attentions) == len(hiddens) == 3
    assert attentions[0].shape == (2, 2, pred.shape[1], 2 + 1 + 2)  # slots, itself, globals
    assert hiddens[0].shape == (2, pred.shape[1], 8)


@pytest.mark.parametrize(("scale", "links", "globals_"), [("fixed", False, 2), ("log-length", True, 2),
                                                         ("log-length", True, 0)])
def test_exported_module_computes_the_same_values(scale: str, links: bool, globals_: int) -> None:
    net = model(seed=6, attention_scale=scale, object_links=links, global_tokens=globals_)
    scripted = torch.jit.script(ExportedRoutedSymTE(net).eval())
    pred, args, mask = batch(7)
    with torch.no_grad():
        assert scripted(pred, args, mask).tolist() == pytest.approx(net(pred, args, mask)[0].tolist(), abs=1e-5)
        p, a = pred[0], args[0]
        context = net.is_context[p]
        cache = scripted.encode_context(p[context], a[context])
        fluent = torch.ones(1, int((~context).sum()), dtype=torch.bool)
        value = scripted.forward_states(*cache, p[~context][None], a[~context][None], fluent)
        expected = float(net(pred, args, mask)[0][0])
    assert float(value[0]) == pytest.approx(expected, abs=1e-5)


def test_log_length_scales_object_and_global_queries_by_their_keys() -> None:
    """With ``log-length`` an object's and a global token's queries are multiplied by s_h · ln(n),
    n the keys each may attend to: with s_h = 1/ln(n) a layer gathers what the plain layer does
    where every object (every state's globals) has n keys, and something else where they differ."""
    plain, scaled = model(seed=9).layer, model(seed=9, attention_scale="log-length").layer
    assert {"object_length_scale", "global_length_scale"} <= set(dict(scaled.named_parameters()))
    generator = torch.Generator().manual_seed(10)

    def gathered(layer, pred_args: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        args = torch.tensor([pred_args])
        mask = torch.ones(1, len(pred_args), dtype=torch.bool)
        routes = Routes(args, mask, 64)
        o, n = routes.object_key.numel(), len(pred_args)
        y = torch.randn(o, 16, generator=generator)
        q, kv_atoms = torch.randn(o, 2, 8, generator=generator), torch.randn(2, 1, n, 2, 8, generator=generator)
        kv_globals = torch.randn(3, 1, 2, 2, 8, generator=generator)  # queries, keys, values of 2 globals
        z = torch.randn(1, 2, 16, generator=generator)
        no_links = torch.zeros(3, 0, dtype=torch.long)
        object_keys = object_log_keys_of(routes, no_links, 2, False)
        global_keys = global_log_keys_of(mask, 2)
        # The counts against the atoms as written: each object's atoms plus the 2 globals; every atom
        # plus the 2 globals for the state's global tokens.
        counts = [sum(int(routes.object_token[i]) in atom for atom in pred_args) + 2 for i in range(o)]
        assert object_keys.exp().round().tolist() == counts
        assert global_keys.exp().round().tolist() == [n + 2]
        objects = gather_objects(layer, y, q, kv_atoms, kv_globals[1:], routes, no_links, torch.stack([q, q], 1),
                                 object_keys)
        kv_atoms_, kv_globals_ = torch.stack(list(kv_atoms), 2), torch.stack(list(kv_globals[1:]), 2)
        closed = torch.zeros(1, 1, 1, n + 2, dtype=torch.bool)
        globals_ = layer.gather_globals(z, kv_globals[0], kv_globals_, kv_atoms_, closed, None,
                                        layer.global_query_scale(global_keys))
        return objects, globals_

    def both(pred_args: list[list[int]]) -> list[tuple[torch.Tensor, torch.Tensor]]:
        seed = int(torch.randint(0, 1000, (1,), generator=generator))
        results = []
        for layer in (plain, scaled):
            generator.manual_seed(seed)
            results.append(gathered(layer, pred_args))
        return results

    with torch.no_grad():
        # Objects 0 and 1 in one atom each, 2 globals: every object and the globals have 3 keys.
        scaled.object_length_scale.fill_(1 / math.log(3))
        scaled.global_length_scale.fill_(1 / math.log(3))
        (o_plain, g_plain), (o_scaled, g_scaled) = both([[0, 1]])
        assert torch.allclose(o_plain, o_scaled, atol=1e-5) and torch.allclose(g_plain, g_scaled, atol=1e-5)
        # Object 0 in two atoms (4 keys), object 1 in one (3 keys); the globals have 4 keys.
        (o_plain, g_plain), (o_scaled, g_scaled) = both([[0, 1], [0, 64]])
        assert torch.allclose(o_plain[1], o_scaled[1], atol=1e-5)
        assert not torch.allclose(o_plain[0], o_scaled[0], atol=1e-4)
        assert not torch.allclose(g_plain, g_scaled, atol=1e-4)


def test_context_links_are_every_ordered_pair_of_argument_slots() -> None:
    """context_links against a plain enumeration: per context atom and ordered pair of slots with two
    different objects, (receiving key, sending key, type), sorted by the receiving key."""
    pred, args, mask = batch(11)
    context = mask & torch.isin(pred, torch.tensor(CONTEXT))
    links = context_links(pred, args, context, 64)
    expected = sorted((b * 65 + int(args[b, n, s]), b * 65 + int(args[b, n, t]), (int(pred[b, n]) * 2 + s) * 2 + t)
                      for b in range(pred.shape[0]) for n in range(pred.shape[1]) if context[b, n]
                      for s in range(2) for t in range(2)
                      if s != t and args[b, n, s] < 64 and args[b, n, t] < 64 and args[b, n, s] != args[b, n, t])
    assert sorted(map(tuple, links.t().tolist())) == expected
    assert links[0].tolist() == sorted(links[0].tolist())
    assert len(expected) > 5


def test_a_states_objects_are_linked_where_they_share_a_context_atom() -> None:
    """In a state's pass an object receives a link from each other object of the same state that
    shares a context atom with it (as the task's cache names them by tokens), and only from those."""
    net = model(seed=12, object_links=True)
    context_pred = torch.tensor([0, 0, P + 1])  # static 0(1 2), 0(2 3) and a goal atom 1(5 1)
    context_args = torch.tensor([[1, 2], [2, 3], [5, 1]])
    cache = net.encode_context(context_pred, context_args)
    # Two states: the first holds objects 1, 2 and 5; the second 2 and 3.
    args = torch.tensor([[[1, 64], [2, 5], [5, 64]], [[2, 64], [3, 64], [64, 64]]])
    mask = torch.tensor([[True, True, True], [True, True, False]])
    routes = Routes(args, mask, 64)
    links = resolve_links(routes, 1, cache[4], 64)
    named = sorted((int(routes.object_batch[i]), int(routes.object_token[i]), int(routes.object_token[j]), int(k))
                   for i, j, k in links.t().tolist())
    assert named == sorted([(0, 1, 2, 1), (0, 2, 1, 2), (0, 5, 1, ((P + 1) * 2) * 2 + 1), (0, 1, 5, ((P + 1) * 2 + 1) * 2),
                            (1, 2, 3, 1), (1, 3, 2, 2)])


def test_links_carry_the_sending_objects_keys_and_values() -> None:
    """An object's update reads the keys and values of the objects linked to it: changing a linked
    sender's key and value changes the receiver; changing an unlinked object's does not."""
    layer = model(seed=13, object_links=True).layer
    args, mask = torch.tensor([[[0, 64], [1, 64], [2, 64]]]), torch.ones(1, 3, dtype=torch.bool)
    routes = Routes(args, mask, 64)
    generator = torch.Generator().manual_seed(14)
    y, q = torch.randn(3, 16, generator=generator), torch.randn(3, 2, 8, generator=generator)
    kv_atoms, kv_globals = torch.randn(2, 1, 3, 2, 8, generator=generator), torch.randn(2, 1, 2, 2, 8, generator=generator)
    k_objects, v_objects = torch.randn(3, 2, 8, generator=generator), torch.randn(3, 2, 8, generator=generator)
    links = torch.tensor([[0], [1], [3]])  # object 0 hears object 1 (link type 3); object 2 is linked to none

    def update(k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return gather_objects(layer, y, q, kv_atoms, kv_globals, routes, links, torch.stack([k, v], 1),
                                  object_log_keys_of(routes, links, 2, False))

    before = update(k_objects, v_objects)
    sender, other = k_objects.clone(), k_objects.clone()
    sender[1] += 1.0
    other[2] += 1.0
    assert not torch.allclose(update(sender, v_objects)[0], before[0], atol=1e-5)
    assert torch.allclose(update(other, v_objects)[0], before[0], atol=1e-6)
    assert torch.allclose(update(sender, v_objects)[2], before[2], atol=1e-6)


def path_state(last: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Objects 0..9 on a path of static atoms link(i, i+1) (predicate 0, a context predicate) and a
    fluent atom over each object: visited(i) (predicate 1), the last one with predicate ``last``."""
    pred = torch.tensor([0] * 9 + [1] * 9 + [last])
    args = torch.tensor([[i, i + 1] for i in range(9)] + [[i, 64] for i in range(10)])
    return pred[None], args[None], torch.ones(1, len(pred), dtype=torch.bool)


@pytest.mark.parametrize("globals_", [0, 2])
def test_without_global_tokens_a_change_reaches_n_layers_hops(globals_: int) -> None:
    """What a local model (no global tokens) computes for an atom depends only on what lies within
    ``n_layers`` hops of it (the property a value updated from the parent's rests on): changing the
    atom over object 9 changes the atom over object 8 but not the one over object 0, nine links
    away; with global tokens it changes both."""
    net = model(seed=9, global_tokens=globals_, object_links=True)
    with torch.no_grad():
        _, _, before = net(*path_state(1), return_internals=True)
        _, _, after = net(*path_state(2), return_internals=True)
    changed = (before[-1][0] - after[-1][0]).abs().amax(dim=-1)  # per atom, the last layer's features
    assert float(changed[9 + 8]) > 1e-4
    assert (float(changed[9]) > 1e-4) == (globals_ > 0)


def test_a_local_models_value_adds_up_over_parts_that_share_no_object() -> None:
    """Without global tokens and with the per-atom readout, two parts of a state that share no
    object are computed apart: h(A + B) = h(A) + h(B). Global tokens join them."""
    pred = torch.tensor([[1] * 10 + [2]])  # visited(0..9), at-robot(0)
    args = torch.tensor([[[i, 64] for i in range(10)] + [[0, 64]]])
    mask = torch.ones(1, 11, dtype=torch.bool)
    a, b = [*range(5), 10], list(range(5, 10))  # objects 0..4 and 5..9
    for globals_, adds_up in ((0, True), (2, False)):
        net = model(seed=10, global_tokens=globals_, readout="atoms", context_predicates=None)
        with torch.no_grad():
            whole = float(net(pred, args, mask)[0][0])
            parts = sum(float(net(pred[:, part], args[:, part], mask[:, part])[0][0]) for part in (a, b))
        assert (abs(whole - parts) < 1e-4) == adds_up


def grid_state(n: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """A Visitall-like state on an n x n grid as fluent atoms only: visited(c) for half the cells
    (predicate 1) and at-robot(c) (predicate 2), objects 0..n*n-1."""
    cells = n * n
    visited = torch.arange(0, cells, 2)
    pred = torch.cat([torch.ones(len(visited), dtype=torch.long), torch.tensor([2])])
    args = torch.stack([torch.cat([visited, torch.tensor([0])]), torch.full((len(visited) + 1,), cells)], dim=1)
    return pred[None], args[None], torch.ones(1, len(pred), dtype=torch.bool)


class ElementCounter(TorchDispatchMode):
    """Counts the elements of every tensor that every operation writes: a measure of a pass's work
    that sees elementwise products and softmaxes too (a FLOP counter sees matrix products only)."""

    def __init__(self) -> None:
        super().__init__()
        self.elements = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.elements += sum(t.numel() for t in tree_leaves(out) if isinstance(t, torch.Tensor))
        return out


def elements(function, *inputs) -> int:
    with torch.no_grad(), ElementCounter() as counter:
        function(*inputs)
    return counter.elements


def test_work_per_state_grows_linearly_with_its_atoms() -> None:
    """Four times the atoms: about four times the elements written by a state's pass with objects
    attention; full attention's scores (written out with the internals) grow sixteenfold."""
    routed = model(seed=8, vocab_size=4096)
    small, large = grid_state(16), grid_state(32)
    routed_ratio = elements(routed, *large) / elements(routed, *small)
    assert 3.5 <= routed_ratio <= 4.5
    torch.manual_seed(8)
    full = SymTE(ModelConfig(num_predicates=P, max_arity=2, vocab_size=4096, d_model=16, n_heads=2, n_layers=3,
                             d_ff=32, d_embed=8, k=8, readout_hidden=16)).eval()
    assert elements(full, *large, True) / elements(full, *small, True) > 8


@pytest.mark.parametrize(("options", "words"), [
    ({"attention_bias": "shared-object"}, "no attention_bias shared-object"),
    ({"layer_norm": True}, "no layer_norm True"),
    ({"type_predicates": [1]}, "does not fold types"),
    ({"global_tokens": -1}, "zero or more global tokens"),
    ({"object_links": True, "context_predicates": None}, "object links read the task's context atoms"),
    ({"attention": "sparse"}, "unknown attention 'sparse'"),
])
def test_options_it_cannot_honour_are_refused(options: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        model(**options)


def test_exported_file_says_its_cost_is_linear(tmp_path) -> None:
    """symt_linear_cost tells the plugin to bound a batch by atoms alone: 1 for objects attention,
    0 for the paper's full attention."""
    from model_files import random_model
    from symt.export import load_exported

    for attention, expected in (("objects", 1), ("full", 0)):
        module, meta = load_exported(random_model("logistics", tmp_path / f"{attention}.pt", context=True,
                                                  attention=attention))
        assert module.symt_linear_cost == expected and meta["model"]["attention"] == attention
