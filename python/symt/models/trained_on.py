"""What a shipped model was trained on, in words (``symt models``' last column): the sizes of the
paper's training split for the paper-domain models, the IPC 2023 training problems (``training.json``
beside the model files) for the ``ipc2023-<domain>`` models, a retargeted model's source."""

from __future__ import annotations

import json
import re
from functools import cache

from ..errors import SymtError
from ..formats import read_model_meta
from . import MODEL_DIR, _is_heuristic_file, paper_domain, shipped

TRAINING_FILE = MODEL_DIR / "training.json"
"""Training problems of the ``ipc2023-<domain>`` models (see :func:`training_sizes`)."""

SIZE_UNITS = {"blocksworld": "blocks", "gripper": "balls", "logistics": "packages", "visitall": "cells"}
"""What a task's size counts in the paper domains (:mod:`symt.generators`)."""

EXTRA_STYLES = {"blocksworld": ("towers", "partial", "stacks")}
"""Shipped paper-domain models trained on the paper's training split plus as many tasks again per
generator style (``symt generate DOMAIN --styles ...``; issue 32): ``blocksworld`` is ``bw-slots``
(``benchmarks/experiments/robustness/run.sh train-slots``: the object-slots attention bias, which tells apart
which argument of an atom holds a shared object); ``ipc2023-blocksworld`` is
``bw-shared-n64h2-s6`` retargeted (``benchmarks/training/models.toml``: the same data with the
shared-object bias, better than ``bw-slots`` on IPC 2023's medium tasks, 64 wide with 2 heads:
about half the cost a state of the 128-wide ``bw-shared`` shipped before it). ``logistics`` is ``lg-achieved-s1`` (``run.sh
train-logistics-achieved``, seed 1: the paper's split only, with the shared-object attention bias and
achieved goals marked), which generalises to other generators' tasks better than the models trained
with the ``wide`` style."""


@cache
def _ipc_training() -> dict:
    try:
        return json.loads(TRAINING_FILE.read_text())
    except (OSError, ValueError) as error:
        raise SymtError(f"{TRAINING_FILE}: unreadable ({error})") from None


def _number_ranges(problems: list[str]) -> str:
    """``p01–p12, p14, p17`` for a list of problem names ``pNN``."""
    numbered = sorted((int(re.sub(r"\D", "", p) or 0), p) for p in problems)
    runs: list[list[tuple[int, str]]] = []
    for item in numbered:
        if runs and item[0] == runs[-1][-1][0] + 1:
            runs[-1].append(item)
        else:
            runs.append([item])
    return ", ".join(run[0][1] if len(run) == 1 else f"{run[0][1]}–{run[-1][1]}" for run in runs)


def training_sizes(name: str) -> str | None:
    """What the shipped model ``name`` was trained on, in words; None when not recorded.

    Paper domains: the sizes and task count of the paper's training split
    (``2,4,6,8 balls (4 tasks)``); ``ipc2023-<domain>``: the IPC training problems used
    (``IPC 2023 training/easy p01–p24 (24 tasks, 2–7 objects)``, from ``training.json``); a model
    written by ``symt retarget``: its source model's, named.
    """
    path = shipped().get(name)
    if path is not None and _is_heuristic_file(path):
        retargeted = read_model_meta(path).get("retargeted")
        if isinstance(retargeted, dict) and retargeted.get("from_model"):
            # A model written for another domain's names (symt retarget): it learned what its
            # source model learned.
            source = training_sizes(str(retargeted["from_model"]))
            return f"{source}, as '{retargeted['from_model']}' (symt retarget)" if source else None
    domain = paper_domain(name)
    if domain is not None:
        from ..generators.dataset import style_training_sizes
        from ..generators.splits import split_plan

        sizes = dict(split_plan(domain))["train"]
        count = sum(n for _, n in sizes)
        words = (f"{','.join(str(size) for size, _ in sizes)} {SIZE_UNITS.get(domain, '')} "
                 f"({count} task{'s' if count != 1 else ''})").replace("  ", " ")
        extra = EXTRA_STYLES.get(name, ())
        if extra:
            more = sum(n for style in extra for _, n in style_training_sizes(domain, style, sizes))
            names = extra[0] if len(extra) == 1 else f"{', '.join(extra[:-1])} and {extra[-1]}"
            words += f" + {more} in the {names} style{'s' if len(extra) > 1 else ''}"
        return words
    entry = _ipc_training().get(name)
    if not isinstance(entry, dict):
        return None
    train = entry["train"]
    objects = [row[1] for row in train]
    return (f"IPC 2023 {entry['ipc_domain']} {entry['problems']} {_number_ranges([row[0] for row in train])} "
            f"({len(train)} tasks, {min(objects)}–{max(objects)} objects)")
