"""A paper dataset plus training tasks at sizes that no split uses, labelled by plans or exhaustively.

The paper's Visitall training tasks stop at 16 cells, and the validation tasks (18 and 20 cells)
already need goal distances the training states never have.
This script writes a copy of a dataset folder whose training split also holds generated tasks at
``--sizes`` (Visitall: 17, 19, 21, 22 and 23 cells, which lie between validation and
extrapolation and belong to no split, so no test task's size is trained on).

``--labels plans`` (issue 12, part 2): each new task is labelled by a plan from the project's Fast
Downward, exactly as ``symt ipc-dataset`` labels IPC training problems
(:func:`symt.experiments.ipc.plan_for`: A* with LM-cut, whose plan is optimal so its remaining
lengths are h*, else lama-first, whose remaining lengths are upper bounds). The sampler draws these
tasks with probability ``symt train --plan-weight`` (default 0.25). Their states are the states
along one optimal plan and their siblings, not a uniform draw from the state space.

``--labels exhaustive``: each new task is an ordinary training task, expanded whole when training
loads it (``symt train --max-states``), so its states are drawn like every other training task's:
uniform goal distance, exact h*. Visitall's 3 x 7 and 2 x 11 grids have 1.2 M and 0.6 M states.

``labels.json`` in the output lists, for every new task, its labels and why. The original tasks are
copied unchanged; their manifest entries come first.

Usage: .venv/bin/python benchmarks/training/extend_dataset.py --data data/visitall \
    --sizes 17 19 21 22 23 --per-size 12 [--labels exhaustive] --out data/visitall-plans
"""

from __future__ import annotations

import argparse
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

from symt.errors import SymtError
from symt.experiments.ipc import plan_for
from symt.generators import generate_sized_tasks, split_plan, write_manifest

LABEL = "planned"
"""The split label the new tasks are named and seeded under (``visitall-planned-n17-0``), whatever
``--labels`` says, so that both labellings of one ``--sizes``/``--per-size``/``--seed`` hold the
same tasks."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a `symt generate` dataset folder")
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--per-size", type=int, default=12, help="tasks per size (12)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--labels", choices=["plans", "exhaustive"], default="plans")
    parser.add_argument("--plan-time", type=int, default=60, help="seconds per search (60)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    if not (args.data / "manifest.json").is_file():
        raise SymtError(f"--data {args.data}: no manifest.json (make the dataset with `symt generate`)")
    manifest = json.loads((args.data / "manifest.json").read_text())
    domain = manifest[0]["domain"]
    used = {size for _, pairs in split_plan(domain) for size, _ in pairs}
    overlap = sorted(set(args.sizes) & used)
    if overlap:
        raise SymtError(f"sizes {overlap} belong to a split of {domain}; pick sizes no split uses")
    if args.out.exists():
        raise SymtError(f"--out {args.out} exists; remove it or pick another folder")
    shutil.copytree(args.data, args.out, ignore=shutil.ignore_patterns(".lock"))
    (args.out / "train").mkdir(exist_ok=True)

    tasks = [task for size in args.sizes
             for task in generate_sized_tasks(domain, LABEL, size, args.per_size, args.seed)]
    for task in tasks:
        (args.out / "train" / f"{task.name}.pddl").write_text(task.pddl)

    def label(task):  # type: ignore[no-untyped-def]
        return task, *plan_for(args.out / "domain.pddl", args.out / "train" / f"{task.name}.pddl",
                               args.out / "plans" / f"{task.name}.plan", args.plan_time)

    if args.labels == "plans":
        (args.out / "plans").mkdir()
        with ThreadPoolExecutor(args.processes) as pool:
            results = list(tqdm(pool.map(label, tasks), total=len(tasks), desc="planning", unit="task"))
    else:
        results = [(task, "exhaustive", "expanded whole when training loads it") for task in tasks]
    sources: dict[str, dict] = {}
    for task, labels, why in results:
        sources[task.name] = {"size": task.size, "labels": labels or "none", "why": why}
        if labels is None:
            (args.out / "train" / f"{task.name}.pddl").unlink()
            continue
        entry = {
            "domain": domain, "name": task.name, "split": "train", "size": task.size,
            "index": task.index, "seed": task.seed, "file": f"train/{task.name}.pddl",
            "num_objects": task.num_objects, "optimal_plan_length": None, "labels": labels,
            "info": task.info,
        }
        if labels != "exhaustive":
            entry["plan_file"] = f"plans/{task.name}.plan"
        manifest.append(entry)
    (args.out / "labels.json").write_text(json.dumps(sources, indent=1) + "\n")
    write_manifest(args.out, manifest)
    counts: dict[str, int] = {}
    for source in sources.values():
        counts[source["labels"]] = counts.get(source["labels"], 0) + 1
    print(f"{args.out}: {len(tasks)} new tasks, labels {counts}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except SymtError as error:
        raise SystemExit(f"error: {error}") from None
