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
       floortile-satellite-easy-symt sokoban-easy-symt
       spanner-medium)
for domain in childsnack ferry miconic transport blocksworld satellite floortile sokoban rovers; do
    # A domain whose model was replaced has its symt parts in ../archive/ and newer ones below.
    for kind in baselines symt; do
        [ -f "$domain-medium-$kind/runs.csv" ] && parts+=("$domain-medium-$kind")
    done
done
parts+=(childsnack-medium-symt-split)   # reruns 14 of childsnack-medium-symt's runs
# Models shipped later (easy and medium with the model shipped now; rerun the older parts' runs).
parts+=(satellite-shared-symt blocksworld-shared-symt miconic-slots-symt)
# Ferry with achieved goals marked (2026-11-30): symt-first and symt-first-lazy here, symt-batch
# measured first as a candidate in ../readout/ferry-achieved/.
parts+=(ferry-achieved-symt ../readout/ferry-achieved)
# Transport with achieved goals marked (2026-11-30, later): every symt configuration measured first
# as a candidate in ../readout/ (symt-batch, then symt-first and symt-first-lazy); easy + medium.
parts+=(../readout/transport-achieved ../readout/transport-achieved-first)
# Transport warm-started on the 10M-state data (2026-11-30, sixteenth session: 500 steps, data order
# 2): the three symt configurations measured in one run beside the model it replaced
# (../readout/transport-same-run/, round 21).
parts+=(../readout/transport-same-run/r21-r21-warm-s2)
# Rovers with achieved goals marked (2026-11-30, later), measured the same way.
parts+=(../readout/rovers-achieved ../readout/rovers-achieved-first)
for domain in ferry miconic satellite transport blocksworld spanner childsnack floortile; do
    # symt-split: reruns with split forward passes; symt-fallback: reruns with the model symt()
    # picks for tasks over the domain model's vocabulary; shared-symt and slots-symt: the models
    # shipped later (the shared-object bias, 2026-11-29; the object-slots bias, 2026-11-30;
    # achieved goals, 2026-11-30; warm start, 2026-11-30)
    for kind in baselines symt symt-split symt-fallback shared-symt slots-symt achieved-symt warm-symt; do
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
