"""How the cost of one heuristic evaluation grows with the task's size (issue 65): microseconds per
evaluated state against atoms per state, for ``symt()`` (the shipped SymT-E models: the paper's
architecture, attention over all atoms), ``symt()`` with a SymT-E of objects attention
(``symt-objects``: ``symt.model_routed``, the files of ``--objects-models``), ``wl()`` (the WL
baseline, WLPlan) and ``ff()``, inside Fast Downward.

Tasks (generated with a fixed seed into a temporary folder, or read from the IPC 2023 set):

* **visitall** ``n``×``n`` grids (``--visitall``, default 5 8 11 16 24 32 45 60). The generator's
  ``size`` is the number of cells and it draws the grid's shape among all factorisations of it, so
  the benchmark passes ``n*n`` and tries seeds ``--seed``, ``--seed + 1``, ... until the task is the
  full square (``4n(n-1)`` ``connected`` atoms; a ``1×n²`` corridor has fewer). Model
  ``visitall`` (symt and wl).
* **logistics** with ``g`` packages (``--logistics``, default 5 10 20 50 100 200). The generator's
  ``size`` is the number of packages (= goal atoms); the rest does not grow with it: 2 cities for
  ``g <= 7`` and 3 for ``g >= 8``, 2 locations per city (one an airport), one truck per city and
  one airplane. Only the packages (their type, ``at`` and goal atoms) make a task larger. Model
  ``logistics``.
* **ferry** (``--ipc-domain``, IPC 2023 learning track): ``testing/{easy,medium,hard}/p01, p15,
  p30`` (``--ipc-levels``, ``--ipc-problems``), easy to hard. Model ``ipc2023-ferry``.

Per task and heuristic, one run of the ``fast-downward`` command with ``max_time=--seconds`` (10)
of search, ``--overall-memory-limit`` ``--memory-mib`` (4096) and as much CPU time
(``--overall-time-limit``) as the wall-clock cap ``--cap`` (900 s) on the whole run (translator,
the wrapper's task context, model loading and search); past the cap the run's process group is
killed. The searches:

* symt: ``batch_eager_greedy([symt(model=M, scale=0, precision=P)], max_time=S)`` (the batched
  search users run: one forward pass per expanded state's new successors; ``--precision`` fp32);
* wl: ``batch_eager_greedy([wl(model=M, scale=0.000000001)], max_time=S)`` (batched too; ``wl()``
  reads ``scale=0`` as "the model's own scale", so a tiny one makes every value the model's
  offset: a constant, as good as ``weight(wl(), 0)``, which would not be batched);
* ff: ``eager_greedy([weight(ff(), 0)], max_time=S)``, translated with the same
  ``--keep-unimportant-variables --keep-unreachable-facts`` as symt and wl, so all three search
  the same SAS task.

Every heuristic is computed but ignored (all values equal), so the three searches expand the same
states in the same order (breadth first) and run the full ``S`` seconds unless they solve the task
or exhaust its state space first (small tasks; ``wl()`` gives goal states 0 without a model call,
below the constant, so it stops at the first goal generated rather than expanded). As in
``bench_fd_symt.py``, the cost per state is Fast Downward's ``Search time`` over its ``Evaluated``
count (process CPU time of the whole search:
successor generation, open list and the heuristic); a batch that starts before ``max_time`` runs to
its end, so a task whose single forward pass takes seconds overshoots ``S`` but is still measured
right. A run that fails (out of memory, out of time, past the cap, an error) is recorded with
that status and no number.

Usage (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/speed/bench_scaling.py [--seconds 10]
        [--visitall 5 8 ...] [--logistics 5 10 ...] [--ipc-levels easy medium hard]
        [--heuristics symt wl ff] [--out benchmarks/results/speed/scaling]

Output in ``--out``: ``scaling.csv`` (one row per task and heuristic), ``scaling.md`` (the tables
printed at the end), ``scaling.png`` (log-log plot, one line per family and heuristic). CSV columns:

* ``family``, ``size``: visitall ``n`` (an ``n×n`` grid), logistics packages, ferry
  ``level/problem``;
* ``atoms``: the atoms the model reads for the task's initial state: its true fluent atoms plus
  its static, type and goal atoms (``symt.pddl.grounding.fixed_part`` and ``encode_task`` with
  the task's own domain; no action is grounded). Visitall's fluent atoms grow by one ``visited``
  per visited cell, so later states have a few more;
* ``heuristic``: symt, wl or ff;
* ``evaluated``: Fast Downward's ``Evaluated N state(s)``;
* ``search_s``: its ``Search time`` (CPU seconds);
* ``us_per_state``: ``search_s / evaluated`` in microseconds (empty for a failed run);
* ``status``: ``max-time`` (ran the full ``S``), ``solved`` or ``exhausted`` (stopped earlier;
  still a measurement, from fewer states), ``too-short`` (stopped within 0.05 s of search: no
  number), or the failure: ``out-of-memory``, ``out-of-time`` (translator or search, CPU limit),
  ``wall-cap``, ``error (exit N)`` or ``error (signal NAME)``;
* ``model_s``, ``model_us_per_state``: CPU time inside the model as the plugin reports it
  (symt: the TorchScript forward passes; wl: WLPlan), and per state evaluated by it;
* ``model_rows``: symt only: the plugin's mean atoms per state evaluated. For models that cache
  the task's context once (``ipc2023-ferry``: types and goals) these are the state's own rows
  only, which attend to the cached context;
* ``batches``: symt's forward passes, wl's calls;
* ``translate_s``: the translator's CPU seconds (``Done! [...s CPU``), not per-state cost;
* ``wall_s``: wall-clock seconds of the whole ``fast-downward`` run.

The last table (also printed as ``slope ...`` lines): the log-log slope of µs/state against atoms
per family and heuristic, least squares over the runs with a number; for Visitall also over the
grids from 10×10 to 60×60 only (``VISITALL_FIT_RANGE``: by default 11×11 to 60×60). A slope
of 1 is linear cost per atom, 2 quadratic (attention over all atoms, once it dominates).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from symt.generators import domain_file, generate_task
from symt.pddl import parse_domain, parse_problem
from symt.pddl.grounding import fixed_part, static_predicates
from symt.tokens import domain_signature, encode_task

REPO = Path(__file__).resolve().parents[2]
FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"
IPC_ROOT = REPO.parent / "shared" / "benchmarks" / "ipc2023-learning"
KEEP_ALL_FACTS = ["--keep-unimportant-variables", "--keep-unreachable-facts"]
SEARCHES = {
    "symt": "batch_eager_greedy([symt(model={m}, scale=0, precision={p})], max_time={t})",
    "symt-objects": "batch_eager_greedy([symt(model={m}, scale=0, precision={p})], max_time={t})",
    "wl": "batch_eager_greedy([wl(model={m}, scale=0.000000001)], max_time={t})",
    "ff": "eager_greedy([weight(ff(), 0)], max_time={t})",
}
MIN_SEARCH_S = 0.05
"""A search that ends (solved, exhausted) sooner is too short to time: ``too-short``, no number."""
VISITALL_FIT_RANGE = (10, 60)
"""Grid sides of the second Visitall slope (inclusive)."""
CSV_COLUMNS = ["family", "size", "atoms", "heuristic", "evaluated", "search_s", "us_per_state", "status",
               "model_s", "model_us_per_state", "model_rows", "batches", "translate_s", "wall_s"]


@dataclass(frozen=True)
class Task:
    family: str
    size: str
    """Label: visitall grid side, logistics packages, IPC ``level/problem``."""
    order: int
    """Grid side or packages (for the Visitall fit range and sorting); IPC: position in the list."""
    model: str
    """Shipped symt model, also the shipped WL model's name."""
    domain: Path
    problem: Path


