"""The IPC 2023 learning track as symt data: training datasets and test suites.

The track ships, per domain, ``domain.pddl``, 99 training problems (``training/easy``) and 30
test problems per level (``testing/{easy,medium,hard}``), plus best known plan lengths
(``upper_bounds*.json``, keyed ``<domain>/<split>/<level>/pNN.pddl``).

SymT-E trains on exhaustively expanded state spaces, so :func:`write_training_dataset` keeps the
training problems whose state space the expander can exhaust within ``max_states`` and skips the
rest (reported, never silently). The largest ``validation`` kept problems become the validation
split, mirroring the paper's validation tasks, which are a little larger than the training ones.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from ..errors import StateLimitError, SymtError
from ..pddl import ground, parse_domain, parse_problem
from ..statespace import expand

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def _problem_number(path: Path) -> int:
    match = re.search(r"(\d+)", path.stem)
    return int(match.group(1)) if match else 0


def problems(domain_dir: Path, split: str, level: str) -> list[Path]:
    """The problem files of ``<domain_dir>/<split>/<level>`` in numeric order."""
    folder = Path(domain_dir) / split / level
    if not folder.is_dir():
        raise SymtError(f"{folder}: no such IPC problem folder")
    return sorted(folder.glob("*.pddl"), key=_problem_number)


def best_known_lengths(root: Path) -> dict[str, int]:
    """Best known plan lengths of every IPC task, keyed ``<domain>/<split>/<level>/pNN.pddl``.

    Both bound files are read and the smaller bound wins where they disagree.
    """
    bounds: dict[str, int] = {}
    for name in ("upper_bounds.json", "upper_bounds_from_ipc_planners.json"):
        path = Path(root) / name
        if path.exists():
            for key, value in json.loads(path.read_text()).items():
                if value is not None:
                    bounds[key] = min(int(value), bounds.get(key, int(value)))
    return bounds


@dataclass
class TrainingSelection:
    """Which training problems a dataset uses, and which it skipped because they are too large."""

    train: list[tuple[Path, int, int]]
    """(problem, objects, states) of the training split."""
    validation: list[tuple[Path, int, int]]
    skipped: list[Path]


def select_training_problems(
    domain_dir: Path, max_states: int = 1_000_000, validation: int = 4, progress: bool = True
) -> TrainingSelection:
    """Expand every training problem; keep those within ``max_states``.

    Every problem is tried rather than stopping at the first one over the limit: the numbering
    need not follow state-space size, and the expander gives up quickly on large spaces.
    """
    domain_dir = Path(domain_dir)
    domain = parse_domain(domain_dir / "domain.pddl")
    kept: list[tuple[Path, int, int]] = []
    skipped: list[Path] = []
    files = problems(domain_dir, "training", "easy")
    for path in tqdm(files, desc=f"expanding {domain_dir.name} training problems", unit="task",
                     disable=not progress):
        task = ground(domain, parse_problem(path, domain))
        try:
            space = expand(task, max_states=max_states)
        except StateLimitError:
            skipped.append(path)
            continue
        kept.append((path, len(task.objects), space.num_states))
    if len(kept) <= validation:
        raise SymtError(
            f"{domain_dir}: only {len(kept)} training problems have at most {max_states:,} states; "
            f"need more than {validation} (raise --max-states)"
        )
    # Largest by state count (then problem number) become validation tasks.
    by_size = sorted(kept, key=lambda item: (item[2], _problem_number(item[0])))
    held_out = {item[0] for item in by_size[-validation:]} if validation else set()
    return TrainingSelection(
        train=[k for k in kept if k[0] not in held_out],
        validation=[k for k in kept if k[0] in held_out],
        skipped=skipped,
    )


def write_training_dataset(
    domain_dir: Path, out_dir: Path, max_states: int = 1_000_000, validation: int = 4,
    progress: bool = True,
) -> Path:
    """Write a ``symt train`` dataset folder (``manifest.json`` + PDDL copies) for an IPC domain.

    The manifest lists the skipped problems under no split; ``skipped.json`` beside it names them
    with the reason. Returns the manifest's path.
    """
    domain_dir = Path(domain_dir)
    out_dir = Path(out_dir)
    selection = select_training_problems(domain_dir, max_states, validation, progress)
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(domain_dir / "domain.pddl", out_dir / "domain.pddl")
    entries = []
    for split, items in (("train", selection.train), ("validation", selection.validation)):
        (out_dir / split).mkdir(exist_ok=True)
        for index, (path, objects, states) in enumerate(items):
            rel = Path(split) / path.name
            shutil.copyfile(path, out_dir / rel)
            entries.append({
                "domain": domain_dir.name, "name": path.stem, "split": split, "size": objects,
                "index": index, "seed": None, "file": rel.as_posix(), "num_objects": objects,
                "optimal_plan_length": None, "info": {"states": states, "source": str(path)},
            })
    (out_dir / "skipped.json").write_text(json.dumps({
        "reason": f"state space larger than {max_states:,} states",
        "problems": [p.name for p in selection.skipped],
    }, indent=1) + "\n")
    manifest = out_dir / "manifest.json"
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(entries, indent=1) + "\n")
    tmp.replace(manifest)
    return manifest
