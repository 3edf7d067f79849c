"""Shared fixtures (small generated datasets that train in seconds, the Fast Downward build) and
the ``fd`` marker of the test tiers (pyproject.toml)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from symt.fast_downward import FastDownwardNotBuilt, find_build
from symt.generators import domain_file, generate_task


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


@pytest.fixture(scope="module")
def fd_built() -> None:
    """Skip a test that needs the Fast Downward build when it is missing; under CI, fail."""
    try:
        find_build()
    except FastDownwardNotBuilt as error:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"CI needs the Fast Downward build: {error}")
        pytest.skip(f"Fast Downward is not built (set-up builds it): {error}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses the Fast Downward build ``fd``, directly or through a fixture, so
    the fast tier (``-m "not fd and not train and not slow"``) leaves it out without a marker of
    its own."""
    for item in items:
        if "fd_built" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.fd)
