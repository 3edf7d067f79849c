"""SymT-E: invariances, the contrastive terms, export round trip, training, resume, divergence."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest
import torch

from model_files import random_model
from symt.data import load_dataset
from symt.errors import SymtError
from symt.export import export, load_exported
from symt.formats import CACHE_FIXED, CACHE_NONE, CACHE_STATIC, context_cache_mode
from symt.generators import domain_file, generate_task
from symt.guidance import StateEvaluator, exported_state_evaluator
from symt.model import SymTE
from symt.model_config import ModelConfig
from symt.model_objects import context_objects
from symt.pddl import ground, parse_domain, parse_problem
from symt.sampling import PairSampler
from symt.tokens import EncodedTask, collate, domain_signature, encode_task, rename
from symt.training.config import TrainConfig
from symt.training.losses import contrastive_terms
from symt.training.trainer import DivergenceError, Trainer

TINY = {"d_model": 16, "n_heads": 2, "n_layers": 2, "d_ff": 32, "d_embed": 8, "readout_hidden": 16}


def tiny_model(seed: int = 0, **overrides) -> SymTE:
    torch.manual_seed(seed)
    config = ModelConfig(num_predicates=7, max_arity=2, vocab_size=20, **{**TINY, "k": 8, **overrides})
    return SymTE(config).eval()


def random_batch(rng: np.random.Generator, sizes: list[int], vocab: int = 20):
    rows = []
    for n in sizes:
        preds = rng.integers(0, 14, size=(n, 1))
        args = rng.integers(0, vocab, size=(n, 2))
        args[rng.random((n, 2)) < 0.3] = -1
        rows.append(rename(np.concatenate([preds, args], axis=1), np.arange(vocab), vocab))
    return rows


def test_atom_order_does_not_matter():
    model = tiny_model()
    rng = np.random.default_rng(0)
    rows = random_batch(rng, [9, 5, 12])
    shuffled = [r[rng.permutation(len(r))] for r in rows]
    with torch.no_grad():
        a = model(*collate(rows, 20))[0]
        b = model(*collate(shuffled, 20))[0]
    assert torch.allclose(a, b, atol=1e-5)


def test_padding_does_not_change_a_state_value():
    model = tiny_model()
    rows = random_batch(np.random.default_rng(1), [4, 30])
    with torch.no_grad():
        together = model(*collate(rows, 20))[0]
        alone = model(*collate(rows[:1], 20))[0]
    assert abs(float(together[0]) - float(alone[0])) < 1e-5


def test_state_values_come_in_passes_bounded_by_attention_scores():
    """StateEvaluator.value_rows splits its rows into passes of at most ``max_scores`` attention
    scores (rows × the longest row's length²; a row longer than that goes alone) and gives the
    values of one pass over all rows: the bound changes memory, not values."""
    model = tiny_model()
    rows = random_batch(np.random.default_rng(2), [5, 30, 12, 7, 30, 9, 3])
    shapes: list[tuple[int, int]] = []

    def evaluate(pred: torch.Tensor, args: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        shapes.append(tuple(pred.shape))
        return model(pred, args, mask)[0]

    encoded = cast(EncodedTask, SimpleNamespace(assignment=np.arange(20)))  # value_rows reads rows only
    one_pass = StateEvaluator(encoded, evaluate, 20).value_rows(rows)
    assert shapes == [(7, 30)]
    shapes.clear()
    bounded = StateEvaluator(encoded, evaluate, 20, max_scores=2 * 30 * 30 + 1).value_rows(rows)
    assert [b for b, _ in shapes] == [2, 2, 2, 1]
    assert bounded == pytest.approx(one_pass, abs=1e-5)
    shapes.clear()
    StateEvaluator(encoded, evaluate, 20, max_scores=10).value_rows(rows)
    assert [b for b, _ in shapes] == [1] * 7


@pytest.mark.parametrize("context", [False, True], ids=["full", "context"])
def test_atom_readout_is_additive_over_atoms(context: bool):
    """Every atom written twice: attention averages over two equal copies of each key, so each
    atom's state is unchanged, and the ``atoms`` readout (a sum of per-atom values, times the
    target scale, nothing added outside the sum) doubles h. The pooled readout does not."""
    options = {"context_predicates": CONTEXT_PREDICATES} if context else {}
    rows = random_batch(np.random.default_rng(8), [7, 11])
    doubled = [np.concatenate([r, r]) for r in rows]
    with torch.no_grad():
        atoms = tiny_model(3, readout="atoms", target_scale=4.0, **options)
        once, twice = atoms(*collate(rows, 20))[0], atoms(*collate(doubled, 20))[0]
        pooled = tiny_model(3, **options)
        pooled_once, pooled_twice = pooled(*collate(rows, 20))[0], pooled(*collate(doubled, 20))[0]
    assert torch.allclose(twice, 2 * once, rtol=1e-4, atol=1e-5)
    assert float(once.abs().min()) > 1e-3
    assert not torch.allclose(pooled_twice, 2 * pooled_once, rtol=1e-2)


def test_log_length_attention_is_the_fixed_one_at_its_reference_length():
    """Same weights (the per-head factor starts at 1/ln 64): a state of exactly 64 atoms gets the
    fixed-attention model's value, padded or not; states of other sizes do not."""
    from symt.model_config import LOG_LENGTH_REFERENCE

    rows = random_batch(np.random.default_rng(9), [LOG_LENGTH_REFERENCE, 20, 150])
    with torch.no_grad():
        fixed = tiny_model(4)(*collate(rows, 20))[0]
        scaled_model = tiny_model(4, attention_scale="log-length")
        scaled = scaled_model(*collate(rows, 20))[0]
        alone = scaled_model(*collate(rows[:1], 20))[0]
    assert float(scaled[0]) == pytest.approx(float(fixed[0]), abs=1e-5)
    assert float(alone[0]) == pytest.approx(float(fixed[0]), abs=1e-5)
    assert abs(float(scaled[1]) - float(fixed[1])) > 1e-4 and abs(float(scaled[2]) - float(fixed[2])) > 1e-4
    assert {"layer.length_scale"} == set(scaled_model.state_dict()) - set(tiny_model(4).state_dict())


def test_unknown_readout_and_attention_scale_are_refused():
    with pytest.raises(ValueError, match="unknown readout 'mean'"):
        tiny_model(readout="mean")
    with pytest.raises(ValueError, match="unknown attention scale 'log'"):
        tiny_model(attention_scale="log")
    with pytest.raises(ValueError, match="unknown attention bias 'objects'"):
        tiny_model(attention_bias="objects")


def test_shared_object_bias_marks_exactly_the_atoms_with_an_object_in_common():
    """The bias's mask against sets of argument objects compared in Python, padding included; its
    value is the query's ln n."""
    model = tiny_model(attention_bias="shared-object")
    rows = random_batch(np.random.default_rng(12), [9, 14])
    pred, args, mask = collate(rows, 20)
    log_n = torch.rand(args.shape[:2])
    with torch.no_grad():
        shared = model.shared_object_logits(args, args, log_n)[:, 0]
    assert shared.shape == (2, 14, 14)
    for b, r in enumerate(rows):
        objects = [set(int(t) for t in row[1:] if t < 20) for row in r]
        for i in range(14):
            for j in range(14):
                common = i < len(r) and j < len(r) and bool(objects[i] & objects[j])
                assert float(shared[b, i, j]) == (pytest.approx(float(log_n[b, i])) if common else 0.0)
    assert tiny_model().shared_object_logits(args, args, log_n) is None


