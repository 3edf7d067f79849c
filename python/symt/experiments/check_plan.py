"""One experiment run: the planner, then VAL on its plan; ``plan_check.json`` is written last.

``python -m symt.experiments.check_plan DOMAIN PROBLEM -- PLANNER-COMMAND...`` runs in a Lab run
folder. It starts the planner (its output goes to the run's log), times it, then checks
``sas_plan`` (Fast Downward's plan file) with VAL, the field's validator, independent of symt's
own code, and exits with the planner's exit code so that Lab's exit-code parser sees the planner.
Folding the check into the same Lab command saves a second command per run (Lab polls each
command once a second). ``plan_check.json`` (written atomically, last) also marks the run as
finished: a run folder without it was interrupted and is run again on resume.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

PLAN_FILE = "sas_plan"
CHECK_FILE = "plan_check.json"


def check(domain: Path, problem: Path, run_dir: Path) -> dict:
    from ..val import run_val

    plan = run_dir / PLAN_FILE
    if not plan.exists():
        return {"plan_found": False, "plan_valid": None, "plan_steps": None, "plan_cost": None, "val": None}
    steps = sum(1 for line in plan.read_text().splitlines() if line.strip().startswith("("))
    try:
        verdict = run_val(domain, problem, plan, timeout=120)
        valid, output, cost = verdict.valid, verdict.output, verdict.value
    except Exception as error:  # noqa: BLE001 -- VAL missing or hanging: the plan stays unconfirmed
        valid, output, cost = False, f"VAL could not run: {error}", None
    tail = "\n".join(output.strip().splitlines()[-6:])
    return {"plan_found": True, "plan_valid": valid, "plan_steps": steps, "plan_cost": cost, "val": tail}


def _exit_code(returncode: int) -> int:
    # A signal death (negative in Python) is reported the way a shell would, as 128 + signal.
    return 128 - returncode if returncode < 0 else returncode


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 4 or args[2] != "--":
        print("usage: python -m symt.experiments.check_plan DOMAIN PROBLEM -- COMMAND...", file=sys.stderr)
        return 2
    domain, problem, command = Path(args[0]), Path(args[1]), args[3:]
    run_dir = Path.cwd()
    start = time.perf_counter()
    process = subprocess.Popen(command)
    # Lab stops a run with SIGTERM to the process group; pass it on and wait for the planner.
    signal.signal(signal.SIGTERM, lambda signum, frame: process.terminate())
    returncode = process.wait()
    sys.stdout.flush()
    print(f"planner wall time: {time.perf_counter() - start:.3f}s", flush=True)
    result = check(domain, problem, run_dir)
    if result["plan_found"] and not result["plan_valid"]:
        print(f"INVALID PLAN in {run_dir}:\n{result['val']}", file=sys.stderr)
    tmp = run_dir / (CHECK_FILE + ".tmp")
    tmp.write_text(json.dumps(result, indent=1) + "\n")
    tmp.replace(run_dir / CHECK_FILE)
    return _exit_code(returncode)


if __name__ == "__main__":
    sys.exit(main())
