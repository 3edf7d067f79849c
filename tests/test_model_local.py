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
    features = values.evaluate(state)
    read = []
    for _ in range(80):
        step = rng.choice(neighbours[robot])
        state = (state - {(2, robot, V)}) | {(2, step, V), (1, step, V)}
        robot = step
        features, count = values.update(features, state)
        whole = values.evaluate(state)
        assert set(features) == set(whole)
        for atom, row in whole.items():
            assert features[atom].tolist() == pytest.approx(row.tolist(), abs=1e-5)
        assert values.value(features) == pytest.approx(values.value(whole), abs=1e-4)
        read.append((count, len(state)))
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
    features, count = values.update(values.evaluate(state), child)
    assert 0 < count <= len(child)
    assert values.value(features) == pytest.approx(values.value(values.evaluate(child)), abs=1e-4)
    same, none = values.update(features, child)
    assert none == 0 and values.value(same) == pytest.approx(values.value(features))


def test_a_model_with_global_tokens_is_refused() -> None:
    pred, args, _ = grid(3)
    with pytest.raises(ValueError, match="no global tokens"):
        LocalValues(local_model(global_tokens=2), pred, args)
