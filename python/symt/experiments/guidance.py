"""One experiment run of the paper's greedy heuristic guidance, in Fast Downward's log format.

``python -m symt.experiments.guidance --model M --time-limit S domain.pddl problem.pddl`` plans
with :func:`symt.plan.plan_with_exported_model`, writes ``sas_plan`` and prints the lines that
Lab's Fast Downward parsers read (``Plan length``, ``Expanded``, ``Evaluated``, ``Search time``,
``search exit code``...), so that both kinds of run land in one table. A greedy step expands one
state (``Expanded``) and evaluates its successors (``Evaluated``). Exit codes are Fast Downward's:
0 plan found, 12 no plan (dead end or step cap: the guidance is incomplete), 22 out of memory,
23 out of time, 33 bad input (e.g. more objects than the model's vocabulary).
"""

from __future__ import annotations

import argparse
import resource
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..errors import SymtError

SUCCESS = 0
SEARCH_UNSOLVED_INCOMPLETE = 12
SEARCH_OUT_OF_MEMORY = 22
SEARCH_OUT_OF_TIME = 23
SEARCH_INPUT_ERROR = 33


class _OutOfTime(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _OutOfTime


def _report(code: int, start: float, search_start: float | None) -> int:
    now = time.perf_counter()
    if search_start is not None:
        print(f"Search time: {now - search_start:.3f}s")
    print(f"Total time: {now - start:.3f}s")
    print(f"search exit code: {code}")
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="shipped model name or model file")
    parser.add_argument("--time-limit", type=float, default=0, help="seconds (0: none)")
    parser.add_argument("--memory-limit", type=int, default=0, help="MiB of address space (0: none)")
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--plan-file", type=Path, default=Path("sas_plan"))
    parser.add_argument("domain", type=Path)
    parser.add_argument("problem", type=Path)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    search_start = None
    if args.memory_limit > 0:
        limit = args.memory_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    if args.time_limit > 0:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, args.time_limit)
    try:
        import torch

        from ..export import load_exported
        from ..models import resolve
        from ..pddl import ground, parse_domain, parse_problem
        from ..plan import plan_with_exported_model

        torch.set_num_threads(1)
        module, meta = load_exported(resolve(args.model))
        domain = parse_domain(args.domain)
        task = ground(domain, parse_problem(args.problem, domain))
        search_start = time.perf_counter()
        result = plan_with_exported_model(module, meta, domain, task, args.max_steps, str(args.problem))
    except _OutOfTime:
        print(f"Time limit reached ({args.time_limit:g} s).")
        return _report(SEARCH_OUT_OF_TIME, start, search_start)
    except MemoryError:
        print("Memory limit reached.")
        return _report(SEARCH_OUT_OF_MEMORY, start, search_start)
    except SymtError as error:
        print(f"error: {error}")
        print(f"guidance: error: {error}", file=sys.stderr)
        return _report(SEARCH_INPUT_ERROR, start, search_start)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)

    print(f"Expanded {len(result.actions)} state(s).")
    print(f"Evaluations: {result.evaluations}")
    print(f"Evaluated {result.evaluations} state(s).")
    if not result.solved:
        print(f"No plan: {result.reason}.")
        return _report(SEARCH_UNSOLVED_INCOMPLETE, start, search_start)
    labels = result.labels(task)
    args.plan_file.write_text("".join(f"{label}\n" for label in labels) + f"; cost = {len(labels)} (unit cost)\n")
    print("Solution found!")
    print(f"Plan length: {len(labels)} step(s).")
    print(f"Plan cost: {len(labels)}")
    return _report(SUCCESS, start, search_start)


if __name__ == "__main__":
    sys.exit(main())
