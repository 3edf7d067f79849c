#!/usr/bin/env python
"""A symt experiment driven by Fast Downward Lab's own command line, locally or on a Slurm cluster.

`symt experiment NAME` is the one-command route on one machine. This script builds the very same
runs (``symt.experiments.registry.make_spec``) as a plain Lab experiment with Lab's usual steps,
so that it can run wherever Lab runs:

    .venv/bin/python benchmarks/experiments/lab_experiment.py --all                      # build start parse fetch report
    .venv/bin/python benchmarks/experiments/lab_experiment.py build start                # or step by step

Because Lab re-invokes this script for each step on a cluster, the experiment is configured by
environment variables rather than options (Slurm exports the environment to its jobs):

    SYMT_EXPERIMENT       a named experiment (paper, paper-smoke, ipc, ipc-smoke, ipc-all); paper-smoke
    SYMT_TIME_LIMIT       seconds per run (default: the experiment's)
    SYMT_MEMORY_LIMIT     MiB per run (default: the experiment's)
    SYMT_MAX_TASKS        at most this many tasks per domain and group
    SYMT_DOMAINS          restrict to these domains (space-separated)
    SYMT_OUT              experiment folder (default experiments/lab-<name>)
    SYMT_SLURM_PARTITION  run on Slurm in this partition (default: local, 2 processes)
    SYMT_SLURM_QOS        Slurm quality of service (optional)

On Slurm every run is one task; give it at least the per-run memory limit plus about 1 GiB
(libtorch) through ``memory_per_cpu`` below.
"""

from __future__ import annotations

import os
from pathlib import Path

from lab.environments import LocalEnvironment, SlurmEnvironment

from symt.experiments import registry, report, runner


class ClusterEnvironment(SlurmEnvironment):
    """A generic Slurm cluster: partition and QOS from the environment."""

    DEFAULT_PARTITION = os.environ.get("SYMT_SLURM_PARTITION", "")
    DEFAULT_QOS = os.environ.get("SYMT_SLURM_QOS", "normal")
    DEFAULT_MEMORY_PER_CPU = "6G"
    DEFAULT_TIME_LIMIT_PER_TASK = "0-01:00:00"
    MAX_TASKS = 1000


def _int(name: str) -> int | None:
    value = os.environ.get(name)
    return int(value) if value else None


def main() -> None:
    experiment = registry.named(os.environ.get("SYMT_EXPERIMENT", "paper-smoke"),
                                time_limit=_int("SYMT_TIME_LIMIT"), memory_limit=_int("SYMT_MEMORY_LIMIT"),
                                max_tasks=_int("SYMT_MAX_TASKS"),
                                domains=tuple(os.environ["SYMT_DOMAINS"].split()) if os.environ.get("SYMT_DOMAINS") else None)
    out = Path(os.environ.get("SYMT_OUT", f"experiments/lab-{experiment.name}")).resolve()
    spec = registry.make_spec(experiment, out, processes=2)
    if os.environ.get("SYMT_SLURM_PARTITION"):
        environment = ClusterEnvironment()
    else:
        environment = LocalEnvironment(processes=spec.processes)
    exp = runner.build_lab_experiment(spec, out / runner.LAB_DIR, environment)

    def write_report() -> None:
        records = runner.records_from_properties(runner.parse_and_fetch(exp, out))
        limits, notes = registry.describe(experiment, spec)
        path = report.write_report(records, out / "report", f"Experiment `{experiment.name}` (Lab)",
                                   command="benchmarks/experiments/lab_experiment.py", notes=notes,
                                   algorithms=[a.name for a in spec.algorithms], limits=limits)
        print(f"report: {path}")

    exp.add_step("build", exp.build)
    exp.add_step("start", exp.start_runs)
    exp.add_step("parse", exp.parse)
    exp.add_fetcher(dest=str(out / runner.EVAL_DIR), name="fetch")
    exp.add_step("report", write_report)
    exp.run_steps()


if __name__ == "__main__":
    main()
