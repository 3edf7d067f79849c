"""Coverage against wall time per task, one panel per domain, from ``eval_ipc.py`` result files.

Each curve counts the tasks a configuration solved within t seconds of wall time (the driver's
whole run: translator, search and symt()'s model). Several files of the same domain share a
panel; ``PATH:NAME,NAME`` takes only the named configurations of a file (to add one
configuration of an earlier run without its baselines a second time).

Usage:
  .venv/bin/python benchmarks/training/plot_eval_ipc.py --level medium \\
      lazy30/medium-{ferry,miconic,transport,blocksworld}.json \\
      round5/medium30-ferry.json:symt-first:w128 \\
      round5/medium30-miconic.json:symt-first:w64 \\
      round5/medium30-transport.json:symt-first:context \\
      round5/medium30-blocksworld.json:symt-first:student \\
      --out benchmarks/results/speed/context_cache/lazy30/coverage.png

(the command behind that plot: its JSON files were ``benchmarks/results/context_cache/lazy30/`` and
``benchmarks/results/recipe_study/round5/`` until commit 5aeac4e, which still holds them).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(spec: str, level: str) -> tuple[str, dict[str, list[float]], int]:
    """(domain, {configuration: sorted solve times}, tasks) of one result file."""
    path, _, names = spec.partition(".json")
    results = json.loads(Path(path + ".json").read_text())
    wanted = names.lstrip(":").split(",") if names.lstrip(":") else list(results["searches"])
    missing = [name for name in wanted if name not in results["searches"]]
    if missing:
        raise SystemExit(f"{path}.json has no configuration {', '.join(missing)} "
                         f"(it has {', '.join(results['searches'])})")
    runs = results.get(level)
    if runs is None:
        raise SystemExit(f"{path}.json has no level {level!r}")
    times = {name: sorted(task[name]["seconds"] for task in runs.values()
                          if task.get(name, {}).get("solved")) for name in wanted}
    return results["domain"], times, len(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", metavar="PATH.json[:NAME,...]")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    panels: dict[str, tuple[dict[str, list[float]], int]] = {}
    for spec in args.results:
        domain, times, tasks = load(spec, args.level)
        curves, known = panels.setdefault(domain, ({}, tasks))
        if tasks != known:
            raise SystemExit(f"{spec}: {tasks} {args.level} tasks, another file of {domain} has {known}")
        curves.update(times)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False)
    for axis, (domain, (curves, tasks)) in zip(axes[0], sorted(panels.items())):
        for name, solved in sorted(curves.items()):
            axis.step([0.0, *solved], range(len(solved) + 1), where="post", label=f"{name} ({len(solved)})")
        axis.set_title(f"{domain} {args.level} ({tasks} tasks)")
        axis.set_xlabel("wall time per task (s)")
        axis.set_ylim(0, tasks)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7, loc="lower right")
    axes[0][0].set_ylabel("tasks solved")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
