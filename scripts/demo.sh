#!/usr/bin/env bash
# Set up (idempotent) and run the main job. Extra arguments go to `symt demo`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
exec "$root/.venv/bin/symt" demo "$@"
