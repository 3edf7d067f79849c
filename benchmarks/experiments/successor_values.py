"""How learned heuristics rank a state's successors: on a search's plateau, and on whole state spaces.

Question: when plain GBFS with a learned heuristic spends thousands of expansions on a plateau,
does the model not see which successor makes progress? Its views, each for SymT-E files (``.pt``,
exported) and WL models (``.json``, their unscaled values), in Python on symt's own grounding (the
values the Fast Downward plugins compute):

* ``plateau``: the lowest-valued state of a ``SYMT_TRACE`` file (the plugin writes every state it
  evaluates, with the model's raw value) and all its successors, ranked by each model's value,
  with the goal atoms the state still misses::

      SYMT_TRACE=trace.tsv fast-downward --overall-time-limit 60 domain.pddl p16.pddl \\
          --search "batch_eager_greedy([symt()])"
      python benchmarks/experiments/successor_values.py plateau domain.pddl p16.pddl trace.tsv \\
          --model symt=python/symt/models/ipc2023-transport.pt --model wl=python/symt/models/wl/ipc2023-transport.json

* ``optimal-steps``: on a task whose state space expands, a uniform sample of its non-goal states
  that can reach the goal (fixed seed); per model, the share whose lowest-valued successor has
  h* one less than the state (ties shared evenly): how often a greedy step on the model is optimal::

      python benchmarks/experiments/successor_values.py optimal-steps domain.pddl p04.pddl --model ...

* ``values``: on a task whose state space expands, per model, the span of its values over the
  states that can reach the goal (a uniform sample of at most ``--states``, fixed seed) and their
  correlation with h*: whether a model values the state or only the task (a model that fits each
  task's mean h* ranks siblings at chance; ``benchmarks/results/ipc/readout/`` section 12)::

      python benchmarks/experiments/successor_values.py values domain.pddl p11.pddl --states 256 --model ...

* ``dead-ends``: on a task whose state space expands, the states that reach the goal and have both
  a successor that reaches it and one that does not (a dead end; a uniform sample of at most
  ``--states``, fixed seed); per model, the share of their (live, dead-end) successor pairs it
  values live first (ties count half): whether a greedy step on the model walks into a dead end
  that a sibling avoids (``benchmarks/results/training/ipc_models.md``, Spanner)::

      python benchmarks/experiments/successor_values.py dead-ends domain.pddl p85.pddl --model ...

* ``dead-end-states``: on a task whose state space expands, a uniform sample of at most
  ``--states`` of its dead ends and as many states that reach the goal (fixed seed); per model, the
  share of (dead end, live state) pairs it values dead end higher (ties count half): whether the
  dead ends below a fork, which a search can reach once it has passed the fork, stay behind the
  states that can still reach the goal (the sixty-first session's Spanner probe)::

      python benchmarks/experiments/successor_values.py dead-end-states domain.pddl p75.pddl --states 400 --model ...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from heuristic_along_plans import Values, symt_values, wl_values
from symt.errors import SymtError
from symt.guidance import changing_successors
from symt.pddl.grounding import ground
from symt.pddl.parser import parse_domain, parse_problem
from symt.pddl.task import GroundTask
from symt.statespace import StateSpace, expand
from trace_goal_count import atom_text

TIE = 1e-6


def lowest_traced_state(task: GroundTask, trace: Path) -> tuple[float, frozenset[int]]:
    """The traced state with the lowest raw value (the first of equals), as fluent indices."""
    index = {atom_text(*atom): i for i, atom in enumerate(task.fluent_atoms)}
    best: tuple[float, str] | None = None
    with trace.open() as lines:
        for number, line in enumerate(lines, 1):
            value, _, atoms = line.rstrip("\n").partition("\t")
            try:
                candidate = (float(value), atoms)
            except ValueError:
                raise SymtError(f"{trace}:{number}: not 'value TAB atoms'") from None
            if best is None or candidate[0] < best[0]:
                best = candidate
    if best is None:
        raise SymtError(f"{trace}: no states")
    static = {atom_text(*atom) for atom in task.static_atoms}
    unknown = [a for a in best[1].split(";") if a and a not in index and a not in static]
    if unknown:
        raise SymtError(f"{trace}: atoms that are not fluents of this task, e.g. {unknown[0]}")
    return best[0], frozenset(index[a] for a in best[1].split(";") if a in index)


def plateau(task: GroundTask, trace: Path, models: dict[str, Values]) -> str:
    """The lowest traced state's successors ranked by each model, as markdown."""
    raw, state = lowest_traced_state(task, trace)
    goal = set(task.goal_pos)
    missing = [atom_text(*task.fluent_atoms[g]) for g in sorted(goal - state)]
    labels, successors = changing_successors(task, state)
    lines = [f"Lowest traced value {raw:.2f}; the state misses {len(missing)} goal atoms: {', '.join(missing)}.", ""]
    for name, values in models.items():
        own = float(values([state])[0])
        successor_values = values(successors)
        lines += [f"**{name}**: the state {own:.2f}", "", "| rank | value | action |", "|--:|--:|---|"]
        for rank, i in enumerate(np.argsort(successor_values, kind="stable"), 1):
            action = task.actions[labels[i]]
            lines.append(f"| {rank} | {successor_values[i]:.2f} | {action.name}({', '.join(action.args)}) |")
        lines.append("")
    return "\n".join(lines)


