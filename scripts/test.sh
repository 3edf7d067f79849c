#!/usr/bin/env bash
# Set up (idempotent) and run the test suite. Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
cd "$root"
echo "[test] ruff"
.venv/bin/ruff check python tests benchmarks
echo "[test] import layers (pyproject.toml, [tool.importlinter])"
.venv/bin/lint-imports
echo "[test] pytest"
exec .venv/bin/python -m pytest "$@"
