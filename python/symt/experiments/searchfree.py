"""One experiment run of a search-free strategy (paper, Appendix D), in Fast Downward's log format.

``python -m symt.experiments.searchfree --model M --strategy S --time-limit T domain problem``
plans with :func:`symt.plan.plan_with_model`: ``heuristic`` (SymT-E's greedy heuristic guidance)
or ``greedy`` / ``applicable`` / ``regrounding`` decoding of a plan generator. It writes
``sas_plan`` and prints the lines that Lab's Fast Downward parsers read (``Plan length``,
``Expanded``, ``Evaluated``, ``Search time``, ``search exit code``...), so that every kind of run
lands in one table. A guidance step expands one state (``Expanded``) and evaluates its successors
(``Evaluated``); a decoder prints its generated tokens instead (``Generated tokens``). Exit codes
are Fast Downward's: 0 plan found, 12 no plan (dead end, token or step cap, malformed or
inapplicable output: these strategies are incomplete), 22 out of memory, 23 out of time (CPU
time, as Fast Downward counts it), 33 bad input (e.g. more objects than the model's vocabulary).
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
from ..fast_downward import (
    SEARCH_INPUT_ERROR,
    SEARCH_OUT_OF_MEMORY,
    SEARCH_OUT_OF_TIME,
    SEARCH_UNSOLVED_INCOMPLETE,
    SUCCESS,
)


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
    parser.add_argument("--strategy", default="heuristic", help="heuristic, greedy, applicable, regrounding, regrounding-unvisited")
    parser.add_argument("--time-limit", type=float, default=0, help="seconds (0: none)")
    parser.add_argument("--memory-limit", type=int, default=0, help="MiB of address space (0: none)")
    parser.add_argument("--max-steps", type=int, default=500, help="action cap (heuristic) or token cap")
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
        # CPU time of the process, as Fast Downward's limits count it (RLIMIT_CPU): a loaded
        # machine slows a run down without making it time out.
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, args.time_limit)
    try:
        import torch

        from ..models import resolve
        from ..pddl import ground, parse_domain, parse_problem
        from ..plan import plan_with_model

        torch.set_num_threads(1)
        path = resolve(args.model)
        domain = parse_domain(args.domain)
        task = ground(domain, parse_problem(args.problem, domain))
        search_start = time.perf_counter()
        result, _ = plan_with_model(path, domain, task, args.strategy, args.max_steps, str(args.problem))
    except _OutOfTime:
        print(f"Time limit reached ({args.time_limit:g} s).")
        return _report(SEARCH_OUT_OF_TIME, start, search_start)
    except MemoryError:
        print("Memory limit reached.")
        return _report(SEARCH_OUT_OF_MEMORY, start, search_start)
    except SymtError as error:
        print(f"error: {error}")
        print(f"searchfree: error: {error}", file=sys.stderr)
        return _report(SEARCH_INPUT_ERROR, start, search_start)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)

    if args.strategy == "heuristic":
        print(f"Expanded {len(result.actions)} state(s).")
        print(f"Evaluations: {result.evaluations}")
        print(f"Evaluated {result.evaluations} state(s).")
    else:
        print(f"Generated tokens: {result.tokens}")
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
