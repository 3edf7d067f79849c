#!/usr/bin/env bash
# Set up (idempotent) and run the test suite. Extra arguments go to pytest.
#   bash scripts/test.sh           everything (what CI runs)
#   bash scripts/test.sh --fast    the fast tier for the edit loop: no Fast Downward runs, no
#                                  training, nothing else slow (markers fd, train, slow; pyproject.toml)
set -euo pipefail
tier=()
if [ "${1:-}" = "--fast" ]; then
    shift
    tier=(-m "not fd and not train and not slow" -q)
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
cd "$root"
echo "[test] ruff"
.venv/bin/ruff check python tests benchmarks
echo "[test] import layers (pyproject.toml, [tool.importlinter])"
.venv/bin/lint-imports
echo "[test] pytest"
exec .venv/bin/python -m pytest "${tier[@]}" "$@"
