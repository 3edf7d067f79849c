"""The objects attention against a reference written token by token from the module's docstring
(``symt.model_routed``): each object token attends to the atoms it is an argument of (keys and
values offset by its slot there), to its context token and to its state's global tokens and the
objects linked to it; each atom to its arguments' object tokens, itself and the global tokens;
each global token to every atom, the global tokens and the context's global tokens. The reference
loops over tokens and heads with one explicit softmax per query, so it shares no gather, scatter
or segment-softmax code with the model: a faster implementation of the layer must still match it."""

from __future__ import annotations

import math

import pytest
import torch
from torch import Tensor

from symt.model_routed import RoutedSymTE, context_links
from test_model_routed import batch, model

V = 64  # the test models' vocabulary: token 64 is "no argument"


def attend(layer, query: Tensor, keys: list[Tensor], values: list[Tensor], scale: Tensor | None) -> Tensor:
    """One query token's attention [d] over ``keys``/``values`` (each [d]), head by head."""
    h, hd = layer.n_heads, layer.head_dim
    q = query.view(h, hd)
    out = []
    for head in range(h):
        qh = q[head] * (scale[head] if scale is not None else 1.0)
        scores = torch.stack([qh @ k.view(h, hd)[head] for k in keys]) / math.sqrt(hd)
        weights = torch.softmax(scores, dim=0)
        out.append(sum(w * v.view(h, hd)[head] for w, v in zip(weights, values)))
    return torch.cat(out)


def qkv(linear, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    return linear(x).split(x.shape[-1], dim=-1)


def reference_run(net: RoutedSymTE, pred: Tensor, args: Tensor, context: dict | None,
                  links: list[tuple[int, int, int]]) -> tuple[Tensor, dict]:
    """One state's pass (atoms ``pred`` [N], ``args`` [N,m], all real) as the docstring says;
    ``context``: the context pass's per-layer object keys/values by token and global keys/values
    (None: this is the context pass). ``links``: (receiving token, sending token, type). Returns
    the atoms' final states [N,d] and what a state pass reads of this pass."""
    layer, m = net.layer, args.shape[1]
    slot_in, slot_out = layer.slot_in, layer.slot_out
    tokens = sorted({int(t) for t in args.flatten() if int(t) < V})
    x = net.embed(pred[None], args[None])[0]
    y = {t: net.object_projection(net.object_embedding(torch.tensor([t])))[0] for t in tokens}
    z = net.global_start[0 if context is None else 1][: net.global_tokens].clone()
    n, g = pred.shape[0], z.shape[0]
    ctx_globals = context["globals"] if context else None
    log_length = layer.log_length
    saved: dict = {"objects": [], "globals": []}
    for step in range(net.n_layers):
        qa, ka, va = qkv(layer.atom_qkv, x)
        qo = {t: qkv(layer.object_qkv, y[t]) for t in tokens}
        qg, kg, vg = qkv(layer.global_qkv, z)
        saved["objects"].append({t: (qo[t][1], qo[t][2]) for t in tokens})
        saved["globals"].append((kg, vg))
        # Objects: their atoms (slot offsets), their context token, the globals, linked objects.
        new_y = {}
        for t in tokens:
            keys, values = [], []
            for a in range(n):
                for s in range(m):
                    if int(args[a, s]) == t:
                        keys.append(ka[a] + slot_in[0, s])
                        values.append(va[a] + slot_in[1, s])
            if context is not None and t in context["objects"][step]:
                keys.append(context["objects"][step][t][0])
                values.append(context["objects"][step][t][1])
            keys += list(kg)
            values += list(vg)
            for receiving, sending, kind in links:
                if receiving == t and sending in qo:
                    keys.append(qo[sending][1] + layer.link_offsets[0, kind])
                    values.append(qo[sending][2] + layer.link_offsets[1, kind])
            scale = layer.object_length_scale * math.log(len(keys)) if log_length else None
            mixed = attend(layer, qo[t][0], keys, values, scale)
            out = y[t] + layer.object_out(mixed)
            new_y[t] = out + layer.object_ff(out)
        y = new_y
        qo = {t: qkv(layer.object_qkv, y[t]) for t in tokens}
        # Atoms: their arguments' objects (slot offsets), themselves, the globals.
        new_x = []
        for a in range(n):
            keys, values = [], []
            for s in range(m):
                t = int(args[a, s])
                if t < V:
                    keys.append(qo[t][1] + slot_out[0, s])
                    values.append(qo[t][2] + slot_out[1, s])
            keys += [ka[a], *kg]
            values += [va[a], *vg]
            out = x[a] + layer.atom_out(attend(layer, qa[a], keys, values, None))
            new_x.append(out + layer.atom_ff(out))
        x = torch.stack(new_x)
        if step + 1 == net.n_layers:
            break
        qa, ka, va = qkv(layer.atom_qkv, x)
        # Globals: every atom, the globals, the context's globals.
        keys, values = list(ka) + list(kg), list(va) + list(vg)
        if ctx_globals is not None:
            keys += list(ctx_globals[step][0])
            values += list(ctx_globals[step][1])
        new_z = []
        for i in range(g):
            scale = layer.global_length_scale * math.log(len(keys)) if log_length else None
            out = z[i] + layer.global_out(attend(layer, qg[i], keys, values, scale))
            new_z.append(out + layer.global_ff(out))
        z = torch.stack(new_z) if new_z else z
    return x, saved


def reference_value(net: RoutedSymTE, pred: Tensor, args: Tensor) -> float:
    """h of one state (all atoms real): the context pass, then the state pass against it."""
    context = net.is_context[pred]
    x_c, saved = reference_run(net, pred[context], args[context], None, [])
    links = []
    if net.object_links:
        kinds = context_links(pred[context][None], args[context][None],
                              torch.ones(1, int(context.sum()), dtype=torch.bool), V)
        links = [(int(r), int(s), int(k)) for r, s, k in kinds.t().tolist()]
    x_s, _ = reference_run(net, pred[~context], args[~context], saved, links)
    x = torch.zeros(pred.shape[0], x_c.shape[1] if x_c.numel() else x_s.shape[1])
    x[context], x[~context] = x_c, x_s
    return float(net.pool_and_read_out(x[None], torch.ones(1, pred.shape[0], dtype=torch.bool), None)[0])


@pytest.mark.parametrize("options", [{}, {"attention_scale": "log-length"}, {"object_links": True},
                                     {"object_links": True, "attention_scale": "log-length", "readout": "atoms"},
                                     {"object_links": True, "global_tokens": 0, "attention_scale": "log-length"}])
def test_the_layer_computes_what_the_token_by_token_reference_does(options: dict) -> None:
    net = model(seed=21, **options)
    pred, args, mask = batch(22)
    with torch.no_grad():
        # Offsets of the size the other weights have (they start at 0.02): each must matter here.
        for offsets in (net.layer.slot_in, net.layer.slot_out, net.layer.link_offsets):
            offsets.normal_(generator=torch.Generator().manual_seed(23))
        h, _, _ = net(pred, args, mask)
        expected = [reference_value(net, pred[b][mask[b]], args[b][mask[b]]) for b in range(pred.shape[0])]
    assert h.tolist() == pytest.approx(expected, abs=1e-4)
    assert len(set(round(v, 3) for v in expected)) == len(expected)  # three different states, three values
    # Both passes ran: the batch has context atoms (CONTEXT's predicates) and fluent ones.
    assert net.is_context[pred[mask]].any() and not net.is_context[pred[mask]].all()
