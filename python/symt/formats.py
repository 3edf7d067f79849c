"""Every symt file format, in one torch-free place: names, versions, metadata keys, and the
readers that tell the files apart without loading torch.

* **Heuristic models** (``symt export``; Fast Downward's ``symt()``, ``symt plan --strategy
  heuristic``): TorchScript archives carrying ``symt.json`` (:data:`META_FILE`) with ``format``
  = :data:`FORMAT` ("symt-heuristic"), ``format_version`` (:data:`FORMAT_VERSION`; readable:
  :data:`READABLE_FORMAT_VERSIONS`), the domain signature, ``vocab_size``, ``object_identity``
  and training facts. Written by :mod:`symt.export`, read by the plugin and :mod:`symt.export`.
* **Task contexts** (the ``fast-downward`` wrapper for the plugin, :func:`write_task_context`):
  JSON with ``format_version`` (:data:`CONTEXT_VERSION`), object indices, predicate ids, the
  tokenised static, type and goal atoms, ``max_arity`` and ``pad_token``.
* **Plan generators** (SymT-ED, PlanGPT; ``symt train-plans``): ``torch.save`` archives of a dict
  with ``format`` = :data:`PLANNER_FORMAT`, ``format_version`` (:data:`PLANNER_FORMAT_VERSION`),
  kind, model config, weights, signature and plan vocabulary (:mod:`symt.plangen.planner`).
* **Training checkpoints** (``best.pt``/``last.pt`` of ``symt train``): ``torch.save`` archives of
  the shape in :data:`symt.training.CHECKPOINT_VERSION`.

:func:`model_file_kind` tells them apart from the archive's members alone.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

from .errors import SymtError
from .pddl import ground, parse_domain, parse_problem
from .tokens import Signature, check_vocabulary, encode_task, identity_assignment, rename

FORMAT = "symt-heuristic"
FORMAT_VERSION = 2
"""The version ``symt export`` writes (see ``symt.export``)."""
READABLE_FORMAT_VERSIONS = (1, 2)
CONTEXT_VERSION = 1
"""The task context that the ``fast-downward`` wrapper writes for the plugin."""
META_FILE = "symt.json"
"""The metadata member of an exported heuristic (``<archive>/extra/symt.json``)."""
PLANNER_FORMAT = "symt-planner"
PLANNER_FORMAT_VERSION = 1


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


def write_task_context(
    meta: dict, domain_file: str | Path, problem_file: str | Path, out: str | Path
) -> dict:
    """Write the JSON the ``symt()`` plugin reads next to the model (see the module docstring).

    ``meta`` is the model's ``symt.json``. Static, type and goal atoms are tokenized here, with the
    identity renaming; the plugin only adds the fluent atoms it reads from Fast Downward's facts.
    """
    check_model_meta(meta, str(out))
    domain = parse_domain(domain_file)
    problem = parse_problem(problem_file, domain)
    task = ground(domain, problem)
    signature = Signature.from_json(meta)
    vocab_size = int(meta["vocab_size"])
    check_vocabulary(len(task.objects), vocab_size, f"task {problem_file}")
    encoded = encode_task(task, signature, domain)
    fixed = rename(encoded.fixed_rows, identity_assignment(len(task.objects)), vocab_size)
    context = {
        "format_version": CONTEXT_VERSION,
        "domain": signature.domain,
        "objects": {obj: i for i, obj in enumerate(task.objects)},
        "predicate_ids": signature.predicate_ids(),
        "fixed_atoms": fixed.tolist(),
        "max_arity": signature.max_arity,
        "pad_token": vocab_size,
    }
    Path(out).write_text(json.dumps(context))
    return context


def check_model_meta(meta: dict, where: str) -> None:
    if meta.get("format") != FORMAT:
        raise SymtError(f"{where}: not a symt heuristic model (format {meta.get('format')!r})")
    if meta.get("format_version") not in READABLE_FORMAT_VERSIONS:
        raise SymtError(
            f"{where}: model format version {meta.get('format_version')} is not supported "
            f"(this symt reads versions {', '.join(map(str, READABLE_FORMAT_VERSIONS))}); "
            "re-export it with `symt export`"
        )