def test_shared_object_bias_steers_attention_and_is_off_at_zero():
    """Same weights: with every b_h = 0 the model computes the plain model's values; at b_h = 1
    other values; at b_h = 4 each atom's attention falls almost wholly on the atoms it shares an
    object with. Atom order still does not matter."""
    rng = np.random.default_rng(13)
    rows = random_batch(rng, [30, 25])
    batch = collate(rows, 20)
    biased = tiny_model(5, attention_bias="shared-object")
    assert {"layer.object_bias"} == set(biased.state_dict()) - set(tiny_model(5).state_dict())
    with torch.no_grad():
        plain = tiny_model(5)(*batch)[0]
        at_one = biased(*batch)[0]
        shuffled = biased(*collate([r[rng.permutation(len(r))] for r in rows], 20))[0]
        biased.layer.object_bias.zero_()
        at_zero = biased(*batch)[0]
        biased.layer.object_bias.fill_(4.0)
        _, attentions, _ = biased(*batch, True)
        shared = biased.shared_object_logits(batch[1], batch[1], torch.ones(batch[1].shape[:2]))
    assert torch.allclose(at_zero, plain, atol=1e-5)
    assert not torch.allclose(at_one, plain, atol=1e-3)
    assert torch.allclose(shuffled, at_one, atol=1e-5)
    on_shared = (attentions[-1] * (shared > 0)).sum(-1)  # [B, heads, N]
    # Real atoms with an object (an atom without arguments shares nothing, not even with itself).
    has_object = batch[2] & (shared[:, 0] > 0).any(-1)
    assert int(has_object.sum()) >= 50
    assert float(on_shared[has_object[:, None, :].expand_as(on_shared)].min()) > 0.9


def test_object_slots_mark_each_pair_of_argument_slots_holding_one_object():
    """Channel 0 as shared-object's; channel 1 + i*m + j against argument lists compared in Python."""
    model = tiny_model(attention_bias="object-slots")
    rows = random_batch(np.random.default_rng(14), [11, 7])
    pred, args, mask = collate(rows, 20)
    log_n = torch.rand(args.shape[:2])
    with torch.no_grad():
        channels = model.shared_object_logits(args, args, log_n)
        shared = tiny_model(attention_bias="shared-object").shared_object_logits(args, args, log_n)
    m = args.shape[2]
    assert channels.shape == (2, 1 + m * m, 11, 11)
    assert torch.equal(channels[:, :1], shared)
    for b, r in enumerate(rows):
        for q in range(len(r)):
            for k in range(len(r)):
                for i in range(m):
                    for j in range(m):
                        same = r[q][1 + i] < 20 and r[q][1 + i] == r[k][1 + j]  # 20: padding
                        value = float(channels[b, 1 + i * m + j, q, k])
                        assert value == (pytest.approx(float(log_n[b, q])) if same else 0.0)
    # Padded query atoms share nothing.
    assert float(channels[~mask[:, None, :, None].expand_as(channels)].abs().sum()) == 0.0


def test_object_slots_tell_argument_order_apart_and_start_as_shared_object():
    """With every c_h,ij = 0 the model computes the shared-object model's values (same weights);
    with c set it tells apart two states that differ only in which argument of one atom is which
    while the shared-object bias alone cannot (its masks of the two states are equal); atom order
    still does not matter."""
    rng = np.random.default_rng(15)
    rows = random_batch(rng, [20, 16])
    batch = collate(rows, 20)
    slots = tiny_model(5, attention_bias="object-slots")
    shared = tiny_model(5, attention_bias="shared-object")
    assert {"layer.slot_bias"} == set(slots.state_dict()) - set(shared.state_dict())
    with torch.no_grad():
        assert torch.allclose(slots(*batch)[0], shared(*batch)[0], atol=1e-6)
        slots.layer.slot_bias.normal_(generator=torch.Generator().manual_seed(0))
        at_random = slots(*batch)[0]
        shuffled = slots(*collate([r[rng.permutation(len(r))] for r in rows], 20))[0]
        # Swap the two arguments of every binary atom: same objects shared, other slots.
        swapped_args = batch[1].clone()
        binary = (batch[1][..., 1] < 20) & batch[2]
        swapped_args[..., 0][binary], swapped_args[..., 1][binary] = batch[1][..., 1][binary], batch[1][..., 0][binary]
        before = slots.shared_object_logits(batch[1], batch[1], torch.ones(batch[1].shape[:2]))
        after = slots.shared_object_logits(swapped_args, swapped_args, torch.ones(batch[1].shape[:2]))
    assert not torch.allclose(at_random, shared(*batch)[0], atol=1e-3)
    assert torch.allclose(shuffled, at_random, atol=1e-5)
    assert int(binary.sum()) > 5
    assert torch.equal(before[:, 0], after[:, 0])
    assert not torch.equal(before[:, 1:], after[:, 1:])


CONTEXT_PREDICATES = [5, 6, *range(7, 14)]
"""Of the tiny models' 7 predicates, 5 and 6 are static, and every goal predicate 7..13."""
STATIC_CONTEXT_PREDICATES = [5, 6]
"""The static predicates alone: a model whose goal atoms are read with each state."""


def split_rows(rows: np.ndarray, context_ids: list[int] = CONTEXT_PREDICATES) -> tuple[np.ndarray, np.ndarray]:
    context = np.isin(rows[:, 0], context_ids)
    return rows[~context], rows[context]


@pytest.mark.parametrize(("readout", "attention_scale", "attention_bias", "context_ids", "recall", "context_keys"),
                         [("pooled", "fixed", "none", CONTEXT_PREDICATES, False, "all"),
                          ("atoms", "fixed", "none", CONTEXT_PREDICATES, False, "all"),
                          ("pooled", "log-length", "none", CONTEXT_PREDICATES, False, "all"),
                          ("atoms", "log-length", "shared-object", CONTEXT_PREDICATES, False, "all"),
                          ("pooled", "fixed", "object-slots", CONTEXT_PREDICATES, False, "all"),
                          ("atoms", "log-length", "shared-object", STATIC_CONTEXT_PREDICATES, False, "all"),
                          ("pooled", "fixed", "object-slots", STATIC_CONTEXT_PREDICATES, False, "all"),
                          ("atoms", "log-length", "shared-object", CONTEXT_PREDICATES, True, "all"),
                          ("atoms", "log-length", "shared-object", CONTEXT_PREDICATES, False, "shared-object"),
                          ("pooled", "fixed", "none", CONTEXT_PREDICATES, False, "shared-object"),
                          ("atoms", "log-length", "shared-object", STATIC_CONTEXT_PREDICATES, False,
                           "shared-object"),
                          ("atoms", "log-length", "shared-object", CONTEXT_PREDICATES, False, "object-means"),
                          ("pooled", "fixed", "none", CONTEXT_PREDICATES, False, "object-means"),
                          ("pooled", "log-length", "object-slots", STATIC_CONTEXT_PREDICATES, True, "object-means")],
                         ids=["pooled", "atoms", "log-length", "shared", "slots", "static-shared", "static-slots",
                              "recall", "sparse-shared", "sparse-pooled", "sparse-static", "objects-shared",
                              "objects-pooled", "objects-static-slots"])