def other_successors(space: StateSpace, state: int) -> list[int]:
    """The distinct successors of expanded state ``state`` other than itself, in id order."""
    return sorted({int(t) for t in space.successors(state)[1]} - {state})


def optimal_steps(task: GroundTask, models: dict[str, Values], states: int, max_states: int) -> str:
    """Per model, the share of sampled states whose lowest-valued successor is optimal, as markdown."""
    space = expand(task, max_states=max_states)
    hstar = space.hstar
    rng = np.random.default_rng(0)
    sample = rng.choice(space.num_states, size=min(states, space.num_states), replace=False)
    ids = [int(i) for i in sample if np.isfinite(hstar[i]) and hstar[i] > 0]
    lines = [f"{space.num_states:,} states, h*(s0) = {hstar[0]:.0f}; {len(ids)} sampled non-goal states "
             "that reach the goal.", "", "| model | greedy step optimal |", "|---|--:|"]
    for name, values in models.items():
        shares = []
        for i in ids:
            targets = other_successors(space, i)
            successor_values = values([space.state_set(t) for t in targets])
            chosen = [t for t, v in zip(targets, successor_values) if v <= successor_values.min() + TIE]
            shares.append(np.mean([hstar[t] == hstar[i] - 1 for t in chosen]))
        lines.append(f"| {name} | {np.mean(shares):.2f} |")
    return "\n".join(lines) + "\n"


def values_inside(task: GroundTask, models: dict[str, Values], states: int, max_states: int) -> str:
    """Per model, the span of its values over sampled states that reach the goal and their
    correlation with h*, as markdown."""
    space = expand(task, max_states=max_states)
    hstar = space.hstar
    finite = np.flatnonzero(np.isfinite(hstar))
    ids = np.random.default_rng(0).choice(finite, size=min(states, finite.size), replace=False)
    h = hstar[ids]
    lines = [f"{finite.size:,} of {space.num_states:,} states reach the goal (h* {h.min():.0f}-{h.max():.0f}); "
             f"{ids.size} valued.", "", "| model | values | correlation with h* |", "|---|---|--:|"]
    for name, values in models.items():
        v = values([space.state_set(int(i)) for i in ids])
        lines.append(f"| {name} | {v.min():.2f}-{v.max():.2f} | {np.corrcoef(v, h)[0, 1]:.2f} |")
    return "\n".join(lines) + "\n"


def value_span(values: list[float]) -> str:
    """``values``' least and largest value and median, for a table cell ("-" when empty)."""
    return f"{np.min(values):.2f}-{np.max(values):.2f} (median {np.median(values):.2f})" if values else "-"


