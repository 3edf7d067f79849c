"""Seeded problem generators for the paper's four domains and its dataset splits.

See :mod:`symt.generators.splits` for the split table (and our validation counts), and the
domain modules for each generator's distribution. Object names in generated problems are opaque
(``o1 .. oN`` under a seeded random permutation) and the order of objects and atoms is shuffled.
"""

from __future__ import annotations

from symt.generators.dataset import (
    DOMAINS,
    GeneratedTask,
    domain_file,
    generate_sized_tasks,
    generate_split_tasks,
    generate_task,
    task_name,
    task_seed,
    write_dataset,
    write_manifest,
)
from symt.generators.splits import SPLITS, split_plan

__all__ = [
    "DOMAINS",
    "SPLITS",
    "GeneratedTask",
    "task_seed",
    "domain_file",
    "generate_sized_tasks",
    "generate_split_tasks",
    "generate_task",
    "split_plan",
    "task_name",
    "write_dataset",
    "write_manifest",
]
