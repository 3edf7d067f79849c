"""The IPC 2023 learning track as symt data: training datasets and test suites.

The track ships, per domain, ``domain.pddl``, 99 training problems (``training/easy``) and 30
test problems per level (``testing/{easy,medium,hard}``), plus best known plan lengths
(``upper_bounds*.json``, keyed ``<domain>/<split>/<level>/pNN.pddl``).

SymT-E trains on exhaustively expanded state spaces where it can: :func:`write_training_dataset`
keeps the training problems whose state space the expander can exhaust within ``max_states``; the
largest ``validation`` of them become the validation split, mirroring the paper's validation tasks.
Every other training problem is labelled by a plan from the project's Fast Downward
(:func:`plan_for`): A* with LM-cut (admissible, so the plan is optimal and its remaining lengths
are h*) within ``plan_time`` seconds, else ``lama-first`` (a satisficing plan: upper bounds), else
nothing. ``labels.json`` lists for every training problem which kind of data it gave and why.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from ..errors import StateLimitError, SymtError
from ..fast_downward import fast_downward_command
from ..generators import write_manifest
from ..pddl import ground, parse_domain, parse_problem
from ..pddl.validate import read_plan
from ..processes import end_descendants

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


def default_validation(kept: int) -> int:
    """How many of ``kept`` expandable problems to hold out for validation when the user does not
    say: a quarter, at least one and at most four, and none of a single problem (training then
    holds out states of its training problems instead)."""
    return 0 if kept < 2 else max(1, min(4, kept // 4))


def select_training_problems(
    domain_file: Path, files: Sequence[Path], max_states: int = 1_000_000, validation: int | None = None,
    progress: bool = True, name: str = "",
) -> TrainingSelection:
    """Expand every problem of ``files``; keep those within ``max_states``; the largest
    ``validation`` of them (None: :func:`default_validation`) are held out.

    Every problem is tried rather than stopping at the first one over the limit: the numbering
    need not follow state-space size, and the expander gives up quickly on large spaces.
    """
    from ..statespace import expand  # the compiled core: only when a dataset is made

    domain = parse_domain(domain_file)
    kept: list[tuple[Path, int, int]] = []
    skipped: list[Path] = []
    for path in tqdm(files, desc=f"expanding {name or domain.name} training problems", unit="task",
                     disable=not progress):
        task = ground(domain, parse_problem(path, domain))
        try:
            space = expand(task, max_states=max_states)
        except StateLimitError:
            skipped.append(path)
            continue
        kept.append((path, len(task.objects), space.num_states))
    if not kept:
        raise SymtError(f"{domain_file}: none of the {len(files)} problems has at most {max_states:,} states "
                        "(give smaller problems, or raise --max-states)")
    if validation is None:
        validation = default_validation(len(kept))
    elif len(kept) <= validation:
        raise SymtError(
            f"{domain_file}: {len(kept)} problems have at most {max_states:,} states, and --validation "
            f"{validation} would hold out all of them; use --validation {len(kept) - 1} or fewer "
            "(or leave it out: a quarter of them)"
        )
    # Largest by state count (then problem number) become validation tasks.
    by_size = sorted(kept, key=lambda item: (item[2], _problem_number(item[0])))
    held_out = {item[0] for item in by_size[-validation:]} if validation else set()
    return TrainingSelection(
        train=[k for k in kept if k[0] not in held_out],
        validation=[k for k in kept if k[0] in held_out],
        skipped=skipped,
    )


PLAN_SEARCHES: tuple[tuple[str, str, list[str], list[str]], ...] = (
    ("optimal-plan", "astar(lmcut())", [], ["--search", "astar(lmcut())"]),
    ("satisficing-plan", "lama-first", ["--alias", "lama-first"], []),
)
"""How a training problem too large to expand is labelled, the first search that finds a plan
winning: (labels, name, driver options before the task files, search options after them)."""


def plan_for(domain_file: Path, problem: Path, plan_out: Path, time_limit: int,
             memory_mib: int = 4096) -> tuple[str | None, str]:
    """Label ``problem`` by a plan (:data:`PLAN_SEARCHES`), written to ``plan_out``.

    Returns (labels, why): labels is ``optimal-plan``, ``satisficing-plan`` or None (no plan).
    """
    tried = []
    limits = ["--overall-time-limit", str(time_limit), "--overall-memory-limit", str(memory_mib)]
    files = [str(domain_file.resolve()), str(problem.resolve())]
    for labels, name, driver_options, search_options in PLAN_SEARCHES:
        with tempfile.TemporaryDirectory() as work:
            start = time.perf_counter()
            command = fast_downward_command() + driver_options + limits + files + search_options
            subprocess.run(command, cwd=work, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            plan = Path(work) / "sas_plan"
            if plan.exists():
                shutil.copyfile(plan, plan_out)
                return labels, (f"{name} found a plan of length {len(read_plan(plan_out))} in {seconds:.1f} s"
                                + (f" ({'; '.join(tried)})" if tried else ""))
            tried.append(f"{name}: no plan within {time_limit} s")
    return None, "; ".join(tried)


def _plan_labels(domain_file: Path, problems: Sequence[Path], plans: Path, plan_time: int, processes: int,
                 name: str, progress: bool) -> list[tuple[Path, str | None, str]]:
    """(problem, labels, why) of :func:`plan_for` for each problem, ``processes`` searches at a time."""
    def label(path: Path) -> tuple[Path, str | None, str]:
        return (path, *plan_for(domain_file, path, plans / f"{path.stem}.plan", plan_time))

    pool = ThreadPoolExecutor(processes)
    try:
        results = list(tqdm(pool.map(label, problems), total=len(problems),
                            desc=f"planning {name} problems too large to expand", unit="task", disable=not progress))
    except BaseException:
        # Ctrl-C or SIGTERM: the problems not started are dropped, and the planners running
        # are ended, instead of waiting for every remaining search (the pool's default).
        pool.shutdown(wait=False, cancel_futures=True)
        end_descendants()
        raise
    pool.shutdown()
    return results


def _check_same_domain(out_dir: Path, domain_file: Path, writer: str) -> None:
    """Refuse to write into a folder that holds another domain's dataset or someone's files:
    the two would mix (issue 36)."""
    if not out_dir.is_dir():
        return
    ours_domain = out_dir / "domain.pddl"
    if ours_domain.is_file() and ours_domain.read_bytes() != domain_file.read_bytes():
        raise SymtError(f"--out {out_dir} holds a dataset of another domain ({ours_domain} differs from "
                        f"{domain_file}); choose another --out")
    ours = {".lock", "domain.pddl", "manifest.json", "labels.json", "skipped.json", "train", "validation", "plans"}
    foreign = sorted(item.name for item in out_dir.iterdir() if item.name not in ours)
    if foreign:
        raise SymtError(f"--out {out_dir} holds files {writer} did not write ({foreign[0]}); "
                        "choose another --out")


def problem_files(domain_file: Path, paths: Sequence[Path]) -> list[Path]:
    """The problem files that ``paths`` name: files as given, folders searched for ``*.pddl``
    (recursively, without the domain file), in the order given and numeric order within a folder.

    The dataset copies each problem under its file name, so two problems with the same name are
    refused, as are paths that do not exist and a selection without problems.
    """
    domain_path = Path(domain_file).resolve()
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            inside = sorted((p for p in path.rglob("*.pddl") if p.is_file()),
                            key=lambda p: (p.parent.as_posix(), _problem_number(p), p.name))
            found += [p for p in inside if p.resolve() != domain_path and not _is_domain_file(p)]
        elif path.is_file():
            found.append(path)
        else:
            raise SymtError(f"{path}: no such problem file or folder")
    if not found:
        raise SymtError(f"no problem files (*.pddl) in {', '.join(map(str, paths))}")
    by_name: dict[str, Path] = {}
    for path in found:
        if path.name in by_name and by_name[path.name].resolve() != path.resolve():
            raise SymtError(f"two problems named {path.name} ({by_name[path.name]} and {path}): the "
                            "dataset keeps problems by file name; rename one")
        by_name[path.name] = path
    return list(by_name.values())


def _is_domain_file(path: Path) -> bool:
    head = path.read_text(encoding="utf-8", errors="replace")[:4000].lower()
    return re.search(r"\(\s*define\s*\(\s*domain\b", head) is not None


def write_training_dataset(
    domain_dir: Path, out_dir: Path, max_states: int = 1_000_000, validation: int | None = None,
    progress: bool = True, plan_time: int = 30, processes: int = 2,
) -> Path:
    """Write a ``symt train`` dataset folder for an IPC domain folder: :func:`write_problem_dataset`
    over ``<domain_dir>/domain.pddl`` and ``<domain_dir>/training/easy/*.pddl``."""
    domain_dir = Path(domain_dir)
    return write_problem_dataset(domain_dir / "domain.pddl", problems(domain_dir, "training", "easy"),
                                 out_dir, domain_dir.name, max_states, validation, progress, plan_time,
                                 processes, writer="symt ipc-dataset")


def _goal_span(text: str) -> tuple[int, int] | None:
    """Where the ``(:goal ...)`` section of a problem file's text starts and ends (comments
    skipped), or None."""
    code = re.sub(r";[^\n]*", lambda m: " " * len(m.group(0)), text)  # same offsets, no comments
    found = re.search(r"\(\s*:goal\b", code, re.IGNORECASE)
    if found is None:
        return None
    depth = 0
    for position in range(found.start(), len(code)):
        depth += {"(": 1, ")": -1}.get(code[position], 0)
        if depth == 0:
            return found.start(), position + 1
    return None


def add_goal_subsets(out_dir: Path, per_problem: int, seed: int = 0) -> int:
    """Add to the dataset at ``out_dir``, for every expanded training problem whose goal is a
    conjunction of two or more positive atoms, ``per_problem`` problems with the same objects and
    initial state and a random proper subset of its goal atoms (distinct subsets, at most as many
    as there are): more tasks, with other goal distances over the same state spaces, from a handful
    of problems. Validation problems get none (their variants would leak them into training).
    Returns how many problems were added."""
    from ..data import read_manifest

    out_dir = Path(out_dir)
    entries = read_manifest(out_dir)
    domain = parse_domain(out_dir / "domain.pddl")
    rng = random.Random(seed)
    added = []
    for entry in [e for e in entries if e["split"] == "train" and e.get("labels", "exhaustive") == "exhaustive"]:
        path = out_dir / entry["file"]
        goal = parse_problem(path, domain).goal
        span = _goal_span(path.read_text())
        if span is None or len(goal) < 2 or any(lit.negated or lit.predicate == "=" for lit in goal):
            continue
        text = path.read_text()
        subsets: set[tuple[int, ...]] = set()
        possible = 2 ** len(goal) - 2
        while len(subsets) < min(per_problem, possible):
            size = rng.randint(1, len(goal) - 1)
            subsets.add(tuple(sorted(rng.sample(range(len(goal)), size))))
        for k, subset in enumerate(sorted(subsets)):
            atoms = " ".join(f"({' '.join((goal[i].predicate, *goal[i].terms))})" for i in subset)
            variant = path.with_name(f"{path.stem}-goals{k + 1}.pddl")
            variant.write_text(text[: span[0]] + f"(:goal (and {atoms}))" + text[span[1] :])
            added.append({**entry, "name": variant.stem, "file": f"{Path(entry['file']).parent.as_posix()}/{variant.name}",
                          "index": len(entries) + len(added), "optimal_plan_length": None,
                          "info": {**entry.get("info", {}), "goal_subset_of": entry["name"]},
                          "sha256": hashlib.sha256(variant.read_bytes()).hexdigest()})
    write_manifest(out_dir, entries + added)
    return len(added)


def write_problem_dataset(
    domain_file: Path, files: Sequence[Path], out_dir: Path, name: str, max_states: int = 1_000_000,
    validation: int | None = None, progress: bool = True, plan_time: int = 30, processes: int = 2,
    writer: str = "symt dataset", validate_on_plans: bool = False, plan_validation_share: float = 0.25,
) -> Path:
    """Write a ``symt train`` dataset folder (``manifest.json`` + PDDL copies) from a domain file
    and problem files (``name``: the domain's name in the manifest).

    Problems whose state space has at most ``max_states`` states are expanded (h* of every state);
    the largest ``validation`` of them (None: :func:`default_validation`) become the validation split. Problems too large to expand
    are labelled by plans (``plan_time`` seconds per search, 0: not at all); ``labels.json`` says
    per problem which data it gave and why. Returns the manifest's path.

    ``validate_on_plans``: where some problems get optimal plans, the largest of those
    (``plan_validation_share`` of them, at least one; all of them only where some problem is
    expandable, so that something trains) are the validation split instead, and every expandable
    problem trains. With
    three expandable problems, validating on one of them costs a third of the exhaustive data and
    measures generalisation to a task no larger than training's; an optimal plan of a larger
    problem gives exact h* along it, and a search to judge the model by, at the size it is for.
    """
    domain_file = Path(domain_file)
    out_dir = Path(out_dir)
    _check_same_domain(out_dir, domain_file, writer)
    selection = select_training_problems(domain_file, files, max_states, validation, progress, name)
    out_dir.mkdir(parents=True, exist_ok=True)
    # Gone first, back last: a dataset cut short has no manifest, so no training reads it.
    (out_dir / "manifest.json").unlink(missing_ok=True)
    shutil.copyfile(domain_file, out_dir / "domain.pddl")
    domain = parse_domain(domain_file)
    results: list[tuple[Path, str | None, str]] = []
    if plan_time > 0 and selection.skipped:
        (out_dir / "plans").mkdir(exist_ok=True)
        results = _plan_labels(domain_file, selection.skipped, out_dir / "plans", plan_time, processes, name,
                               progress)
    plan_objects = {path: len(parse_problem(path, domain).objects) for path, labels, _ in results if labels}
    plan_validation: set[Path] = set()
    if validate_on_plans:
        optimal = [(plan_objects[path], i, path) for i, (path, labels, _) in enumerate(results) if labels == "optimal-plan"]
        if optimal:
            count = max(1, math.floor(len(optimal) * plan_validation_share + 1e-9))
            if not (selection.train or selection.validation):
                count = min(count, max(1, len(optimal) // 4))
            plan_validation = {path for _, _, path in sorted(optimal)[-count:]}
            selection = TrainingSelection(selection.train + selection.validation, [], selection.skipped)
    entries = []
    sources: dict[str, dict] = {}
    for split, items in (("train", selection.train), ("validation", selection.validation)):
        (out_dir / split).mkdir(exist_ok=True)
        for index, (path, objects, states) in enumerate(items):
            rel = Path(split) / path.name
            shutil.copyfile(path, out_dir / rel)
            entries.append({
                "domain": name, "name": path.stem, "split": split, "size": objects,
                "index": index, "seed": None, "file": rel.as_posix(), "num_objects": objects,
                "optimal_plan_length": None, "info": {"states": states, "source": str(path)},
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            })
            sources[path.name] = {"labels": "exhaustive", "split": split,
                                  "why": f"{states:,} states (at most {max_states:,}): h* of every state"}
    skipped = []
    if plan_time > 0 and selection.skipped:
        for index, (path, labels, why) in enumerate(results):
            why = f"more than {max_states:,} states; {why}"
            split = "validation" if path in plan_validation else "train"
            sources[path.name] = {"labels": labels or "none", "split": split if labels else None, "why": why}
            if labels is None:
                skipped.append(path)
                continue
            rel = Path(split) / path.name  # both split folders exist: made above
            shutil.copyfile(path, out_dir / rel)
            entries.append({
                "domain": name, "name": path.stem, "split": split, "size": plan_objects[path],
                "index": len(selection.train) + index, "seed": None, "file": rel.as_posix(),
                "num_objects": plan_objects[path], "optimal_plan_length": None, "labels": labels,
                "plan_file": f"plans/{path.stem}.plan", "info": {"source": str(path), "why": why},
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            })
    else:
        skipped = list(selection.skipped)
        for path in skipped:
            sources[path.name] = {"labels": "none", "split": None,
                                  "why": f"more than {max_states:,} states; plan labelling off"}
    (out_dir / "labels.json").write_text(json.dumps(
        dict(sorted(sources.items(), key=lambda item: _problem_number(Path(item[0])))), indent=1) + "\n")
    (out_dir / "skipped.json").write_text(json.dumps({
        "reason": f"state space larger than {max_states:,} states and no plan within {plan_time} s",
        "problems": [p.name for p in skipped],
    }, indent=1) + "\n")
    return write_manifest(out_dir, entries)
