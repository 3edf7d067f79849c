"""Record a shipped IPC model's training problems and curves (issue 35).

For ``ipc2023-<domain>`` trained on ``data/ipc2023-<domain>-exhaustive`` (the commands: its row of
``models.toml``, run by ``train_models.py ipc2023-<domain>.pt``): writes its
``python/symt/models/training.json`` entry (every kept problem as ``[problem, objects, states]``,
training and validation, and how many were over the state limit, from the dataset's
``manifest.json`` and ``skipped.json``) and copies the run's
``log.csv`` and ``curves.png`` to ``benchmarks/results/training/ipc_models/<model name without ipc2023->/``:

    .venv/bin/python benchmarks/training/record_ipc_model.py DOMAIN RUN_FOLDER [--name MODEL] \
        [--data DATASET --max-states N]   # a dataset made with another state limit
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ROOT / "python" / "symt" / "models" / "training.json"


def entry(dataset: Path, domain: str, max_states: int = 1_000_000) -> dict:
    """The training.json entry of an exhaustive IPC dataset folder made with ``max_states``."""
    manifest = json.loads((dataset / "manifest.json").read_text())
    skipped = json.loads((dataset / "skipped.json").read_text())["problems"]
    rows = {split: [[Path(e["info"]["source"]).stem, e["num_objects"], e["info"]["states"]]
                    for e in manifest if e["split"] == split] for split in ("train", "validation")}
    return {"ipc_domain": domain, "problems": "training/easy", "max_states": max_states,
            "train": rows["train"], "validation": rows["validation"], "skipped": len(skipped)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("domain")
    parser.add_argument("run", type=Path, help="the training run folder (log.csv, curves.png)")
    parser.add_argument("--name", help="model name (default ipc2023-DOMAIN)")
    parser.add_argument("--data", type=Path, help="the dataset folder (default data/ipc2023-DOMAIN-exhaustive)")
    parser.add_argument("--max-states", type=int, default=1_000_000,
                        help="the state limit the dataset was made with (symt ipc-dataset --max-states)")
    args = parser.parse_args()
    name = args.name or f"ipc2023-{args.domain}"
    record = json.loads(TRAINING.read_text())
    data = args.data or ROOT / "data" / f"ipc2023-{args.domain}-exhaustive"
    record[name] = entry(data, args.domain, args.max_states)
    # One problem row per line, as in the rest of the file: diffs stay readable.
    text = re.sub(r'\[\s+("p\d+"),\s+(\d+),\s+(\d+)\s+\]', r"[\1, \2, \3]", json.dumps(record, indent=1))
    TRAINING.write_text(text + "\n")
    results = ROOT / "benchmarks" / "results" / "training" / "ipc_models" / name.removeprefix("ipc2023-")
    results.mkdir(parents=True, exist_ok=True)
    for file in ("log.csv", "curves.png"):
        shutil.copy2(args.run / file, results / file)
    print(f"{name}: {len(record[name]['train'])} training and {len(record[name]['validation'])} validation "
          f"problems, {record[name]['skipped']} skipped; curves in {results}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