@dataclass
class Result:
    task: Task
    atoms: int
    heuristic: str
    status: str
    evaluated: int | None = None
    search_s: float | None = None
    model_s: float | None = None
    model_states: int | None = None
    model_rows: float | None = None
    batches: int | None = None
    translate_s: float | None = None
    wall_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status in ("max-time", "solved", "exhausted") and bool(self.evaluated)

    @property
    def us_per_state(self) -> float | None:
        if not self.ok or self.search_s is None or not self.evaluated:
            return None
        return self.search_s / self.evaluated * 1e6

    @property
    def model_us_per_state(self) -> float | None:
        if self.model_s is None or not self.model_states or self.model_s < MIN_SEARCH_S:
            return None  # none, or too little time in the model to time
        return self.model_s / self.model_states * 1e6

    def row(self) -> dict[str, object]:
        def number(value: float | None, digits: int) -> str:
            return "" if value is None else f"{value:.{digits}f}"

        return {
            "family": self.task.family, "size": self.task.size, "atoms": self.atoms,
            "heuristic": self.heuristic, "evaluated": "" if self.evaluated is None else self.evaluated,
            "search_s": number(self.search_s, 3), "us_per_state": number(self.us_per_state, 1),
            "status": self.status, "model_s": number(self.model_s, 3),
            "model_us_per_state": number(self.model_us_per_state, 1),
            "model_rows": number(self.model_rows, 1), "batches": "" if self.batches is None else self.batches,
            "translate_s": number(self.translate_s, 2), "wall_s": number(self.wall_s, 1),
        }


