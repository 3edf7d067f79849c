"""How much of a state a local objects model recomputes when its value comes from its parent's (issue 65).

A model trained with ``--attention objects --global-tokens 0`` reads only what lies within
``n_layers`` steps of each token, so a successor's value can be computed from its parent's
(``symt.model_local``). This walks a task at random from its initial state and at every step
computes the state's value three ways: one pass over the whole state; the update from the previous
state's atom terms (``LocalValues.update``: a pass over a border of ``2 n_layers`` steps); and the
step from the previous state's token states after every layer (``LocalValues.step``: a pass over
``n_layers`` steps, the tokens the change has not reached taking the parent's states). It checks
that all agree and prints, per stretch of the walk, the fluent atoms, the atoms each way read, and
the milliseconds of each in Python (eager passes and bookkeeping; one thread, process CPU time).
With ``--exported FILE`` (the checkpoint exported) it also times the plugin's passes (TorchScript):
``forward_states`` over the whole state, ``atom_terms`` over the update's atoms and ``layer_terms``
over the step's, each with ``value_of_terms``; and the plugin's own C++ pass of the step
(``symt._core.LocalNet``, what ``symt(native=true)`` runs; its inputs prepared beforehand, as the
plugin keeps them).

Usage (from the repository root; ``--visitall N``: an N×N grid of the generator's)::

    .venv/bin/python benchmarks/speed/bench_local_update.py runs/s52/visitall-local-layers.ckpt.pt \\
        --visitall 32 --walk 3000 --every 500 --exported runs/s52/visitall-local-layers.pt
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import torch

from symt.export import load_checkpoint_model, load_exported, model_meta
from symt.model_local import Atom, LocalState, LocalValues, atom_inputs
from symt.model_routed import RoutedSymTE
from symt.pddl import parse_domain
from symt.pddl.grounding import ground
from symt.tokens import Signature, collate, encode_task, rename

# The task options and the random walks have their homes in sibling scripts.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_state_pass import add_task_arguments, resolve_task  # noqa: E402
from context_cache import random_walk  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path, help="a training checkpoint of a local objects model")
    add_task_arguments(parser)
    parser.add_argument("--walk", type=int, default=1000, help="random-walk length (actions from the initial state)")
    parser.add_argument("--every", type=int, default=200, help="steps per printed row")
    parser.add_argument("--exported", type=Path, help="the checkpoint exported: also time TorchScript passes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    workdir = tempfile.TemporaryDirectory(prefix="symt-local-")  # removed at exit
    resolve_task(parser, args, Path(workdir.name))
    torch.set_num_threads(1)
    net, checkpoint = load_checkpoint_model(args.checkpoint)
    if not isinstance(net, RoutedSymTE):
        raise SystemExit(f"{args.checkpoint}: not an objects-attention model")
    meta = model_meta(net, checkpoint)
    vocab = int(meta["vocab_size"])
    domain = parse_domain(args.domain)
    task = ground(domain, args.problem)
    encoded = encode_task(task, Signature.from_json(meta), domain)
    pred, context_args, _ = collate([rename(encoded.fixed_rows, encoded.assignment, vocab)], vocab)
    values = LocalValues(net, pred[0], context_args[0])

    def atoms(state: frozenset[int]) -> list[Atom]:
        rows = rename(encoded.fluent_rows[sorted(state)], encoded.assignment, vocab)
        return [tuple(int(t) for t in row) for row in rows]

    module = load_exported(args.exported)[0] if args.exported else None
    cache = module.encode_context(pred[0], context_args[0]) if module is not None else ()

    def scripted_seconds(atoms_: list[Atom], whole: bool) -> float:
        """CPU seconds of the plugin's pass: the whole state's value, or the terms of ``atoms_``."""
        if module is None or not atoms_:
            return 0.0
        p, a, m = atom_inputs(atoms_)
        began = time.process_time()
        with torch.inference_mode():
            if whole:
                module.forward_states(*cache, p, a, m)
            else:
                module.value_of_terms(module.atom_terms(cache[0], cache[1], cache[2], cache[4], p, a, m).sum(1), cache[3])
        return time.process_time() - began

    def scripted_step_seconds(state: LocalState, child: list[Atom]) -> float:
        """CPU seconds of the plugin's pass from the parent's layers (``layer_terms``; the parent's
        states gathered beforehand, as the plugin keeps them)."""
        read, distance, new = values.step_plan(state, child)
        if module is None or not read:
            return 0.0
        _, inputs = values.layer_inputs(read, distance, new, state)
        p, a, m = atom_inputs(read)
        began = time.process_time()
        with torch.inference_mode():
            terms = module.layer_terms(cache[0], cache[1], cache[2], cache[4], p, a, m, *inputs)[0]
            module.value_of_terms(terms.sum(1), cache[3])
        return time.process_time() - began

    native = LocalValues(net, pred[0], context_args[0], native=True) if module is not None else None
    native_seconds = [0.0]

    class TimedRun:
        """The C++ pass with its CPU time counted (the Python that prepares its inputs is not)."""

        def __init__(self, inner):
            self.inner = inner

        def run(self, *inputs):
            began = time.process_time()
            out = self.inner.run(*inputs)
            native_seconds[0] += time.process_time() - began
            return out

    if native is not None:
        native.native = TimedRun(native.native)
        stepped = native.evaluate(atoms(random_walk(task, 1, args.seed)[0]), layers=True)

    states = random_walk(task, args.walk + 1, args.seed)
    print(f"checkpoint {args.checkpoint}, task {args.problem.name}, {net.n_layers} layers, torch "
          f"{torch.__version__}, one thread, {len(states) - 1} steps")
    print("| steps | fluent atoms (last) | atoms read: update | from layers | ms whole pass | ms update | "
          "ms from layers | largest |h| difference | TorchScript ms whole | update | from layers | C++ ms from layers |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    evaluated = values.evaluate(atoms(states[0]))
    layered = values.evaluate(atoms(states[0]), layers=True)
    start = 1
    while start < len(states):
        stretch = states[start:start + args.every]
        whole_s = update_s = step_s = scripted_whole = scripted_update = scripted_step = 0.0
        read = read_step = 0
        worst = 0.0
        native_seconds[0] = 0.0
        for state in stretch:
            current = atoms(state)
            began = time.process_time()
            evaluated, atoms_read = values.update(evaluated, current)
            h = values.value(evaluated)
            update_s += time.process_time() - began
            scripted_whole += scripted_seconds(current, True)
            scripted_update += scripted_seconds(atoms_read, False)
            scripted_step += scripted_step_seconds(layered, current)
            began = time.process_time()
            layered, step_read = values.step(layered, current)
            h_step = values.value(layered)
            step_s += time.process_time() - began
            if native is not None:
                stepped, _ = native.step(stepped, current)
                worst = max(worst, abs(native.value(stepped) - h_step))
            read_step += len(step_read)
            began = time.process_time()
            whole = values.value(values.evaluate(current))
            whole_s += time.process_time() - began
            read += len(atoms_read)
            worst = max(worst, abs(h - whole), abs(h_step - whole))
        n = len(stretch)
        row = (f"| {start}–{start + n - 1} | {len(current)} | {read / n:.0f} | {read_step / n:.0f} | "
               f"{whole_s / n * 1e3:.2f} | {update_s / n * 1e3:.2f} | {step_s / n * 1e3:.2f} | {worst:.1e} |")
        if module is not None:
            row += (f" {scripted_whole / n * 1e3:.2f} | {scripted_update / n * 1e3:.2f} | "
                    f"{scripted_step / n * 1e3:.2f} | {native_seconds[0] / n * 1e3:.2f} |")
        else:
            row += " – | – | – | – |"
        print(row)
        start += n


if __name__ == "__main__":
    main()
