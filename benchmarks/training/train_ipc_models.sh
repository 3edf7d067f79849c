#!/usr/bin/env bash
# Trains SymT-E (small preset) on IPC 2023 learning-track domains: the exact commands behind
# benchmarks/results/training/ipc_models.md and the models the `ipc` experiments use (models/ipc2023-<d>.pt).
# Usage: SYMT="python -m symt.cli" RUNS=runs IPC=../shared/benchmarks/ipc2023-learning \
#        bash benchmarks/training/train_ipc_models.sh [domain ...]
set -uo pipefail
symt=${SYMT:-.venv/bin/symt}
runs=${RUNS:-runs}
ipc=${IPC:-../shared/benchmarks/ipc2023-learning}
limit=${TIME_LIMIT:-0}           # seconds per run (0: none); a killed run keeps its best checkpoint
threads=${THREADS:-1}
vocab=${VOCAB:-160}              # covers every easy and medium test task of the four domains
domains=("$@")
[ ${#domains[@]} -gt 0 ] || domains=(blocksworld ferry miconic transport)
mkdir -p "$runs"
source "$(dirname "$0")/launch.sh"
for domain in "${domains[@]}"; do
  data=data/ipc2023-$domain
  [ -f "$data/manifest.json" ] || $symt ipc-dataset "$ipc/$domain" --out "$data" --quiet || exit 1
  cmd="$symt train $data --preset small --seed 0 --steps 12000 --lr 1e-3 --eval-every 1000 --vocab-size $vocab --threads $threads --quiet --out $runs/ipc2023-$domain"
  launch "ipc2023-$domain" "$cmd"
done
wait "${pids[@]}"