def square_visitall(n: int, seed: int, workdir: Path) -> tuple[Path, int]:
    """A full ``n``×``n`` Visitall task (the first seed from ``seed`` on whose shape is square)
    and the seed that made it."""
    square_edges = 4 * n * (n - 1)  # ``connected`` in both directions; any other shape has fewer
    for attempt in range(10_000):
        text = generate_task("visitall", n * n, seed + attempt, f"visitall-{n}x{n}")
        if text.count("(connected ") == square_edges:
            path = workdir / f"visitall-{n}x{n}.pddl"
            path.write_text(text)
            return path, seed + attempt
    raise RuntimeError(f"no seed from {seed} on made a square {n}x{n} Visitall grid")


def model_atoms(domain_path: Path, problem_path: Path) -> int:
    """Atoms the model reads for the initial state: true fluent + static + type + goal atoms."""
    domain = parse_domain(domain_path)
    problem = parse_problem(problem_path, domain)
    fixed = encode_task(fixed_part(domain, problem), domain_signature(domain), domain).fixed_rows
    statics = static_predicates(domain)
    fluent = {(lit.predicate, lit.terms) for lit in problem.init
              if lit.predicate not in statics and lit.predicate != "=" and not lit.negated}
    return len(fixed) + len(fluent)


def last_float(pattern: str, text: str) -> float | None:
    found = re.findall(pattern, text, re.M)
    return float(found[-1]) if found else None


def status_of(code: int | None, out: str) -> str:
    if code is None:
        return "wall-cap"
    if code == 0:
        return "solved"
    if code in (11, 12):
        return "max-time" if "Time limit reached" in out else "exhausted"
    if code in (1, 20, 22):
        return "out-of-memory"
    if code in (2, 21, 23):
        return "out-of-time"
    if code in (3, 24):
        return "out-of-memory-and-time"
    if code > 128:  # a component killed by a signal: the driver exits with its negative code
        number = 256 - code
        if number == signal.SIGXCPU:
            return "out-of-time"
        return f"error (signal {signal.Signals(number).name})" if number in signal.valid_signals() else f"error (exit {code})"
    return f"error (exit {code})"


