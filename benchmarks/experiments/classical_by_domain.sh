#!/usr/bin/env bash
# The full `classical` experiment (issue 60: every second task of the 14 folders, six algorithms,
# 60 s and 4 GiB per run; about 1,100 runs) in parts, one folder at a time, so that work cut short by
# a session's end keeps every folder that finished. Each finished folder's runs are copied to
# benchmarks/results/classical/full/parts/FOLDER.csv; a folder that has its part is skipped when the
# script is run again. When every folder has one, the report is made from the parts:
#
#   symt report benchmarks/results/classical/full/parts/*.csv --out benchmarks/results/classical/full ...
#
# Usage: bash benchmarks/experiments/classical_by_domain.sh DWB [WORK] [PROCESSES]
#   DWB   a copy of the 14 folders of aibasel/downward-benchmarks (symt.experiments.registry.CLASSICAL_FOLDERS)
#   WORK  experiment folders, one per domain (default runs/classical-parts; Lab resumes within one)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dwb="${1:?usage: classical_by_domain.sh DWB [WORK] [PROCESSES]}"
work="${2:-runs/classical-parts}"
processes="${3:-2}"
parts="$root/benchmarks/results/classical/full/parts"
symt="$root/.venv/bin/symt"
mkdir -p "$parts"
folders=$("$root/.venv/bin/python" -c "from symt.experiments.registry import CLASSICAL_FOLDERS as f; print(*f)")
for folder in $folders; do
    if [ -f "$parts/$folder.csv" ]; then
        echo "[classical] $folder: part exists, skipped"
        continue
    fi
    echo "[classical] $folder: $(date -u +%H:%M) start"
    "$symt" experiment classical --classical-root "$dwb" --domains "$folder" --processes "$processes" \
        --out "$work/$folder"
    # Written to a temporary name first, so that an interrupted copy never counts as a finished part.
    cp "$work/$folder/report/runs.csv" "$parts/$folder.csv.tmp"
    mv "$parts/$folder.csv.tmp" "$parts/$folder.csv"
    echo "[classical] $folder: $(date -u +%H:%M) done"
done
echo "[classical] every folder has its part in $parts"