def test_context_cache_gives_the_full_models_values(readout: str, attention_scale: str, attention_bias: str,
                                                    context_ids: list[int], recall: bool, context_keys: str):
    """A context-attention model: encode_context once, then forward_states on the fluent atoms
    (and, for a static-only context, the goal atoms) of several states of one task (padded),
    equals forward on all atoms, state by state; with ``recall`` (the embeddings read at every
    application, the output normalised) as without; with sparse context keys, whose
    forward_states reads only the pairs of state and context atoms with an object in common
    (:meth:`SharedLayer.mix_sparse`) where forward masks the others, as without."""
    model = tiny_model(context_predicates=context_ids, readout=readout, attention_scale=attention_scale,
                       attention_bias=attention_bias, recall=recall, context_keys=context_keys)
    rng = np.random.default_rng(5)
    states = [split_rows(r, context_ids)[0] for r in random_batch(rng, [12, 3, 9])]
    context = split_rows(random_batch(rng, [80])[0], context_ids)[1]
    assert len(context) > 5 and all(len(s) > 0 for s in states)
    # With the static context, the states carry goal atoms (ids 7..13) that attend to them.
    assert any((s[:, 0] >= 7).any() for s in states) == (context_ids == STATIC_CONTEXT_PREDICATES)
    with torch.no_grad():
        full = [float(model(*collate([np.concatenate([s, context])], 20))[0][0]) for s in states]
        cache = model.encode_context(*(t[0] for t in collate([context], 20)[:2]))
        cached = model.forward_states(*cache, *collate(states, 20))
        # The context's hidden states do not depend on the state: nothing of it attends to fluents.
        other = split_rows(random_batch(rng, [30])[0], context_ids)[0]
        _, _, hid_a = model(*collate([np.concatenate([states[0], context])], 20), True)
        _, _, hid_b = model(*collate([np.concatenate([other, context])], 20), True)
    assert cached.tolist() == pytest.approx(full, abs=1e-5)
    assert torch.allclose(hid_a[-1][0, len(states[0]):], hid_b[-1][0, len(other):], atol=1e-5)
    assert not torch.allclose(hid_a[-1][0, :3], hid_b[-1][0, :3], atol=1e-3)


def context_keys_attentions(seed: int, context_keys: str) -> tuple[np.ndarray, list[torch.Tensor]]:
    """A random 40-atom state (its rows) and every layer's attention map of a tiny context model
    with the shared-object bias and ``context_keys``, after checking that its value differs from
    the same weights' with every context atom visible (``context_keys`` ``all``)."""
    rows = random_batch(np.random.default_rng(seed), [40])
    batch = collate(rows, 20)
    model = tiny_model(context_predicates=CONTEXT_PREDICATES, attention_bias="shared-object",
                       context_keys=context_keys)
    dense = tiny_model(context_predicates=CONTEXT_PREDICATES, attention_bias="shared-object")
    with torch.no_grad():
        value, attentions, _ = model(*batch, True)
        assert not torch.allclose(value, dense(*batch)[0], atol=1e-4)
    return rows[0], attentions


def test_sparse_context_keys_hide_exactly_the_context_atoms_without_a_common_object():
    """``context_keys`` ``shared-object``: in every layer's attention map a state atom gives
    weight to a context atom exactly when the two have an object in common (sets of argument
    objects compared in Python), to every state atom as before, and a context atom to context
    atoms only; the values differ from the same weights' with every context atom visible."""
    r, attentions = context_keys_attentions(21, "shared-object")
    objects = [set(int(t) for t in row[1:] if t < 20) for row in r]
    is_context = np.isin(r[:, 0], CONTEXT_PREDICATES)
    assert is_context.sum() > 5 and (~is_context).sum() > 5
    checked = 0
    for attention in attentions:
        weights = attention[0].amax(dim=0)  # [N,N], the heads' largest weight
        for i in range(len(r)):
            for j in range(len(r)):
                if is_context[i]:
                    visible = bool(is_context[j])
                else:
                    visible = not is_context[j] or bool(objects[i] & objects[j])
                assert (float(weights[i, j]) > 0) == visible, (i, j)
                checked += not visible
    assert checked > 50


def test_sparse_context_keys_need_a_context_and_a_bias_they_can_carry():
    with pytest.raises(ValueError, match="context keys 'shared-object' need a context"):
        tiny_model(context_keys="shared-object")
    with pytest.raises(ValueError, match="'object-slots'"):
        tiny_model(context_predicates=CONTEXT_PREDICATES, attention_bias="object-slots",
                   context_keys="shared-object")
    with pytest.raises(ValueError, match="unknown context keys"):
        tiny_model(context_predicates=CONTEXT_PREDICATES, context_keys="some")
    with pytest.raises(ValueError, match="context keys 'object-means' need a context"):
        tiny_model(context_keys="object-means")


def test_object_context_keys_pool_each_object_from_the_context_atoms_that_name_it():
    """``context_objects`` against Python sets: a state's objects are those its context atoms
    name, in the order they first appear there, each pooling 1/k from each of the k context atoms
    that name it; a renamed copy (tokens permuted, atoms in place) has the renamed objects in the
    same order and the same weights, as the contrastive loss's position-by-position maps need."""
    rng = np.random.default_rng(8)
    rows = random_batch(rng, [40, 25])
    pred, args, mask = collate(rows, 20)
    context = torch.from_numpy(np.isin(pred.numpy(), CONTEXT_PREDICATES)) & mask
    object_rows, weights = context_objects(args, context, 20)
    for b, r in enumerate(rows):
        is_context = np.isin(r[:, 0], CONTEXT_PREDICATES)
        order: list[int] = []
        for row in r[is_context]:
            order += [int(t) for t in row[1:] if t < 20 and int(t) not in order]
        assert object_rows[b, :len(order), 0].tolist() == order
        assert (object_rows[b, len(order):] == 20).all() and (object_rows[b, :, 1:] == 20).all()
        for o, token in enumerate(order):
            names = [bool(is_context[i]) and token in r[i, 1:] for i in range(len(r))]
            expected = np.array(names, dtype=float) / sum(names)
            assert weights[b, o, :len(r)].numpy() == pytest.approx(expected)
        assert (weights[b, len(order):] == 0).all() and (weights[b, :, len(r):] == 0).all()
    renaming = torch.from_numpy(rng.permutation(20))
    renamed = torch.where(args < 20, renaming[args.clamp(max=19)], args)
    renamed_rows, renamed_weights = context_objects(renamed, context, 20)
    real = object_rows[..., 0] < 20
    assert torch.equal(renamed_rows[..., 0][real], renaming[object_rows[..., 0][real]])
    assert torch.equal(renamed_weights, weights)