def run(task: Task, atoms: int, heuristic: str, options: argparse.Namespace, workdir: Path) -> Result:
    model = objects_model(task, options) if heuristic == "symt-objects" else task.model
    search = SEARCHES[heuristic].format(m=model, t=f"{options.seconds:g}", p=options.precision)
    command = [str(FAST_DOWNWARD), "--overall-time-limit", f"{options.cap}s",
               "--overall-memory-limit", f"{options.memory_mib}M", str(task.domain), str(task.problem)]
    if heuristic == "ff":  # symt and wl: the wrapper adds the same options
        command += ["--translate-options", *KEEP_ALL_FACTS, "--search-options"]
    command += ["--search", search]
    rundir = Path(tempfile.mkdtemp(prefix=f"{heuristic}-", dir=workdir))
    start = time.monotonic()
    with open(rundir / "log.txt", "w+") as log:
        process = subprocess.Popen(command, cwd=rundir, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            code: int | None = process.wait(timeout=options.cap)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            code = None
        log.seek(0)
        out = log.read()
    result = Result(task, atoms, heuristic, status_of(code, out), wall_s=time.monotonic() - start)
    result.translate_s = last_float(r"^Done! \[([\d.e+-]+)s CPU", out)
    evaluated = last_float(r"^Evaluated (\d+) state", out)
    result.evaluated = None if evaluated is None else int(evaluated)
    result.search_s = last_float(r"^Search time: ([\d.e+-]+)s", out)
    if result.status in ("max-time", "solved", "exhausted") and not result.evaluated:
        result.status = f"error (exit {code}, no statistics)"
    elif result.status in ("solved", "exhausted") and (result.search_s or 0.0) < MIN_SEARCH_S:
        result.status = "too-short"
    # symt() repeats its statistics line whenever its count doubles, and at the end: the last one.
    symt = re.findall(r"^symt: (\d+) states in (\d+) forward passes, ([\d.e+-]+) s in the model .*?, "
                      r"([\d.e+-]+) atoms per state", out, re.M)
    wl = re.findall(r"^wl: (\d+) states in (\d+) calls, ([\d.e+-]+) s in WLPlan", out, re.M)
    if symt:
        states, passes, seconds, rows = symt[-1]
        result.model_states, result.batches = int(states), int(passes)
        result.model_s, result.model_rows = float(seconds), float(rows)
    elif wl:
        states, calls, seconds = wl[-1]
        result.model_states, result.batches, result.model_s = int(states), int(calls), float(seconds)
    if not result.ok:
        tail = [line for line in out.splitlines() if line.strip() and not line.startswith("[t=")][-3:]
        result.notes = tail
    return result


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) against log(x); None below two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def fits(results: list[Result], families: list[str], heuristics: list[str]) -> list[tuple[str, str, str, int, float | None]]:
    """(family, range, heuristic, points, slope) for every family and heuristic."""
    lines = []
    for family in families:
        ranges: list[tuple[str, float, float]] = [("all", -math.inf, math.inf)]
        if family == "visitall":
            low, high = VISITALL_FIT_RANGE
            ranges.append((f"{low}x{low} to {high}x{high}", low, high))
        for label, low, high in ranges:
            for heuristic in heuristics:
                points = [(float(r.atoms), r.us_per_state) for r in results
                          if r.task.family == family and r.heuristic == heuristic
                          and low <= r.task.order <= high and r.us_per_state]
                lines.append((family, label, heuristic, len(points), slope(points)))
    return lines


