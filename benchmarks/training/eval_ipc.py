"""Compare IPC 2023 heuristic models inside Fast Downward on the learning track's test tasks
(issue 12): plain GBFS ``eager_greedy([symt(model=M)])`` for every model given, against
``eager_greedy([ff()])`` and ``--alias lama-first`` on the same tasks in the same run.

A model is ``LABEL=PATH`` (an exported ``.pt``, a shipped model's name, or a training run folder,
whose ``best.pt`` is exported next to it as ``model.pt``). ``--expansions-per-batch K ...`` runs
each model with ``batch_eager_greedy(..., expansions_per_batch=K)`` for every K instead (issue 15:
K-best-first search). ``--symt-searches gbfs symt-first`` also (or, without ``gbfs``, only) runs
each model in the ``symt-first`` configuration (GBFS alternating symt() and h^FF queues with h^FF's
preferred operators, successors evaluated in batches), ``symt-first-lazy`` the same queues with
deferred evaluation (``lazy_greedy``: symt() once per expanded state), ``symt-lama-first``
lama-first with a symt() queue added, ``symt-explore`` plain GBFS with a type-based exploration
queue. An alias with preferred operators adds the baseline ``ff-pref`` (h^FF with its preferred
operators, the symt-first queues without symt); ``--baselines ff-explore`` gives symt-explore's
open lists with h^FF. Results go to a JSON file (per task and configuration: solved, plan length,
expansions, wall seconds, states the model evaluated and its CPU seconds) and a Markdown summary
per level: coverage, the model's evaluations per second over all its runs, and over the tasks
every configuration solves, the geometric mean of expansions, the summed wall time and the summed
plan length. The JSON is rewritten after every run; ``--resume`` keeps the runs of an earlier
OUT.json whose search, time and memory limit are the same (it trusts that the model files behind
the same paths did not change) and runs only the rest, so a configuration can be added to a run.

Usage:
  .venv/bin/python benchmarks/training/eval_ipc.py --domain blocksworld --levels easy medium \\
      --models shipped=ipc2023-blocksworld r4=runs/study/ipc-bw-r4 --time-limit 30 \\
      --out experiments/ipc-r4/blocksworld
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

from eval_recipe import run_fd
from symt.experiments.metrics import geometric_mean
from symt.export import export
from symt.fd_configs import ALIASES
from symt.models import resolve

IPC_ROOT = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "ipc2023-learning"
BASELINES = {"ff": "eager_greedy([ff()])", "lama-first": "--alias lama-first"}
FF_PREF = "--evaluator hff=ff() --search eager_greedy([hff],preferred=[hff],boost=1000)"
FF_EXPLORE = "batch_eager_greedy([ff()],type_based=true)"
"""symt-explore's open lists with h^FF: only with ``--baselines ff-explore``."""
ALIAS_SEARCHES = set(ALIASES) - {"symt-gbfs"}
"""The wrapper's aliases that ``--symt-searches`` runs with each model, as ``alias_search`` writes them."""


def model_path(spec: str) -> Path:
    path = Path(spec)
    if path.is_dir():
        exported = path / "model.pt"
        export(path / "best.pt", exported)
        return exported.resolve()
    return path.resolve() if path.is_file() else Path(resolve(spec)).resolve()


def alias_search(alias: str, model: Path, max_time: str) -> str:
    """The options of the wrapper's ``--alias`` (``symt.fd_configs``) with ``model`` and the
    search's own time limit, in words without spaces (``run_fd`` splits them on whitespace)."""
    config = ALIASES[alias]
    search = config.search.replace(" ", "").replace("symt()", f"symt(model={model})")
    evaluators = [f"--evaluator {definition}" for definition in config.evaluators]
    return " ".join([*evaluators, "--search", f"{search[:-1]},{max_time})"])


def rate(run: dict) -> float | None:
    """The model's evaluations per CPU second in one run, where symt() printed its statistics."""
    return run["model_states"] / run["model_seconds"] if run.get("model_seconds") else None


