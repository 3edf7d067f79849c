"""The commands that use the shipped and learned models directly: ``symt plan`` (a plan from a
model), ``symt models`` (the shipped ones) and ``symt match`` (which one fits a domain, and how)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..errors import SymtError
from .options import int_in, machine_count


def cmd_plan(args: argparse.Namespace) -> int:
    import torch

    from ..models import resolve
    from ..pddl import ground, parse_domain, parse_problem
    from ..pddl.validate import validate_plan

    # One thread by default: on a small machine intra-op threads fight with everything else and
    # a forward pass of a small model gets many times slower, not faster.
    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    if args.model is None:
        from ..models import select_heuristic, select_planner

        if args.strategy == "heuristic":
            path, reason = select_heuristic(args.domain, args.problem, use="--model MODEL.pt")
        else:
            path, reason = select_planner(args.domain, args.problem, args.strategy)
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
    tuples of the user's task). A model whose domain is the task's only up to spelling (a SymT-E
    heuristic, or a plan generator for a decoding strategy) plans on the task written in its own
    vocabulary (symt.pddl.canonical), and its actions are written back in the task's names and
    parameter order."""
    from ..formats import model_file_kind
    from ..models import fit_model
    from ..pddl import ground
    from ..pddl.translate import translate_task
    from ..plan import plan_with_model

    match = None
    kind = model_file_kind(path)
    if args.strategy == "heuristic" and kind == "heuristic":
        match = fit_model(domain, problem, path)  # type: ignore[arg-type]
    elif args.strategy != "heuristic" and kind == "planner":
        try:
            match = fit_model(domain, problem, path)  # type: ignore[arg-type]
        except SymtError:
            match = None  # not this domain: the model's own check below says which predicate it lacks
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


def cmd_models(args: argparse.Namespace) -> int:
    """One line per shipped model: kind, the PDDL domain it serves, its predicates, vocabulary and
    training sizes (read from the model files without torch)."""
    from ..models import MODEL_DIR, catalogue
    from ..models.trained_on import training_sizes

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
    from ..models import WL_DIR, wl_models
    from ..wl import model_meta

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
    from ..models import catalogue, fit_model, select_heuristic, select_wl, wl_models
    from ..pddl import parse_domain, parse_problem
    from ..pddl.canonical import DomainMismatch, cost_profile

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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``plan``, ``models`` and ``match`` to ``sub``."""
    p = sub.add_parser("plan", help="generate a plan with a learned model",
                       description="Generate a plan for PROBLEM with MODEL and print it, one "
                       "'(action arg ...)' per line, to stdout; statistics go to stderr. Exit 0 only "
                       "when the plan reaches the goal.")
    p.add_argument("--model", help="a shipped model's name (see `symt models`) or a path; default: the "
                   "shipped model for the domain (a SymT-E heuristic for --strategy heuristic, the "
                   "<domain>-ed SymT-ED model for the decoding strategies), chosen by its predicates")
    p.add_argument("--strategy", choices=["heuristic", "greedy", "applicable", "regrounding", "regrounding-unvisited"],
                   default="heuristic",
                   help="heuristic: the paper's greedy heuristic guidance (SymT-E model); greedy, applicable "
                   "(applicability-filtered), regrounding: decoding of a SymT-ED or PlanGPT model; "
                   "regrounding-unvisited (symt's): regrounding that never returns to a visited state")
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
