"""Untrained SymT-E models written by symt's own exporter, for tests that need a model file of a
given shape (the plugin against Python, the default-model rule) but not a trained one."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch

from symt.export import export
from symt.generators import domain_file
from symt.model_config import ModelConfig
from symt.model_routed import heuristic_model
from symt.pddl import parse_domain
from symt.tokens import (
    context_predicate_ids,
    domain_signature,
    graph_predicate_ids,
    type_predicate_ids,
)


def random_model(domain: str | Path, out: Path, vocab_size: int = 40, seed: int = 0,
                 context: bool | str = False, fold_types: bool = False, readout: str = "pooled",
                 attention_scale: str = "fixed", attention_bias: str = "none",
                 object_identity: str = "table", achieved_goals: bool = False, keep_domain: bool = False,
                 attention: str = "full", object_links: bool = False, context_keys: str = "all",
                 global_tokens: int = 4, left_out: tuple[str, ...] = (),
                 dead_end_bias: float | None = None) -> Path:
    """An untrained SymT-E for ``domain`` (a paper domain's name or a domain file), exported by
    symt's own exporter (weights do not matter for these tests, only that plugin and Python
    compute the same function). ``context``: static, type and goal atoms attend only among
    themselves, and the plugin caches them; ``"static"``: static and type atoms only (the goal
    atoms are read with each state). ``fold_types``: type atoms are folded into their
    objects (format 5). ``readout``, ``attention_scale``, ``attention_bias``, ``object_identity``,
    ``attention`` (``objects``: ``symt.model_routed``), ``object_links``, ``context_keys``, ``global_tokens``: as ``ModelConfig``'s. ``achieved_goals``: state atoms that are goals read as their own predicate
    (format 6). ``keep_domain``: the checkpoint keeps the domain's text, as ``symt train`` writes
    it, so the exported model says its domain (``symt.models.fit_model``). ``left_out``: exported
    methods the file leaves out (``symt.export.export``). ``dead_end_bias``: the model has a dead-end
    head whose output is this constant logit (its last layer's weights zeroed), so that it fires
    on every state (> 0) or on none (< 0)."""
    torch.manual_seed(seed)
    parsed = parse_domain(domain_file(domain) if isinstance(domain, str) else domain)
    signature = dataclasses.replace(domain_signature(parsed), achieved_goals=achieved_goals)
    config = ModelConfig(num_predicates=signature.num_predicates, max_arity=signature.max_arity,
                         vocab_size=vocab_size, d_model=32, n_heads=4, n_layers=2, d_ff=64,
                         d_embed=16, k=16, readout_hidden=32, target_scale=10.0,
                         context_predicates=(context_predicate_ids(signature, parsed, goals=context != "static")
                                             if context else None),
                         type_predicates=type_predicate_ids(signature) if fold_types else None,
                         graph_predicates=graph_predicate_ids(signature, parsed, attention_bias),
                         readout=readout, attention_scale=attention_scale, attention_bias=attention_bias,
                         object_identity=object_identity, achieved_goals=achieved_goals, attention=attention,
                         object_links=object_links, context_keys=context_keys, global_tokens=global_tokens,
                         dead_end_head=dead_end_bias is not None)
    model = heuristic_model(config)
    if dead_end_bias is not None:
        with torch.no_grad():
            model.dead_end[-1].weight.zero_()
            model.dead_end[-1].bias.fill_(dead_end_bias)
    if attention_bias == "object-slots":  # starts at zero, which would hide the slots' channels
        with torch.no_grad():
            model.layer.slot_bias.normal_()
    if attention_bias == "object-distance":  # as the slots above
        with torch.no_grad():
            model.layer.distance_bias.normal_()
    checkpoint = out.with_suffix(".ckpt")
    domain_path = domain_file(domain) if isinstance(domain, str) else Path(domain)
    torch.save({"model_config": config.to_dict(), "model": model.state_dict(), "signature": signature.to_json(),
                **({"domain_pddl": domain_path.read_text()} if keep_domain else {})}, checkpoint)
    export(checkpoint, out, left_out=left_out)
    return out
