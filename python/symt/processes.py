"""Signals and child processes (issue 36): SIGTERM, what ``timeout``, Slurm and ``docker stop``
send, is handled like Ctrl-C (a training saves ``last.pt``, an experiment stops and can be
resumed), and nothing a command started outlives it, however it ends.

Two mechanisms, because children are started by code symt does not own (Fast Downward Lab's
dispatcher and workers, the Fast Downward driver and its translator and search):

* :func:`end_descendants` walks ``/proc`` for every process below this one and ends them
  (SIGTERM, then SIGKILL after a grace period): for a parent that is still alive to clean up;
* :func:`die_with_parent` (``PR_SET_PDEATHSIG``) for a child started here, so that it gets
  SIGTERM even when its parent is killed without a chance to clean up (SIGKILL).
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) received: raised where Python is, handled wherever Ctrl-C is."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextmanager
def termination_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` (a
    ``KeyboardInterrupt``) in the main thread, so that every ``except KeyboardInterrupt`` that
    saves or cleans up also runs for them; the previous handlers come back afterwards. Outside
    the main thread (where Python cannot set handlers) the block runs unchanged."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _raise_terminated) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def interrupted_exit_code(error: BaseException) -> int:
    """The shell's exit code for an interruption: 128 + the signal (130 for Ctrl-C)."""
    return 128 + (error.signum if isinstance(error, Terminated) else signal.SIGINT)


def _children_table() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc (Linux); empty where /proc is missing."""
    table: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended meanwhile
            continue
        # The command name (field 2) may hold spaces and parentheses: parse after the last ')'.
        fields = stat[stat.rfind(")") + 2 :].split()
        table.setdefault(int(fields[1]), []).append(int(entry.name))
    return table


def descendants(pid: int | None = None) -> list[int]:
    """Every process below ``pid`` (default: this one), parents before their children."""
    table = _children_table()
    found: list[int] = []
    stack = list(table.get(os.getpid() if pid is None else pid, []))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(table.get(child, []))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (ended, not yet reaped by its parent) counts as gone.
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def end_descendants(grace: float = 5.0) -> int:
    """SIGTERM every process below this one, SIGKILL those still running after ``grace``
    seconds; returns how many there were. Children that start children meanwhile (a Lab worker
    starting a planner) are caught by a second pass."""
    ended: set[int] = set()
    for _ in range(3):
        pids = [pid for pid in descendants() if pid not in ended]
        for pid in pids:
            with _ignored_lookup():
                os.kill(pid, signal.SIGTERM)
        ended.update(pids)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
            time.sleep(0.05)
        for pid in pids:
            if _alive(pid):
                with _ignored_lookup():
                    os.kill(pid, signal.SIGKILL)
    _reap_adopted(ended)
    return len(ended)


def _reap_adopted(pids: set[int]) -> None:
    """Collect the exit status of ended processes that are our children (adopted orphans
    included), so that none stays a zombie while this process lives on."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not our child, or already collected
            pass


@contextmanager
def _ignored_lookup() -> Iterator[None]:
    try:
        yield
    except (ProcessLookupError, PermissionError):
        pass


_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans() -> None:
    """Make this process the reaper of its orphaned descendants (``PR_SET_CHILD_SUBREAPER``):
    when a child ends before its own children (``subprocess.run`` kills Lab's dispatcher at once
    on an exception, leaving its workers), they are re-parented here instead of to init, so that
    :func:`end_descendants` still finds and ends them. Linux only; elsewhere a no-op."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(signum: int = signal.SIGTERM) -> None:
    """In a child between fork and exec (``preexec_fn``): ask the kernel to send ``signum`` when
    the parent ends, however it ends. Linux only; elsewhere a no-op."""
    _prctl(_PR_SET_PDEATHSIG, signum)


def _prctl(option: int, value: int) -> None:
    """Linux's prctl(option, value); nothing where the C library has no prctl."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass
