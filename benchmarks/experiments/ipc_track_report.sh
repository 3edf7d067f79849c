#!/usr/bin/env bash
# The IPC 2023 learning track in one report (issue 35): every part in benchmarks/results/ipc-track/
# (easy, medium, and the hard parts that exist), later parts after the ones they rerun, so that
# `symt report --supersede` keeps the later runs; then issue 35's two targets over easy + medium.
#
#     bash benchmarks/experiments/ipc_track_report.sh     # writes benchmarks/results/ipc-all/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root/benchmarks/results/ipc-track"
parts=(spanner-easy childsnack-easy ferry-miconic-easy transport-blocksworld-easy new4-easy-baselines
       floortile-satellite-easy-symt rovers-easy-symt blocksworld-easy-symt sokoban-easy-symt
       spanner-medium)
for domain in childsnack ferry miconic transport blocksworld satellite floortile sokoban rovers; do
    parts+=("$domain-medium-baselines" "$domain-medium-symt")
done
parts+=(childsnack-medium-symt-split)   # reruns 14 of childsnack-medium-symt's runs
for domain in ferry miconic satellite transport blocksworld spanner childsnack floortile; do
    # symt-split: reruns with split forward passes; symt-fallback: reruns with the model symt()
    # picks for tasks over the domain model's vocabulary (Transport: the table model refused 8)
    for kind in baselines symt symt-split symt-fallback; do
        [ -f "$domain-hard-$kind/runs.csv" ] && parts+=("$domain-hard-$kind")
    done
done
files=()
for part in "${parts[@]}"; do files+=("$part/runs.csv"); done
"$root/.venv/bin/symt" report "${files[@]}" --supersede --out ../ipc-all --title "IPC 2023 learning track" \
    --limits "60 s and 4096 MiB per run" \
    --algorithms symt-first symt-first-lazy symt-batch wl ff ff-pref lama-first \
    --learned symt-batch --baselines ff wl ff-pref --analysis ipc-all-analysis.md
cd "$root"
.venv/bin/python benchmarks/experiments/ipc_track_criteria.py benchmarks/results/ipc-all/runs.csv \
    --levels easy medium > benchmarks/results/ipc-all/criteria.md
echo "criteria: benchmarks/results/ipc-all/criteria.md"
