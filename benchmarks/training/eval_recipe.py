"""Evaluate training runs of the recipe study (issue 12): search-free and inside Fast Downward.

For each run folder (``symt train --out``) and each inference depth asked for:

* export ``best.pt`` (``symt export --layers L``) next to it as ``model-L<L>.pt``;
* greedy heuristic guidance per split (paper, Appendix D; ``eval_greedy.evaluate``): coverage, QS;
* plain GBFS ``eager_greedy([symt(model=...)])`` in Fast Downward on the extrapolation split
  (every ``--fd-stride``-th task), 60 s and 4 GiB per run, against ``eager_greedy([ff()])`` on
  the same tasks in the same run (ff is run once per task and cached in the results file).

Results accumulate in a JSON file (one entry per run and depth; reruns replace an entry);
``--summary`` writes the Markdown tables and the plot of quality against training time.

Usage:
  .venv/bin/python benchmarks/training/eval_recipe.py --data data/blocksworld --results R.json \
      runs/study/bw-base runs/study/bw-rank [--layers 4 8] [--fd-stride 2] [--processes 2]
  .venv/bin/python benchmarks/training/eval_recipe.py --summary R.json [R2.json ...] --out DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

from eval_greedy import evaluate as greedy_evaluate
from symt.export import export, load_exported

FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"
SPLITS = ("validation", "interpolation", "extrapolation")


def run_fd(domain: Path, problem: Path, search: str, time_limit: int, memory_mib: int) -> dict:
    """One Fast Downward run in a private folder: solved, plan length, expansions, wall seconds.
    ``search`` is a search string, an alias as ``--alias NAME``, or the search component's own
    options (``--evaluator h=ff() --search ...``, words without spaces)."""
    # The driver takes an alias before the PDDL files and a search string after them.
    before, after = [], ["--search", search]
    if search.startswith("--alias "):
        before, after = search.split(), []
    elif search.startswith("--"):
        after = search.split()
    with tempfile.TemporaryDirectory() as work:
        start = time.perf_counter()
        proc = subprocess.run(
            [str(FAST_DOWNWARD), "--overall-time-limit", str(time_limit), "--overall-memory-limit",
             str(memory_mib), *before, str(domain.resolve()), str(problem.resolve()), *after],
            cwd=work, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    out = proc.stdout
    solved = "Solution found." in out
    length = re.search(r"Plan length: (\d+) step", out)
    expanded = re.findall(r"Expanded (\d+) state", out)
    # symt()'s own line: "symt: N states in P forward passes, S s in the model (CPU time, ...)",
    # printed whenever N doubles and at the end: the last one counts (a killed run has no end).
    lines = re.findall(r"symt: (\d+) states in (\d+) forward passes, ([\d.e+-]+) s in the model", out)
    model = lines[-1] if lines else None
    return {
        "solved": solved,
        "plan_length": int(length.group(1)) if solved and length else None,
        "expansions": int(expanded[-1]) if solved and expanded else None,
        "seconds": seconds,
        "exit": proc.returncode,
        "model_states": int(model[0]) if model else None,
        "forward_passes": int(model[1]) if model else None,
        "model_seconds": float(model[2]) if model else None,
    }


def fd_tasks(data: Path, stride: int) -> list[dict]:
    manifest = json.loads((data / "manifest.json").read_text())
    return [e for e in manifest if e["split"] == "extrapolation"][::stride]


def evaluate_run(run: Path, layers: int | None, data: Path, args: argparse.Namespace,
                 baseline: dict) -> dict:
    if run.suffix == ".pt":  # an exported model (e.g. a shipped one): evaluated as it is
        model = run
        meta = load_exported(run)[1]
        depth = meta["model"]["n_layers"]
    else:
        model = run / "model.pt"
        meta = export(run / "best.pt", model, layers=layers)
        depth = meta["model"]["n_layers"]
        model = model.rename(run / f"model-L{depth}.pt")
    greedy = {r["split"]: r for r in greedy_evaluate(str(model), data, list(SPLITS), progress=False)}
    tasks = fd_tasks(data, args.fd_stride)
    search = f"eager_greedy([symt(model={model.resolve()})])"

    def one(entry: dict) -> tuple[str, dict]:
        return entry["name"], run_fd(data / "domain.pddl", data / entry["file"], search,
                                     args.time_limit, args.memory_limit)

    with ThreadPoolExecutor(args.processes) as pool:
        fd = dict(pool.map(one, tasks))
    log = list(csv.DictReader(open(run / "log.csv"))) if run.is_dir() else []
    return {
        "run": run.name, "layers": depth, "trained_layers": meta["training"].get("n_layers", depth),
        "training": meta["training"], "model": meta["model"], "path": str(model), "greedy": greedy, "fd": fd,
        "ff": {name: baseline[name] for name in fd}, "log": log,
    }


def ff_baseline(data: Path, args: argparse.Namespace, cached: dict) -> dict:
    missing = [e for e in fd_tasks(data, args.fd_stride) if e["name"] not in cached]

    def one(entry: dict) -> tuple[str, dict]:
        return entry["name"], run_fd(data / "domain.pddl", data / entry["file"], "eager_greedy([ff()])",
                                     args.time_limit, args.memory_limit)

    with ThreadPoolExecutor(args.processes) as pool:
        cached.update(dict(pool.map(one, missing)))
    return cached


# ------------------------------------------------------------------------------------ the summary

def fd_figures(entry: dict) -> dict:
    fd, ff = entry["fd"], entry["ff"]
    common = [t for t in fd if fd[t]["solved"] and ff[t]["solved"]]
    return {
        "solved": sum(r["solved"] for r in fd.values()), "tasks": len(fd),
        "ff_solved": sum(r["solved"] for r in ff.values()),
        "median_expansions": statistics.median([fd[t]["expansions"] for t in common]) if common else None,
        "ff_median_expansions": statistics.median([ff[t]["expansions"] for t in common]) if common else None,
        "common": len(common),
        "plan_length_sum": sum(fd[t]["plan_length"] for t in common) if common else None,
        "ff_plan_length_sum": sum(ff[t]["plan_length"] for t in common) if common else None,
    }


def summary(paths: list[Path], out: Path) -> None:
    entries = [e for p in paths for e in json.loads(p.read_text())["runs"]]
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        "| run | layers (trained) | steps | train min | val MSE | rank acc. | greedy val / interp / extrap "
        "| GBFS extrap solved (ff) | median expansions, common (ff) | plan length sum, common (ff) |",
        "|---|---|--:|--:|--:|--:|---|---|---|---|",
    ]
    for e in entries:
        if not e["log"]:  # an exported model without its training log
            e["log"] = [{"val_coverage": "nan", "val_mse": "nan", "seconds": 0}]
        last = min(e["log"], key=lambda r: (-float(r["val_coverage"]), float(r["val_mse"])))
        minutes = sum(float(r["seconds"]) for r in e["log"]) / 60
        g = e["greedy"]
        f = fd_figures(e)
        acc = last.get("val_rank_accuracy") or "nan"
        lines.append(
            f"| {e['run']} | {e['layers']} ({e['trained_layers']}) | {e['training']['steps']:,} | {minutes:.0f} "
            f"| {float(last['val_mse']):.2f} | {float(acc):.3f} "
            f"| {' / '.join(str(g[s]['solved']) + '/' + str(g[s]['tasks']) for s in SPLITS)} "
            f"| {f['solved']}/{f['tasks']} ({f['ff_solved']}) "
            f"| {f['median_expansions']} ({f['ff_median_expansions']}) over {f['common']} "
            f"| {f['plan_length_sum']} ({f['ff_plan_length_sum']}) |")
    (out / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    plot(entries, out / "quality_vs_time.png")


def plot(entries: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    seen = set()
    for e in entries:
        if e["run"] in seen or "step" not in e["log"][0]:  # one curve per run; none for bare models
            continue
        seen.add(e["run"])
        minutes, total = [], 0.0
        for row in e["log"]:
            total += float(row["seconds"])
            minutes.append(total / 60)
        axes[0].plot(minutes, [float(r["val_mse"]) for r in e["log"]], marker=".", label=e["run"])
        accuracy = [float(r.get("val_rank_accuracy") or "nan") for r in e["log"]]
        axes[1].plot(minutes, accuracy, marker=".", label=e["run"])
    axes[0].set_yscale("log")
    axes[0].set_title("validation MSE (h*)")
    axes[1].set_title("validation sibling-ranking accuracy")
    for axis in axes:
        axis.set_xlabel("training minutes (one thread, two runs side by side)")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="*", help="training run folders")
    parser.add_argument("--data", type=Path, help="the runs' dataset folder (symt generate)")
    parser.add_argument("--results", type=Path, help="JSON file the results accumulate in")
    parser.add_argument("--layers", type=int, nargs="+", help="inference depths (default: as trained)")
    parser.add_argument("--fd-stride", type=int, default=2, help="every N-th extrapolation task in FD (2)")
    parser.add_argument("--time-limit", type=int, default=60)
    parser.add_argument("--memory-limit", type=int, default=4096)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--summary", type=Path, nargs="+", help="results files to summarise")
    parser.add_argument("--out", type=Path, help="summary folder")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.summary:
        summary(args.summary, args.out or Path("."))
        return 0
    results = json.loads(args.results.read_text()) if args.results and args.results.exists() else {}
    results.setdefault("runs", [])
    results["ff"] = ff_baseline(args.data, args, results.get("ff", {}))
    for run in args.runs:
        for layers in args.layers or [None]:
            entry = evaluate_run(run, layers, args.data, args, results["ff"])
            results["runs"] = [e for e in results["runs"]
                               if (e["run"], e["layers"]) != (entry["run"], entry["layers"])] + [entry]
            args.results.parent.mkdir(parents=True, exist_ok=True)
            args.results.write_text(json.dumps(results, indent=1))
            f = fd_figures(entry)
            print(f"{run.name} L{entry['layers']}: greedy "
                  f"{' / '.join(str(entry['greedy'][s]['solved']) for s in SPLITS)}; "
                  f"GBFS {f['solved']}/{f['tasks']} (ff {f['ff_solved']}), median expansions "
                  f"{f['median_expansions']} (ff {f['ff_median_expansions']})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