def summary(results: dict, configs: list[str], levels: list[str]) -> str:
    """Per level: coverage, evaluations/s over all runs and, per task, against the first
    configuration (a task's size changes the cost per state, so only per-task ratios compare
    configurations that solve different tasks), and expansions, time and plan length on the tasks
    every configuration solves."""
    first = configs[0]
    lines = []
    for level in levels:
        tasks = sorted(results[level])
        common = [t for t in tasks if all(results[level][t][c]["solved"] for c in configs)]
        lines += [f"### {results['domain']} {level} ({len(tasks)} tasks, {results['time_limit']} s, "
                  f"{results['memory_limit']} MiB)", "",
                  f"| configuration | solved | model evaluations/s | evaluations/s against {first} "
                  f"(geo-mean over tasks) | geo-mean expansions ({len(common)} common) | "
                  "wall time, common | plan length sum, common |", "|---|--:|--:|--:|--:|--:|--:|"]
        for config in configs:
            runs = [results[level][t][config] for t in tasks]
            ratios = [rate(results[level][t][config]) / rate(results[level][t][first]) for t in tasks
                      if rate(results[level][t][config]) and rate(results[level][t][first])]
            # statistics' geometric mean: symt's geometric_mean counts values below 1 as 1 (expansions)
            relative = (f"{statistics.geometric_mean(ratios):.2f}× over {len(ratios)}"
                        if ratios and config != first else "–")
            common_runs = [results[level][t][config] for t in common]
            mean = geometric_mean([r["expansions"] for r in common_runs]) if common_runs else None
            timed = [r for r in runs if r.get("model_seconds")]
            overall = (f"{sum(r['model_states'] for r in timed) / sum(r['model_seconds'] for r in timed):,.0f}"
                       if timed else "–")
            lines.append(
                f"| {config} | {sum(r['solved'] for r in runs)}/{len(runs)} | {overall} | {relative} | "
                f"{'–' if mean is None else f'{mean:,.0f}'} | "
                f"{sum(r['seconds'] for r in common_runs):.1f} s | "
                f"{sum(r['plan_length'] for r in common_runs) if common_runs else '–'} |")
        lines.append("")
    return "\n".join(lines)


