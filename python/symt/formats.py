"""Every symt file format, in one torch-free place: names, versions, metadata keys, and the
readers that tell the files apart without loading torch.

* **Heuristic models** (``symt export``; Fast Downward's ``symt()``, ``symt plan --strategy
  heuristic``): TorchScript archives carrying ``symt.json`` (:data:`META_FILE`) with ``format``
  = :data:`FORMAT` ("symt-heuristic"), ``format_version`` (:data:`FORMAT_VERSION`; readable:
  :data:`READABLE_FORMAT_VERSIONS`), the domain signature, ``vocab_size``, ``object_identity``
  and training facts. Written by :mod:`symt.export`. From version 3 the module also carries what
  the plugin needs as typed TorchScript attributes (:func:`module_attributes`), which libtorch
  reads without a JSON parser; ``symt.json`` stays for Python and for people.
* **Task contexts** (the ``fast-downward`` wrapper for the plugin, :func:`write_task_context`):
  a line-based text file in the manner of Fast Downward's own translator output (version
  :data:`CONTEXT_VERSION`): the model's signature, the objects, and the tokenised static, type
  and goal atoms of the task.
* **Plan generators** (SymT-ED, PlanGPT; ``symt train-plans``): ``torch.save`` archives of a dict
  with ``format`` = :data:`PLANNER_FORMAT`, ``format_version`` (:data:`PLANNER_FORMAT_VERSION`),
  kind, model config, weights, signature and plan vocabulary (:mod:`symt.plangen.planner`).
* **Training checkpoints** (``best.pt``/``last.pt`` of ``symt train``): ``torch.save`` archives of
  the shape in :data:`symt.training.base.CHECKPOINT_VERSION`.

:func:`model_file_kind` tells them apart from the archive's members alone.
"""

from __future__ import annotations

import dataclasses
import io
import json
import pickle
import re
import zipfile
from collections import OrderedDict
from pathlib import Path

from .errors import SymtError
from .pddl import parse_domain, parse_problem
from .pddl.grounding import fixed_part
from .pddl.translate import TaskTranslation
from .tokens import Signature, check_vocabulary, encode_task, rename

FORMAT = "symt-heuristic"
FORMAT_VERSION = 5
"""The version ``symt export`` writes (see ``symt.export``) for a model without achieved goals."""
ACHIEVED_GOALS_FORMAT_VERSION = 6
"""The version written for a model that marks achieved goals (``symt train --achieved-goals``):
the plugin has to mark the state's goal atoms, so a reader of version 5 must refuse it."""
READABLE_FORMAT_VERSIONS = (1, 2, 3, 4, 5, 6)
ATTRIBUTES_SINCE = 3
"""The first model format version whose module carries :func:`module_attributes`."""
CONTEXT_CACHE_SINCE = 4
"""The first model format version whose module says whether it caches a task context
(``symt_context_cache``: then it has ``encode_context`` and ``forward_states``)."""
CONTEXT_VERSION = 3
"""The task context that the ``fast-downward`` wrapper writes for the plugin (1 was JSON; 3 adds
the fact map and the cost scale)."""
CONTEXT_HEADER = "symt-task-context"
META_FILE = "symt.json"
"""The metadata member of an exported heuristic (``<archive>/extra/symt.json``)."""
DOMAIN_PDDL_KEY = "domain_pddl"
"""The metadata key (``symt.json``, a WL model's JSON) under which ``symt export`` and ``symt
train-wl`` keep the text of the domain a model was trained on (``symt retarget``: the domain it
was written for), for models that are not shipped."""
PLANNER_FORMAT = "symt-planner"
PLANNER_FORMAT_VERSION = 1


