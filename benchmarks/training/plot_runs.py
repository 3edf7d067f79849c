"""Validation MSE against training wall time for several SymT-E runs, from their ``log.csv``.

Usage: .venv/bin/python benchmarks/training/plot_runs.py LABEL=RUN_FOLDER ... --out curves.png
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="LABEL=RUN_FOLDER")
    parser.add_argument("--title", default="validation MSE against training time")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--machine", default="this 2-core CPU, runs sharing it",
                        help="where the runs trained, for the time axis's label")
    args = parser.parse_args()
    fig, axis = plt.subplots(figsize=(7, 4.5))
    for spec in args.runs:
        label, _, folder = spec.partition("=")
        with open(Path(folder) / "log.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        minutes, elapsed = [], 0.0
        for row in rows:  # each row's seconds are its epoch's
            elapsed += float(row["seconds"])
            minutes.append(elapsed / 60)
        axis.plot(minutes, [float(row["val_mse"]) for row in rows], marker="o", label=label)
    axis.set_xlabel(f"training wall time (minutes, {args.machine}; evaluation excluded)")
    axis.set_ylabel("validation MSE")
    axis.set_yscale("log")
    axis.set_title(args.title)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