def test_object_context_keys_hide_the_context_atoms_from_the_state():
    """``context_keys`` ``object-means``: in every layer's attention map a state atom gives weight to
    every state atom and to every one of the context's objects and none to a context atom; a
    context atom gives weight to the context atoms only; the values differ from the same weights'
    with every context atom visible."""
    r, attentions = context_keys_attentions(22, "object-means")
    is_context = np.isin(r[:, 0], CONTEXT_PREDICATES)
    num_objects = len({int(t) for row in r[is_context] for t in row[1:] if t < 20})
    assert is_context.sum() > 5 and (~is_context).sum() > 5 and num_objects > 5
    for attention in attentions:
        assert attention.shape[-1] == len(r) + num_objects
        seen = attention[0].amax(dim=0) > 0  # [N, N+O]: some head gives weight
        state = torch.from_numpy(~is_context)
        assert seen[state][:, :len(r)].equal(state[None, :].expand(int(state.sum()), -1))
        assert seen[state][:, len(r):].all()
        assert seen[~state][:, :len(r)].equal((~state)[None, :].expand(int((~state).sum()), -1))
        assert not seen[~state][:, len(r):].any()


@pytest.mark.parametrize("attention_bias", ["none", "object-slots"])
def test_context_cache_in_chunks_is_the_cache_in_one_piece(attention_bias: str):
    """encode_context computes its queries in chunks where the context is large (the object bias
    is [channels, C, C]): chunks of 3 atoms give the same cache as one piece."""
    model = tiny_model(context_predicates=CONTEXT_PREDICATES, attention_bias=attention_bias, readout="atoms")
    if attention_bias == "object-slots":
        with torch.no_grad():
            model.layer.slot_bias.normal_()
    context = split_rows(random_batch(np.random.default_rng(2), [80])[0])[1]
    pred, args = (t[0] for t in collate([context], 20)[:2])
    with torch.no_grad():
        whole = model.encode_context(pred, args)
        model.context_chunk_scores = 3 * len(context)
        chunked = model.encode_context(pred, args)
    assert len(context) > 6
    for a, b in zip(whole, chunked):
        assert torch.allclose(a.float(), b.float(), atol=1e-5)


def test_context_attention_keeps_invariances_and_changes_the_function():
    full_model = tiny_model()
    model = tiny_model(context_predicates=CONTEXT_PREDICATES)
    rng = np.random.default_rng(6)
    rows = random_batch(rng, [15, 22])
    shuffled = [r[rng.permutation(len(r))] for r in rows]
    with torch.no_grad():
        a, attentions, _ = model(*collate(rows, 20), True)
        b = model(*collate(shuffled, 20))[0]
        alone = model(*collate(rows[:1], 20))[0]
        same_weights = full_model(*collate(rows, 20))[0]
    assert torch.allclose(a, b, atol=1e-5) and abs(float(alone[0]) - float(a[0])) < 1e-5
    assert not torch.allclose(a, same_weights, atol=1e-4)  # the mask is really applied
    # A context atom gives no attention to a fluent atom, a fluent atom may attend to anything.
    pred, _, mask = collate(rows, 20)
    context = model.is_context[pred] & mask
    blocked = (context[:, :, None] & ~context[:, None, :] & mask[:, None, :])[:, None]
    assert int(blocked.sum()) > 20
    assert float(attentions[0].masked_select(blocked.expand_as(attentions[0])).abs().max()) == 0.0
    checkpoint_keys = set(model.state_dict())
    assert "is_context" not in checkpoint_keys and checkpoint_keys == set(full_model.state_dict())


TYPE_PREDICATES = [3, 4]
"""Of the tiny models' predicates, 3 and 4 stand for ``type:<t>`` predicates in the folding tests."""


def typed_rows(rng: np.random.Generator, n: int, vocab: int = 20) -> np.ndarray:
    """A state of ``n`` atoms of predicates 0-2 and 5-13, plus one or two type atoms (predicates
    3 and 4, unary) for each of its objects but the last, renamed to tokens."""
    rows = random_batch(rng, [n], vocab)[0]
    rows = rows[~np.isin(rows[:, 0], TYPE_PREDICATES)]
    objects = sorted({int(o) for o in rows[:, 1:].ravel() if o < vocab})
    types = [[t, o, vocab] for o in objects[:-1] for t in TYPE_PREDICATES[: 1 + o % 2]]
    return np.concatenate([rows, np.array(types, dtype=rows.dtype)])


def test_folded_types_are_the_objects_embeddings_plus_their_types():
    """Independent of the folding code: a table model with folded types gives the same value as
    the same weights without folding on the state less its type atoms, once every object's row
    of the embedding table holds its own embedding plus its types' predicate embeddings."""
    rng = np.random.default_rng(7)
    rows = typed_rows(rng, 14)
    folded = tiny_model(type_predicates=TYPE_PREDICATES)
    plain = tiny_model()  # the same seed: the same weights
    with torch.no_grad():
        table = plain.object_embedding.weight
        for row in rows[np.isin(rows[:, 0], TYPE_PREDICATES)]:
            table[int(row[1])] += plain.pred_embedding.weight[int(row[0])]
        untyped = rows[~np.isin(rows[:, 0], TYPE_PREDICATES)]
        expected = float(plain(*collate([untyped], 20))[0][0])
        value = float(folded(*collate([rows], 20))[0][0])
        shuffled = float(folded(*collate([rows[rng.permutation(len(rows))]], 20))[0][0])
        unfolded = float(tiny_model()(*collate([rows], 20))[0][0])
    assert len(rows) - len(untyped) >= 4
    assert value == pytest.approx(expected, abs=1e-5) and shuffled == pytest.approx(value, abs=1e-5)
    assert abs(unfolded - value) > 1e-4  # type atoms as tokens are another function


def test_folded_types_with_the_context_cache_give_the_full_models_values():
    """Folding and the context cache together (format 5): encode_context keeps the type atoms out
    of the cache and returns the type table, forward_states reads it, and the values are those of
    forward on all atoms."""
    model = tiny_model(context_predicates=[*CONTEXT_PREDICATES, *TYPE_PREDICATES],
                       type_predicates=TYPE_PREDICATES)
    rng = np.random.default_rng(8)
    everything = [typed_rows(rng, n) for n in (20, 9, 15)]
    context_ids = [*CONTEXT_PREDICATES, *TYPE_PREDICATES]
    context = np.concatenate([r[np.isin(r[:, 0], context_ids)] for r in everything])
    states = [r[~np.isin(r[:, 0], context_ids)] for r in everything]
    with torch.no_grad():
        full = [float(model(*collate([np.concatenate([s, context])], 20))[0][0]) for s in states]
        cache = model.encode_context(*(t[0] for t in collate([context], 20)[:2]))
        cached = model.forward_states(*cache, *collate(states, 20))
    assert len(cache) == 10 and cache[0].shape[2] == int(np.isin(context[:, 0], CONTEXT_PREDICATES).sum())
    assert cache[4].shape == (cache[0].shape[2], 2)  # the cached atoms' object tokens
    assert cache[5].shape == (0,) and cache[6].shape == (0, 0)  # no object graph without object-distance
    assert cached.tolist() == pytest.approx(full, abs=1e-5)


