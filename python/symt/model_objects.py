"""How SymT-E reads objects: their codes, and the object bias of its attention (which atoms share
an object, and how far apart their objects are in the task's object graph).

* :class:`HashedObjectCodes`: fixed pseudo-random codes of object tokens
  (``ModelConfig.object_identity="hashed"``).

The bias (``ModelConfig.attention_bias``) is free functions of token tensors, scripted with the
models that call them (``symt.model``): they read object tokens only by equality, so renaming a
task's objects changes none of their outputs.

* :func:`shared_objects`, :func:`shared_object_channels`: the ``shared-object`` and ``object-slots``
  channels.
* :func:`object_distances`: a task's *object graph*, whose edges are the atoms of its static
  relations of arity two or more (``ModelConfig.graph_predicates``: ``connected`` cells, roads),
  searched breadth-first from every object at once.
* :func:`distance_channels`: the ``object-distance`` channels of atom pairs in that graph.
* :func:`context_atoms_by_object`, :func:`shared_context_pairs`: the pairs of state and context
  atoms with an object in common (``ModelConfig.context_keys="shared-object"``).
* :func:`context_objects`: one key per object of a task's context, pooled from the context atoms
  that name it (``ModelConfig.context_keys="object-means"``).

Objects as tokens of their own (``symt.model_routed``'s objects attention):

* :class:`Routes`: which object token each argument slot of a batch's atoms is, and the edges
  between atoms and objects.
* :func:`context_links`: the pairs of objects that context atoms relate.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

DISTANCE_CHANNELS = 5
"""The ``object-distance`` bias's channels after the shared-object one: distance 1, 2 and 3 (times
ln n), the capped distance, and no path (:func:`distance_channels`)."""


class HashedObjectCodes(nn.Module):
    """A fixed pseudo-random code in [-sqrt 3, sqrt 3]^dim (unit variance) for every object token.

    Training draws the tokens of a sample's objects at random from ``space`` distinct values, so
    the codes can only tell objects apart, as the paper's random renaming intends, and no table
    bounds the number of objects. Two rounds of a multiply-add modulo the prime 2^31 - 1 with an
    xor-shift between them (int64 arithmetic never overflows: every operand stays below 2^31 and
    every product below 2^62). Tokens ``>= space`` (padding) get the zero vector.
    """

    def __init__(self, dim: int, space: int, seed: int = 0):
        super().__init__()
        self.space = space
        self.prime = 2_147_483_647
        generator = torch.Generator().manual_seed(seed)
        for name, low in (("mul1", 1), ("add1", 0), ("mul2", 1), ("add2", 0)):
            self.register_buffer(name, torch.randint(low, self.prime, (dim,), generator=generator))

    def codes(self, tokens: Tensor) -> Tensor:
        """The codes [..., dim] (float32) of ``tokens`` (int64, any shape), all taken as real tokens."""
        x = (tokens.unsqueeze(-1) * self.mul1 + self.add1) % self.prime
        x = x ^ (x >> 16)
        x = (x * self.mul2 + self.add2) % self.prime
        return (x.to(torch.float32) / self.prime * 2.0 - 1.0) * 1.7320508075688772

    def forward(self, tokens: Tensor) -> Tensor:
        """The codes [..., dim] of ``tokens``; tokens ``>= space`` (padding) get the zero vector."""
        real = tokens < self.space
        safe = torch.where(real, tokens, torch.zeros_like(tokens))
        count = int(safe.max()) + 1 if safe.numel() > 0 else 1
        if count <= safe.numel():
            # Inference: tokens are 0..n-1, so hashing n tokens once and indexing is far cheaper
            # than hashing every argument slot; both give the same codes.
            codes = self.codes(torch.arange(count, device=tokens.device))[safe]
        else:
            codes = self.codes(safe)
        return codes * real.unsqueeze(-1).to(codes.dtype)


def shared_objects(query_args: Tensor, key_args: Tensor, vocab_size: int, slots: bool) -> list[Tensor]:
    """Boolean masks [B,Nq,Nk] of query atoms against key atoms (``query_args`` [B,Nq,m],
    ``key_args`` [B,Nk,m]): first where they have an object token in common, then with ``slots``
    one per pair of argument slots (i, j), where the query's i-th argument is the key's j-th.
    Padding tokens (``>= vocab_size``) match nothing. One comparison per pair of argument slots
    keeps the memory at [B,Nq,Nk] masks (object tokens may be drawn from 2^20 values, too many to
    one-hot)."""
    b, nq, m = query_args.shape
    shared = torch.zeros(b, nq, key_args.shape[1], dtype=torch.bool, device=query_args.device)
    pairs: list[Tensor] = []
    for i in range(m):
        query = query_args[:, :, i]
        query = torch.where(query < vocab_size, query, torch.full_like(query, -1))  # padding: no match
        for j in range(m):
            same = query[:, :, None] == key_args[:, None, :, j]
            shared = shared | same
            if slots:
                pairs.append(same)
    return [shared] + pairs


def shared_object_channels(masks: list[Tensor], log_n: Tensor) -> Tensor:
    """[B,P,Nq,Nk]: the masks of :func:`shared_objects` as channels, each ``log_n`` [B,Nq] of the
    query where it holds and 0 elsewhere (channel 0 ``shared-object``, the rest ``object-slots``)."""
    return torch.stack(masks, dim=1).to(log_n.dtype) * log_n[:, None, :, None]


def object_indices(objects: Tensor, args: Tensor, vocab_size: int) -> Tensor:
    """Each object token of ``args`` as its index in the sorted ``objects`` [O]; O for padding
    and for tokens not among them."""
    o = objects.shape[0]
    if o == 0:
        return torch.zeros_like(args)
    index = torch.searchsorted(objects, args.contiguous()).clamp(max=o - 1)
    found = (args < vocab_size) & (objects[index] == args)
    return torch.where(found, index, torch.full_like(index, o))


def graph_edges(pred: Tensor, args: Tensor, mask: Tensor, is_graph: Tensor, links: Tensor,
                vocab_size: int) -> Tensor:
    """The atoms of graph predicates (``is_graph`` [predicate ids]) among ``pred`` [N], ``args``
    [N,m], ``mask`` [N] as sorted rows [E,1+m] of predicate and object tokens, each slot that its
    predicate does not link (``links`` [predicate ids, m]: ``ModelConfig.graph_slots``) blanked
    to ``vocab_size``, which links nothing: equal for two states exactly when their object graphs
    are (atom order aside)."""
    edges = is_graph[pred] & mask
    kept = args[edges]
    kept = torch.where(links[pred[edges]][:, : kept.shape[1]], kept, torch.full_like(kept, vocab_size))
    rows = torch.cat([pred[edges].unsqueeze(-1), kept], dim=1)
    for column in range(rows.shape[1] - 1, -1, -1):  # a stable sort per column, last first: lexicographic
        rows = rows[torch.sort(rows[:, column], stable=True)[1]]
    return rows


def slot_mask(graph_predicates: list[int] | None, graph_slots: list[list[int]] | None, num_ids: int,
              max_arity: int) -> Tensor:
    """[num_ids, max(1, max_arity)] bool: the argument slots whose objects each graph predicate's
    atoms link (``ModelConfig.graph_slots``; every slot where it is None, as files written
    before it); a ``ValueError`` for slots that do not fit the predicates (a damaged file's config)."""
    mask = torch.ones(num_ids, max(1, max_arity), dtype=torch.bool)
    if graph_slots is None:
        return mask
    if graph_predicates is None or len(graph_slots) != len(graph_predicates):
        raise ValueError("graph slots given for other predicates than the graph's")
    for i, slots in zip(graph_predicates, graph_slots, strict=True):
        if not all(isinstance(k, int) and 0 <= k < max_arity for k in slots):
            raise ValueError(f"graph slots {slots!r} of predicate id {i} are not among the model's "
                             f"0..{max_arity - 1}")
        mask[i] = False
        mask[i, slots] = True
    return mask


def object_distances(edges: Tensor, vocab_size: int, max_distance: int,
                     directed: bool = False) -> tuple[Tensor, Tensor]:
    """A task's object graph from its edges (``edges`` [E,1+m]: the atoms of graph predicates as
    :func:`graph_edges` gives them), which link their objects either way: the object tokens [O]
    (sorted) of the edges and their distances [O,O] (float; inf where no path). An object in no
    edge is at 0 from itself and has no path to any other (:func:`distance_channels`).
    Breadth-first from every object at once, one step per distance from the objects reached at
    the last; a pair further apart than ``max_distance`` reads ``max_distance``. ``directed``
    (``ModelConfig.directed_graph``): an edge leads from an earlier argument to a later one only,
    so ``distances[a, b]`` is the walk from a to b."""
    graph_args = edges[:, 1:]
    objects = torch.unique(graph_args[graph_args < vocab_size])
    o = objects.shape[0]
    local = object_indices(objects, graph_args, vocab_size)  # o for padding: the row and column cut below
    sources: list[Tensor] = []
    targets: list[Tensor] = []
    m = graph_args.shape[1]
    for i in range(m):
        for j in range(m):
            if i < j or (i > j and not directed):
                sources.append(local[:, i])
                targets.append(local[:, j])
    pairs = torch.stack([torch.cat(sources), torch.cat(targets)]) if sources else torch.zeros(
        2, 0, dtype=torch.long, device=edges.device)
    pairs = pairs[:, (pairs < o).all(dim=0)]  # padding slots link nothing
    # Each object's neighbours as a table [O, max degree] (O pads), so that a step looks up the
    # neighbours of the pairs reached at the last distance only: all steps together cost about
    # O^2 times the degree (a 60 x 60 grid of 3,600 cells: 7 s on this CPU, against 73 s for a
    # step along the whole edge list from every object).
    pairs = torch.unique(pairs, dim=1)  # sorted by source, duplicates (both directions given) gone
    source, target = pairs[0], pairs[1]
    degree = torch.bincount(source, minlength=o)
    width = int(degree.max()) if o > 0 and source.numel() > 0 else 0
    first = torch.cumsum(degree, 0) - degree
    neighbours = torch.full((o, width), o, dtype=torch.long, device=edges.device)
    neighbours[source, torch.arange(source.numel(), device=edges.device) - first[source]] = target
    reached = torch.eye(o, dtype=torch.bool, device=edges.device).reshape(-1)  # flat [O*O]
    distances = torch.full((o * o,), float("inf"), device=edges.device).masked_fill(reached, 0.0)
    frontier = torch.arange(o, device=edges.device) * (o + 1)  # flat (start, end) pairs at the last distance
    for step in range(1, o):
        if width == 0 or frontier.numel() == 0:
            break
        ends = neighbours[frontier % o]  # [K, width]
        pairs_reached = (frontier // o).unsqueeze(1) * o + ends
        new = torch.unique(pairs_reached[ends < o])
        new = new[~reached[new]]
        reached[new] = True
        distances[new] = float(min(step, max_distance))
        frontier = new
    distances = distances.reshape(o, o)
    return objects, distances


def distance_channels(objects: Tensor, distances: Tensor, query_args: Tensor, key_args: Tensor,
                      shared: Tensor, log_n: Tensor, vocab_size: int, over_graph: bool = False) -> Tensor:
    """[..., DISTANCE_CHANNELS, Nq, Nk] for the ``object-distance`` bias between query atoms and
    key atoms of one task (``query_args`` [..., Nq, m], ``key_args`` [..., Nk, m], ``log_n``
    [..., Nq]) in its object graph (:func:`object_distances`), ``shared`` [..., Nq, Nk] where
    they have an object in common (:func:`shared_objects`'s first mask): ln n where the least distance
    between their objects is 1, 2, 3; that distance (capped); 1 where no path joins them
    (nullary atoms too). ``over_graph`` (``ModelConfig.distance_over_graph``): the least over the
    objects that are in the graph even where the atoms also share one outside it, which reads 0
    only where they have no path (Sokoban's at(box1 l) against the goal at(box1 g): the walk from
    l to g, not 0 for box1)."""
    o = objects.shape[0]
    padded = torch.full((o + 1, o + 1), float("inf"), device=distances.device)
    padded[:o, :o] = distances
    query = object_indices(objects, query_args, vocab_size)
    key = object_indices(objects, key_args, vocab_size)
    shape = list(query.shape[:-1]) + [key.shape[-2]]
    least = torch.full(shape, float("inf"), device=distances.device)
    for i in range(query.shape[-1]):
        rows = padded[query[..., i]]  # [..., Nq, O+1]
        for j in range(key.shape[-1]):
            least = torch.minimum(least, rows.gather(-1, key[..., j].unsqueeze(-2).expand(shape)))
    # An object outside the graph (none of its atoms cached) is still at 0 from itself.
    least = least.masked_fill(shared & ~torch.isfinite(least) if over_graph else shared, 0.0)
    finite = torch.isfinite(least)
    scale = log_n.unsqueeze(-1)
    near = [(least == float(d)).to(log_n.dtype) * scale for d in (1, 2, 3)]
    capped = torch.where(finite, least, torch.zeros_like(least))
    return torch.stack(near + [capped, (~finite).to(log_n.dtype)], dim=-3)


def context_atoms_by_object(args: Tensor, vocab_size: int) -> tuple[Tensor, Tensor, Tensor]:
    """The context atoms ``args`` [C,m] listed by object (``context_keys`` ``shared-object``):
    the sorted object tokens [O], offsets [O+1] and atom indices [E], object o's atoms
    ``atoms[offsets[o]:offsets[o+1]]`` (each once, however often it names o)."""
    c, m = args.shape
    atom = torch.arange(c, device=args.device).repeat_interleave(m)
    token = args.reshape(-1)
    real = token < vocab_size
    pairs = torch.unique_consecutive(torch.sort(token[real] * max(c, 1) + atom[real])[0])  # by object, then atom
    objects, counts = torch.unique_consecutive(pairs // max(c, 1), return_counts=True)
    offsets = torch.cat([torch.zeros(1, dtype=torch.long, device=args.device), torch.cumsum(counts, 0)])
    return objects, offsets, pairs % max(c, 1)


def shared_context_pairs(by_object: Tensor, offsets: Tensor, atoms: Tensor, num_context: int,
                         args: Tensor, vocab_size: int) -> tuple[Tensor, Tensor]:
    """The pairs of a batch's state atoms (``args`` [B,N,m]) and the cached context atoms
    they share an object with (:func:`context_atoms_by_object`), each pair once: flat query
    indices b*N+i [P] and context atom indices [P], sorted by query."""
    b, n, m = args.shape
    found = object_indices(by_object, args, vocab_size).reshape(-1)  # O: none
    counts = torch.cat([offsets[1:] - offsets[:-1], torch.zeros(1, dtype=offsets.dtype, device=args.device)])
    starts = torch.cat([offsets[:-1], torch.zeros(1, dtype=offsets.dtype, device=args.device)])
    per_slot = counts[found]
    slot = torch.arange(found.numel(), device=args.device).repeat_interleave(per_slot)
    within = torch.arange(slot.numel(), device=args.device) - (torch.cumsum(per_slot, 0) - per_slot)[slot]
    key = atoms[starts[found][slot] + within]
    # A context atom that shares two of a query's objects counts once.
    pairs = torch.unique_consecutive(torch.sort((slot // m) * max(num_context, 1) + key)[0])
    return pairs // max(num_context, 1), pairs % max(num_context, 1)


def context_objects(args: Tensor, context: Tensor, vocab_size: int) -> tuple[Tensor, Tensor]:
    """The objects of a batch's context atoms and how each pools them (``context_keys``
    ``object-means``): ``args`` [B,N,m], ``context`` [B,N] (True at the real context atoms). Returns
    the objects as argument rows [B,O,m] (the object's token in slot 0, padding ``vocab_size``
    elsewhere and in the rows of padding objects) and the pooling weights [B,O,N]: 1/k at each of
    the k context atoms that name the object, 0 elsewhere. The objects stand in the order of their
    first appearance in the atoms, so two renamed copies of a state (whose atoms keep their order)
    have their objects in the same order, which the contrastive loss's attention maps compare
    position by position. O is the most objects one state of the batch has."""
    b, n, m = args.shape
    length = n * m
    tokens = args.reshape(b, length)
    valid = (context[:, :, None] & (args < vocab_size)).reshape(b, length)
    position = torch.arange(length, device=args.device)[None, :].expand(b, length)
    beyond = (vocab_size + 1) * max(length, 1)  # past every valid code (tokens < vocab_size)
    # Sorted by (token, position): the first of each run of one token is its first appearance.
    code = torch.sort(torch.where(valid, tokens * length + position, torch.full_like(tokens, beyond)), dim=1)[0]
    token = code // max(length, 1)
    first = code < beyond
    first = first & torch.cat([torch.ones_like(first[:, :1]), token[:, 1:] != token[:, :-1]], dim=1)
    first_position = torch.where(first, code % max(length, 1), torch.full_like(code, length))
    first_position = torch.sort(first_position, dim=1)[0]  # by appearance; none (= length) last
    num_objects = int(first.sum(dim=1).max()) if b > 0 and length > 0 else 0
    first_position = first_position[:, :num_objects]
    real = first_position < length
    objects = torch.where(real, tokens.gather(1, first_position.clamp(max=max(length - 1, 0))),
                          torch.full_like(first_position, vocab_size))
    names = (args[:, None, :, :] == objects[:, :, None, None]).any(dim=-1)  # [B,O,N]
    names = names & context[:, None, :] & real[:, :, None]
    weights = names.float()
    weights = weights / weights.sum(dim=-1, keepdim=True).clamp(min=1.0)
    rows = torch.full((b, num_objects, m), vocab_size, dtype=args.dtype, device=args.device)
    rows[:, :, 0] = objects
    return rows, weights


class Routes:
    """Which object token each argument slot of a batch's atoms is: the object tokens are the
    distinct (state, object token) pairs of the real atoms' arguments. ``slot_object`` [B,N,m]
    (-1: padding or no argument); the edges (``edge_atom`` into the flattened B*N atoms,
    ``edge_slot``, ``edge_object``); ``object_key`` [O] (state * space + token, sorted),
    ``object_batch`` [O] and ``object_token`` [O]; ``has_context`` [O] (set by the caller);
    ``slot_index``: ``slot_object`` with -1 read as 0 (a row to gather; the slot is masked)."""

    def __init__(self, args: Tensor, mask: Tensor, vocab_size: int):
        b, n, m = args.shape
        space = vocab_size + 1
        real = (args < vocab_size) & mask[:, :, None]
        state = torch.arange(b, device=args.device)[:, None, None].expand(b, n, m)
        keys = state * space + args
        unique = torch.unique(keys[real], sorted=True, return_inverse=True)
        inverse = unique[1]
        self.object_key = unique[0]
        self.object_batch = self.object_key // space
        self.object_token = self.object_key % space
        self.slot_object = torch.full_like(args, -1).masked_scatter(real, inverse)
        self.slot_index = self.slot_object.clamp(min=0)  # a row for every slot; empty ones are masked
        where = real.nonzero()  # [E,3]: state, atom, slot
        self.edge_atom = where[:, 0] * n + where[:, 1]
        self.edge_slot = where[:, 2]
        self.edge_object = inverse
        self.has_context = torch.zeros(self.object_key.shape, dtype=torch.bool, device=args.device)


def context_links(pred: Tensor, args: Tensor, mask: Tensor, vocab_size: int) -> Tensor:
    """The object links of context atoms ``pred`` [B,N], ``args`` [B,N,m] where ``mask``: for every
    atom and every ordered pair of its argument slots (s, t) holding two different objects, a link
    (receiving object's key, sending object's key, type ``(pred·m + s)·m + t``), keys ``state ·
    (vocab_size + 1) + token`` as in :class:`Routes`. [3,L], sorted by the receiving key."""
    b, n, m = args.shape
    space = vocab_size + 1
    real = (args < vocab_size) & mask[:, :, None]
    keys = torch.arange(b, device=args.device)[:, None, None] * space + args
    parts: list[Tensor] = [torch.zeros(3, 0, dtype=torch.long, device=args.device)]
    for s in range(m):
        for t in range(m):
            if s != t:
                linked = real[:, :, s] & real[:, :, t] & (args[:, :, s] != args[:, :, t])
                kind = (pred[linked] * m + s) * m + t
                parts.append(torch.stack([keys[:, :, s][linked], keys[:, :, t][linked], kind]))
    links = torch.cat(parts, dim=1)
    order = torch.sort(links[0], stable=True)[1]
    return links[:, order]

def resolve_links(routes: Routes, context: int, links: Tensor, vocab_size: int) -> Tensor:
    """The context's object links ``links`` [3,L] (:func:`context_links`; keys are tokens for
    ``context`` 1, state · space + token for 2) between objects of a pass (``routes``): [3,L'] of
    (receiving object, sending object, type), objects as rows of ``routes``."""
    if context == 0 or links.shape[1] == 0 or routes.object_key.numel() == 0:
        return torch.zeros(3, 0, dtype=torch.long, device=links.device)
    lookup = routes.object_token if context == 1 else routes.object_key
    start = torch.searchsorted(links[0], lookup)
    counts = torch.searchsorted(links[0], lookup, right=True) - start
    receiving = torch.repeat_interleave(torch.arange(lookup.numel(), device=links.device), counts)
    first = torch.cumsum(counts, dim=0) - counts
    row = start[receiving] + torch.arange(receiving.numel(), device=links.device) - first[receiving]
    sender = links[1][row]
    if context == 1:
        sender = routes.object_batch[receiving] * (vocab_size + 1) + sender
    position = torch.searchsorted(routes.object_key, sender).clamp(max=routes.object_key.numel() - 1)
    present = routes.object_key[position] == sender
    return torch.stack([receiving[present], position[present], links[2][row][present]])


def object_log_keys_of(routes: Routes, links: Tensor, globals_: int, with_context: bool) -> Tensor:
    """ln of the number of keys [O] each object token of a pass attends to (the routed layer's
    ``gather_objects``): its atoms (edges), the objects ``links`` sends it, its context token
    (``with_context``, where it has one) and the ``globals_`` global tokens. Fixed within a pass."""
    o = routes.object_key.shape[0]
    keys = torch.full((o,), float(globals_), device=routes.object_key.device)
    keys = keys.index_add(0, routes.edge_object, torch.ones_like(routes.edge_object, dtype=keys.dtype))
    keys = keys.index_add(0, links[0], torch.ones_like(links[0], dtype=keys.dtype))
    if with_context:
        keys = keys + routes.has_context.to(keys.dtype)
    return keys.log()


def global_log_keys_of(mask: Tensor, globals_: int) -> Tensor:
    """ln of the number of keys [B] a state's global tokens attend to (``gather_globals``): its real
    atoms (``mask`` [B,N]) and ``globals_`` global tokens (its own and the context's)."""
    return (mask.sum(dim=1).float() + globals_).log()
