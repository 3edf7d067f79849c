"""Validation token accuracy of the plan generators' training runs, one panel per domain.

Reads ``benchmarks/results/training/plan_models/logs/<model>.csv`` (the runs' ``log.csv``) and writes
``benchmarks/results/training/plan_models/val_accuracy.png``. Usage: ``python benchmarks/training/plot_plan_training.py``.
The logs behind the committed plot are in commit 5aeac4e (``benchmarks/results/plan_models/logs/``);
copy them, or new runs' ``log.csv``, into ``logs/`` first.
"""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results" / "training" / "plan_models"
CURVES = (  # log suffix, style, label
    ("-ed", "C0-", "SymT-ED, contrastive k=8, w=0.1 (CPU; shipped -ed)"),
    ("-ed-k32", "C2-", "SymT-ED, contrastive k=32, w=1 (H200; not shipped)"),
    ("-ed-nocl", "C0--", "SymT-ED, no contrastive (H200)"),
    ("-plangpt", "C1--", "PlanGPT, no contrastive (H200)"),
    ("-plangpt-cl", "C1-", "PlanGPT, contrastive k=32, w=1 (H200)"),
)


def main() -> None:
    domains = ("gripper", "blocksworld", "logistics", "visitall")
    fig, axes = plt.subplots(1, len(domains), figsize=(18, 4.2), sharey=True)
    for axis, domain in zip(axes, domains):
        for suffix, style, label in CURVES:
            path = RESULTS / "logs" / f"{domain}{suffix}.csv"
            if not path.exists():
                continue
            rows = list(csv.DictReader(path.open()))
            axis.plot([int(r["step"]) for r in rows], [float(r["val_accuracy"]) for r in rows], style,
                      marker="o", ms=3, label=label)
        axis.set_title(domain)
        axis.set_xlabel("step")
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("validation token accuracy")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(CURVES), fontsize=8)
    fig.suptitle("Plan generators (small preset, vocabulary 123, batch 64, Rename-Both)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(RESULTS / "val_accuracy.png", dpi=90)


if __name__ == "__main__":
    main()
