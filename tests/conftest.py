"""Shared fixtures: small generated datasets that train in seconds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from symt.generators import domain_file, generate_task

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"


def make_dataset(root: Path, domain: str, splits: dict[str, list[int]], seed: int = 0) -> Path:
    """A dataset folder like `symt generate` writes, with the given sizes per split."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(domain_file(domain), root / "domain.pddl")
    manifest = []
    for split, sizes in splits.items():
        (root / split).mkdir(exist_ok=True)
        for index, size in enumerate(sizes):
            name = f"{domain}-{split}-n{size}-{index}"
            task_seed = seed * 1000 + len(manifest)
            (root / split / f"{name}.pddl").write_text(generate_task(domain, size, task_seed, name))
            manifest.append({"domain": domain, "name": name, "split": split, "size": size,
                             "index": index, "seed": task_seed, "file": f"{split}/{name}.pddl"})
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


@pytest.fixture(scope="session")
def gripper_dataset(tmp_path_factory) -> Path:
    return make_dataset(tmp_path_factory.mktemp("gripper-data"), "gripper",
                        {"train": [2, 3, 4], "validation": [5], "interpolation": [6]})
