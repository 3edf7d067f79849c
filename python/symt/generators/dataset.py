"""Deterministic dataset generation: every split of a domain, written as PDDL plus a manifest.

Every task gets its own seed, derived by hashing ``(domain, base seed, split, size, index,
attempt)``; the task's PDDL is a pure function of ``(domain, size, seed, name)``
(:func:`generate_task`). ``attempt`` is increased while the candidate duplicates (up to renaming)
an earlier task of the same split and size:

* domains with a ``classes(size)`` list (Visitall: ``(shape, start orbit)``) accept a candidate
  only if its group (shape) is among the least used and, within that, its class is among the least
  used, so tasks spread evenly over shapes first and are distinct wherever possible;
* otherwise an unused class is accepted; once all ``num_distinct(size)`` classes are used (Gripper,
  tiny Blocksworld) one of the least used ones; when the number of classes is unknown (Logistics)
  a duplicate is accepted after :data:`MAX_ATTEMPTS` tries.

The seed recorded with a task is the one that produced it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from symt.errors import SymtError
from symt.folders import holding_folder, open_output_folder
from symt.generators import blocksworld, gripper, logistics, visitall
from symt.generators._problem import Problem, render
from symt.generators.splits import split_plan, spread

DOMAINS: tuple[str, ...] = ("blocksworld", "gripper", "logistics", "visitall")
"""The supported domains, by the names the CLI uses."""

_MODULES: dict[str, ModuleType] = {
    "blocksworld": blocksworld,
    "gripper": gripper,
    "logistics": logistics,
    "visitall": visitall,
}

_DOMAIN_DIR = Path(__file__).resolve().parent / "domains"

MAX_ATTEMPTS = 1000
"""Tries to find a not-yet-used task before accepting a duplicate (domains without a count)."""

_HARD_LIMIT = 1_000_000
"""Safety net against an endless resampling loop (never reached for the shipped generators)."""


@dataclass
class GeneratedTask:
    """One generated problem and where it belongs in the dataset."""

    domain: str
    split: str
    size: int
    index: int
    seed: int
    name: str
    pddl: str
    num_objects: int = 0
    info: dict[str, object] = field(default_factory=dict)


def _check_domain(domain: str) -> ModuleType:
    """The generator module of ``domain``; :class:`SymtError` for an unknown one."""
    try:
        return _MODULES[domain]
    except KeyError:
        raise SymtError(f"unknown domain {domain!r}; valid domains: {', '.join(DOMAINS)}") from None


def domain_file(domain: str) -> Path:
    """Path of the shipped domain PDDL of ``domain`` (package data)."""
    _check_domain(domain)
    return _DOMAIN_DIR / f"{domain}.pddl"


def task_name(domain: str, split: str, size: int, index: int) -> str:
    """The problem name, e.g. ``gripper-train-n4-0`` (``index`` counts within split and size)."""
    return f"{domain}-{split}-n{size}-{index}"


def task_seed(
    domain: str, base_seed: int, split: str, size: int, index: int, attempt: int
) -> int:
    """A 63-bit task seed, a fixed function of its arguments (stable across Python versions)."""
    text = f"symt-generators|{domain}|{base_seed}|{split}|{size}|{index}|{attempt}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def styles(domain: str) -> tuple[str, ...]:
    """The task styles of ``domain``'s generator (``STYLES`` of its module), the paper's first:
    other goals or structures than the paper's, as other generators and people write them (issue 32)."""
    return tuple(getattr(_check_domain(domain), "STYLES", ("paper",)))


