"""``symt demo``: a shipped model guides Fast Downward on a held-out task, or (``--data-pipeline``)
the data pipeline runs end to end."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .. import __version__
from ..errors import DEFAULT_MAX_STATES
from ..folders import check_output_folder
from .options import int_in
from .tasks import format_h


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: a shipped model guides Fast Downward on a held-out, larger problem."""
    if args.data_pipeline:
        return _pipeline_demo(args)
    import os

    from ..fast_downward import main as fast_downward
    from ..generators import domain_file, generate_task
    from ..pddl import ground, parse_domain, parse_problem
    from ..pddl.validate import read_plan, validate_plan
    from ..val import run_val

    work = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="symt-demo-"))
    check_output_folder(work, "demo folder")
    work.mkdir(parents=True, exist_ok=True)
    domain = domain_file(args.domain)
    name = f"{args.domain}-heldout-n{args.size}"
    problem = work / f"{name}.pddl"
    problem.write_text(generate_task(args.domain, args.size, 10_000 + args.seed, name))
    search = f"{args.search}([symt()])"  # the brief's form: symt() picks the shipped model
    print(f"symt {__version__}: the shipped '{args.domain}' model (trained on {args.domain} tasks "
          f"of sizes up to {_largest_training_size(args.domain)}) guides Fast Downward on a held-out "
          f"task of size {args.size}.")
    print(f"$ fast-downward {domain} {problem} --search \"{search}\"\n", flush=True)
    cwd = os.getcwd()
    os.chdir(work)  # Fast Downward writes output.sas and sas_plan into the working directory
    try:
        code = fast_downward([str(domain), str(problem), "--search", search])
    finally:
        os.chdir(cwd)
    plan_file = work / "sas_plan"
    if code != 0 or not plan_file.exists():
        print(f"symt: error: Fast Downward found no plan (exit code {code})", file=sys.stderr)
        return 1
    parsed_domain = parse_domain(domain)
    task = ground(parsed_domain, parse_problem(problem, parsed_domain))
    steps = read_plan(plan_file)
    ours = validate_plan(task, steps, parsed_domain)
    theirs = run_val(domain, problem, plan_file)
    print(f"\nplan ({len(steps)} steps, written to {plan_file}):")
    for step in steps:
        print("  (" + " ".join(step) + ")")
    print(f"symt validator: {ours.reason}; VAL: {'Plan valid' if theirs.valid else 'INVALID'}")
    return 0 if ours.valid and theirs.valid else 1


def _largest_training_size(domain: str) -> int:
    from ..generators.splits import split_plan

    sizes = dict(split_plan(domain))["train"]
    return max(size for size, _ in sizes)


def _pipeline_demo(args: argparse.Namespace) -> int:
    """The data pipeline end to end: generate -> ground -> expand -> sample -> validate."""
    import json

    from ..generators import write_dataset
    from ..pddl import ground
    from ..pddl.validate import validate_plan
    from ..statespace import expand

    out_root = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="symt-demo-"))
    print(f"symt {__version__} — data pipeline demo (output in {out_root})")
    for domain in args.domains:
        manifest_path = write_dataset(domain, out_root / domain, seed=args.seed, progress=True,
                                      optimal_lengths=None)
        manifest = json.loads(manifest_path.read_text())
        domain_file = out_root / domain / "domain.pddl"
        train = [entry for entry in manifest if entry["split"] == "train"]
        print(f"\n== {domain}: {len(manifest)} tasks generated, "
              f"{len(train)} training tasks expanded ==")
        print(f"{'task':<28} {'states':>9} {'transitions':>12} {'h*(init)':>9} {'seconds':>8}")
        total_states = 0
        for entry in train[: args.max_train]:
            problem_file = out_root / domain / entry["file"]
            task = ground(domain_file, problem_file)
            space = expand(task, max_states=args.max_states)
            total_states += space.num_states
            print(f"{Path(entry['file']).stem:<28} {space.num_states:>9} "
                  f"{space.num_transitions:>12} {format_h(float(space.hstar[0])):>9} "
                  f"{space.seconds:>8.3f}")
        # One training sample as the learner will see it: a state, its h*, an optimal plan.
        sampler = space.sampler(seed=args.seed)
        state = sampler.sample_state()
        plan = sampler.random_optimal_plan(state)
        labels = [task.actions[a].label() for a in plan]
        print(f"sampled state #{state} of the last task: h* = {format_h(float(space.hstar[state]))}, "
              f"{len(task.state_atoms(set(space.state_facts(state).tolist())))} fluent atoms")
        plan_from_init = sampler.random_optimal_plan(0)
        steps = [(task.actions[a].name, *task.actions[a].args) for a in plan_from_init]
        result = validate_plan(task, steps)
        print(f"random optimal plan from the initial state: {len(plan_from_init)} steps, "
              f"validator says: {result.reason}")
        if labels:
            print("optimal plan from the sampled state: " + " ".join(labels[:6])
                  + (" ..." if len(labels) > 6 else ""))
        print(f"total states expanded: {total_states}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo`` to ``sub``."""
    p = sub.add_parser("demo", help="the main job: a shipped model solves a held-out task in Fast Downward",
                       description="Generate a held-out task far larger than the training tasks, "
                       "solve it with Fast Downward guided by a shipped SymT-E model, print the plan "
                       "and search statistics, and validate the plan (symt and VAL). With "
                       "--data-pipeline: generate, ground, expand and sample instead.")
    p.add_argument("--domain", default="gripper", help="paper domain with a shipped model (gripper)")
    p.add_argument("--size", type=int_in(1), default=30, help="size parameter of the held-out task (30)")
    p.add_argument("--search", default="eager_greedy",
                   help="search engine taking [symt(...)] (batch_eager_greedy, eager_greedy, lazy_greedy)")
    p.add_argument("--data-pipeline", action="store_true", help="run the data-pipeline demo instead")
    p.add_argument("--domains", nargs="+", default=["gripper", "blocksworld"],
                   help="--data-pipeline: domains to run (default: gripper blocksworld)")
    p.add_argument("--out", type=Path, help="output folder (default: a temporary folder)")
    p.add_argument("--seed", type=int_in(0), default=0)
    p.add_argument("--max-train", type=int_in(1), default=12, help="expand at most this many training tasks")
    p.add_argument("--max-states", type=int_in(1), default=DEFAULT_MAX_STATES, metavar="N")
    p.set_defaults(func=cmd_demo)
