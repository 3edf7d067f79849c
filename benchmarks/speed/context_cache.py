"""Cost of one SymT-E evaluation with and without a cached task context (issue 15, direction 1),
in Python, on IPC 2023 tasks: states per second of

* ``full``: today's model, every atom (fluent, static, type, goal) through every layer;
* ``cached``: a context-attention model of the same size, whose static, type and goal atoms are
  encoded once per task (``encode_context``, timed separately) and each state then sends only its
  true fluent atoms (``forward_states``);
* ``folded`` (direction 2): the cached model with its ``type:<t>`` atoms folded into the objects'
  embeddings (``--fold-types``), so they leave the context that every state attends to.

Weights are random (the cost does not depend on them): the shipped IPC models' size (``small``
preset). The states are the initial state and states of a random walk from it, evaluated in
batches of 1 and of ``--batch`` (eager_greedy evaluates one state per pass, batch_eager_greedy the
successors of an expansion together). The cached values are checked against the context model's
full forward pass on the same states, the folded model's against its own. One torch thread, as the plugin's default.

Usage: .venv/bin/python benchmarks/speed/context_cache.py [--domains ...] [--problems p05 p15 p25]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import torch

from symt.model import SymTE
from symt.model_config import PRESETS, ModelConfig
from symt.pddl import ground, parse_domain, parse_problem
from symt.tokens import (
    collate,
    context_predicate_ids,
    domain_signature,
    encode_task,
    identity_assignment,
    rename,
    type_predicate_ids,
)

IPC_ROOT = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "ipc2023-learning"
VOCAB = 160


def random_walk(task, steps: int, seed: int) -> list[frozenset[int]]:
    rng = random.Random(seed)
    state = frozenset(task.init)
    states = [state]
    for _ in range(steps - 1):
        applicable = task.applicable_actions(state)
        if not applicable:
            break
        state = task.apply(task.actions[rng.choice(applicable)], state)
        states.append(state)
    return states


def states_per_second(function, inputs: list, count: int, min_seconds: float) -> float:
    function(*inputs)  # warm-up
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        function(*inputs)
        done += count
    return done / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", nargs="+", default=["blocksworld", "ferry", "miconic", "transport"])
    parser.add_argument("--level", default="medium")
    parser.add_argument("--problems", nargs="+", default=["p05", "p15", "p25"])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=2.0, help="minimum timing per measurement")
    parser.add_argument("--ipc-root", type=Path, default=IPC_ROOT)
    args = parser.parse_args()
    torch.set_num_threads(1)

    print(f"| domain | task | fluent F | context C | full, batch 1 (states/s) | cached, batch 1 | ratio "
          f"| full, batch {args.batch} | cached, batch {args.batch} | ratio | folded C | folded, batch 1 "
          f"| folded, batch {args.batch} | folded / cached, batch 1, {args.batch} | encode_context (ms) | max abs diff |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name in args.domains:
        domain = parse_domain(args.ipc_root / name / "domain.pddl")
        signature = domain_signature(domain)
        base = dict(num_predicates=signature.num_predicates, max_arity=signature.max_arity, vocab_size=VOCAB,
                    **PRESETS["small"])
        torch.manual_seed(0)
        full_model = SymTE(ModelConfig(**base)).eval()
        context_ids = context_predicate_ids(signature, domain)
        context_model = SymTE(ModelConfig(**base, context_predicates=context_ids))
        context_model.load_state_dict(full_model.state_dict())
        context_model.eval()
        folded_model = SymTE(ModelConfig(**base, context_predicates=context_ids,
                                         type_predicates=type_predicate_ids(signature)))
        folded_model.load_state_dict(full_model.state_dict())
        folded_model.eval()
        for problem in args.problems:
            task = ground(domain, parse_problem(args.ipc_root / name / "testing" / args.level / f"{problem}.pddl", domain))
            encoded = encode_task(task, signature, domain)
            names = identity_assignment(encoded.num_objects)
            states = random_walk(task, args.batch, seed=0)
            states = (states * args.batch)[: args.batch]
            everything = [rename(encoded.state_rows(sorted(s)), names, VOCAB) for s in states]
            fluent = [rename(encoded.fluent_rows[sorted(s)], names, VOCAB) for s in states]
            fixed = rename(encoded.fixed_rows, names, VOCAB)
            full_inputs = collate(everything, VOCAB)
            fluent_inputs = collate(fluent, VOCAB)
            context_pred, context_args, _ = collate([fixed], VOCAB)
            with torch.inference_mode():
                start = time.perf_counter()
                cache = context_model.encode_context(context_pred[0], context_args[0])
                encode_ms = 1000 * (time.perf_counter() - start)
                cached_values = context_model.forward_states(*cache, *fluent_inputs)
                reference = context_model(*full_inputs)[0]
                folded_cache = folded_model.encode_context(context_pred[0], context_args[0])
                folded_values = folded_model.forward_states(*folded_cache, *fluent_inputs)
                diff = max(float((cached_values - reference).abs().max()),
                           float((folded_values - folded_model(*full_inputs)[0]).abs().max()))
                one_full = [t[:1] for t in full_inputs]
                one_fluent = [t[:1] for t in fluent_inputs]
                cached_path = context_model.forward_states
                rates = [
                    states_per_second(full_model, one_full, 1, args.seconds),
                    states_per_second(cached_path, [*cache, *one_fluent], 1, args.seconds),
                    states_per_second(full_model, list(full_inputs), args.batch, args.seconds),
                    states_per_second(cached_path, [*cache, *fluent_inputs], args.batch, args.seconds),
                    states_per_second(folded_model.forward_states, [*folded_cache, *one_fluent], 1, args.seconds),
                    states_per_second(folded_model.forward_states, [*folded_cache, *fluent_inputs], args.batch,
                                      args.seconds),
                ]
            f_mean = np.mean([len(r) for r in fluent])
            print(f"| {name} | {problem} | {f_mean:.0f} | {len(fixed)} | {rates[0]:,.0f} | {rates[1]:,.0f} | "
                  f"{rates[1] / rates[0]:.1f}× | {rates[2]:,.0f} | {rates[3]:,.0f} | {rates[3] / rates[2]:.1f}× | "
                  f"{folded_cache[0].shape[2]} | {rates[4]:,.0f} | {rates[5]:,.0f} | "
                  f"{rates[4] / rates[1]:.2f}×, {rates[5] / rates[3]:.2f}× | {encode_ms:.0f} | {diff:.1e} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
