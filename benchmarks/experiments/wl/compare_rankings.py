"""Where SymT-E and the WL baseline disagree (issue 33): on states with exact h*, how often each
model orders a state's successors right, and where one is right and the other wrong.

For every validation task of a paper domain (expanded exhaustively, so h* is exact), symt's
sampler draws states (goal distance uniform over the layers, as training draws them). For each
non-goal state s, its successors split into *good* ones (h* = h*(s) - 1) and *others*; a pair
(good, other) is ranked right when the model's value of the good one is strictly lower. Greedy
choice: the successor with the lowest value is a good one (what greedy guidance and, mostly, GBFS
follow). Both models are the shipped ones: ``symt.models`` (SymT-E) and ``symt/models/wl`` (WL).

    .venv/bin/python benchmarks/experiments/wl/compare_rankings.py --out benchmarks/results/wl/rankings.md
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np

from symt.data import load_dataset
from symt.export import load_exported
from symt.guidance import exported_state_evaluator
from symt.models import shipped, wl_models
from symt.pddl import parse_problem
from symt.wl import WLModel

BINS = ((1, 2), (3, 5), (6, 10), (11, 1000))


def bin_of(h: float) -> str:
    for low, high in BINS:
        if low <= h <= high:
            return f"{low}-{high}" if high < 1000 else f">{low - 1}"
    return "?"


def compare(domain: str, states_per_task: int, seed: int) -> dict:
    dataset = load_dataset(Path("data") / domain, splits=("validation",), expand_splits=("validation",),
                           progress=False, vocab_size=1 << 30)
    module, meta = load_exported(shipped()[domain])
    wl = WLModel(wl_models()[domain])
    counts: dict = defaultdict(int)
    for data in dataset.split("validation"):
        space, task = data.space, data.task
        symt_values = exported_state_evaluator(module, meta, dataset.domain, task)
        wl_task = wl.set_task(dataset.domain, parse_problem(data.problem_file, dataset.domain))
        hstar = space.hstar
        rng = np.random.default_rng(seed)
        for state in np.unique(space.sampler(int(rng.integers(1 << 62))).sample_states(states_per_task)):
            h = hstar[state]
            if h == 0 or not np.isfinite(h):
                continue
            _, targets = space.successors(int(state))
            targets = np.unique(targets[targets != state])
            good = hstar[targets] == h - 1
            if not good.any():
                continue
            symt_v = symt_values([space.state_set(int(t)) for t in targets])
            wl_v = np.array([wl.value(wl_task.state([task.fluent_atoms[f] for f in space.state_facts(int(t))]))
                             for t in targets])
            counts["states"] += 1
            bucket = bin_of(h)
            counts[("states", bucket)] += 1
            symt_greedy, wl_greedy = bool(good[np.argmin(symt_v)]), bool(good[np.argmin(wl_v)])
            counts["symt_greedy"] += symt_greedy
            counts["wl_greedy"] += wl_greedy
            counts[("symt_greedy", bucket)] += symt_greedy
            counts[("wl_greedy", bucket)] += wl_greedy
            for g in np.flatnonzero(good):
                for o in np.flatnonzero(~good):
                    if hstar[targets[o]] < h - 1:
                        continue  # cannot happen (h* is a distance), kept for safety
                    s_right, w_right = symt_v[g] < symt_v[o], wl_v[g] < wl_v[o]
                    counts["pairs"] += 1
                    counts["symt_right"] += s_right
                    counts["wl_right"] += w_right
                    counts["only_symt"] += s_right and not w_right
                    counts["only_wl"] += w_right and not s_right
                    counts["both_wrong"] += not (s_right or w_right)
                    kind = "dead end" if not np.isfinite(hstar[targets[o]]) else (
                        "same h*" if hstar[targets[o]] == h else "h*+1")
                    counts[("pairs", kind)] += 1
                    counts[("only_wl", kind)] += w_right and not s_right
                    counts[("only_symt", kind)] += s_right and not w_right
    counts["tasks"] = len(dataset.split("validation"))
    return counts


def percent(a: float, b: float) -> str:
    return f"{100 * a / b:.1f} %" if b else "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", nargs="+", default=["blocksworld", "gripper", "logistics", "visitall"])
    parser.add_argument("--states-per-task", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = ["| domain | tasks | states | pairs | SymT-E pairs right | WL pairs right | only SymT-E right | "
             "only WL right | both wrong | SymT-E greedy choice | WL greedy choice |",
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    detail = ["| domain | h*(s) | states | SymT-E greedy choice | WL greedy choice |", "|---|---|--:|--:|--:|"]
    kinds = ["| domain | other successor | pairs | only SymT-E right | only WL right |", "|---|---|--:|--:|--:|"]
    for domain in args.domains:
        c = compare(domain, args.states_per_task, args.seed)
        lines.append(f"| {domain} | {c['tasks']} | {c['states']:,} | {c['pairs']:,} | {percent(c['symt_right'], c['pairs'])} | "
                     f"{percent(c['wl_right'], c['pairs'])} | {percent(c['only_symt'], c['pairs'])} | "
                     f"{percent(c['only_wl'], c['pairs'])} | {percent(c['both_wrong'], c['pairs'])} | "
                     f"{percent(c['symt_greedy'], c['states'])} | {percent(c['wl_greedy'], c['states'])} |")
        for low, high in BINS:
            bucket = f"{low}-{high}" if high < 1000 else f">{low - 1}"
            n = c[("states", bucket)]
            if n:
                detail.append(f"| {domain} | {bucket} | {n:,} | {percent(c[('symt_greedy', bucket)], n)} | "
                              f"{percent(c[('wl_greedy', bucket)], n)} |")
        for kind in ("same h*", "h*+1", "dead end"):
            n = c[("pairs", kind)]
            if n:
                kinds.append(f"| {domain} | {kind} | {n:,} | {percent(c[('only_symt', kind)], n)} | "
                             f"{percent(c[('only_wl', kind)], n)} |")
        print(lines[-1], flush=True)
    text = "\n".join(["## Pairs of successors (good: h* one lower than the state's)", "", *lines, "",
                      "## Greedy choice by the state's goal distance", "", *detail, "",
                      "## By the other successor's h*", "", *kinds, ""])
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
