"""Start-up shim that lets Fast Downward 19.06's driver and translator run on Python >= 3.10.

``symt.fast_downward`` puts this directory first on PYTHONPATH, so Python imports this module at
start-up in the driver and in the translator it spawns. Nothing in Fast Downward is edited.

- ``time.clock`` was removed in Python 3.8; the translator calls it (CPU time): alias it to
  ``time.process_time``.
- ``resource.setrlimit`` rejects floats since Python 3.10; the driver passes float limits for
  ``--overall-time-limit`` and the memory limits: cast both limits to ``int``.
"""

from __future__ import annotations

import time

if not hasattr(time, "clock"):
    time.clock = time.process_time  # type: ignore[attr-defined]

try:
    import resource
except ImportError:  # not on POSIX: the driver does not set limits there either
    resource = None  # type: ignore[assignment]

if resource is not None and not getattr(resource.setrlimit, "_symt_int_cast", False):
    _setrlimit = resource.setrlimit

    def _setrlimit_int(which: int, limits: tuple[float, float], /) -> None:
        """``resource.setrlimit`` with both limits cast to ``int``."""
        soft, hard = limits
        _setrlimit(which, (int(soft), int(hard)))

    _setrlimit_int._symt_int_cast = True  # type: ignore[attr-defined]
    resource.setrlimit = _setrlimit_int
