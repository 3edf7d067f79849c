"""Fast Downward's build and driver: where ``scripts/build_fd.sh`` put the build
(:func:`find_build`), Fast Downward's exit codes, and how the 19.06 driver is started (its
environment and command line) and reads its arguments.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import shutil
import sys
from argparse import Namespace
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import SymtError

REPO_ROOT = Path(__file__).resolve().parents[3]
"""The source checkout, where symt runs from it (an editable install, as scripts/setup.sh makes)."""
# Fast Downward's exit codes (driver/returncodes.py), which symt's own runs use too.
SUCCESS = 0
SEARCH_UNSOLVED_INCOMPLETE = 12
SEARCH_OUT_OF_MEMORY = 22
SEARCH_OUT_OF_TIME = 23
SEARCH_INPUT_ERROR = 33
DRIVER_CRITICAL_ERROR = 35
DRIVER_INPUT_ERROR = 36
BUILD_ENV = "SYMT_FD_BUILD_DIR"
"""Environment variable that overrides the build directory (default ``<repo>/build/fast-downward``)."""


class FastDownwardNotBuilt(SymtError):
    """``scripts/build_fd.sh`` has not (successfully) run."""

    exit_code = DRIVER_CRITICAL_ERROR


@dataclass(frozen=True)
class FastDownwardBuild:
    """Where a finished Fast Downward build lives (read from ``build.json``)."""

    root: Path
    """The Fast Downward source root: ``fast-downward.py``, ``driver/``, ``src/``."""
    bin_dir: Path
    """The build's ``bin/``: the ``downward`` binary and the ``translate/`` copy."""
    version: str
    shim_dir: Path
    """The driver/translator ``sitecustomize`` shim of the checkout that made the build."""

    @property
    def driver(self) -> Path:
        return self.root / "fast-downward.py"

    @property
    def search_binary(self) -> Path:
        return self.bin_dir / "downward"


def build_dir() -> Path:
    """The directory ``scripts/build_fd.sh`` builds into: ``$SYMT_FD_BUILD_DIR``, else
    ``build/fast-downward`` of the checkout symt runs from. A copy of symt installed outside its
    checkout cannot know where that is, and says so."""
    override = os.environ.get(BUILD_ENV)
    if override:
        return Path(override).resolve()
    if not (REPO_ROOT / "scripts" / "build_fd.sh").is_file():
        raise FastDownwardNotBuilt(
            f"symt is installed outside its source checkout ({Path(__file__).parents[1]}), so the Fast "
            f"Downward build cannot be found next to it: set {BUILD_ENV} to the build/fast-downward "
            "folder of the checkout that built it (scripts/build_fd.sh)")
    return REPO_ROOT / "build" / "fast-downward"


def find_build() -> FastDownwardBuild:
    """The finished build, or FastDownwardNotBuilt with a one-line hint."""
    info_file = build_dir() / "build.json"
    hint = "run `bash scripts/setup.sh` (or `bash scripts/build_fd.sh`) in " + str(REPO_ROOT)
    if not info_file.is_file():
        raise FastDownwardNotBuilt(f"Fast Downward is not built yet ({info_file} is missing): {hint}")
    try:
        info = json.loads(info_file.read_text())
        # Builds from before build.json named the shim were made by the checkout symt runs from.
        shim = Path(info.get("shim_dir") or REPO_ROOT / "fd_plugin" / "driver_shim")
        build = FastDownwardBuild(Path(info["root"]), Path(info["bin_dir"]), str(info["version"]), shim)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise FastDownwardNotBuilt(f"unreadable {info_file} ({error}): {hint}") from None
    for needed in (build.driver, build.search_binary, build.bin_dir / "translate" / "translate.py",
                   build.shim_dir / "sitecustomize.py"):
        if not needed.exists():
            raise FastDownwardNotBuilt(f"the Fast Downward build is incomplete ({needed} is missing): {hint}")
    return build


def _validate_dir(workdir: Path) -> Path | None:
    """A directory with a ``validate`` executable (VAL) to put on PATH, when none is there."""
    if shutil.which("validate"):
        return None
    try:
        from ..val import validate_binary

        binary = validate_binary()
    except SymtError:
        return None  # the driver reports "validate not found" itself
    link = workdir / "validate"
    link.symlink_to(binary)
    return workdir


def driver_environment(build: FastDownwardBuild, workdir: Path, wants_validate: bool) -> dict[str, str]:
    """The environment for the driver: the shim first on PYTHONPATH, VAL on PATH if needed."""
    env = dict(os.environ)
    python_path = [str(build.shim_dir)]
    if env.get("PYTHONPATH"):
        python_path.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(python_path)
    if wants_validate:
        val_dir = _validate_dir(workdir)
        if val_dir is not None:
            env["PATH"] = os.pathsep.join([str(val_dir), env.get("PATH", "")])
    return env


def fast_downward_command() -> list[str]:
    """The project's ``fast-downward`` entry point, as installed beside this Python."""
    script = Path(sys.executable).parent / "fast-downward"
    return [str(script)] if script.exists() else [sys.executable, "-m", "symt.fast_downward"]


def driver_command(build: FastDownwardBuild, args: Sequence[str]) -> list[str]:
    """The driver's command line: ``--build`` is ours unless the caller chose one."""
    command = [sys.executable, str(build.driver)]
    if not any(arg == "--build" or arg.startswith("--build=") or arg == "--debug" for arg in args):
        command += ["--build", str(build.bin_dir)]
    return command + list(args)



@contextlib.contextmanager
def _driver_package(build: FastDownwardBuild) -> Iterator[None]:
    """The driver's Python package (``driver.*``) importable while inside the block."""
    saved_path = list(sys.path)
    sys.path.insert(0, str(build.root))
    try:
        yield
    finally:
        sys.path[:] = saved_path


def _parse_driver_args(build: FastDownwardBuild, args: Sequence[str]) -> Namespace | None:
    """The driver's own reading of ``args`` (inputs, components), or None if it rejects them."""
    saved_argv = list(sys.argv)
    sys.argv = ["fast-downward.py", *args]
    try:
        with _driver_package(build), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            arguments = importlib.import_module("driver.arguments")
            return arguments.parse_args()
    except SystemExit:
        return None  # the driver itself will report the problem
    finally:
        sys.argv[:] = saved_argv


def _driver_aliases(build: FastDownwardBuild) -> list[str]:
    """The names of the driver's aliases and portfolios (``driver/aliases.py``), sorted."""
    with _driver_package(build):
        aliases = importlib.import_module("driver.aliases")
    return sorted([*aliases.ALIASES, *aliases.PORTFOLIOS])