def plot(results: list[Result], families: list[str], heuristics: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {"symt": "tab:red", "symt-objects": "tab:purple", "wl": "tab:blue", "ff": "tab:green"}
    markers = ["o", "s", "^", "D", "v"]
    styles = ["-", "--", ":", "-."]
    figure, axes = plt.subplots(figsize=(8, 6))
    for index, family in enumerate(families):
        for heuristic in heuristics:
            points = sorted((r.atoms, r.us_per_state) for r in results
                            if r.task.family == family and r.heuristic == heuristic and r.us_per_state)
            if not points:
                continue
            axes.plot([x for x, _ in points], [y for _, y in points], color=colors.get(heuristic, "black"),
                      marker=markers[index % len(markers)], linestyle=styles[index % len(styles)],
                      label=f"{heuristic}, {family}")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("atoms per state (model input, initial state)")
    axes.set_ylabel("µs per evaluated state (Fast Downward search time / evaluated)")
    axes.set_title("Cost of one heuristic evaluation against task size")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def markdown(results: list[Result], tasks: list[tuple[Task, int]], heuristics: list[str],
             families: list[str], options: argparse.Namespace) -> list[str]:
    command = shlex.join([".venv/bin/python", "benchmarks/speed/bench_scaling.py", *sys.argv[1:]])
    by_key = {(r.task, r.heuristic): r for r in results}
    lines = [
        "# Cost of one heuristic evaluation against the task's size",
        "",
        f"Command (from the repository root): `{command}`",
        "",
        f"`max_time={options.seconds:g}` s of search per run, {options.memory_mib} MiB, "
        f"a {options.cap} s wall-clock cap per run; symt precision {options.precision}; one thread. "
        "µs/state = Fast Downward's search time / evaluated states (the heuristic's value is "
        "ignored, so all searches expand the same states); *model µs/state*: CPU time inside the "
        "model (symt) or WLPlan (wl) per state it evaluated. Translator: CPU seconds of Fast "
        "Downward's translator (with `--keep-unreachable-facts`), not part of the per-state cost.",
        "",
        "| family | size | atoms | translator s | " + " | ".join(
            f"{h} µs/state | {h} evaluated" + (f" | {h} model µs/state" if h != "ff" else "")
            for h in heuristics) + " |",
        "|---|---|--:|--:|" + "".join("--:|--:|" + ("--:|" if h != "ff" else "") for h in heuristics),
    ]
    for task, atoms in tasks:
        runs = [by_key[(task, h)] for h in heuristics if (task, h) in by_key]
        translate = next((r.translate_s for r in runs if r.translate_s is not None), None)
        cells = [task.family, task.size, f"{atoms:,}", "–" if translate is None else f"{translate:.1f}"]
        for heuristic in heuristics:
            result = by_key.get((task, heuristic))
            if result is None:
                cells += ["–", "–"] + (["–"] if heuristic != "ff" else [])
                continue
            cost = result.us_per_state
            value = f"{cost:,.1f}" if cost is not None else f"**{result.status}**"
            if cost is not None and result.status != "max-time":
                value += f" ({result.status})"
            cells += [value, "–" if result.evaluated is None else f"{result.evaluated:,}"]
            if heuristic != "ff":
                model = result.model_us_per_state
                cells.append("–" if model is None else f"{model:,.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Log-log slope of µs/state against atoms (least squares over the successful runs):",
        "",
        "| family | range | heuristic | points | slope |",
        "|---|---|---|--:|--:|",
    ]
    for family, label, heuristic, count, value in fits(results, families, heuristics):
        lines.append(f"| {family} | {label} | {heuristic} | {count} | "
                     f"{'–' if value is None else f'{value:.2f}'} |")
    return lines


def objects_model(task: Task, options: argparse.Namespace) -> str:
    """The objects-attention model file of ``task`` (``--objects-models DIR``: DIR/<model>.pt)."""
    return str((options.objects_models / f"{task.model}.pt").resolve())


def build_tasks(options: argparse.Namespace, workdir: Path) -> list[Task]:
    tasks: list[Task] = []
    for n in options.visitall:
        problem, seed = square_visitall(n, options.seed, workdir)
        print(f"visitall {n}x{n}: seed {seed}", flush=True)
        tasks.append(Task("visitall", f"{n}x{n}", n, "visitall", domain_file("visitall"), problem))
    for g in options.logistics:
        problem = workdir / f"logistics-{g}.pddl"
        problem.write_text(generate_task("logistics", g, options.seed, f"logistics-{g}"))
        tasks.append(Task("logistics", str(g), g, "logistics", domain_file("logistics"), problem))
    root = options.ipc_root / options.ipc_domain
    order = 0
    for level in options.ipc_levels:
        for name in options.ipc_problems:
            path = root / "testing" / level / f"{name}.pddl"
            if not path.is_file():
                raise SystemExit(f"no IPC task {path}")
            tasks.append(Task(options.ipc_domain, f"{level}/{name}", order, f"ipc2023-{options.ipc_domain}",
                              root / "domain.pddl", path))
            order += 1
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitall", type=int, nargs="*", default=[5, 8, 11, 16, 24, 32, 45, 60],
                        help="Visitall grid sides n (n×n grids)")
    parser.add_argument("--logistics", type=int, nargs="*", default=[5, 10, 20, 50, 100, 200],
                        help="Logistics package counts")
    parser.add_argument("--ipc-domain", default="ferry", help="IPC 2023 learning-track domain (shipped model ipc2023-DOMAIN)")
    parser.add_argument("--ipc-levels", nargs="*", default=["easy", "medium", "hard"])
    parser.add_argument("--ipc-problems", nargs="*", default=["p01", "p15", "p30"])
    parser.add_argument("--ipc-root", type=Path, default=IPC_ROOT)
    parser.add_argument("--heuristics", nargs="+", default=list(SEARCHES), choices=list(SEARCHES))
    parser.add_argument("--seconds", type=float, default=10.0, help="max_time of each search (10)")
    parser.add_argument("--memory-mib", type=int, default=4096, help="--overall-memory-limit per run (4096)")
    parser.add_argument("--cap", type=int, default=900,
                        help="wall-clock cap per run in seconds, also its CPU limit (900)")
    parser.add_argument("--precision", default="fp32", choices=["fp32", "bf16", "auto"])
    parser.add_argument("--seed", type=int, default=7, help="generator seed (Visitall: the first tried)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "speed" / "scaling")
    parser.add_argument("--objects-models", type=Path, metavar="DIR",
                        help="symt-objects: SymT-E models with objects attention (symt train --attention "
                        "objects), DIR/<model>.pt for each family's model (visitall.pt, logistics.pt, "
                        "ipc2023-ferry.pt)")
    options = parser.parse_args()
    if "symt-objects" in options.heuristics:
        if options.objects_models is None:
            parser.error("--heuristics symt-objects needs --objects-models DIR")
        tasks_models = ["visitall"] * bool(options.visitall) + ["logistics"] * bool(options.logistics) + \
            [f"ipc2023-{options.ipc_domain}"] * bool(options.ipc_levels and options.ipc_problems)
        missing = [name for name in tasks_models if not (options.objects_models / f"{name}.pt").is_file()]
        if missing:
            parser.error(f"{options.objects_models}: no {', '.join(m + '.pt' for m in missing)}")

    options.out.mkdir(parents=True, exist_ok=True)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="symt-scaling-") as tmp:
        workdir = Path(tmp)
        tasks = build_tasks(options, workdir)
        with_atoms: list[tuple[Task, int]] = []
        csv_path = options.out / "scaling.csv"
        with open(csv_path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            for task in tasks:
                atoms = model_atoms(task.domain, task.problem)
                with_atoms.append((task, atoms))
                for heuristic in options.heuristics:
                    result = run(task, atoms, heuristic, options, workdir)
                    results.append(result)
                    writer.writerow(result.row())
                    handle.flush()
                    cost = result.us_per_state
                    print(f"{task.family} {task.size} ({atoms:,} atoms) {heuristic}: "
                          f"{'–' if cost is None else f'{cost:,.1f} µs/state'} [{result.status}; "
                          f"{result.evaluated or 0:,} evaluated, translator "
                          f"{'–' if result.translate_s is None else f'{result.translate_s:.1f}'} s, "
                          f"wall {result.wall_s:.1f} s]", flush=True)
                    for note in result.notes:
                        print(f"    {note}", flush=True)
    families = list(dict.fromkeys(task.family for task in tasks))
    plot(results, families, options.heuristics, options.out / "scaling.png")
    lines = markdown(results, with_atoms, options.heuristics, families, options)
    (options.out / "scaling.md").write_text("\n".join(lines) + "\n")
    for family, label, heuristic, count, value in fits(results, families, options.heuristics):
        print(f"slope {family} ({label}) {heuristic}: "
              f"{'–' if value is None else f'{value:.2f}'} over {count} points")
    print(f"wrote {csv_path}, {options.out / 'scaling.md'}, {options.out / 'scaling.png'}")
    print()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