def test_contrastive_terms_match_the_definition():
    model = tiny_model(dropout=0.0)
    rng = np.random.default_rng(2)
    rows = random_batch(rng, [6, 6])
    pred, args, mask = collate(rows, 20)
    with torch.no_grad():
        _, att, hid = model(pred, args, mask, return_internals=True)
        zero_att, zero_hid = contrastive_terms(att, att, hid, hid, mask)
        assert float(zero_att) == 0 and float(zero_hid) == 0
        perm = torch.from_numpy(rng.permutation(20))
        renamed = args.clone()
        real = renamed < 20
        renamed[real] = perm[renamed[real]]
        _, att2, hid2 = model(pred, renamed, mask, return_internals=True)
        l_att, l_hid = contrastive_terms(att, att2, hid, hid2, mask)
    manual_att = sum(((a - b) ** 2).sum() for a, b in zip(att, att2)) / 2
    manual_hid = sum(((a - b) ** 2).sum() for a, b in zip(hid, hid2)) / 2
    assert len(att) == 2 and att[0].shape == (2, 2, 6, 6)  # every layer, every head
    assert hid[0].shape == (2, 6, 8)  # first k dims
    assert torch.allclose(l_att, manual_att) and torch.allclose(l_hid, manual_hid)
    assert float(l_att) > 0 and float(l_hid) > 0


def test_tokens_of_a_gripper_state(gripper_dataset):
    domain = parse_domain(gripper_dataset / "domain.pddl")
    task = ground(domain, gripper_dataset / "train" / "gripper-train-n2-0.pddl")
    signature = domain_signature(domain)
    encoded = encode_task(task, signature, domain)
    rows = encoded.state_rows(list(task.init))
    p = signature.num_predicates
    # init: at-robby, 2 x at, 2 x free = 5 fluents; statics: 2 rooms, 2 balls, 2 grippers; 2 goals
    assert len(rows) == 5 + 6 + 2
    goal_rows = rows[rows[:, 0] >= p]
    assert len(goal_rows) == 2 and set(goal_rows[:, 0]) == {p + signature.predicate_ids()["at"]}
    assert (rows[:, 1:] < len(task.objects)).all()


def test_type_atoms_for_typed_domains():
    ipc = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning" / "ferry"
    domain = parse_domain(ipc / "domain.pddl")
    signature = domain_signature(domain)
    assert ("type:car", 1) in signature.predicates and ("type:location", 1) in signature.predicates
    problem = min((ipc / "training" / "easy").glob("*.pddl"), key=lambda p: p.stat().st_size)
    task = ground(domain, problem)
    encoded = encode_task(task, signature, domain)
    type_ids = {i for name, i in signature.predicate_ids().items() if name.startswith("type:")}
    assert sum(int(r[0]) in type_ids for r in encoded.fixed_rows) == len(task.objects)


def test_vocabulary_overflow_names_both_numbers(gripper_dataset):
    with pytest.raises(SymtError, match="has 10 objects but the model's object vocabulary has only 8"):
        load_dataset(gripper_dataset, splits=("interpolation",), vocab_size=8, progress=False)


def test_pair_sampler_is_deterministic_and_pairs_correspond(gripper_dataset):
    data = load_dataset(gripper_dataset, progress=False, vocab_size=20)
    sampler = PairSampler(data.split("train"), 20, "rename-one", seed=3)
    a, b = sampler.batch(5, 16), sampler.batch(5, 16)
    assert torch.equal(a.args, b.args) and torch.equal(a.target, b.target)
    assert not torch.equal(sampler.batch(6, 16).args, a.args)
    assert a.renamed is not None
    # Same predicates and mask at the same positions; object tokens differ by a bijection.
    assert torch.equal(a.pred, a.renamed[0]) and torch.equal(a.mask, a.renamed[2])
    for i in range(16):
        pairs = {(int(x), int(y)) for x, y in zip(a.args[i].flatten(), a.renamed[1][i].flatten())}
        assert len({x for x, _ in pairs}) == len(pairs) == len({y for _, y in pairs})
    assert (a.target >= 0).all()


def config_for(dataset: Path, out: Path, **overrides) -> TrainConfig:
    options = dict(data=str(dataset), out=str(out), steps=40, eval_every=20, batch_size=8,
                   warmup=5, vocab_size=20, val_samples=32, coverage_tasks=1, threads=1,
                   model_overrides=dict(TINY), device="cpu")
    options.update(overrides)
    return TrainConfig(**options)


@pytest.mark.train
def test_resume_reaches_the_same_weights(gripper_dataset, tmp_path):
    straight = Trainer(config_for(gripper_dataset, tmp_path / "a", schedule="always"), progress=False)
    straight.run()
    # Stop after 20 of 40 steps (as an interruption would), then continue in a fresh trainer.
    Trainer(config_for(gripper_dataset, tmp_path / "b", schedule="always"), progress=False).run(stop_at=20)
    resumed = Trainer(config_for(gripper_dataset, tmp_path / "b", schedule="always"), resume=True, progress=False)
    assert resumed.step == 20
    resumed.run()
    for key, value in straight.model.state_dict().items():
        assert torch.equal(value, resumed.model.state_dict()[key]), key
    log = (tmp_path / "b" / "log.csv").read_text().splitlines()
    assert len(log) == 1 + 2 and log[0].startswith("epoch,step,lr,contrastive_weight")
    assert (tmp_path / "b" / "curves.png").stat().st_size > 1000
    assert not list((tmp_path / "b").glob("*.tmp"))


@pytest.mark.train
def test_a_time_budget_cuts_the_run_to_whole_epochs_and_resumes_with_the_cut_or_a_new_budget(gripper_dataset, tmp_path):
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "fit", steps=200, time_budget=100.0), progress=False)
    # 20 steps (one epoch, evaluation included) took 30 s: two more epochs fit in the 70 s left.
    trainer.step = 20
    assert trainer.fit_to_budget(30.0) and trainer.last_step == 60
    # A faster epoch never moves the end later; a slower one moves it earlier, never before now.
    trainer.step = 40
    trainer.fit_to_budget(10.0)
    assert trainer.last_step == 60
    trainer.fit_to_budget(500.0)
    assert trainer.last_step == 40
    assert trainer.lr(39) < trainer.lr(38) < trainer.config.lr  # the cosine now ends at step 40

    # A budget spent by the first epoch ends the run there, and a resumed run keeps the cut.
    out = tmp_path / "spent"
    Trainer(config_for(gripper_dataset, out, steps=200, time_budget=1e-6), progress=False).run()
    resumed = Trainer(config_for(gripper_dataset, out, steps=200, time_budget=1e-6), resume=True, progress=False)
    assert resumed.step == resumed.last_step == 20
    resumed.run()
    assert resumed.step == 20
    assert len((out / "log.csv").read_text().splitlines()) == 1 + 1
    # Resumed with another budget, the old cut goes (the schedule runs towards --steps again, the
    # learning rate where the uncut run's is) and the new budget cuts after the next epoch.
    extended = Trainer(config_for(gripper_dataset, out, steps=200, time_budget=2e-6), resume=True, progress=False)
    assert extended.step == 20 and extended.last_step == 200
    uncut = Trainer(config_for(gripper_dataset, tmp_path / "uncut", steps=200), progress=False)
    assert extended.lr(20) == uncut.lr(20) and extended.lr(39) == uncut.lr(39)
    extended.run()
    assert extended.step == extended.last_step == 40
    assert len((out / "log.csv").read_text().splitlines()) == 1 + 2


