"""The architecture options of a SymT-E model (and of SymT-ED's encoder): :class:`ModelConfig`,
the choices each option takes and the size presets.

Plain data without torch: the network itself is ``symt.model``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class ModelConfig:
    """The architecture of a SymT-E model (and of SymT-ED's encoder): sizes, object identity and
    the optional context attention and type folding; stored in checkpoints and model metadata."""

    num_predicates: int
    """P: state predicates; goal versions take ids P..2P-1 (and achieved goals 2P..3P-1 with
    ``achieved_goals``)."""
    max_arity: int
    vocab_size: int = 123
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 4
    d_ff: int = 128
    d_embed: int = 32
    dropout: float = 0.0
    k: int = 32
    readout_hidden: int = 64
    layer_norm: bool = False
    target_scale: float = 1.0
    """The network predicts h / target_scale: a better-conditioned target (see notes/cpu-training)."""
    object_identity: str = "table"
    """``table``: a learned embedding per object token (the paper); ``hashed``: fixed random codes."""
    context_predicates: list[int] | None = None
    """Predicate ids (``0..2P-1``) whose atoms are the same in every state of a task
    (``symt.tokens.context_predicate_ids``): those atoms attend only among themselves. None: every
    atom attends to every atom (the paper)."""
    type_predicates: list[int] | None = None
    """The ``type:<t>`` predicate ids (``symt.tokens.type_predicate_ids``) whose atoms are folded
    into their object's embedding instead of being tokens. None: type atoms are tokens (the paper)."""
    scaled_residual_init: bool = False
    """Start the shared layer's two residual output projections (attention output, second
    feed-forward layer) at 1/sqrt(2 n_layers) of PyTorch's default scale, as GPT-2 does: one
    layer applied n_layers times without layer norm compounds its gain, and at the paper's width
    the atom states grew about 9x over 12 applications (1.35x with the scaling); paper-preset
    SymT-ED reached logits of 50,000 and a non-finite loss within 25 steps (issue 34)."""
    attention_scale: str = "fixed"
    """``fixed``: attention logits q·k/sqrt(head_dim) (the paper). ``log-length``: each query's
    logits are also multiplied by s_h · ln(n), n the number of atoms it may attend to and s_h a
    learned factor per head (scalable softmax, Nakanishi 2025; Chiang and Cholak 2022): without
    it a query's share of attention on one matching atom falls as 1/n on tasks with more atoms than
    any training task. Tried on IPC Ferry (``benchmarks/results/ipc/readout/``): with the ``atoms``
    readout, 0.76x the shipped model's expansions, but the plateaus on moves stayed. With
    ``objects`` attention it scales the queries of object and global tokens, n their keys (an
    object's atoms, the global tokens and its context token; a global's atoms and global tokens):
    their keys grow with the task, an atom's (its arguments, itself, the globals) do not."""
    attention_bias: str = "none"
    """``none``: attention reads only the atoms' embeddings (the paper). ``shared-object``: a
    query's logit for every atom that shares an object with it (an argument token in common,
    itself included) gets b_h · ln(n) added, b_h learned per head (starting at 1) and n the atoms
    the query may attend to: with b_h = 1 the atoms it shares objects with keep their share of
    attention however many atoms a task has. The readout study (``benchmarks/results/ipc/readout/``)
    found the relation by a shared object, which moving a vehicle needs, lost on tasks larger
    than the training tasks when it had to come from the object codes' dot products; with this
    bias (and the ``atoms`` readout, ``log-length``) the Ferry and Transport models needed 0.53x
    and 0.23x the shipped models' expansions at 1,500 CPU steps. Learning b_h needs every
    logit's gradient, which doubles a training step on 200-atom states (b_h stayed within
    1.03-1.12 of its start on Ferry). ``object-slots``: ``shared-object`` plus c_h,ij · ln(n) for
    every pair of argument slots where the query's i-th object is the key's j-th (c starts at 0,
    so an untrained model attends as with ``shared-object``): ``shared-object`` reads on(a b) and
    on(b a) alike against the goal on(a b), and a Blocksworld model trained with it built a goal
    tower upside down when the goal did not name its base. ``object-distance``: ``shared-object``
    plus terms of the distance between two atoms' objects in the task's *object graph*, whose
    edges are the static atoms of ``graph_predicates`` (``connected`` cells, roads): per head a
    learned e_h,d · ln(n) for distance d = 1, 2, 3, a learned slope g_h times the distance (capped
    at ``max_distance``; linear in it, as ALiBi's bias is in token distance, so it holds at
    distances no training task had) and a learned u_h for pairs with no path (all start at 0, so
    an untrained model attends as with ``shared-object``). An atom's distance to another is the
    least over their objects; it reads equality of object tokens and the static atoms only, so
    renaming leaves it unchanged. One application of the layer then reaches any distance:
    Visitall's corridors need the distance to the corridor's far ends, which four applications of
    ``shared-object`` (one cell each) do not reach (recipe study, round 25)."""
    context_keys: str = "all"
    """With a context (``context_predicates``): the context atoms a state's atom attends to.
    ``all``: every one. ``shared-object``: only those that share an object with it (an argument
    token in common); a state's atoms still attend to each other, and the context atoms among
    themselves. Its n (``log-length``, the object bias) counts the atoms it attends to. A state's
    pass then costs the pairs of a state atom and a context atom with an object in common, not
    every pair: on IPC Rovers medium p13 134 context atoms a state atom on average, of 3,043 (issue
    65). Only with ``attention_bias`` ``none`` or ``shared-object`` (whose bias every such pair
    has) and ``full`` attention. ``object-means``: instead of the context atoms, one key per object
    that context atoms name, whose key and value at each layer are the mean of those atoms' (the
    context atoms still attend among themselves); its object bias is the object's as an atom
    whose only argument it is. A state's pass then costs its atoms against its atoms and the
    task's objects, not against the context's atoms: IPC Rovers medium p13 has 131 objects and
    3,043 context atoms. Any object bias; ``full`` attention."""
    graph_predicates: list[int] | None = None
    """With ``object-distance``: the predicate ids (``0..P-1``) of the static predicates of arity
    2 or more (``symt.tokens.graph_predicate_ids``), whose atoms link their objects in the object
    graph (in both directions)."""
    graph_slots: list[list[int]] | None = None
    """With ``object-distance``: for each of ``graph_predicates``, the argument slots whose objects
    its atoms link (``symt.tokens.graph_slot_ids``: Sokoban's ``adjacent(?l1 ?l2 ?dir)`` links
    the two cells, not each cell with the direction). None: every slot, as files written before
    this field read their graph."""
    distance_over_graph: bool = False
    """With ``object-distance``: two atoms' distance is the least over their objects in the graph
    even where they also share an object outside it (Sokoban's at(box1 l) against the goal
    at(box1 g) reads the walk from l to g, where an object in common read 0 and hid the one
    distance that matters). ``symt train`` sets it; files written before it read False. Where
    every object of an atom is a graph node (Visitall's cells) both read alike."""
    max_distance: int = 64
    """With ``object-distance``: object-graph distances beyond this many edges read as this many."""
    directed_graph: bool = False
    """With ``object-distance``: each graph atom links its linked objects one way only, from an
    earlier argument to a later one (Spanner's ``link(l1 l2)`` from l1 to l2), and an atom's
    distance to another is the walk from its objects to the other's, inf against the direction: a
    distance then says which of two objects lies ahead. False: both ways (Visitall's ``connected``
    cells, roads)."""
    achieved_goals: bool = False
    """A state's fluent atoms that are goal atoms read as predicate ids ``2P..3P-1``
    (``symt.tokens``: ``Signature.achieved_goals``): one more embedding row per predicate."""
    readout: str = "pooled"
    """``pooled``: the readout MLP reads the sum over atoms of their first ``k`` hidden dimensions
    (the paper). ``atoms``: the MLP reads each atom's and h is the sum of its outputs (a Deep Sets
    readout, per atom then summed), so h is additive over atoms as WL-GOOSE's linear model is over
    feature counts. (With the pooled readout, the value along a good plan on IPC Ferry and Miconic
    tasks larger than any training task fell by 0.67-0.87 per step and not at all on a quarter of
    the steps; ``benchmarks/results/ipc/readout/``.)"""
    zero_readout: bool = False
    """Start the readout's last layer at zero, so that an untrained model predicts h = 0. At the
    paper's size without layer norm the sum over atoms of 768-wide states after 12 applications of
    the layer starts near h = 400 +- 1000 (h* is about 20), and the first hundreds of steps went to
    shrinking it (issue 34's first paper-scale run)."""
    dead_end_head: bool = False
    """A second readout beside h: a logit that the state is a dead end (no plan reaches the goal
    from it), read from the same pooled features and trained with a binary cross-entropy on the
    dead ends of exhaustively expanded tasks (``symt train --dead-end-head``). An exported model
    returns h = +inf where the probability exceeds ``dead_end_threshold``, which the plugin reports
    to Fast Downward as a dead end, so that the search prunes the state. Apart from h because a
    value that stands for "dead end" has to lie above every live value, and live values on tasks
    larger than any training task lie above every value a training task has (Spanner:
    ``benchmarks/results/training/ipc_models.md``, dead-end head section)."""
    dead_end_threshold: float = 0.5
    """The probability above which an exported model with a dead-end head returns +inf."""
    dead_end_linear: bool = False
    """The dead-end head is one linear layer instead of an MLP: its logit is then a sum of each
    atom's share plus a constant, a weighed count that holds at any number of atoms (Spanner's dead
    ends: fewer usable spanners within reach than loose nuts). The MLP's logit on the pooled sum
    grew with the atoms, so that tasks three to ten times larger than any training task read dead
    from their initial state (``benchmarks/results/training/ipc_models.md``, dead-end head section)."""
    dead_end_count: bool = False
    """The dead-end head is one linear layer without a constant on the sum of the state's own atoms
    (the fluents; the task's context atoms, which grow with the task, take no part): its logit is a
    pure weighed count, "dead" where it is positive. Spanner's dead ends are such a count (more
    loose nuts than usable spanners within reach); the linear head's constant marked the initial
    state of the smallest track task dead, and its share of the static atoms grew with the task.
    Needs context attention (which tells the fluents from the context)."""
    recall: bool = False
    """Let the shared layer run any number of times (``symt export --layers``): every application
    reads its state plus the atom embeddings (input injection, the "recall" of Bansal et al.
    2022's deep-thinking networks) and its output is layer-normalised, so the states keep their
    scale however often the layer runs. Trained with a depth drawn per step
    (``TrainConfig.train_layers``), so that no one depth is the one the readout expects. Without it
    the plain SymT-E's states drift with depth: applied 6 or 8 times instead of 4, a Visitall model
    solved 5 and 3 of 30 validation tasks instead of 26 (recipe study, round 22). Measured on
    Visitall's corridors (round 25): with a drawn depth the values stop depending on the depth,
    but the layer settles on a function that sees no further when run longer; no shipped model
    uses it."""

    attention: str = "full"
    """``full``: every atom attends to every atom (the paper), a cost per state that grows with the
    square of its atoms. ``objects``: atoms exchange information only through one token per object
    and ``global_tokens`` global tokens (``symt.model_routed``), a cost linear in the atoms, with the
    context (``context_predicates``) encoded once per task (issue 65)."""
    global_tokens: int = 4
    """With ``objects`` attention: the global tokens, which read every atom and are read by every
    atom and object. 0: a local model, whose tokens read only what lies within ``n_layers`` steps
    of them, so that a state's value can be computed from its parent's (``symt.model_local``)."""
    object_links: bool = False
    """With ``objects`` attention and a context: in a state's pass every object token also attends
    to the object tokens of the state's other objects it shares a context atom with (``connected``
    cells, a package and its goal location), the key and value offset by that atom's predicate and
    the two argument slots. Without it a state's objects exchange information only through the
    global tokens, since the relations between them are in the cached context. Cost per state: the
    context atoms among the state's objects, still linear in the state. Measured on Visitall (2,000
    steps; ``benchmarks/results/speed/scaling/``): the greedy failures stayed
    (``benchmarks/results/paper/guidance-failures/``) and GBFS expanded 1.65x as many states."""

    def to_dict(self) -> dict:
        """The fields as a plain dict (``ModelConfig(**d)`` rebuilds the config)."""
        return asdict(self)


OBJECT_IDENTITIES = ("table", "hashed")
"""The values of :attr:`ModelConfig.object_identity`."""
ATTENTION_SCALES = ("fixed", "log-length")
"""The values of :attr:`ModelConfig.attention_scale`."""
ATTENTION_BIASES = ("none", "shared-object", "object-slots", "object-distance")
"""The values of :attr:`ModelConfig.attention_bias`."""
LOG_LENGTH_REFERENCE = 64
"""``log-length`` attention starts as ``fixed`` for a query over this many atoms (s_h = 1/ln 64)."""
CONTEXT_KEYS = ("all", "shared-object", "object-means")
"""The values of :attr:`ModelConfig.context_keys`."""
ATTENTIONS = ("full", "objects")
"""The values of :attr:`ModelConfig.attention`."""
READOUTS = ("pooled", "atoms")
"""The values of :attr:`ModelConfig.readout`."""

PRESETS: dict[str, dict] = {
    # The paper's size (about 7M parameters): for a GPU.
    "paper": dict(d_model=768, n_heads=12, n_layers=12, d_ff=3072, d_embed=128, dropout=0.1,
                  readout_hidden=256, zero_readout=True, scaled_residual_init=True),
    # Trains to a useful heuristic on 2 CPU cores within minutes (cpu-training notes: 64/4/4).
    "small": dict(d_model=64, n_heads=4, n_layers=4, d_ff=128, d_embed=32, dropout=0.0,
                  readout_hidden=64),
    # Twice the depth and width of "small", for longer CPU runs.
    "medium": dict(d_model=128, n_heads=4, n_layers=6, d_ff=256, d_embed=48, dropout=0.0,
                   readout_hidden=128),
}
"""Model sizes by name (``symt train --preset``): :class:`ModelConfig` fields."""
