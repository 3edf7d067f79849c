#!/usr/bin/env bash
# SymT-E for the six IPC 2023 domains that had none (issue 35), with the recipe of the best of the
# first four (round 5 of benchmarks/results/training/recipe-study.md: hashed objects, context attention, the hinge ranking
# loss, batch 128, exhaustive labels only) and a wall-clock budget per domain on this CPU.
# Usage: bash benchmarks/training/train_ipc_new_models.sh [domain ...]   (default: all six)
#   BUDGET=2700 (seconds of training per domain), THREADS=1, RUNS=runs
# Each run ends with its model exported to runs/ipc-<domain>-r10/ipc2023-<domain>.pt; shipping is a
# copy into python/symt/models/ after the evaluation (benchmarks/results/training/ipc_models.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
symt=${SYMT:-.venv/bin/symt}
ipc=${IPC:-../shared/benchmarks/ipc2023-learning}
budget=${BUDGET:-2700}
threads=${THREADS:-1}
runs=${RUNS:-runs}
domains=("$@")
[ ${#domains[@]} -gt 0 ] || domains=(childsnack floortile rovers satellite sokoban spanner)
for domain in "${domains[@]}"; do
    data=data/ipc2023-$domain-exhaustive
    # Exhaustive labels only: problems too large to expand are left out (--plan-time 0).
    [ -f "$data/manifest.json" ] || $symt ipc-dataset "$ipc/$domain" --out "$data" --plan-time 0 --quiet
    out=$runs/ipc-$domain-r10
    $symt train "$data" --preset small --seed 0 --batch-size 128 --lr 1e-3 --object-identity hashed \
        --w-rank 1 --rank-loss hinge --context-attention --steps 40000 --eval-every 500 \
        --time-budget "$budget" --threads "$threads" --quiet --out "$out"
    $symt export "$out/best.pt" "$out/ipc2023-$domain.pt"
done
