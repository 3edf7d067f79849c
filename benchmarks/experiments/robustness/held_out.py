"""Held-out tasks that no symt generator wrote: the shipped models against ff and lama-first (issue 32).

The tasks come from ``tests/other_generators.py`` (independent of symt, after the classic IPC
generators): Blocksworld with 9-20 blocks, one tower stated without its base's ``ontable``
(``tower-no-base``) and two to four towers stated in full, bases and ``clear`` tops included, as IPC
2023 does (``towers-clear``); Logistics
with 7-15 packages in three cities with one airplane (``c3-a1``) and four cities with two airplanes
(``c4-a2``). Each runs with greedy guidance (``symt-guidance``), plain GBFS with the learned
heuristic (``symt-batch``), ``ff`` and ``lama-first`` (and the shipped WL model with ``--algorithms
... wl``), through the same Lab runner and report as
``symt experiment``:

    .venv/bin/python benchmarks/experiments/robustness/held_out.py --out experiments/held-out \\
        --results benchmarks/results/robustness/variants/held-out [--time-limit 60] [--model blocksworld=FILE.pt]

``--model DOMAIN=FILE`` evaluates a model file in place of the shipped one (a candidate before it
is shipped); the report names the model files.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))

from other_generators import blocksworld_task, logistics_task  # noqa: E402
from symt.experiments import registry, report, runner, suites  # noqa: E402
from symt.experiments.algorithms import algorithms  # noqa: E402
from symt.experiments.suites import BenchmarkTask  # noqa: E402
from symt.generators import domain_file  # noqa: E402

ALGORITHMS = ["symt-guidance", "symt-batch", "ff", "lama-first"]
GROUPS: dict[str, tuple[str, range, dict]] = {
    "tower-no-base": ("blocksworld", range(9, 21), {"style": "tower"}),
    "towers-clear": ("blocksworld", range(9, 21), {"style": "towers"}),
    "c3-a1": ("logistics", range(7, 16), {"cities": 3, "airplanes": 1}),
    "c4-a2": ("logistics", range(7, 16), {"cities": 4, "airplanes": 2}),
}


def write_tasks(folder: Path, seed: int) -> list[BenchmarkTask]:
    """Write every group's tasks under ``folder/<domain>/<group>/`` and list them."""
    tasks = []
    for group, (domain, sizes, options) in GROUPS.items():
        domain_path = folder / domain / "domain.pddl"
        domain_path.parent.mkdir(parents=True, exist_ok=True)
        domain_path.write_text(domain_file(domain).read_text())
        for size in sizes:
            rng = random.Random(f"{group}-{seed}-{size}")
            name = f"{group}-{size}"
            if domain == "blocksworld":
                text = blocksworld_task(size, rng, options["style"], name)
            else:
                text = logistics_task(size, rng, options["cities"], 2, options["airplanes"], name)
            path = folder / domain / group / f"{name}.pddl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            tasks.append(BenchmarkTask("held-out", domain, group, name, size, str(domain_path.resolve()),
                                       str(path.resolve()), None))
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("experiments/held-out"))
    parser.add_argument("--results", type=Path, help="copy the report here")
    parser.add_argument("--time-limit", type=int, default=60)
    parser.add_argument("--memory-limit", type=int, default=4096)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--groups", nargs="+", choices=sorted(GROUPS), default=sorted(GROUPS))
    parser.add_argument("--algorithms", nargs="+", default=ALGORITHMS)
    parser.add_argument("--model", action="append", default=[], metavar="DOMAIN=FILE",
                        help="a model file instead of the shipped one for DOMAIN")
    args = parser.parse_args()
    tasks = [t for t in write_tasks(args.out / "tasks", args.seed) if t.group in args.groups]
    chosen = algorithms(args.algorithms)
    replaced = registry.model_options(args.model)
    models = registry.suite_models("held-out", sorted({t.domain for t in tasks}), chosen, args.out,
                                   suites.DEFAULT_IPC_ROOT, replaced)
    spec = runner.ExperimentSpec("held-out", tasks, chosen, models, args.time_limit, args.memory_limit,
                                 args.processes)
    records = runner.run_experiment(spec, args.out)
    command = "benchmarks/experiments/robustness/held_out.py " + " ".join(sys.argv[1:])
    notes = (f"Tasks from tests/other_generators.py (seed {args.seed}), which no symt generator wrote: "
             + "; ".join(f"{g}: {d} sizes {s.start}-{s.stop - 1} {o}" for g, (d, s, o) in GROUPS.items()
                         if g in args.groups)
             + ". Models: " + ", ".join(f"{d} {f}: {Path(m).name}" for (_, d, f), m in sorted(models.items())))
    out = args.out / "report"
    report.write_report(records, out, "Held-out tasks from another generator", command=command, notes=notes,
                        algorithms=args.algorithms, limits=f"{args.time_limit} s and {args.memory_limit} MiB per run")
    if args.results:
        report.copy_report(out, args.results)
    print(f"{sum(r['solved'] for r in records)}/{len(records)} runs solved; report in {out}")


if __name__ == "__main__":
    main()