def write_json(path: Path, results: dict) -> None:
    """Atomically, so that an interrupted run leaves the runs it finished (``--resume``)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(results, indent=1))
    os.replace(tmp, path)


def earlier_runs(path: Path, args: argparse.Namespace) -> dict[tuple[str, str, str], dict]:
    """(level, task, search) → run, from an earlier OUT.json with the same limits."""
    if not path.is_file():
        return {}
    earlier = json.loads(path.read_text())
    if (earlier.get("time_limit"), earlier.get("memory_limit")) != (args.time_limit, args.memory_limit):
        sys.exit(f"--resume: {path} ran with other limits ({earlier.get('time_limit')} s, "
                 f"{earlier.get('memory_limit')} MiB)")
    return {(level, task, earlier["searches"][config]): run
            for level in ("easy", "medium", "hard") for task, runs in earlier.get(level, {}).items()
            for config, run in runs.items() if config in earlier["searches"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", required=True, help="an IPC 2023 domain (blocksworld, ferry, ...)")
    parser.add_argument("--levels", nargs="+", default=["easy"], help="easy, medium, hard")
    parser.add_argument("--models", nargs="+", required=True, metavar="LABEL=PATH")
    parser.add_argument("--expansions-per-batch", type=int, nargs="+", metavar="K",
                        help="batch_eager_greedy with these K instead of eager_greedy")
    parser.add_argument("--symt-searches", nargs="+", choices=["gbfs", *sorted(ALIAS_SEARCHES)],
                        default=["gbfs"],
                        help="plain GBFS (default) and/or the wrapper's aliases (an alias with "
                        "preferred operators adds the ff-pref baseline)")
    parser.add_argument("--no-baselines", action="store_true", help="symt configurations only")
    parser.add_argument("--baselines", nargs="+", choices=["ff", "lama-first", "ff-pref", "ff-explore"],
                        help="only these baselines (default: ff and lama-first, and ff-pref with an alias "
                        "that uses preferred operators; ff-explore only when named)")
    parser.add_argument("--max-tasks", type=int, help="every k-th task so that at most this many per level")
    parser.add_argument("--time-limit", type=int, default=30)
    parser.add_argument("--memory-limit", type=int, default=4096)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--ipc-root", type=Path, default=IPC_ROOT)
    parser.add_argument("--out", type=Path, required=True, help="writes OUT.json and OUT.md")
    parser.add_argument("--summary-only", action="store_true", help="rewrite OUT.md from OUT.json")
    parser.add_argument("--resume", action="store_true",
                        help="keep the runs of OUT.json with the same search and limits; run the rest")
    args = parser.parse_args()
    if args.summary_only:
        results = json.loads(args.out.with_suffix(".json").read_text())
        text = summary(results, list(results["searches"]), args.levels)
        args.out.with_suffix(".md").write_text(text)
        print(text)
        return 0

    searches = {}
    for spec in args.models:
        label, _, path = spec.partition("=")
        model = model_path(path)
        # The search's own time limit, a little below the driver's, ends a run that fails
        # cleanly, so that symt() still prints its statistics (evaluations per second).
        max_time = f"max_time={max(1, args.time_limit - 3)}"
        if "gbfs" not in args.symt_searches:
            pass
        elif args.expansions_per_batch:
            for k in args.expansions_per_batch:
                searches[f"symt:{label} K={k}"] = (f"batch_eager_greedy([symt(model={model})], "
                                                   f"expansions_per_batch={k}, {max_time})")
        else:
            searches[f"symt:{label}"] = f"eager_greedy([symt(model={model})], {max_time})"
        for alias in sorted(ALIAS_SEARCHES & set(args.symt_searches)):
            searches[f"{alias}:{label}"] = alias_search(alias, model, max_time)
    if not args.no_baselines:
        with_preferred = any("preferred=" in ALIASES[alias].search
                             for alias in ALIAS_SEARCHES & set(args.symt_searches))
        defaults = dict(BASELINES, **({"ff-pref": FF_PREF} if with_preferred else {}))
        available = dict(defaults, **{"ff-explore": FF_EXPLORE})
        chosen = args.baselines or list(defaults)
        searches.update({name: search for name, search in available.items() if name in chosen})
    domain_file = args.ipc_root / args.domain / "domain.pddl"
    results: dict = {"domain": args.domain, "time_limit": args.time_limit,
                     "memory_limit": args.memory_limit, "searches": searches}
    json_path = args.out.with_suffix(".json")
    earlier = earlier_runs(json_path, args) if args.resume else {}
    jobs = []
    for level in args.levels:
        problems = sorted((args.ipc_root / args.domain / "testing" / level).glob("p*.pddl"))
        if args.max_tasks and len(problems) > args.max_tasks:
            step = len(problems) / args.max_tasks
            problems = [problems[int(i * step)] for i in range(args.max_tasks)]
        results[level] = {p.stem: {} for p in problems}
        for problem in problems:
            for config in searches:
                kept = earlier.get((level, problem.stem, searches[config]))
                if kept is None:
                    jobs.append((level, problem, config))
                else:
                    results[level][problem.stem][config] = kept
    if args.resume:
        kept_count = sum(len(runs) for level in args.levels for runs in results[level].values())
        print(f"--resume: {kept_count} runs kept from {json_path}, {len(jobs)} to run",
              file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()

    def one(job: tuple[str, Path, str]) -> None:
        level, problem, config = job
        run = run_fd(domain_file, problem, searches[config], args.time_limit, args.memory_limit)
        with lock:
            results[level][problem.stem][config] = run
            write_json(json_path, results)

    with ThreadPoolExecutor(args.processes) as pool:
        list(tqdm(pool.map(one, jobs), total=len(jobs), desc=args.domain, file=sys.stderr))
    write_json(json_path, results)
    text = summary(results, list(searches), args.levels)
    args.out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