def higher_scores(higher: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """Per pair of a value of ``higher`` and one of ``lower`` (all pairs, flattened): 1 where the
    first is the larger by more than :data:`TIE`, 0.5 for a tie within it, 0 otherwise."""
    gap = np.asarray(higher)[:, None] - np.asarray(lower)[None, :]
    return np.where(np.abs(gap) <= TIE, 0.5, (gap > 0).astype(float)).ravel()


def dead_end_pairs(task: GroundTask, models: dict[str, Values], states: int, max_states: int) -> str:
    """Per model, the share of (live, dead-end) sibling pairs of sampled states that it values live
    first, as markdown."""
    space = expand(task, max_states=max_states)
    hstar = space.hstar
    forks: list[tuple[list[int], list[int]]] = []  # per state: its live and its dead-end successors
    for i in np.flatnonzero(np.isfinite(hstar) & (hstar > 0)):
        targets = other_successors(space, int(i))
        live = [t for t in targets if np.isfinite(hstar[t])]
        dead = [t for t in targets if not np.isfinite(hstar[t])]
        if live and dead:
            forks.append((live, dead))
    chosen = [forks[int(j)] for j in np.random.default_rng(0).choice(len(forks), size=min(states, len(forks)),
                                                                     replace=False)] if forks else []
    pairs = sum(len(live) * len(dead) for live, dead in chosen)
    lines = [f"{space.num_states:,} states, {int(np.isinf(hstar).sum()):,} of them dead ends; {len(forks):,} states "
             f"that reach the goal have a live and a dead-end successor, {len(chosen)} sampled ({pairs:,} pairs).",
             "", "| model | live successor valued first | dead-end successors' values | live successors' values |",
             "|---|--:|---|---|"]
    # Every successor of the sample valued once per model, in one call (batched forward passes).
    valued = sorted({t for live, dead in chosen for t in live + dead})
    row = {t: k for k, t in enumerate(valued)}
    states_valued = [space.state_set(t) for t in valued]
    for name, values in models.items():
        all_values = values(states_valued)
        right, dead_values, live_values = [], [], []
        for live, dead in chosen:
            lv, dv = all_values[[row[t] for t in live]], all_values[[row[t] for t in dead]]
            right += list(higher_scores(dv, lv))
            live_values += list(lv)
            dead_values += list(dv)
        share = f"{np.mean(right):.2f}" if right else "-"
        lines.append(f"| {name} | {share} | {value_span(dead_values)} | {value_span(live_values)} |")
    return "\n".join(lines) + "\n"


def dead_end_states(task: GroundTask, models: dict[str, Values], states: int, max_states: int) -> str:
    """Per model, the share of (dead end, live state) pairs of sampled states that it values dead
    end higher, as markdown."""
    space = expand(task, max_states=max_states)
    hstar = space.hstar
    rng = np.random.default_rng(0)
    finite, dead = np.flatnonzero(np.isfinite(hstar)), np.flatnonzero(~np.isfinite(hstar))
    live_ids = rng.choice(finite, size=min(states, finite.size), replace=False)
    dead_ids = rng.choice(dead, size=min(states, dead.size), replace=False) if dead.size else dead
    lines = [f"{space.num_states:,} states, {dead.size:,} of them dead ends (largest finite h* "
             f"{hstar[finite].max():.0f}); {dead_ids.size} dead ends and {live_ids.size} live states sampled.", "",
             "| model | dead end valued higher | dead ends' values | live states' values |", "|---|--:|---|---|"]
    for name, values in models.items():
        valued = values([space.state_set(int(i)) for i in np.concatenate([dead_ids, live_ids])])
        dv, lv = valued[: dead_ids.size], valued[dead_ids.size :]
        share = f"{np.mean(higher_scores(dv, lv)):.2f}" if dv.size and lv.size else "-"
        lines.append(f"| {name} | {share} | {value_span(list(dv))} | {value_span(list(lv))} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("view", choices=("plateau", "optimal-steps", "values", "dead-ends", "dead-end-states"))
    parser.add_argument("domain", type=Path)
    parser.add_argument("problem", type=Path)
    parser.add_argument("trace", type=Path, nargs="?", help="a SYMT_TRACE file (plateau only)")
    parser.add_argument("--model", action="append", required=True, metavar="NAME=PATH",
                        help="a SymT-E file (.pt) or a WL model (.json), named for the table")
    parser.add_argument("--states", type=int, default=300, help="states sampled (optimal-steps, values, dead-ends, dead-end-states; 300)")
    parser.add_argument("--max-states", type=int, default=2_000_000, help="expansion limit (optimal-steps, values, dead-ends, dead-end-states)")
    args = parser.parse_args(argv)
    if (args.view == "plateau") != (args.trace is not None):
        parser.error("a trace file goes with 'plateau' and only with it")
    torch.set_num_threads(1)
    try:
        domain = parse_domain(args.domain)
        problem = parse_problem(args.problem, domain)
        task = ground(domain, problem)
        models = {}
        for spec in args.model:
            name, _, path = spec.partition("=")
            kind = wl_values if path.endswith(".json") else symt_values
            models[name] = kind(Path(path), domain, problem, task)
        if args.view == "plateau":
            print(plateau(task, args.trace, models))
        elif args.view == "optimal-steps":
            print(optimal_steps(task, models, args.states, args.max_states))
        elif args.view == "values":
            print(values_inside(task, models, args.states, args.max_states))
        elif args.view == "dead-ends":
            print(dead_end_pairs(task, models, args.states, args.max_states))
        else:
            print(dead_end_states(task, models, args.states, args.max_states))
    except SymtError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