@pytest.mark.train
def test_existing_run_needs_resume_and_resume_checks_options(gripper_dataset, tmp_path):
    Trainer(config_for(gripper_dataset, tmp_path / "r", steps=20), progress=False).run()
    with pytest.raises(SymtError, match="already holds a training run"):
        Trainer(config_for(gripper_dataset, tmp_path / "r"), progress=False)
    with pytest.raises(SymtError, match="option 'seed' differs"):
        Trainer(config_for(gripper_dataset, tmp_path / "r", seed=9), resume=True, progress=False)


@pytest.mark.train
def test_divergence_is_reported_and_best_checkpoint_survives(gripper_dataset, tmp_path):
    trainer = Trainer(config_for(gripper_dataset, tmp_path / "d", steps=60, lr=1e-3), progress=False)
    trainer.run(stop_at=20)
    best_before = (tmp_path / "d" / "best.pt").read_bytes()
    trainer.config.lr = 1e30  # blows up
    trainer.config.grad_clip = 0.0
    with pytest.raises(DivergenceError, match="diverged"):
        trainer.run()
    assert (tmp_path / "d" / "best.pt").read_bytes() == best_before


@pytest.mark.train
def test_training_learns_gripper_heuristic(gripper_dataset, tmp_path):
    """About a thousand steps bring the training MSE far below the variance of h* (the mean
    plateau: MSE = variance) and cut the validation MSE (5 balls, larger than any training task) several-fold.

    Where the run leaves the plateau depends on the CPU's kernels (AVX2 against AVX-512 rounding):
    on an AVX2-only CPU it is still on it after 800 steps (train MSE 6.7, variance 11.3) and far
    below after 1,200 (0.67)."""
    config = config_for(gripper_dataset, tmp_path / "l", steps=1200, eval_every=400, batch_size=16,
                        lr=3e-3, warmup=20, contrastive=False, model_overrides={})
    trainer = Trainer(config, progress=False)
    _, variance = trainer.sampler.hstar_statistics()
    untrained_val_mse = trainer.validation_losses()[0]
    final = trainer.run()
    assert final["train_mse"] < 0.5 * variance, (final, variance)
    assert final["val_mse"] < untrained_val_mse / 3, (final, untrained_val_mse)


@pytest.fixture(scope="module")
def exported(gripper_dataset, tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    Trainer(config_for(gripper_dataset, out / "run", steps=20), progress=False).run()
    export(out / "run" / "best.pt", out / "model.pt")
    return out


@pytest.mark.slow
def test_export_matches_python_model(exported):
    from symt.export import load_checkpoint_model

    module, meta = load_exported(exported / "model.pt")
    model, _ = load_checkpoint_model(exported / "run" / "best.pt")
    assert meta["format_version"] == 5 and meta["model"]["object_identity"] == "table" and meta["domain"] == "gripper"
    assert [p["name"] for p in meta["predicates"]][:3] == ["room", "ball", "gripper"]
    # Format 3 on: what the plugin needs, as typed attributes of the module itself; format 4 adds
    # whether the module caches a task context (not this full-attention model).
    assert module.symt_format == "symt-heuristic" and module.symt_format_version == 5
    assert module.symt_context_cache == 0 and not hasattr(module, "forward_states")
    assert module.symt_domain == "gripper" and module.symt_vocab_size == meta["vocab_size"]
    assert module.symt_predicate_names == [p["name"] for p in meta["predicates"]]
    assert module.symt_predicate_arities == [p["arity"] for p in meta["predicates"]]
    assert module.symt_max_arity == meta["max_arity"]
    rng = np.random.default_rng(4)
    rows = []
    for n in (11, 7, 20):
        r = random_batch(rng, [n], vocab=20)[0]
        r[:, 0] = rng.integers(0, 2 * len(meta["predicates"]), size=n)
        rows.append(r)
    batch = collate(rows, 20)
    with torch.no_grad():
        ours = model(*batch)[0]
        theirs = module(*batch)
        permuted = [r[rng.permutation(len(r))] for r in rows]
        theirs_permuted = module(*collate(permuted, 20))
    assert torch.allclose(ours, theirs, atol=1e-5)
    assert torch.allclose(theirs, theirs_permuted, atol=1e-5)


def test_loading_bad_models_fails_clearly(exported, tmp_path):
    with pytest.raises(SymtError, match="model file not found"):
        load_exported(tmp_path / "missing.pt")
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"not a zip archive")
    with pytest.raises(SymtError, match="not a readable TorchScript model"):
        load_exported(corrupt)
    # Same model, metadata of a future version.
    future = tmp_path / "future.pt"
    with zipfile.ZipFile(exported / "model.pt") as src, zipfile.ZipFile(future, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("extra/symt.json"):
                meta = json.loads(data)
                meta["format_version"] = 99
                data = json.dumps(meta).encode()
            dst.writestr(item, data)
    with pytest.raises(SymtError, match="format version 99 is not supported"):
        load_exported(future)


@pytest.mark.train
def test_plan_command_prints_a_validated_plan_or_fails_cleanly(exported, gripper_dataset):
    from symt.guidance import StateEvaluator, greedy_heuristic_guidance

    module, meta = load_exported(exported / "model.pt")
    domain = parse_domain(gripper_dataset / "domain.pddl")
    task = ground(domain, gripper_dataset / "train" / "gripper-train-n2-0.pddl")
    from symt.tokens import Signature

    encoded = encode_task(task, Signature.from_json(meta), domain)
    result = greedy_heuristic_guidance(task, StateEvaluator(encoded, module, 20), max_steps=30)
    assert result.solved or result.reason == "step limit (30) reached" or result.reason.startswith("loop: ")
    assert len(result.actions) <= 30
    cli = subprocess.run(
        [sys.executable, "-m", "symt.cli", "plan", "--model", str(exported / "model.pt"),
         str(gripper_dataset / "domain.pddl"), str(gripper_dataset / "train" / "gripper-train-n2-0.pddl")],
        capture_output=True, text=True)
    assert cli.returncode in (0, 1) and "Traceback" not in cli.stderr
    assert "; strategy: heuristic;" in cli.stderr
    lines = cli.stdout.strip().splitlines()
    assert all(line.startswith("(") and line.endswith(")") for line in lines)
    assert (cli.returncode == 0) == ("goal reached" in cli.stderr)


def test_inference_tokens_follow_the_task_not_its_file(tmp_path):
    """The tokens objects get at inference (canonical_assignment) are a permutation of 0..n-1 and
    the same for each object whatever order the problem file declares the objects in, where the
    task tells its objects apart (Logistics: packages, trucks and places each differ in where
    they are and must go)."""
    import random

    from symt.generators import domain_file, generate_task
    from symt.pddl import ground, parse_domain, parse_problem

    domain = parse_domain(domain_file("logistics"))
    text = generate_task("logistics", 3, 5, "order")
    tokens = []
    for seed in range(3):
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if "(:objects" in line)
        objects = lines[start].split("(:objects", 1)[1].rstrip(")").split()
        random.Random(seed).shuffle(objects)
        lines[start] = "  (:objects " + " ".join(objects) + ")"
        (tmp_path / "p.pddl").write_text("\n".join(lines))
        task = ground(domain, parse_problem(tmp_path / "p.pddl", domain))
        encoded = encode_task(task, domain_signature(domain), domain)
        assert sorted(encoded.assignment.tolist()) == list(range(len(task.objects)))
        tokens.append(dict(zip(task.objects, encoded.assignment.tolist(), strict=True)))
    assert tokens[0] == tokens[1] == tokens[2]