def style_training_sizes(domain: str, style: str, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``(size, count)`` pairs of a style's extra training tasks: the training split's
    ``pairs``, unless the generator's ``STYLE_TRAINING_SIZES`` names smaller sizes for ``style``
    (a style whose tasks at the paper's largest training size have too many states to expand, such
    as Logistics ``wide``); then as many tasks, spread over those sizes."""
    sizes = getattr(_check_domain(domain), "STYLE_TRAINING_SIZES", {}).get(style)
    return pairs if sizes is None else spread(list(sizes), sum(count for _, count in pairs))


def _check_style(domain: str, style: str | None) -> str | None:
    """``style``, or None for the paper's; :class:`SymtError` for one the generator lacks."""
    known = styles(domain)
    if style is None or style == known[0]:
        return None
    if style not in known:
        raise SymtError(f"{domain} has no task style {style!r}; its styles: {', '.join(known)}")
    return style


def _generate(domain: str, size: int, seed: int, name: str, style: str | None = None) -> tuple[Problem, str]:
    """The abstract problem and its PDDL text for one task seed (``style``: None for the paper's)."""
    module = _check_domain(domain)
    rng = random.Random(seed)
    problem: Problem = module.generate(size, rng) if style is None else module.generate(size, rng, style)
    return problem, render(problem, module.PDDL_DOMAIN, name, rng)


def generate_task(domain: str, size: int, seed: int, name: str, style: str | None = None) -> str:
    """The PDDL text of one task; reproduces a dataset task from its recorded seed, name and task
    style (the manifest's ``info.style``; absent for the paper's)."""
    return _generate(domain, size, seed, name, _check_style(domain, style))[1]


def _generate_size(
    domain: str, split: str, size: int, count: int, base_seed: int, style: str | None = None
) -> list[GeneratedTask]:
    """``count`` tasks of one split and size, distinct up to renaming where possible (distinct as
    written for a goal style other than the paper's)."""
    module = _MODULES[domain]
    distinct: int | None = module.num_distinct(size) if style is None else module.num_distinct(size, style)
    all_classes: list[tuple[Hashable, Hashable]] | None = (
        module.classes(size) if hasattr(module, "classes") and style is None else None
    )
    uses: dict[Hashable, int] = {}
    group_uses: dict[Hashable, int] = {}

    def score(key: tuple[Hashable, Hashable]) -> tuple[int, int]:
        return (group_uses.get(key[0], 0), uses.get(key, 0))

    tasks: list[GeneratedTask] = []
    for index in range(count):
        name = task_name(domain, split, size, index)
        best = min(score(k) for k in all_classes) if all_classes is not None else None
        attempt = 0
        while True:
            seed = task_seed(domain, base_seed, split, size, index, attempt)
            problem, text = _generate(domain, size, seed, name, style)
            used = uses.get(problem.key, 0)
            if best is not None:
                if score(problem.key) == best:
                    break
            elif used == 0:
                break
            elif distinct is not None and len(uses) >= distinct and used == min(uses.values()):
                break
            elif distinct is None and attempt >= MAX_ATTEMPTS:
                break
            attempt += 1
            if attempt > _HARD_LIMIT:
                raise RuntimeError(f"cannot generate {name}: no acceptable task found")
        uses[problem.key] = uses.get(problem.key, 0) + 1
        if all_classes is not None:
            group_uses[problem.key[0]] = group_uses.get(problem.key[0], 0) + 1
        tasks.append(
            GeneratedTask(
                domain=domain,
                split=split,
                size=size,
                index=index,
                seed=seed,
                name=name,
                pddl=text,
                num_objects=len(problem.objects),
                info=dict(problem.info),
            )
        )
    return tasks


def generate_sized_tasks(domain: str, label: str, size: int, count: int, seed: int = 0) -> list[GeneratedTask]:
    """``count`` tasks of ``size`` outside the paper's splits, named and seeded under ``label``
    (for example ``planned``: tasks at sizes no split uses, labelled later by plans). The same rules
    as a split's tasks: distinct up to renaming where possible, each a pure function of its seed."""
    _check_domain(domain)
    return _generate_size(domain, label, size, count, seed)


def generate_split_tasks(domain: str, seed: int = 0, extra_styles: Sequence[str] = ()) -> list[GeneratedTask]:
    """All tasks of every split of ``domain``: splits in ``SPLITS`` order, then size, then index.

    Each style of ``extra_styles`` adds as many training tasks again, of the training split's
    sizes, in that task style (named ``<domain>-train-<style>-n<size>-<index>``); the paper's tasks
    and every other split stay exactly as they are, so the paper's tables stay comparable."""
    _check_domain(domain)
    styles = [_check_style(domain, style) for style in extra_styles]
    tasks: list[GeneratedTask] = []
    for split, pairs in split_plan(domain):
        tasks.extend(_split_tasks(domain, split, pairs, seed))
        if split != "train":
            continue
        for style in dict.fromkeys(s for s in styles if s is not None):
            for size, count in style_training_sizes(domain, style, pairs):
                for task in _generate_size(domain, f"train-{style}", size, count, seed, style):
                    task.split = "train"
                    tasks.append(task)
    return tasks


def generate_one_split(domain: str, split: str, seed: int = 0) -> list[GeneratedTask]:
    """The tasks of one split of ``domain``, the same as :func:`generate_split_tasks` gives for it
    (a split's tasks depend on its own seeds only)."""
    _check_domain(domain)
    return _split_tasks(domain, split, dict(split_plan(domain))[split], seed)


def _split_tasks(domain: str, split: str, pairs: list[tuple[int, int]], seed: int) -> list[GeneratedTask]:
    """The tasks of ``split``, sizes in order: ``pairs`` of (size, number of tasks)."""
    return [task for size, count in pairs for task in _generate_size(domain, split, size, count, seed)]


def module_of(domain: str) -> ModuleType:
    """The generator module of ``domain``; :class:`SymtError` for an unknown one."""
    return _check_domain(domain)


def generate_style_tasks(domain: str, style: str, size: int, count: int, seed: int = 0,
                         label: str | None = None) -> list[GeneratedTask]:
    """``count`` tasks of ``size`` in task ``style`` outside the paper's splits (for evaluating
    models on other phrasings, issue 32), named and seeded under ``label`` (default ``style``)."""
    return _generate_size(domain, label or style, size, count, seed, _check_style(domain, style))


def _check_replaceable(out_dir: Path, tasks: list[GeneratedTask], with_lengths: bool) -> None:
    """Refuse to overwrite a dataset in ``out_dir`` that these settings would change: other tasks
    (another domain or seed), or optimal lengths that this run would not compute again."""
    manifest = out_dir / "manifest.json"
    if not manifest.exists():
        return
    try:
        entries = json.loads(manifest.read_text())
        existing = {entry["name"]: (entry["domain"], entry["seed"]) for entry in entries}
        had_lengths = any(entry.get("optimal_plan_length") is not None for entry in entries)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise SymtError(f"--out {out_dir}: {manifest} is not a symt dataset manifest; pass --force "
                        "to replace it or choose another --out") from None
    wanted = {task.name: (task.domain, task.seed) for task in tasks}
    if existing != wanted:
        changed = next((name for name in sorted(wanted) if existing.get(name) != wanted[name]), "")
        raise SymtError(
            f"--out {out_dir} holds a dataset made with another domain or seed (its task "
            f"{changed or next(iter(sorted(existing)), '?')} differs from this run's); pass --force "
            "to replace it or choose another --out")
    if had_lengths and not with_lengths:
        raise SymtError(f"--out {out_dir} holds this dataset with optimal plan lengths, which "
                        "--no-optimal would drop; pass --force to replace it")


def write_dataset(
    domain: str,
    out_dir: Path,
    seed: int = 0,
    optimal_lengths: Callable[[Path, Path], int | None] | None = None,
    progress: bool = True,
    force: bool = False,
    extra_styles: Sequence[str] = (),
) -> Path:
    """Write every task of ``domain`` under ``out_dir`` and return the manifest's path.

    Layout: ``out_dir/domain.pddl``, ``out_dir/<split>/<name>.pddl`` and ``out_dir/manifest.json``,
    a JSON list with one entry per task: ``domain``, ``name``, ``split``, ``size``, ``index``,
    ``seed``, ``file`` (relative to ``out_dir``), ``num_objects``, ``optimal_plan_length`` (from
    ``optimal_lengths(domain_path, problem_path)`` when given, which may return ``None`` for a
    state space too large to expand; otherwise ``null``) and ``info`` (structural metadata such as
    the Visitall grid shape).

    The folder is locked while it is written; a dataset already there that these settings would
    change is refused (:class:`SymtError`) unless ``force``. The manifest is written last and
    atomically, so a folder without one holds no complete dataset.
    """
    tasks = generate_split_tasks(domain, seed, extra_styles)
    out_dir = Path(out_dir)
    lock = open_output_folder(out_dir, writer="symt generate", kind="dataset folder")
    with holding_folder(lock, out_dir):
        if not force:
            _check_replaceable(out_dir, tasks, optimal_lengths is not None)
            foreign = _foreign_files(out_dir, domain)
            if foreign and not (out_dir / "manifest.json").exists():
                raise SymtError(f"--out {out_dir} holds files symt generate did not write ({foreign[0].name}"
                                f"{f' and {len(foreign) - 1} more' if len(foreign) > 1 else ''}), which it "
                                "would overwrite or mix with; choose another --out, or pass --force")
        # The manifest goes first and comes back last: a folder cut short (a kill, a full disk)
        # has none, so no training reads half-replaced tasks, and the rerun may replace it.
        (out_dir / "manifest.json").unlink(missing_ok=True)
        return _write_tasks(out_dir, domain, tasks, optimal_lengths, progress)


def _foreign_files(out_dir: Path, domain: str) -> list[Path]:
    """What in ``out_dir`` symt generate did not write for ``domain``: anything but its lock, its
    manifest, the shipped domain file and split folders of its own task files."""
    from symt.generators.splits import SPLITS

    shipped = domain_file(domain).read_bytes()
    foreign = []
    for item in sorted(out_dir.iterdir()):
        if item.name in (".lock", "manifest.json"):
            continue
        if item.name == "domain.pddl" and item.is_file() and item.read_bytes() == shipped:
            continue
        if (item.is_dir() and item.name in SPLITS
                and all(f.is_file() and f.suffix == ".pddl" and f.name.startswith(f"{domain}-{item.name}-")
                        for f in item.iterdir())):
            continue
        foreign.append(item)
    return foreign


def _write_tasks(out_dir: Path, domain: str, tasks: list[GeneratedTask],
                 optimal_lengths: Callable[[Path, Path], int | None] | None, progress: bool) -> Path:
    from tqdm import tqdm

    domain_path = out_dir / "domain.pddl"
    domain_path.write_text(domain_file(domain).read_text())
    entries: list[dict[str, object]] = []
    for task in tqdm(tasks, desc=f"{domain} tasks", unit="task", disable=not progress):
        rel = Path(task.split) / f"{task.name}.pddl"
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(task.pddl)
        length = optimal_lengths(domain_path, path) if optimal_lengths is not None else None
        entries.append(
            {
                "domain": task.domain,
                "name": task.name,
                "split": task.split,
                "size": task.size,
                "index": task.index,
                "seed": task.seed,
                "file": rel.as_posix(),
                "num_objects": task.num_objects,
                "optimal_plan_length": length,
                "info": task.info,
                "sha256": hashlib.sha256(task.pddl.encode()).hexdigest(),
            }
        )
    return write_manifest(out_dir, entries)


def write_manifest(out_dir: Path, entries: list[dict]) -> Path:
    """Write ``out_dir/manifest.json`` atomically (a reader never sees half a manifest, and a folder
    without one holds no complete dataset); return its path."""
    manifest = Path(out_dir) / "manifest.json"
    tmp = manifest.with_name("manifest.json.tmp")
    tmp.write_text(json.dumps(entries, indent=1) + "\n")
    os.replace(tmp, manifest)
    return manifest
