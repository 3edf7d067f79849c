"""Output folders that trainings and dataset generation write: checked before any work, locked
while written, so that a bad ``--out`` is one clear line instead of a traceback after the first
epoch, and two writers never mix their files in one folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .errors import SymtError, WriteError


def check_output_folder(out: Path, kind: str = "run folder") -> None:
    """Create the folder ``out`` (a ``kind``, named in messages), or check that it is a writable
    folder."""
    if out.exists() and not out.is_dir():
        raise SymtError(f"--out {out}: a file of that name exists; choose a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SymtError(f"--out {out}: cannot create the {kind} ({error.strerror})") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise SymtError(f"--out {out}: the {kind} is not writable")


def open_output_folder(out: Path, writer: str = "training", kind: str = "run folder") -> FileLock:
    """:func:`check_output_folder`, then lock the folder for this process: a second ``writer``
    started on the same folder is refused at once. The lock lasts as long as the returned object
    (and never outlives the process)."""
    check_output_folder(out, kind)
    lock = FileLock(out / ".lock")
    acquire_folder_lock(lock, out, writer, kind)
    return lock


def acquire_folder_lock(lock: FileLock, out: Path, writer: str = "training",
                        kind: str = "run folder") -> None:
    """Take ``lock`` (of folder ``out``) at once or fail with a clear error; re-entrant."""
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise SymtError(f"--out {out}: another {writer} is writing to this {kind} "
                        f"(it holds {out / '.lock'}); wait for it or choose another --out") from None


@contextmanager
def holding_folder(lock: FileLock | None, out: Path) -> Iterator[None]:
    """Hold a folder's lock (from :func:`open_output_folder`; None: not this process's to hold)
    while the block runs, and free the folder when it ends, however it ends."""
    if lock is None:
        yield
        return
    acquire_folder_lock(lock, out)
    try:
        yield
    finally:
        lock.release(force=True)


def check_output_file(path: Path, what: str = "file", example: str | None = None) -> None:
    """Refuse an output file that cannot be one: a folder of that name (commands call it before
    any work, with an ``example`` file name; :func:`write_atomic` calls it again when it writes)."""
    if Path(path).is_dir():
        hint = f" (e.g. {Path(path) / example})" if example else ""
        raise SymtError(f"{path}: a folder of that name exists; name the {what} itself{hint}")


def write_atomic(path: Path, data: bytes, what: str = "file") -> None:
    """Write ``data`` to ``path`` whole or not at all: into a temporary file in the same folder,
    flushed to disk, then renamed over ``path``. On any file-system failure (a full or read-only
    disk, no permission, ``path`` a folder) the temporary file is removed, an existing ``path``
    is left as it was, and the error is one line naming ``path`` (a ``what``)."""
    path = Path(path)
    check_output_file(path, what)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise WriteError(f"{path}: cannot write the {what} ({error.strerror or error})") from None
