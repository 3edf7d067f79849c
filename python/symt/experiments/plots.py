"""The plots of a report: coverage against task size, expansions against a baseline, plan length
against the best known."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from .metrics import (
    algorithm_order,
    best_known_lengths,
    check_records,
    in_preferred_order,
    index_runs,
    is_solved,
    plan_quality,
    task_key,
)
from .records import SUITE_ORDER, TaskKey

# ---------------------------------------------------------------------------------------------
# Plots

COVERAGE_PLOT = "coverage_vs_size.png"
EXPANSIONS_PLOT = "expansions_scatter.png"
PLAN_LENGTH_PLOT = "plan_length.png"


def _color(order: Sequence[str], algorithm: str) -> str:
    # One color per algorithm across all plots, from matplotlib's default cycle.
    return f"C{list(order).index(algorithm) % 10}"


def _marker(order: Sequence[str], algorithm: str) -> str:
    # Markers differ too, so that algorithms with identical results stay distinguishable.
    return "os^Dv<>p"[list(order).index(algorithm) % 8]


def _plot_coverage_vs_size(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path
) -> bool:
    sized = [
        record
        for record in records
        if record.get("size") is not None and record["algorithm"] in order
    ]
    if not sized:
        return False
    size_of_task: dict[tuple[str, str], dict[TaskKey, int]] = {}
    for record in sized:
        size_of_task.setdefault((record["suite"], record["domain"]), {})[task_key(record)] = record[
            "size"
        ]
    solved = {(task_key(record), record["algorithm"]) for record in sized if is_solved(record)}
    suites = in_preferred_order((suite for suite, _ in size_of_task), SUITE_ORDER)
    panels = sorted(size_of_task, key=lambda panel: (suites.index(panel[0]), panel[1]))
    several_suites = len(suites) > 1

    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.5 * columns, 3.4 * lines), squeeze=False)
    for axis, panel in zip(axes.flat, panels):
        tasks_of_size: dict[int, list[TaskKey]] = {}
        for task, size in size_of_task[panel].items():
            tasks_of_size.setdefault(size, []).append(task)
        sizes = sorted(tasks_of_size)
        for algorithm in order:
            fractions = [
                sum((task, algorithm) in solved for task in tasks_of_size[size])
                / len(tasks_of_size[size])
                for size in sizes
            ]
            axis.plot(
                sizes,
                fractions,
                marker=_marker(order, algorithm),
                markersize=4,
                fillstyle="none",
                color=_color(order, algorithm),
                label=algorithm,
            )
        axis.set_title(f"{panel[0]}/{panel[1]}" if several_suites else panel[1])
        axis.xaxis.get_major_locator().set_params(integer=True)  # sizes are counts
        axis.set_xlabel("task size")
        axis.set_ylabel("fraction solved")
        axis.set_ylim(-0.05, 1.05)
        axis.grid(alpha=0.3)
    for axis in list(axes.flat)[len(panels) :]:
        axis.set_visible(False)
    axes.flat[0].legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def _solved_expansions(run: Mapping[str, Any] | None) -> int | None:
    return run.get("expansions") if is_solved(run) else None


def _plot_expansions_scatter(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path,
    learned: str | None = None, baseline: str = "ff",
) -> bool:
    with_expansions = {
        record["algorithm"] for record in records if record.get("expansions") is not None
    }
    candidates = [learned] if learned else [a for a in order if a.startswith("symt")]
    symt = next((a for a in candidates if a in order and a in with_expansions), None)
    if symt is None or baseline not in order or baseline not in with_expansions:
        return False
    runs = index_runs(records)
    points = []  # (ff, symt, domain); None = unsolved by that side
    for task, task_runs in runs.items():
        ff_value = _solved_expansions(task_runs.get(baseline))
        symt_value = _solved_expansions(task_runs.get(symt))
        if ff_value is not None or symt_value is not None:
            points.append((ff_value, symt_value, f"{task[0]}/{task[1]}"))
    if not points:
        return False
    figure, axis = plt.subplots(figsize=(5.5, 5))
    draw_expansions_scatter(axis, points, list(dict.fromkeys(point[2] for point in points)),
                            baseline, symt, f"Expansions per task (below the diagonal: {symt} expands fewer)")
    axis.legend(fontsize="x-small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def draw_expansions_scatter(
    axis: Any, points: Sequence[tuple[int | None, int | None, str]], labels: Sequence[str],
    baseline: str, learned: str, title: str,
) -> None:
    """Expansions per task on log-log ``axis``: ``points`` are (``baseline``'s, ``learned``'s,
    label), None where that side did not solve the task; one colour per label, in the order of
    ``labels`` (so that several panels agree). Zero expansions are drawn at 1. Unsolved tasks sit
    on a red line at least ten times beyond the largest count, so they cannot be mistaken for an
    expensive solved task."""
    largest = max(max(value, 1) for point in points for value in point[:2] if value is not None)
    unsolved = 10.0 ** (math.ceil(math.log10(largest)) + 1)

    def position(value: int | None) -> float:
        return unsolved if value is None else max(value, 1)

    for index, label in enumerate(labels):
        xs = [position(x) for x, _, name in points if name == label]
        ys = [position(y) for _, y, name in points if name == label]
        if xs:
            axis.scatter(xs, ys, s=16, alpha=0.7, color=f"C{index % 10}", label=label)
    axis.plot([1, unsolved], [1, unsolved], color="grey", linewidth=0.8)
    axis.axvline(unsolved, color="red", linestyle="--", linewidth=0.8)
    axis.axhline(unsolved, color="red", linestyle="--", linewidth=0.8)
    axis.text(
        unsolved, 1, " unsolved", color="red", rotation=90, va="bottom", ha="right", fontsize=8
    )
    axis.text(1, unsolved, "unsolved", color="red", va="bottom", ha="left", fontsize=8)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlim(0.7, unsolved * 2)
    axis.set_ylim(0.7, unsolved * 2)
    axis.set_xlabel(f"{baseline} expansions")
    axis.set_ylabel(f"{learned} expansions")
    axis.set_title(title, fontsize=9)


def _plot_plan_length(
    plt: Any, records: Sequence[Mapping[str, Any]], order: Sequence[str], path: Path
) -> bool:
    best = best_known_lengths(records)
    points: dict[str, list[tuple[int, int]]] = {}
    for record in records:
        reference = best[task_key(record)]
        if record["algorithm"] in order and is_solved(record) and reference is not None:
            points.setdefault(record["algorithm"], []).append((reference, plan_quality(record)))
    if not points:
        return False
    figure, axis = plt.subplots(figsize=(5.5, 5))
    for algorithm in order:
        if algorithm in points:
            xs, ys = zip(*points[algorithm])
            axis.scatter(
                xs,
                ys,
                s=18,
                alpha=0.7,
                marker=_marker(order, algorithm),
                facecolors="none",
                edgecolors=_color(order, algorithm),
                label=algorithm,
            )
    longest = max(max(pair) for pairs in points.values() for pair in pairs)
    axis.plot([0, longest], [0, longest], color="grey", linewidth=0.8, label="optimal (y = x)")
    # Cost where the runs recorded one (the length in domains without action costs).
    axis.set_xlabel("best known plan cost")
    axis.set_ylabel("plan cost")
    axis.set_title("Plan cost of solved runs (length without action costs)", fontsize=9)
    axis.legend(fontsize="x-small")
    axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def write_plots(
    records: Iterable[Mapping[str, Any]],
    out_dir: str | Path,
    algorithms: Sequence[str] | None = None,
    learned: str | None = None,
    baseline: str = "ff",
) -> list[Path]:
    """Write the plots that have data into ``out_dir`` and return their paths.

    coverage_vs_size.png: one panel per domain, fraction of the tasks of each size solved, one
    line per algorithm. expansions_scatter.png: expansions of ``learned`` (default: the first
    "symt*" algorithm that reports expansions) against ``baseline``, per task. plan_length.png: plan cost (length without action costs)
    against best known cost per solved run. A plot without data is skipped, and a file of its name left by an
    earlier report in ``out_dir`` is removed so that it cannot be mistaken for this one's.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    records = list(records)
    check_records(records)
    order = algorithm_order(records, algorithms)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    scatter = partial(_plot_expansions_scatter, learned=learned, baseline=baseline)
    for name, plot in (
        (COVERAGE_PLOT, _plot_coverage_vs_size),
        (EXPANSIONS_PLOT, scatter),
        (PLAN_LENGTH_PLOT, _plot_plan_length),
    ):
        path = out / name
        if plot(plt, records, order, path):
            written.append(path)
        else:
            path.unlink(missing_ok=True)
    return written


