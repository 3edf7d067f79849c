"""A copy of a Visitall dataset with the tasks of one grid shape only: the 1 × n corridors or the
grids of two rows or more, every split.

Question it serves: does a recipe solve Visitall's corridors when trained on corridors alone (a
pilot that trains in minutes, recipe study round 25)? Every other Visitall failure of the shipped
SymT-E in distribution is a corridor with the robot starting inside.

The shape is read from the manifest (``info.rows``, ``info.cols``, which ``symt generate visitall``
writes); task files and the domain are copied unchanged and the manifest keeps the chosen entries.

Usage: .venv/bin/python benchmarks/training/subset_dataset.py --data data/visitall --shape corridors \
    --out data/visitall-corridors
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path


def is_corridor(entry: dict) -> bool:
    """Whether a manifest entry is a 1 × n grid; a ``SystemExit`` naming it without a shape."""
    info = entry.get("info") or {}
    if "rows" not in info or "cols" not in info:
        sys.exit(f"subset_dataset.py: {entry.get('file')}: the manifest gives no grid shape (not Visitall?)")
    return min(info["rows"], info["cols"]) == 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a `symt generate visitall` folder")
    parser.add_argument("--shape", choices=["corridors", "grids"], required=True,
                        help="corridors: 1 x n only; grids: two rows or more")
    parser.add_argument("--out", type=Path, required=True, help="a new folder")
    args = parser.parse_args()
    if args.out.exists():
        sys.exit(f"subset_dataset.py: {args.out} exists; choose a new folder")
    manifest = json.loads((args.data / "manifest.json").read_text())
    keep = [e for e in manifest if is_corridor(e) == (args.shape == "corridors")]
    work = args.out.with_name(args.out.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(args.data / "domain.pddl", work / "domain.pddl")
    for entry in keep:
        (work / entry["file"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(args.data / entry["file"], work / entry["file"])
    (work / "manifest.json").write_text(json.dumps(keep, indent=1) + "\n")
    work.rename(args.out)  # whole or not at all
    counts = {split: sum(e["split"] == split for e in keep) for split in dict.fromkeys(e["split"] for e in keep)}
    print(f"wrote {args.out}: {', '.join(f'{n} {split}' for split, n in counts.items())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
