"""The dataset splits of the paper (Appendix C, Table "Problem sizes"), per domain.

Sizes are the paper's; the number of tasks per split is the paper's where it gives one (training
and the interpolation/extrapolation test sets) and **our choice** for validation, which the paper
does not state: Blocksworld 3, Gripper 2 (one per size), Logistics 4, Visitall 30 (15 per size).

When a split has more tasks than sizes, the tasks are spread as evenly as possible over the sizes
in the listed order, the first sizes receiving the extra ones (:func:`spread`):

=========== ============================ =========== ========================== =====================
domain      train                        validation  interpolation              extrapolation
=========== ============================ =========== ========================== =====================
blocksworld 4,6,7: 3 each (9)            8: 3        5: 3                       9..17: 20 (9,10 get 3)
gripper     2,4,6,8: 1 each (4)          9,10: 1     3,5,7: 1 each              12,14..42: 1 each (16)
logistics   1,3,5: 4 each (12)           6: 4        2: 5, 4: 4 (9)             7..15: 2 each (18)
visitall    1,3,4,6,10,11,12,14,16: 23   18,20: 15   2,5: 8; 8,9,15: 7 (37)     24..121: 219 (24..46
            each (207)                   each                                   get 3, the rest 2)
=========== ============================ =========== ========================== =====================

Tasks of equal size are kept distinct up to renaming where the domain allows it (the split driver
resamples duplicates). Some duplicates are unavoidable: a Gripper task is unique for its size,
and the 23 one-cell Visitall training tasks are all the same task (whose goal holds initially).
"""

from __future__ import annotations

SPLITS: tuple[str, ...] = ("train", "validation", "interpolation", "extrapolation")
"""Split names, in the order tasks are generated and written."""


def spread(sizes: list[int], count: int) -> list[tuple[int, int]]:
    """Distribute ``count`` tasks over ``sizes`` as evenly as possible, earlier sizes first.

    Returns ``(size, number of tasks)`` pairs, omitting sizes that receive none.
    """
    if not sizes:
        raise ValueError("no sizes to spread over")
    base, extra = divmod(count, len(sizes))
    pairs = [(s, base + (1 if i < extra else 0)) for i, s in enumerate(sizes)]
    return [(s, k) for s, k in pairs if k > 0]


_TABLE: dict[str, dict[str, tuple[list[int], int]]] = {
    "blocksworld": {
        "train": ([4, 6, 7], 9),
        "validation": ([8], 3),
        "interpolation": ([5], 3),
        "extrapolation": (list(range(9, 18)), 20),
    },
    "gripper": {
        "train": ([2, 4, 6, 8], 4),
        "validation": ([9, 10], 2),
        "interpolation": ([3, 5, 7], 3),
        "extrapolation": (list(range(12, 43, 2)), 16),
    },
    "logistics": {
        "train": ([1, 3, 5], 12),
        "validation": ([6], 4),
        "interpolation": ([2, 4], 9),
        "extrapolation": (list(range(7, 16)), 18),
    },
    "visitall": {
        "train": ([1, 3, 4, 6, 10, 11, 12, 14, 16], 207),
        "validation": ([18, 20], 30),
        "interpolation": ([2, 5, 8, 9, 15], 37),
        "extrapolation": (list(range(24, 122)), 219),
    },
}


def split_plan(domain: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """For every split of ``domain`` (in :data:`SPLITS` order): its ``(size, count)`` pairs.

    Raises ``KeyError`` for an unknown domain.
    """
    table = _TABLE[domain]
    return [(split, spread(*table[split])) for split in SPLITS]