@pytest.mark.train
def test_two_process_ddp_training_with_torchrun(gripper_dataset, tmp_path):
    """torchrun + DDP (gloo on CPU): both ranks train, rank 0 writes the log and checkpoints.
    ``--standalone`` lets torchrun pick a free port: a fixed one failed when another run held it."""
    torchrun = Path(sys.executable).parent / "torchrun"
    if not torchrun.exists():
        pytest.skip("torchrun is not installed next to this Python")
    out = tmp_path / "ddp"
    result = subprocess.run(
        [str(torchrun), "--standalone", "--nproc_per_node=2", "-m", "symt.cli", "train",
         str(gripper_dataset), "--out", str(out), "--steps", "20", "--eval-every", "10",
         "--batch-size", "8", "--device", "cpu", "--threads", "1", "--quiet", "--vocab-size", "20",
         "--d-model", "16", "--n-heads", "2", "--n-layers", "2", "--d-ff", "32", "--coverage-tasks", "1"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    log = (out / "log.csv").read_text().splitlines()
    assert len(log) == 3
    import csv

    rows = list(csv.DictReader(log))
    assert rows[-1]["step"] == "20"
    assert (out / "best.pt").exists()


@pytest.mark.train
def test_interrupt_during_evaluation_logs_that_epoch_when_resumed(gripper_dataset, tmp_path, monkeypatch):
    """Ctrl-C while an epoch is evaluated: the resumed run evaluates and logs that epoch (same
    number, same training loss) before it trains on, and ends with the uninterrupted weights."""
    straight = Trainer(config_for(gripper_dataset, tmp_path / "a"), progress=False)
    straight.run()
    interrupted = Trainer(config_for(gripper_dataset, tmp_path / "b"), progress=False)

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(interrupted, "coverage", ctrl_c)
    with pytest.raises(SymtError, match="interrupted at step 20"):
        interrupted.run()
    assert not (tmp_path / "b" / "log.csv").exists()
    resumed = Trainer(config_for(gripper_dataset, tmp_path / "b"), resume=True, progress=False)
    resumed.run()
    for key, value in straight.model.state_dict().items():
        assert torch.equal(value, resumed.model.state_dict()[key]), key
    rows = [(r["epoch"], r["step"], round(r["train_mse"], 9)) for r in resumed.history]
    assert rows == [(r["epoch"], r["step"], round(r["train_mse"], 9)) for r in straight.history]
    assert rows[0][:2] == (1, 20) and rows[1][:2] == (2, 40)


@pytest.mark.train
def test_train_command_passes_the_model_options(gripper_dataset, tmp_path):
    """``symt train --readout atoms --attention-scale log-length --attention-bias shared-object
    --d-embed 12`` trains that model,
    and its export computes what the checkpoint's model computes."""
    from symt.export import load_checkpoint_model

    out = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, "-m", "symt.cli", "train", str(gripper_dataset), "--out", str(out), "--steps", "4",
         "--eval-every", "2", "--batch-size", "4", "--device", "cpu", "--threads", "1", "--quiet",
         "--vocab-size", "20", "--d-model", "16", "--n-heads", "2", "--n-layers", "2", "--d-ff", "32",
         "--coverage-tasks", "1", "--readout", "atoms", "--attention-scale", "log-length", "--d-embed", "12",
         "--attention-bias", "shared-object"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    model, checkpoint = load_checkpoint_model(out / "best.pt")
    config = checkpoint["model_config"]
    assert (config["readout"], config["attention_scale"], config["d_embed"]) == ("atoms", "log-length", 12)
    export(out / "best.pt", tmp_path / "model.pt")
    module, meta = load_exported(tmp_path / "model.pt")
    assert meta["model"]["readout"] == "atoms" and meta["model"]["attention_scale"] == "log-length"
    assert meta["model"]["attention_bias"] == "shared-object" and config["attention_bias"] == "shared-object"
    rows = random_batch(np.random.default_rng(11), [6, 14], vocab=20)
    pred, args, mask = collate(rows, 20)
    pred = pred % (2 * model.config.num_predicates)
    with torch.no_grad():
        assert torch.allclose(module(pred, args, mask), model(pred, args, mask)[0], atol=1e-5)


def test_train_layers_draws_a_depth_per_step_and_recall_runs_at_any_depth(gripper_dataset, tmp_path):
    """``--recall --train-layers 1 3``: each step applies the shared layer 1-3 times (all three
    occur, the same draws again on a rerun), validation and the checkpoint keep ``--n-layers``, and
    the export at another depth computes what the Python model computes at that depth."""
    from symt.export import load_checkpoint_model

    def depths(out: Path) -> list[int]:
        trainer = Trainer(config_for(gripper_dataset, out, steps=12, eval_every=12, train_layers=[1, 3],
                                     model_overrides={**TINY, "recall": True}), progress=False)
        calls: list[int] = []
        trainer.model.layer.register_forward_pre_hook(lambda module, inputs: calls.append(0))
        drawn = []
        for step in range(12):
            calls.clear()
            trainer.train_step(step)
            drawn.append(len(calls))  # one forward pass of X, X' and the siblings together
            assert trainer.model.n_layers == TINY["n_layers"]
        trainer.run()
        return drawn

    drawn = depths(tmp_path / "a")
    assert set(drawn) == {1, 2, 3} and drawn == depths(tmp_path / "b")
    model, checkpoint = load_checkpoint_model(tmp_path / "a" / "best.pt")
    assert checkpoint["model_config"]["recall"] and model.n_layers == TINY["n_layers"]
    export(tmp_path / "a" / "best.pt", tmp_path / "deep.pt", layers=7)
    module, meta = load_exported(tmp_path / "deep.pt")
    assert meta["model"]["n_layers"] == 7
    pred, args, mask = collate(random_batch(np.random.default_rng(3), [5, 11]), 20)
    pred = pred % (2 * model.config.num_predicates)
    with torch.no_grad():
        trained_depth = model(pred, args, mask)[0]
        model.n_layers = 7
        assert torch.allclose(module(pred, args, mask), model(pred, args, mask)[0], atol=1e-5)
        assert not torch.allclose(trained_depth, model(pred, args, mask)[0], atol=1e-3)


def test_context_cache_modes_are_named_and_an_unknown_one_is_refused(tmp_path):
    """symt_context_cache: 0 without context attention, 1 with every fixed atom cached, 2 where
    the goal atoms go with each state; a mode this symt does not know (a newer export) is refused
    with a clear error, not read as another."""
    expected = {False: CACHE_NONE, True: CACHE_FIXED, "static": CACHE_STATIC}
    for context, mode in expected.items():
        module, meta = load_exported(random_model("gripper", tmp_path / f"m-{context}.pt", context=context))
        assert module.symt_context_cache == context_cache_mode(meta) == mode
    problem = tmp_path / "gripper-2.pddl"
    problem.write_text(generate_task("gripper", 2, 1, "gripper-2"))
    domain = parse_domain(domain_file("gripper"))
    task = ground(domain, parse_problem(problem, domain))

    class NewerModule:
        symt_context_cache = 3

    with pytest.raises(SymtError, match="symt_context_cache 3"):
        exported_state_evaluator(NewerModule(), meta, domain, task)


@pytest.mark.train
def test_contrastive_terms_start_by_the_deadline_without_a_plateau(gripper_dataset, tmp_path):
    """contrastive_by: a run whose regression never leaves its plateau (here: the plateau test is
    made unreachable) still trains with the contrastive terms from that share of its steps on;
    without it they stay off for the whole run (what issue 61 saw on Driverlog)."""
    never = dict(plateau_fraction=0.0, eval_every=10)
    off = Trainer(config_for(gripper_dataset, tmp_path / "off", **never), progress=False)
    off.run()
    assert off.contrastive_start is None
    on = Trainer(config_for(gripper_dataset, tmp_path / "on", contrastive_by=0.5, **never), progress=False)
    on.run()
    assert on.contrastive_start == 20
    weights = [float(row["contrastive_weight"]) for row in csv.DictReader((tmp_path / "on" / "log.csv").open())]
    assert weights[0] == 0.0 and weights[-1] > 0.0


class _Valued:
    """An evaluator for greedy_best_first: a fixed function of the state, counting its calls."""

    def __init__(self, value) -> None:
        self.value, self.count = value, 0

    def __call__(self, states):
        self.count += len(states)
        return np.array([self.value(s) for s in states], dtype=np.float64)


def test_greedy_best_first_search_finds_plans_checked_by_val(tmp_path: Path) -> None:
    """The trainer's ``coverage_search="gbfs"``: with a constant value, ties go by insertion order
    and the goal is tested on generation, so the search is breadth-first and its plan optimal: an
    n-ball Gripper task (n even) takes 3n - 1 steps. With the goal count it finds a plan VAL
    accepts; with one expansion it stops at the limit."""
    from symt.generators import domain_file, generate_task
    from symt.guidance import greedy_best_first
    from symt.val import run_val

    problem = tmp_path / "p.pddl"
    problem.write_text(generate_task("gripper", 4, 3, "p"))
    domain = parse_domain(domain_file("gripper"))
    task = ground(domain, problem)
    result, expansions = greedy_best_first(task, _Valued(lambda s: 0.0), 10_000)
    assert result.solved and len(result.actions) == 3 * 4 - 1 and expansions > len(result.actions)
    goals = set(task.goal_pos)
    result, expansions = greedy_best_first(task, _Valued(lambda s: len(goals - s)), 10_000)
    (tmp_path / "plan").write_text("\n".join(result.labels(task)) + "\n")
    assert result.solved and run_val(domain_file("gripper"), problem, tmp_path / "plan").valid
    limited, expansions = greedy_best_first(task, _Valued(lambda s: 0.0), 1)
    assert not limited.solved and expansions == 1 and limited.reason == "expansion limit (1) reached"


def test_greedy_guidance_stops_on_a_revisit_with_the_step_limits_verdict(tmp_path: Path) -> None:
    """A search-free run that comes back to a state stops there (the choice rule is a function of
    the state, so it would cycle to the cap): the verdict and the first steps are those of the
    paper's run to 500 steps, replayed here by a plain loop; the named steps really reach the same
    state; the lockstep version agrees task by task."""
    from symt.generators import domain_file, generate_task
    from symt.guidance import (
        MAX_STEPS,
        changing_successors,
        greedy_guidance_lockstep,
        greedy_heuristic_guidance,
    )

    domain = parse_domain(domain_file("gripper"))
    tasks = []
    for n in (2, 3):
        problem = tmp_path / f"p{n}.pddl"
        problem.write_text(generate_task("gripper", n, 1, f"p{n}"))
        tasks.append(ground(domain, problem))

    def paper_run(task, value) -> tuple[bool, list[int]]:
        state, plan = frozenset(task.init), []
        while not task.is_goal(state) and len(plan) < MAX_STEPS:
            applicable, successors = changing_successors(task, state)
            best = int(np.argmin([value(s) for s in successors]))
            plan.append(applicable[best])
            state = successors[best]
        return task.is_goal(state), plan

    for task in tasks:
        goals = set(task.goal_pos)
        for value in (lambda s: 0.0, lambda s, g=goals: len(g - s), lambda s, g=goals: -len(g - s)):
            solved, reference = paper_run(task, value)
            result = greedy_heuristic_guidance(task, _Valued(value))
            assert result.solved == solved and reference[: len(result.actions)] == result.actions
            if solved:
                assert result.actions == reference
                continue
            assert result.reason.startswith("loop: ") and len(result.actions) < MAX_STEPS
            now, first = (int(word) for word in re.findall(r"step (\d+)", result.reason))
            states = [frozenset(task.init)]
            for action in result.actions:
                states.append(task.apply(task.actions[action], states[-1]))
            assert first < now == len(result.actions) and states[first] == states[now]
    unsolved = lambda s: 0.0  # noqa: E731 - a constant value: Gripper's first move goes back and forth
    alone = [greedy_heuristic_guidance(task, _Valued(unsolved)) for task in tasks]
    together = greedy_guidance_lockstep(tasks, [_LockstepValued(unsolved) for _ in tasks])
    assert [(r.solved, r.actions, r.reason) for r in alone] == [(r.solved, r.actions, r.reason) for r in together]


class _LockstepValued(_Valued):
    """A :class:`_Valued` that greedy_guidance_lockstep may call alone (it is not a shared model)."""

    fluent_only = True


def test_the_plugin_reads_the_model_formats_python_writes() -> None:
    """The format constants live on both sides of the export contract (the plugin cannot import
    Python's); they must agree, or a model Python calls readable is refused in Fast Downward."""
    import re

    from symt import formats

    plugin = Path(__file__).resolve().parents[1] / "fd_plugin"
    source = "\n".join((plugin / name).read_text() for name in ("symt_context.h", "symt_context.cc"))
    ints = {m.group(1): int(m.group(2)) for m in re.finditer(r"constexpr int (\w+) = (\d+);", source)}
    strings = {m.group(1): m.group(2) for m in re.finditer(r'constexpr const char \*(\w+) = "([^"]*)";', source)}
    assert (ints["MIN_FORMAT_VERSION"], ints["MAX_FORMAT_VERSION"]) == (
        min(formats.READABLE_FORMAT_VERSIONS), max(formats.READABLE_FORMAT_VERSIONS))
    assert list(formats.READABLE_FORMAT_VERSIONS) == list(range(ints["MIN_FORMAT_VERSION"], ints["MAX_FORMAT_VERSION"] + 1))
    assert ints["ATTRIBUTES_SINCE"] == formats.ATTRIBUTES_SINCE
    assert ints["CONTEXT_CACHE_SINCE"] == formats.CONTEXT_CACHE_SINCE
    assert ints["ACHIEVED_GOALS_SINCE"] == formats.ACHIEVED_GOALS_FORMAT_VERSION
    assert ints["CONTEXT_VERSION"] == formats.CONTEXT_VERSION
    assert (strings["FORMAT_NAME"], strings["CONTEXT_HEADER"]) == (formats.FORMAT, formats.CONTEXT_HEADER)
