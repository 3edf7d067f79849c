"""TorchScript export: the model file that Fast Downward's ``symt()`` heuristic loads.

Contract, format version 3 (also read by ``fd_plugin/``; version 1 and 2 files load the same way):

* a TorchScript archive (``torch.jit.save``) whose ``forward(pred, args, mask)`` takes
  ``pred`` int64 [B, N] (predicate ids: ``0..P-1`` state atoms, ``P..2P-1`` goal atoms),
  ``args`` int64 [B, N, m] (object tokens ``0..V-1``; ``V`` pads unused argument slots and padded
  atoms), ``mask`` bool [B, N] (True for real atoms), and returns float32 [B]: the estimated
  goal distance of each of the B states. Atom order does not matter.
* an extra file ``symt.json`` in the archive: ``format`` ("symt-heuristic"), ``format_version``,
  ``domain``, ``predicates`` ([{name, arity}] in id order), ``max_arity`` (m), ``vocab_size`` (V),
  ``model`` (the architecture) and ``training`` (where it came from).
* version 2 adds ``model.object_identity``: ``table`` (V learned object embeddings, as in version
  1) or ``hashed`` (fixed random codes, V = 2^20 just bounds the objects of a task); the inputs
  are the same, so readers of version 2 read version 1 unchanged.
* version 3 adds typed attributes to the module (``symt.formats.module_attributes``: format,
  version, domain, predicate names and arities, ``max_arity``, ``vocab_size``), which the plugin
  reads through libtorch; the inputs are again unchanged.
* version 4 adds the attribute ``symt_context_cache``. When it is 1 (a model trained with
  ``--context-attention``), static, type and goal atoms attend only among themselves, and the
  module has two more methods: ``encode_context(pred [C], args [C, m])`` returns the task's
  cache (keys and values of those C atoms at every layer, each [L, heads, C, head_dim], and their
  share of the readout's sum: [k] pooled features, or [1] for the ``atoms`` readout), and
  ``forward_states(keys, values, pooled, pred, args, mask)`` returns h [B] of states given by their fluent atoms only. ``forward`` on all atoms gives the
  same values, so readers of version 3 run version 4 unchanged.
* version 5: ``encode_context`` returns a fourth tensor, the table [V', d_embed] of folded type
  embeddings (``symt train --fold-types``: a model whose ``type:<t>`` atoms are added to their
  object's embedding instead of being tokens; one zero row otherwise), and ``forward_states``
  takes it after ``pooled``: ``forward_states(keys, values, pooled, type_table, pred, args,
  mask)``. A reader passes ``encode_context``'s tensors, however many, before the state's, so it
  runs versions 4 and 5 alike. The inputs of ``forward`` are unchanged: a type-folding model still
  receives its type atoms and folds them itself.
  Files exported since the shared-object attention bias (``symt train --attention-bias``) return a
  fifth tensor, the cached atoms' object tokens [C', m], taken after the type table
  (``forward_states(keys, values, pooled, type_table, context_args, pred, args, mask)``): still
  version 5, as a reader that passes the cache whole runs them unchanged. Files exported since
  the object-distance bias (``symt train --attention-bias object-distance``) return two more,
  the task's object-graph tokens [O] and their distances [O, O] (empty for other models), taken
  after the cached atoms' object tokens: version 5 still, for the same reason. Files exported
  since sparse context keys (``symt train --context-keys shared-object``) return three more, the
  cached atoms listed by object (object tokens [O], offsets [O+1], atoms [E]; empty for other
  models), taken after the distances: version 5 still. A model with object-mean context keys (``symt train --context-keys
  object-means``) returns the same tensors with its context's objects in place of its atoms (keys
  and values [L, heads, O, head_dim], object rows [O, m]): version 5 still.
  ``symt_context_cache`` 2 (``symt train --context-attention static``; still version 5): only the
  static and type atoms are cached; ``forward_states`` takes each state's fluent atoms *and the
  task's goal atoms* (predicate ids P..2P-1), which attend to the state. A reader that knows only
  0 and 1 must refuse it.
* version 6 (only for models trained with ``symt train --achieved-goals``; others stay version 5):
  ``symt.json`` has ``achieved_goals: true`` and the module the attribute ``symt_achieved_goals``
  = 1; a state's fluent atom that is also a goal atom of the task takes the predicate id
  ``2P + p`` instead of ``p`` (``symt.tokens``), in ``forward`` and ``forward_states`` alike. The
  task context and the cache are unchanged.

A state's atoms are its true fluent atoms, every static atom (and ``type:<t>`` atoms for typed
domains) and every goal atom as ``goal_<p>`` (``symt.tokens``).
"""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import torch
from torch import Tensor, nn

