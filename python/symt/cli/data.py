"""The commands that make a training dataset from PDDL files: ``symt dataset`` (a domain file and
problem files) and ``symt ipc-dataset`` (an IPC 2023 learning-track domain folder)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..folders import holding_folder, open_output_folder
from .options import add_dataset_options


def _report_dataset(manifest: Path) -> None:
    out = manifest.parent
    entries = json.loads(manifest.read_text())
    skipped = json.loads((out / "skipped.json").read_text())["problems"]
    counts = {split: sum(e["split"] == split for e in entries) for split in ("train", "validation")}
    kinds = {kind: sum(e.get("labels", "exhaustive") == kind for e in entries if e["split"] == "train")
             for kind in ("exhaustive", "optimal-plan", "satisficing-plan")}
    print(f"{manifest}: {counts['train']} training problems ({kinds['exhaustive']} expanded, "
          f"{kinds['optimal-plan']} labelled by an optimal plan, {kinds['satisficing-plan']} by a "
          f"satisficing plan) and {counts['validation']} validation problems; {len(skipped)} without "
          f"data; per problem: {out / 'labels.json'}")


def cmd_ipc_dataset(args: argparse.Namespace) -> int:
    from ..experiments.ipc import write_training_dataset

    out = args.out or Path("data") / f"ipc2023-{args.domain_dir.name}"
    lock = open_output_folder(out, writer="symt ipc-dataset", kind="dataset folder")
    with holding_folder(lock, out):
        manifest = write_training_dataset(args.domain_dir, out, args.max_states, args.validation,
                                          progress=not args.quiet, plan_time=args.plan_time,
                                          processes=args.processes)
    _report_dataset(manifest)
    return 0


def cmd_dataset(args: argparse.Namespace) -> int:
    from ..experiments.ipc import problem_files, write_problem_dataset
    from ..pddl import parse_domain

    domain = parse_domain(args.domain)  # a missing file is its one error line too
    if any(action.cost is not None for action in domain.actions):
        print(f"symt dataset: note: {args.domain} has action costs; the labels are costs to the goal "
              "(the cheapest plan's cost: a Dijkstra search, or a planner's plan's cost), and a model "
              "trained on them estimates costs", file=sys.stderr)
    files = problem_files(args.domain, args.problems)
    out = args.out or Path("data") / domain.name
    lock = open_output_folder(out, writer="symt dataset", kind="dataset folder")
    with holding_folder(lock, out):
        manifest = write_problem_dataset(args.domain, files, out, domain.name, args.max_states,
                                         args.validation, progress=not args.quiet,
                                         plan_time=args.plan_time, processes=args.processes,
                                         validate_on_plans=args.validate_on_plans)
    _report_dataset(manifest)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dataset`` and ``ipc-dataset`` to ``sub``."""
    p = sub.add_parser("dataset", help="a training dataset from a domain file and problem files",
                       description="Expand every problem (files, or folders searched for *.pddl); keep "
                       "those within --max-states (the largest --validation of them become the "
                       "validation split), label the others by Fast Downward plans, and write a "
                       "dataset folder for `symt train` and `symt train-wl`.")
    p.add_argument("domain", type=Path, help="the PDDL domain file")
    p.add_argument("problems", type=Path, nargs="+", help="problem files or folders of them")
    p.add_argument("--out", type=Path, help="dataset folder (default data/<the domain's name>)")
    add_dataset_options(p)
    p.add_argument("--validate-on-plans", action="store_true",
                   help="validate on the largest problems with optimal plans (a quarter, at least one) "
                   "and train on every expandable one, as `symt learn` does (where no problem gets an "
                   "optimal plan: --validation as usual)")
    p.set_defaults(func=cmd_dataset)

    p = sub.add_parser("ipc-dataset", help="a training dataset from an IPC 2023 learning-track domain",
                       description="Expand every training problem of an IPC 2023 learning-track domain "
                       "folder; keep those within --max-states (the largest --validation of them "
                       "become the validation split), label the others by Fast Downward plans, and "
                       "write a dataset folder for `symt train`.")
    p.add_argument("domain_dir", type=Path, help="e.g. ../shared/benchmarks/ipc2023-learning/ferry")
    p.add_argument("--out", type=Path, help="dataset folder (default data/ipc2023-<domain>)")
    add_dataset_options(p)
    p.set_defaults(func=cmd_ipc_dataset)
