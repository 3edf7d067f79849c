"""An untrained SymT-E with objects attention shaped like a shipped model, for timing only.

The cost of a forward pass does not depend on the weights, and ``bench_scaling.py`` ignores the
values (every search expands the same states), so an untrained model of the candidate's shape
times what the trained one would. This writes one with the width, depth, object identity, readout
and achieved-goal tokens of ``--like`` (a shipped model's name), objects attention and the context
cached once per task (``--context-attention``). Options the objects attention refuses (attention
bias and scale, type folding) are dropped.

Usage: python benchmarks/speed/untrained_objects_model.py --like ipc2023-ferry \
           --domain ../shared/benchmarks/ipc2023-learning/ferry/domain.pddl OUT.pt
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import torch

from symt.export import export, load_exported
from symt.model_config import ModelConfig
from symt.model_routed import heuristic_model
from symt.models import shipped
from symt.pddl import parse_domain
from symt.tokens import Signature, context_predicate_ids, domain_signature

KEPT = ("d_model", "n_heads", "n_layers", "d_ff", "d_embed", "k", "readout_hidden", "object_identity",
        "readout", "achieved_goals", "target_scale", "num_predicates", "max_arity")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--like", required=True, help="a shipped heuristic model's name (symt models)")
    parser.add_argument("--domain", type=Path, required=True, help="the model's domain file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    _, meta = load_exported(shipped()[args.like])
    domain = parse_domain(args.domain)
    signature = domain_signature(domain)
    if signature.to_json()["predicates"] != meta["predicates"]:
        raise SystemExit(f"{args.domain}: not the domain of {args.like} (other predicates)")
    signature = Signature.from_json(meta)
    with tempfile.TemporaryDirectory() as tmp:
        options = {key: meta["model"][key] for key in KEPT if key in meta["model"]}
        config = ModelConfig(**options, vocab_size=int(meta["vocab_size"]), attention="objects",
                             context_predicates=context_predicate_ids(signature, domain, goals=True))
        torch.manual_seed(args.seed)
        model = heuristic_model(config)
        checkpoint = Path(tmp) / "untrained.pt"
        torch.save({"model_config": config.to_dict(), "model": model.state_dict(),
                    "signature": signature.to_json()}, checkpoint)
        export(checkpoint, args.out)
    print(f"wrote {args.out}: untrained, objects attention, shaped like {args.like} "
          f"({config.d_model} wide, {config.n_layers} layers, {config.object_identity} objects)")


if __name__ == "__main__":
    main()