def plain_data(value: object, where: str = "the data") -> object:
    """``value`` with numpy scalars and arrays made Python numbers and lists, checked to hold only
    what ``torch.load(weights_only=True)`` reads: tensors, numbers, strings, None and containers of
    them. Everything symt writes with ``torch.save`` goes through here, so that every file it
    writes loads without running code; anything else is a :class:`SymtError` naming it."""
    import numpy as np
    import torch

    if isinstance(value, dict):
        return {plain_data(k, where): plain_data(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        converted = [plain_data(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return converted if isinstance(value, list) else tuple(converted)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if value is None or isinstance(value, (bool, int, float, str, torch.Tensor, torch.Size, torch.dtype)):
        return value
    raise SymtError(f"{where} holds a {type(value).__name__}, which a model file cannot keep as plain data")


def save_plain(value: object, path: Path, what: str) -> None:
    """``torch.save`` ``value`` as plain data (:func:`plain_data`) to ``path`` whole or not at all
    (:func:`symt.folders.write_atomic`: a full disk leaves the previous file and one clear error,
    never a torn one); ``what`` names the file in errors."""
    import torch

    from .folders import write_atomic

    buffer = io.BytesIO()
    torch.save(plain_data(value, str(path)), buffer)
    write_atomic(Path(path), buffer.getvalue(), what)


def load_plain(path: Path, what: str, map_location: object = "cpu") -> object:
    """``torch.load`` of a symt file with ``weights_only=True``: tensors and plain data only, so a
    file from someone else runs no code when it is read. A file that asks for more (a pickle
    naming a function or class, as an older symt's plan generators did with numpy scalars) is a
    :class:`SymtError` naming what it asked for and the command that rewrites a trusted file."""
    import torch

    try:
        return torch.load(path, map_location=map_location, weights_only=True)
    except pickle.UnpicklingError as error:
        asked = re.search(r"GLOBAL (\S+)", str(error))
        raise SymtError(f"{path}: the {what} asks to run {asked.group(1) if asked else 'code'} when loaded, and symt "
                        "loads only tensors and plain data; if you trust where the file came from, `symt upgrade "
                        f"{path} NEW.pt --trust-file` rewrites it as plain data") from None
    except Exception as error:  # noqa: BLE001 -- a torn or foreign file: torch raises many kinds
        raise SymtError(f"{path}: not a readable {what} ({type(error).__name__})") from None


def upgrade_file(old: Path, new: Path) -> str:
    """Rewrite a trusted model or checkpoint ``old`` (an older symt's, which asks to run code when
    loaded) as plain data into ``new``; returns its kind. The caller has the user's word that the
    file is trusted: this is the one place symt loads a pickle unrestricted."""
    import torch

    kind = model_file_kind(old)
    if kind not in ("planner", "checkpoint"):
        raise SymtError(f"{old}: a {kind} file; symt upgrade rewrites plan-generation models and training "
                        "checkpoints (exported heuristics are TorchScript and need no upgrade)")
    data = torch.load(old, map_location="cpu", weights_only=False)  # trusted by the user's --trust-file
    save_plain(data, Path(new), "model file")
    load_plain(Path(new), "upgraded file")  # what was written reads back without running anything
    return kind


FILE_KINDS = ("heuristic", "planner", "checkpoint", "torchscript", "torch")
"""What :func:`model_file_kind` can tell apart."""


def model_file_kind(path: Path) -> str:
    """What a model file is, read without torch: ``heuristic`` (TorchScript with ``symt.json``,
    from `symt export`), ``planner`` (a ``symt-planner`` plan generator), ``checkpoint`` (a
    training run's ``best.pt``/``last.pt``), ``torchscript`` (a TorchScript file without symt
    metadata) or ``torch`` (any other ``torch.save`` file). A missing, truncated or foreign file
    is a :class:`SymtError` saying so, never taken for one of the kinds."""
    path = Path(path)
    if not path.is_file():
        raise SymtError(f"{path}: model file not found")
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if any(name.endswith(f"extra/{META_FILE}") for name in names):
                return "heuristic"
            if any("/code/" in name for name in names):
                return "torchscript"
            pickles = [name for name in names if name.endswith("/data.pkl")]
            if not pickles:
                raise SymtError(f"{path}: not a symt model (a zip archive without a model inside)")
            head = archive.read(pickles[0])
    except (zipfile.BadZipFile, EOFError, zipfile.LargeZipFile) as error:
        raise SymtError(f"{path}: not a readable model file: truncated or not a model ({error})") from None
    except OSError as error:
        raise SymtError(f"{path}: cannot read the model file ({error.strerror or error})") from None
    if b"symt-planner" in head:
        return "planner"
    if b"model_config" in head:
        return "checkpoint"
    return "torch"


TORCHSCRIPT_ENTRIES = frozenset({".data", "byteorder", "code", "constants", "constants.pkl", "data", "data.pkl",
                                 "extra", "version"})
"""What the top folder of a TorchScript archive that ``torch.jit.save`` writes holds."""


def _archive_problem(archive: zipfile.ZipFile, file_size: int) -> str | None:
    """What is wrong with an exported model's zip archive, checked before libtorch or torch reads
    it, or None: one top folder holding only what ``torch.jit.save`` writes (no absolute paths, no
    ``..``), stored tensors no larger than the file, and compressed entries (the graph's code) that
    do not unpack to far more than they take (a zip bomb)."""
    infos = archive.infolist()
    tops = {info.filename.split("/", 1)[0] for info in infos}
    if len(tops) != 1:
        return f"{len(tops)} top folders (torch.jit.save writes one)"
    for info in infos:
        parts = info.filename.split("/")
        if info.filename.startswith("/") or ".." in parts or "\\" in info.filename:
            return f"the entry {info.filename!r} points outside the archive"
        if len(parts) < 2 or parts[1] not in TORCHSCRIPT_ENTRIES:
            return f"the entry {info.filename!r} is not one torch.jit.save writes"
    stored = sum(i.file_size for i in infos if i.compress_type == zipfile.ZIP_STORED)
    if stored > file_size:
        return f"its tensors declare {stored:,} bytes, more than the file's {file_size:,}"
    packed = [i for i in infos if i.compress_type != zipfile.ZIP_STORED]
    if sum(i.file_size for i in packed) > 64 * max(1, sum(i.compress_size for i in packed)) + (1 << 20):
        return "its compressed entries unpack to far more than they take"
    return None


def _check_archive(path: Path, archive: zipfile.ZipFile) -> None:
    problem = _archive_problem(archive, Path(path).stat().st_size)
    if problem:
        raise SymtError(f"{path}: not a well-formed exported model: {problem}")


def check_model_archive(path: Path) -> None:
    """Refuse an exported model whose archive is not what ``torch.jit.save`` writes
    (:func:`_archive_problem`) before torch or libtorch reads any of it."""
    try:
        with zipfile.ZipFile(path) as archive:
            _check_archive(path, archive)
    except (zipfile.BadZipFile, OSError) as error:
        raise SymtError(f"{path}: not a readable TorchScript model ({error})") from None


def read_model_meta(path: Path) -> dict:
    """The ``symt.json`` inside an exported heuristic (read from the zip archive, without torch);
    a clear error for every other kind of file, saying what it is and what to do with it."""
    kind = model_file_kind(path)
    if kind == "planner":
        raise SymtError(f"{path}: a plan-generation model (SymT-ED or PlanGPT), not a heuristic; "
                        "symt() needs a SymT-E heuristic (see `symt models`); plan with this one "
                        "using `symt plan --strategy greedy`")
    if kind == "checkpoint":
        raise SymtError(f"{path}: a training checkpoint; export it first: symt export {path} MODEL.pt")
    if kind != "heuristic":
        raise SymtError(f"{path}: {'a TorchScript' if kind == 'torchscript' else 'a torch'} file "
                        "without symt metadata (symt.json), not a model made by `symt export`")
    try:
        with zipfile.ZipFile(path) as archive:
            _check_archive(path, archive)
            name = next(n for n in archive.namelist() if n.endswith(f"extra/{META_FILE}"))
            meta = json.loads(archive.read(name))
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise SymtError(f"{path}: unreadable symt.json ({error})") from None
    if not isinstance(meta, dict):
        raise SymtError(f"{path}: unreadable symt.json (not an object)")
    return meta


class _Opaque:
    """Stands in for every class a planner pickle names (tensors, storages): nothing is run."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __setstate__(self, state: object) -> None:
        pass


class _MetadataUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        return OrderedDict if (module, name) == ("collections", "OrderedDict") else _Opaque

    def persistent_load(self, pid: object) -> None:
        return None  # tensor storages: not read


def read_planner_meta(path: Path) -> dict:
    """A plan generator's metadata (kind, config, signature, plan vocabulary, training), no torch.

    The ``torch.save`` pickle is read with every class replaced by an inert stand-in, so the
    weights are neither loaded nor is any code of the file run.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            names = [name for name in archive.namelist() if name.endswith("/data.pkl")]
            if not names:
                raise SymtError(f"{path}: not a symt plan-generation model")
            data = _MetadataUnpickler(io.BytesIO(archive.read(names[0]))).load()
    except (zipfile.BadZipFile, OSError, pickle.UnpicklingError, EOFError, ValueError) as error:
        raise SymtError(f"{path}: not a readable symt model ({error})") from None
    if not isinstance(data, dict) or data.get("format") != PLANNER_FORMAT:
        raise SymtError(f"{path}: not a symt plan-generation model")
    data.pop("state_dict", None)
    return data


def module_attributes(meta: dict) -> dict[str, object]:
    """The typed attributes an exported heuristic's TorchScript module carries from format 3 on:
    what the plugin checks the model and its task context against, read by libtorch itself.
    ``symt_context_cache`` (format 4 on) is 1 for a context-attention model, whose plugin runs
    ``encode_context`` once per task and then ``forward_states`` for the fluent atoms of states,
    and 2 where the goal atoms are not cached (:func:`context_cache_mode`). ``symt_achieved_goals``
    (read from format 6 on) is 1 where a fluent atom that is a goal atom takes the predicate id
    2P + p (``symt.tokens``). ``symt_linear_cost`` is 1 for an objects-attention model
    (``ModelConfig.attention``), whose work per state is linear in its atoms: the plugin then bounds
    a batch by its atoms alone, not by their attention scores (absent: 0). ``symt_local_hops``
    is ``n_layers`` for a local model (objects attention without global tokens, ``symt.model_local``),
    whose tokens read only what lies within that many steps of them, else 0. ``symt_dead_ends`` is 1
    for a model with a dead-end head (``ModelConfig.dead_end_head``), whose +inf the plugin reports
    as a dead end (absent: 0; a non-finite value is then an error)."""
    return {
        "symt_format": meta["format"],
        "symt_format_version": int(meta["format_version"]),
        "symt_domain": meta["domain"],
        "symt_predicate_names": [p["name"] for p in meta["predicates"]],
        "symt_predicate_arities": [int(p["arity"]) for p in meta["predicates"]],
        "symt_max_arity": int(meta["max_arity"]),
        "symt_vocab_size": int(meta["vocab_size"]),
        "symt_context_cache": context_cache_mode(meta),
        "symt_achieved_goals": int(bool(meta.get("achieved_goals", False))),
        "symt_linear_cost": int(meta.get("model", {}).get("attention", "full") == "objects"),
        "symt_local_hops": local_hops(meta),
        "symt_dead_ends": int(bool(meta.get("model", {}).get("dead_end_head", False))),
    }


def local_hops(meta: dict) -> int:
    """``n_layers`` of a local model (objects attention without global tokens: its tokens read only
    what lies within that many steps of them, ``symt.model_local``), from its ``symt.json``; else 0."""
    model = meta.get("model", {})
    local = model.get("attention", "full") == "objects" and int(model.get("global_tokens", 4)) == 0
    return int(model.get("n_layers", 0)) if local else 0


CACHE_NONE, CACHE_FIXED, CACHE_STATIC = 0, 1, 2
"""The values of ``symt_context_cache``: no cache (``forward`` on all atoms); every fixed atom
(static, type and goal) cached, each state sends its fluent atoms; static and type atoms cached,
each state sends its fluent atoms and the task's goal atoms (predicate ids ``P..2P-1``)."""


def context_cache_mode(meta: dict) -> int:
    """Which of a task's fixed atoms a model caches (``CACHE_*``), from its ``symt.json``: the goal
    atoms are cached when every goal predicate is a context predicate."""
    context = meta["model"].get("context_predicates")
    if context is None:
        return CACHE_NONE
    num_predicates = len(meta["predicates"])
    goals = set(range(num_predicates, 2 * num_predicates))
    return CACHE_FIXED if goals <= set(context) else CACHE_STATIC


def write_task_context(
    meta: dict, domain_file: str | Path, problem_file: str | Path, out: str | Path,
    translation: TaskTranslation | None = None,
) -> str:
    """Write the task context the ``symt()`` plugin reads next to the model; returns its text.

    ``meta`` is the model's ``symt.json``; ``translation`` the task in the model's vocabulary
    (:func:`symt.pddl.canonical.translate_task`; None: the task's domain is the model's as
    written). Static, type and goal atoms are tokenized here, objects by their canonical
    tokens (:func:`symt.tokens.canonical_assignment`: the same whatever order or names the file
    gives them) and listed in token order; the
    plugin only adds the fluent atoms it reads from Fast Downward's facts, which name the task's
    own predicates: the fact map says which model predicate each is and in which argument order.
    The model's signature is repeated, so that the plugin can check a format-3 model against it
    and can run format-1 and -2 models, whose metadata only ``symt.json`` holds. PDDL names
    contain no white space, so one line per item needs no quoting::

        symt-task-context 3
        model_format_version 3
        domain <name>
        max_arity <m>
        vocab_size <V>            (also the padding token)
        predicates <P>            then P lines "<name> <arity>", in id order
        objects <n>               then n lines "<name>", the i-th has token i
        fixed_atoms <S>           then S lines of 1 + m integers: predicate id, argument tokens
        fact_map <K>              then K lines "<task predicate> <model id> <i_0> .. <i_a-1>":
                                  model argument j is the fact's argument i_j; id -1: no atom
                                  of the model (a guard the task makes redundant)
        cost_scale <c>            what one step costs (uniform action costs), else 1
    """
    check_model_meta(meta, str(out))
    if translation is None:
        domain = parse_domain(domain_file)
        problem = parse_problem(problem_file, domain)
        fact_map = {p: (p, tuple(range(len(params)))) for p, params in domain.predicates.items()}
        cost_scale = 1.0
    else:
        domain, problem = translation.domain, translation.problem
        fact_map = translation.fact_map()
        cost_scale = translation.value_scale
    task = fixed_part(domain, problem)  # the fixed atoms only: grounding actions is not needed
    # The initial state's atoms as the fluent atoms: they refine the canonical object order.
    initial = sorted({(lit.predicate, lit.terms) for lit in problem.init
                      if lit.predicate not in task.static_predicates and lit.predicate in task.predicates})
    task = dataclasses.replace(task, fluent_atoms=initial, init=tuple(range(len(initial))), fluent_index={})
    signature = Signature.from_json(meta)
    vocab_size = int(meta["vocab_size"])
    check_vocabulary(len(task.objects), vocab_size, f"task {problem_file}")
    encoded = encode_task(task, signature, domain)
    fixed = rename(encoded.fixed_rows, encoded.assignment, vocab_size)
    objects = [""] * len(task.objects)
    for obj, token in zip(task.objects, encoded.assignment.tolist(), strict=True):
        objects[token] = obj
    ids = signature.predicate_ids()
    # A predicate the model does not know stays out: the plugin names it if a fact has it.
    mapped = [f"{p} -1" if m is None else f"{p} {ids[m[0]]} {' '.join(map(str, m[1]))}".rstrip()
              for p, m in fact_map.items() if m is None or m[0] in ids]
    lines = [
        f"{CONTEXT_HEADER} {CONTEXT_VERSION}",
        f"model_format_version {int(meta['format_version'])}",
        f"domain {signature.domain}",
        f"max_arity {signature.max_arity}",
        f"vocab_size {vocab_size}",
        f"predicates {len(signature.predicates)}",
        *(f"{name} {arity}" for name, arity in signature.predicates),
        f"objects {len(task.objects)}",
        *objects,
        f"fixed_atoms {len(fixed)}",
        *(" ".join(map(str, row)) for row in fixed.tolist()),
        f"fact_map {len(mapped)}",
        *mapped,
        f"cost_scale {cost_scale:g}",
    ]
    text = "\n".join(lines) + "\n"
    Path(out).write_text(text)
    return text


def check_model_meta(meta: dict, where: str) -> None:
    """Raise a :class:`SymtError` naming ``where`` unless ``meta`` is the metadata of a heuristic
    model in a format version this symt reads (:data:`READABLE_FORMAT_VERSIONS`)."""
    if meta.get("format") != FORMAT:
        raise SymtError(f"{where}: not a symt heuristic model (format {meta.get('format')!r})")
    if meta.get("format_version") not in READABLE_FORMAT_VERSIONS:
        raise SymtError(
            f"{where}: model format version {meta.get('format_version')} is not supported "
            f"(this symt reads versions {', '.join(map(str, READABLE_FORMAT_VERSIONS))}); "
            "re-export it with `symt export`"
        )
