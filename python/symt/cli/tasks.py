"""The commands on one PDDL task or domain: ground it (``symt ground``), expand its state space
(``symt expand``), check a plan (``symt validate``) and generate the paper's datasets (``symt generate``)."""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from ..errors import DEFAULT_MAX_STATES, SymtError
from .options import MANIFEST_MAX_STATES, float_in, int_in


def format_h(value: float) -> str:
    """A goal distance as the commands print it: an integer, or ``inf`` for a dead end."""
    return "inf" if math.isinf(value) else str(int(value))


def cmd_ground(args: argparse.Namespace) -> int:
    from ..pddl import ground

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
    from ..pddl import ground
    from ..statespace import default_memory_limit, expand, limit_process_memory

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
    print(f"hstar_init: {format_h(float(space.hstar[0]))}")
    print(f"hstar_max: {int(finite.max()) if len(finite) else 'inf'}")
    print(f"bytes_per_state: {space.bytes_per_state:.1f}")
    print(f"seconds: {seconds:.3f}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from ..pddl import ground, parse_domain, parse_problem
    from ..pddl.validate import read_plan, validate_plan

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
    from ..generators import write_dataset
    from ..statespace import optimal_plan_length

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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ground``, ``expand``, ``validate`` and ``generate`` to ``sub``."""
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
