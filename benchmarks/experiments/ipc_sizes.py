"""How far the IPC 2023 learning track's test tasks lie beyond what an exhaustive SymT-E dataset can
train on (issue 35: why a domain defeats the approach, with numbers).

Per domain: the training problems of ``training/easy``, how many of them have a state space small
enough to expand (the exhaustive datasets, ``data/ipc2023-<domain>-exhaustive/manifest.json``, made
by ``symt ipc-dataset --plan-time 0``, the data commands of ``benchmarks/training/models.toml``), the
largest kept problem's objects and initial-state atoms, and the same for the test tasks of each
level (median and largest). Objects and atoms come from symt's own PDDL parser; a symt model
reads one token per atom, so atoms are what a state costs. With ``--dead-ends``, the kept problems'
state spaces are expanded again and the share of reachable states from which no goal is reachable
(h* = inf) is given: the sampler trains on finite h* only, so a model never sees a dead end as a
target.

    .venv/bin/python benchmarks/experiments/ipc_sizes.py [--dead-ends] [domain ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from symt.pddl import ground
from symt.pddl.parser import parse_domain, parse_problem
from symt.statespace import expand

ROOT = Path(__file__).resolve().parents[2]
IPC = ROOT.parent / "shared" / "benchmarks" / "ipc2023-learning"
LEVELS = ("easy", "medium", "hard")


def sizes(domain_file: Path, problems: list[Path]) -> list[tuple[int, int]]:
    """(objects, initial-state atoms) of every problem, in the given order."""
    domain = parse_domain(domain_file)
    result = []
    for path in problems:
        problem = parse_problem(path, domain)
        result.append((len(problem.objects), len(problem.init)))
    return result


def dead_end_share(domain_file: Path, problems: list[Path]) -> str:
    """Dead ends among all reachable states of ``problems`` (expanded whole), as 'share (n of N)'."""
    states = dead = 0
    for path in problems:
        hstar = np.asarray(expand(ground(domain_file, path)).hstar)
        states += len(hstar)
        dead += int(np.isinf(hstar).sum())
    return f"{dead / states:.1%} ({dead:,} of {states:,})" if states else "–"


def cell(values: list[tuple[int, int]]) -> str:
    """'median / largest' objects and atoms of a group of problems; '–' for none."""
    if not values:
        return "–"
    objects = [v[0] for v in values]
    atoms = [v[1] for v in values]
    return f"{statistics.median(objects):g} / {max(objects)} obj, {statistics.median(atoms):g} / {max(atoms)} atoms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ipc", type=Path, default=IPC, help="the IPC 2023 learning track folder")
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="where the exhaustive datasets are")
    parser.add_argument("--dead-ends", action="store_true",
                        help="add the share of dead-end states in the kept problems' state spaces (slow)")
    parser.add_argument("domains", nargs="*", help="domains (default: every domain folder)")
    args = parser.parse_args()
    domains = args.domains or sorted(p.name for p in args.ipc.iterdir() if (p / "domain.pddl").is_file())
    extra = " dead ends in kept state spaces |" if args.dead_ends else ""
    print(f"| domain | training problems | kept (≤ 1 M states) | largest kept | test easy | test medium | test hard |{extra}")
    print("|---|--:|--:|---|---|---|---|" + ("--:|" if args.dead_ends else ""))
    for domain in domains:
        folder = args.ipc / domain
        training = sorted((folder / "training" / "easy").glob("p*.pddl"))
        manifest = args.data / f"ipc2023-{domain}-exhaustive" / "manifest.json"
        kept_names = ({Path(e["info"]["source"]).name for e in json.loads(manifest.read_text())}
                      if manifest.is_file() else None)
        kept = [p for p in training if kept_names is not None and p.name in kept_names]
        kept_sizes = sizes(folder / "domain.pddl", kept)
        largest = max(kept_sizes, default=None)
        cells = [cell(sizes(folder / "domain.pddl", sorted((folder / "testing" / level).glob("p*.pddl"))))
                 for level in LEVELS]
        if args.dead_ends:
            cells.append(dead_end_share(folder / "domain.pddl", kept))
        print(f"| {domain} | {len(training)} | {len(kept) if kept_names is not None else '?'} | "
              f"{f'{largest[0]} obj, {largest[1]} atoms' if largest else '–'} | {' | '.join(cells)} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