from .errors import SymtError
from .formats import (
    ACHIEVED_GOALS_FORMAT_VERSION,
    DOMAIN_PDDL_KEY,
    FORMAT,
    FORMAT_VERSION,
    META_FILE,
    check_model_archive,
    check_model_meta,
    load_plain,
    module_attributes,
)
from .model import SymTE
from .model_config import ModelConfig
from .model_routed import RoutedSymTE, heuristic_model


def load_checkpoint_model(checkpoint_path: str | Path) -> tuple[SymTE, dict]:
    """The SymT-E model of a training checkpoint (``best.pt``/``last.pt``), on the CPU in eval mode,
    and the checkpoint dict itself. A folder, an exported heuristic, a plan generator or any other
    file is refused with a :class:`~symt.errors.SymtError` saying what it is."""
    from .formats import model_file_kind

    path = Path(checkpoint_path)
    if path.is_dir():
        inside = [name for name in ("best.pt", "last.pt") if (path / name).is_file()]
        hint = f"; give {path / inside[0]}" if inside else " and holds no best.pt or last.pt"
        raise SymtError(f"{path}: a folder, not a checkpoint{hint}")
    if not path.is_file():
        raise SymtError(f"{path}: checkpoint not found")
    kind = model_file_kind(path)
    if kind == "heuristic":
        raise SymtError(f"{path}: an exported heuristic already; symt export takes a training "
                        "run's best.pt or last.pt")
    if kind == "planner":
        raise SymtError(f"{path}: a plan-generation model (SymT-ED or PlanGPT), used as it is "
                        "(symt plan --strategy greedy); symt export takes a SymT-E training checkpoint")
    if kind != "checkpoint":
        raise SymtError(f"{path}: not a symt training checkpoint")
    checkpoint = load_plain(path, "checkpoint")
    if not isinstance(checkpoint, dict) or "model_config" not in checkpoint:
        raise SymtError(f"{path}: not a symt training checkpoint")
    try:
        model = heuristic_model(ModelConfig(**checkpoint["model_config"]))
        model.load_state_dict(checkpoint["model"])
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        # A file from someone else: its config and weights are data to check, not to trust.
        raise SymtError(f"{path}: damaged checkpoint ({str(error).splitlines()[0]})") from None
    model.eval()
    return model, checkpoint


def model_meta(model: SymTE, checkpoint: dict) -> dict:
    """The ``symt.json`` metadata of the exported ``model``: format and version, the domain
    signature, ``vocab_size``, the architecture and facts about its training from ``checkpoint``."""
    signature = checkpoint["signature"]
    train = checkpoint.get("train_config", {})
    history = checkpoint.get("trainer", {}).get("history", [])
    achieved_goals = bool(signature.get("achieved_goals", False))
    return {
        "format": FORMAT,
        "format_version": ACHIEVED_GOALS_FORMAT_VERSION if achieved_goals else FORMAT_VERSION,
        "domain": signature["domain"],
        "predicates": signature["predicates"],
        "max_arity": signature["max_arity"],
        **({"achieved_goals": True} if achieved_goals else {}),
        "vocab_size": model.config.vocab_size,
        **({DOMAIN_PDDL_KEY: checkpoint["domain_pddl"]} if isinstance(checkpoint.get("domain_pddl"), str) else {}),
        "model": model.config.to_dict(),
        "training": {
            "preset": train.get("preset"),
            "seed": train.get("seed"),
            "steps": checkpoint.get("trainer", {}).get("step"),
            "rename": train.get("rename"),
            "contrastive": train.get("contrastive"),
            "last_epoch": history[-1] if history else None,
        },
    }


