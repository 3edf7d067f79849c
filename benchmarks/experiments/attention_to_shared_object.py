"""Does a SymT-E model attend by shared objects, and does that survive larger tasks?

Question: a heuristic sees that sailing the ferry to a waiting car is progress only if the atom
``(at car l)`` and the ferry's ``(at-ferry l)`` are related through their shared location ``l``. In
a transformer over atoms that relation has to be made by attention. For the states along
lama-first's plan of IPC tasks of growing size, this measures how much attention each atom of one
predicate (``--from at:1``: ``at`` atoms, their location in argument 1) gives to the atoms of
another predicate that share that object (``--to at-ferry:0``), per layer, in the head that
separates them most from the pairs of the same two predicates that do not share it (a car away
from the ferry and the ferry's atom): mean attention weight over shared pairs / over unshared
pairs. Attention by object identity shows as the first well above the second; attention by
predicate alone gives both the same; a uniform head gives 1/n to each (n atoms per state).

Needs a training checkpoint (``best.pt``: attention maps come from the Python model)::

    .venv/bin/python benchmarks/experiments/attention_to_shared_object.py runs/ferry-r12-atoms/best.pt \\
        --domain ferry --from at:1 --to at-ferry:0 --tasks easy:p01 easy:p10 easy:p20 medium:p10 \\
        --plans OUT/plans

(plans as ``heuristic_along_plans.py --out OUT`` makes and keeps them; the plans behind
``benchmarks/results/ipc/readout/attention.md`` are in commit 5aeac4e,
``git show 5aeac4e:benchmarks/results/readout/plans/ferry-easy-p01.plan``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from symt.errors import SymtError
from symt.export import load_checkpoint_model
from symt.pddl.grounding import ground
from symt.pddl.parser import parse_domain, parse_problem
from symt.pddl.validate import read_plan
from symt.tokens import Signature, collate, encode_task, identity_assignment, rename

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heuristic_along_plans import IPC, walk  # noqa: E402

STATES_PER_TASK = 12


def atom_spec(text: str) -> tuple[str, int]:
    name, _, position = text.rpartition(":")
    if not name or not position.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not PREDICATE:ARGUMENT (e.g. at:1)")
    return name, int(position)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", type=Path, help="a SymT-E training checkpoint (best.pt)")
    parser.add_argument("--domain", required=True, help="IPC 2023 domain folder name")
    parser.add_argument("--from", dest="source", type=atom_spec, required=True, help="PREDICATE:ARGUMENT attending")
    parser.add_argument("--to", dest="target", type=atom_spec, required=True, help="PREDICATE:ARGUMENT attended to")
    parser.add_argument("--tasks", nargs="+", required=True, help="LEVEL:PROBLEM")
    parser.add_argument("--plans", type=Path, required=True, help="folder of DOMAIN-LEVEL-PROBLEM.plan files")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    model, checkpoint = load_checkpoint_model(args.checkpoint)
    model.eval()
    signature = Signature.from_json(checkpoint["signature"])
    vocab = model.config.vocab_size
    print(f"{args.checkpoint}: attention of ({args.source[0]} .. arg {args.source[1]}) atoms on the "
          f"({args.target[0]} .. arg {args.target[1]}) atoms sharing that object / not sharing it, per layer "
          "(the head that separates them most)")
    print("| task | atoms per state | sharing pairs per state | " +
          " | ".join(f"layer {i + 1}" for i in range(model.n_layers)) + " | uniform |")
    print("|---|--:|--:|" + "--:|" * (model.n_layers + 1))
    try:
        domain = parse_domain(IPC / args.domain / "domain.pddl")
        for spec in args.tasks:
            level, problem_name = spec.split(":")
            problem = parse_problem(IPC / args.domain / "testing" / level / f"{problem_name}.pddl", domain)
            task = ground(domain, problem)
            encoded = encode_task(task, signature, domain)
            states, _ = walk(task, read_plan(args.plans / f"{args.domain}-{level}-{problem_name}.plan"))
            shares, sizes, pairs, uniform = [], [], [], []
            for state in states[:: max(1, len(states) // STATES_PER_TASK)]:
                facts = sorted(state)
                atoms = [task.fluent_atoms[f] for f in facts]
                sources = [i for i, (name, objs) in enumerate(atoms) if name == args.source[0]]
                pairs_of = [(i, j, objs[args.target[1]] == atoms[i][1][args.source[1]])
                            for i in sources for j, (name, objs) in enumerate(atoms) if name == args.target[0]]
                links = [(i, j) for i, j, shared in pairs_of if shared]
                others = [(i, j) for i, j, shared in pairs_of if not shared]
                if not links or not others:
                    continue
                rows = rename(encoded.state_rows(facts), identity_assignment(len(task.objects)), vocab)
                with torch.no_grad():
                    _, attentions, _ = model(*collate([rows], vocab), True)

                def mean_weight(attention: torch.Tensor, chosen: list[tuple[int, int]]) -> torch.Tensor:
                    src, dst = torch.tensor([i for i, _ in chosen]), torch.tensor([j for _, j in chosen])
                    return attention[0][:, src, dst].mean(-1)  # [heads]

                per_layer = []
                for attention in attentions:
                    shared, unshared = mean_weight(attention, links), mean_weight(attention, others)
                    head = int((shared - unshared).argmax())
                    per_layer.append((float(shared[head]), float(unshared[head])))
                shares.append(per_layer)
                sizes.append(len(rows))
                pairs.append(len(links))
                uniform.append(1.0 / len(rows))
            if not shares:
                raise SymtError(f"{spec}: no state has such a pair of atoms")
            mean = np.mean(shares, axis=0)  # [layers, 2]
            print(f"| {level} {problem_name} | {np.mean(sizes):.0f} | {np.mean(pairs):.1f} | " +
                  " | ".join(f"{a:.3f} / {b:.3f}" for a, b in mean) + f" | {np.mean(uniform):.3f} |", flush=True)
    except SymtError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