class ExportedSymTE(nn.Module):
    """The inference-only module written to TorchScript: ``forward(pred, args, mask) -> h [B]``."""

    def __init__(self, model: SymTE, attributes: dict[str, object] | None = None):
        super().__init__()
        self.model = model
        # Metadata as typed module attributes (str, int, List[str], List[int]): libtorch reads
        # them without parsing anything (symt.formats.module_attributes).
        for name, value in (attributes or {}).items():
            setattr(self, name, value)

    def forward(self, pred: Tensor, args: Tensor, mask: Tensor) -> Tensor:
        """h [B] of the states given by ``pred`` [B,N], ``args`` [B,N,m] and ``mask`` [B,N]."""
        h, _, _ = self.model(pred, args, mask, False)
        return h


class ExportedContextSymTE(ExportedSymTE):
    """A context-attention model's module: ``forward`` as above, plus the per-task cache
    (``encode_context``) and the per-state pass against it (``forward_states``) that the plugin
    calls instead of ``forward``."""

    @torch.jit.export
    def encode_context(self, pred: Tensor, args: Tensor
                       ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
        """The task's context cache (:meth:`SymTE.encode_context`); raises ``ValueError`` when an
        atom is not of a context predicate."""
        if not bool(self.model.is_context[pred].all()):
            raise ValueError("encode_context: an atom of the context is not of a context predicate")
        return self.model.encode_context(pred, args)

    @torch.jit.export
    def forward_states(
        self, keys: Tensor, values: Tensor, pooled_context: Tensor, type_table: Tensor,
        context_args: Tensor, objects: Tensor, distances: Tensor, by_object: Tensor, offsets: Tensor,
        atoms: Tensor, pred: Tensor, args: Tensor, mask: Tensor,
    ) -> Tensor:
        """h [B] of states given by their fluent atoms against the context cache
        (:meth:`SymTE.forward_states`)."""
        return self.model.forward_states(keys, values, pooled_context, type_table, context_args,
                                         objects, distances, by_object, offsets, atoms, pred, args, mask)


class ExportedRoutedSymTE(ExportedSymTE):
    """An objects-attention model's module (``symt.model_routed``): ``forward`` as above, plus
    its own per-task cache (``encode_context``: five tensors) and per-state pass
    (``forward_states``), which the plugin calls as any context model's, passing the cache whole."""

    @torch.jit.export
    def encode_context(self, pred: Tensor, args: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """The task's context cache (:meth:`RoutedSymTE.encode_context`); raises ``ValueError``
        when an atom is not of a context predicate."""
        if not bool(self.model.is_context[pred].all()):
            raise ValueError("encode_context: an atom of the context is not of a context predicate")
        return self.model.encode_context(pred, args)

    @torch.jit.export
    def forward_states(self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor,
                       share: Tensor, links: Tensor, pred: Tensor, args: Tensor, mask: Tensor) -> Tensor:
        """h [B] of states given by their fluent atoms (:meth:`RoutedSymTE.forward_states`)."""
        return self.model.forward_states(context_keys, context_objects, context_globals, share, links,
                                         pred, args, mask)

    @torch.jit.export
    def atom_terms(self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor,
                   links: Tensor, pred: Tensor, args: Tensor, mask: Tensor) -> Tensor:
        """Each fluent atom's term [B,N,t] of the readout's sum (:meth:`RoutedSymTE.atom_terms`):
        with a local model (``symt_local_hops`` > 0) a state's value is summed from its atoms'
        terms, so only the terms near a change need a pass (``symt.model_local``)."""
        x = self.model.state_pass(context_keys, context_objects, context_globals, links, pred, args, mask)
        return self.model.atom_terms(x, mask)

    @torch.jit.export
    def layer_terms(self, context_keys: Tensor, context_objects: Tensor, context_globals: Tensor,
                    links: Tensor, pred: Tensor, args: Tensor, mask: Tensor, parent_atoms: Tensor,
                    keep_atoms: Tensor, parent_objects: Tensor,
                    keep_objects: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """A local model's terms with every layer's token states (:meth:`RoutedSymTE.layer_terms`);
        the tokens ``keep_atoms`` [L,B,N] and ``keep_objects`` [L,O] mark take the parent's states
        ``parent_atoms`` [L,B,N,d] and ``parent_objects`` [L,O,d] after each layer (L = 0: none)."""
        parent: list[Tensor] = []
        if parent_atoms.shape[0] > 0:
            parent = [parent_atoms, keep_atoms, parent_objects, keep_objects]
        return self.model.layer_terms(context_keys, context_objects, context_globals, links, pred, args, mask,
                                      parent)

    @torch.jit.export
    def local_weights(self) -> dict[str, Tensor]:
        """A local model's weights by name (:meth:`RoutedSymTE.local_weights`): the plugin's own
        pass computes ``layer_terms`` with them (``cpp/src/local_net.cc``)."""
        return self.model.local_weights()

    @torch.jit.export
    def atom_starts(self, pred: Tensor, args: Tensor) -> Tensor:
        """Atoms' states before the first layer [R,d] (:meth:`RoutedSymTE.atom_starts`)."""
        return self.model.atom_starts(pred, args)

    @torch.jit.export
    def object_starts(self, tokens: Tensor) -> Tensor:
        """Object tokens' states before the first layer [T,d] (:meth:`RoutedSymTE.object_starts`)."""
        return self.model.object_starts(tokens)

    @torch.jit.export
    def value_of_terms(self, total: Tensor, share: Tensor) -> Tensor:
        """h [B] of states whose atoms' terms sum to ``total`` [B,t] (:meth:`RoutedSymTE.value_of_terms`)."""
        return self.model.value_of_terms(total, share)


def export(checkpoint_path: str | Path, out_path: str | Path, layers: int | None = None,
           left_out: tuple[str, ...] = ()) -> dict:
    """Script the checkpoint's model and write it with its metadata; returns the metadata.

    ``layers`` applies the shared layer that many times at inference instead of the trained number
    (the weights are shared, so any depth runs; deeper can help on tasks larger than any seen).
    ``left_out``: methods not to keep, writing a file as an earlier symt did (the plugin's tests
    of files without ``layer_terms``).
    """
    model, checkpoint = load_checkpoint_model(checkpoint_path)
    meta = model_meta(model, checkpoint)
    if layers is not None:
        if layers < 1:
            raise SymtError(f"--layers must be at least 1 (got {layers})")
        meta["training"]["n_layers"] = model.n_layers
        model.n_layers = layers
        meta["model"]["n_layers"] = layers
    with warnings.catch_warnings():
        # TorchScript is deprecated in favour of torch.export, but it is what libtorch loads
        # from C++ without a compiler toolchain at run time: the Fast Downward plugin needs it.
        warnings.simplefilter("ignore", DeprecationWarning)
        attributes = module_attributes(meta)
        kind = ExportedContextSymTE if model.context_attention else ExportedSymTE
        if isinstance(model, RoutedSymTE):
            kind = ExportedRoutedSymTE if model.context_attention else ExportedSymTE
        # A dead-end head's verdict reaches Fast Downward as h = +inf (ModelConfig.dead_end_head).
        model.marks_dead_ends = model.has_dead_end_head
        exported = kind(model, attributes).eval()
        # Freezing inlines every attribute forward() does not read and drops other methods: keep
        # the metadata, the context-cache methods and a local model's sum of atom terms.
        methods = ["encode_context", "forward_states"] if model.context_attention else []
        if kind is ExportedRoutedSymTE and attributes["symt_local_hops"]:
            methods += ["atom_terms", "layer_terms", "value_of_terms", "local_weights", "atom_starts",
                        "object_starts"]
        methods = [method for method in methods if method not in left_out]
        scripted = torch.jit.freeze(torch.jit.script(exported), preserved_attrs=[*attributes, *methods])
    _save(scripted, meta, out_path)
    return meta


def _save(module: torch.jit.ScriptModule, meta: dict, out_path: str | Path) -> None:
    """Write a model file with its ``symt.json`` atomically: a reader never sees half a model."""
    import io

    from .folders import write_atomic

    # Into memory first, then written by Python: torch's C++ writer aborts the process on a full
    # disk (issue 36), and a write error must leave any earlier model in place.
    buffer = io.BytesIO()
    torch.jit.save(module, buffer, _extra_files={META_FILE: json.dumps(meta, indent=1)})
    write_atomic(Path(out_path), buffer.getvalue(), "model file")


def load_exported(path: str | Path, device: str | torch.device = "cpu") -> tuple[torch.jit.ScriptModule, dict]:
    """Load an exported model and check its metadata (format and version)."""
    path = Path(path)
    if not path.is_file():
        raise SymtError(f"{path}: model file not found")
    check_model_archive(path)
    extra = {META_FILE: ""}
    try:
        module = torch.jit.load(str(path), map_location=device, _extra_files=extra)
    except Exception as error:
        raise SymtError(f"{path}: not a readable TorchScript model ({type(error).__name__})") from None
    if not extra[META_FILE]:
        raise SymtError(f"{path}: TorchScript file without symt metadata ({META_FILE}); export it with `symt export`")
    try:
        meta = json.loads(extra[META_FILE])
    except ValueError:  # torch does not check the archive's checksums: a damaged file gets here
        raise SymtError(f"{path}: its symt metadata ({META_FILE}) is damaged; export the model again") from None
    try:
        check_model_meta(meta, str(path))
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise SymtError(f"{path}: its symt metadata ({META_FILE}) is damaged ({type(error).__name__}: {error}); "
                        "export the model again") from None
    module.eval()
    return module, meta


# ------------------------------------------------------------------------------- inference precision

PRECISIONS = ("fp32", "bf16", "auto")
"""Arithmetic of a forward pass at inference (the plugin's ``symt(precision=...)`` too)."""


def cpu_has_bf16(cpuinfo: str | Path = "/proc/cpuinfo") -> bool:
    """True where the CPU multiplies bf16 in hardware (x86 ``avx512_bf16``/``amx_bf16``, Arm
    ``bf16``); elsewhere torch emulates bf16, several times slower than fp32.

    The same test as the plugin's (``fd_plugin/symt_heuristic.cc``), so that ``auto`` resolves
    alike in Python and in Fast Downward.
    """
    try:
        lines = Path(cpuinfo).read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        if line.startswith(("flags", "Features")):
            return bool({"avx512_bf16", "amx_bf16", "bf16"} & set(line.partition(":")[2].split()))
    return False


def resolve_precision(precision: str) -> str:
    """``fp32`` or ``bf16`` for ``precision`` (``auto``: bf16 only with hardware bf16)."""
    if precision not in PRECISIONS:
        raise SymtError(f"unknown precision '{precision}' (choose from {', '.join(PRECISIONS)})")
    if precision == "auto":
        return "bf16" if cpu_has_bf16() else "fp32"
    return precision


@contextlib.contextmanager
def precision_context(precision: str, device: str | torch.device = "cpu") -> Iterator[None]:
    """Run forward passes at ``precision``: bf16 is torch's autocast (matrix products in bf16,
    softmax and reductions in fp32), as the plugin does in C++; fp32 changes nothing."""
    if resolve_precision(precision) == "bf16":
        with torch.autocast(torch.device(device).type, dtype=torch.bfloat16):
            yield
    else:
        yield


# ------------------------------------------------------------------------- another domain's names


def _source_domain_for(meta: dict, where: str) -> Path:
    """The shipped paper domain whose predicates are the model's (``retarget`` without a source)."""
    from .generators.dataset import DOMAINS, domain_file
    from .pddl import parse_domain
    from .tokens import Signature, domain_signature

    ours = Signature.from_json(meta).predicates
    for name in DOMAINS:
        path = domain_file(name)
        if domain_signature(parse_domain(path)).predicates == ours:
            return path
    raise SymtError(f"{where}: no shipped paper domain has the model's predicates; name the domain it "
                    "was trained on with --source-domain FILE")


def retarget(model_path: str | Path, target_domain: str | Path, out_path: str | Path,
             source_domain: str | Path | None = None, fixed: dict[str, str] | None = None) -> tuple[dict, dict]:
    """Write the exported heuristic ``model_path`` for ``target_domain``, a domain that is the
    model's own up to the names of predicates and types (:mod:`symt.pddl.isomorphism` proves it).

    Only names change: predicate ids, weights and the architecture stay, so the new file computes
    the same values on a target task as the old one on the same task written in the source domain.
    ``source_domain`` is the domain the model was trained on (default: the shipped paper domain
    with the model's predicates); ``fixed`` pins names. Returns the new metadata and the names
    that changed.
    """
    from .formats import model_file_kind
    from .pddl import parse_domain
    from .pddl.isomorphism import find_renaming
    from .tokens import TYPE_PREFIX, Signature, domain_signature

    path = Path(model_path)
    kind = model_file_kind(path) if path.is_file() else "heuristic"
    if kind != "heuristic":
        what = {"planner": "a plan generator (SymT-ED or PlanGPT)",
                "checkpoint": "a training checkpoint; export it first with `symt export`"}.get(kind, "not a symt model")
        raise SymtError(f"{path}: not an exported SymT-E heuristic: {what}")
    module, meta = load_exported(path)
    source_file = Path(source_domain) if source_domain is not None else _source_domain_for(meta, str(path))
    source, target = parse_domain(source_file), parse_domain(target_domain)
    ours = Signature.from_json(meta).predicates
    theirs = domain_signature(source).predicates
    if sorted(ours) != sorted(theirs):
        raise SymtError(f"{path}: the model's predicates ({', '.join(n for n, _ in ours)}) are not those of "
                        f"{source_file} ({', '.join(n for n, _ in theirs)}); name its training domain with "
                        "--source-domain")
    renaming = find_renaming(source, target, fixed)

    def renamed(name: str) -> str:
        if name.startswith(TYPE_PREFIX):
            return TYPE_PREFIX + renaming.types[name[len(TYPE_PREFIX):]]
        return renaming.predicates[name]

    meta = json.loads(json.dumps(meta))
    for predicate in meta["predicates"]:
        predicate["name"] = renamed(predicate["name"])
    changed = renaming.changed()
    meta["retargeted"] = {"from_model": path.stem, "from_domain": meta["domain"], "from_file": source_file.name,
                          "renamed": changed, "previous": meta.get("retargeted")}
    meta["domain"] = target.name
    # The model now reads the target domain's names, so the domain it says it serves (which
    # symt.models.model_domain and the plugin match a task's domain against) must be the target's
    # text; the source's would make them map a task back to the old names the model no longer has.
    meta[DOMAIN_PDDL_KEY] = Path(target_domain).read_text()
    # Format 3 on: the plugin checks the task context against the module's own attributes.
    if hasattr(module, "symt_predicate_names"):
        module.symt_predicate_names = [p["name"] for p in meta["predicates"]]
        module.symt_domain = meta["domain"]
    _save(module, meta, out_path)
    return meta, changed
