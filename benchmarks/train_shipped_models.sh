#!/usr/bin/env bash
# Trains the shipped SymT-E models (small preset) and their no-contrastive ablations (<domain>-nocl;
# the default list trains only gripper-nocl).
# The exact commands behind python/symt/models/*.pt; see benchmarks/results/shipped_models.md.
# Usage: SYMT="python -m symt.cli" RUNS=runs bash benchmarks/train_shipped_models.sh [domain ...]
set -uo pipefail
symt=${SYMT:-.venv/bin/symt}
runs=${RUNS:-runs}
limit=${TIME_LIMIT:-0}           # seconds per run (0: none); a killed run keeps its last checkpoint
threads=${THREADS:-1}
domains=("$@")
[ ${#domains[@]} -gt 0 ] || domains=(gripper blocksworld logistics visitall gripper-nocl)

declare -A extra=(
  [gripper]="--steps 12000 --lr 1e-3"
  [blocksworld]="--steps 16000 --lr 5e-4"
  [logistics]="--steps 12000 --lr 1e-3"
  [visitall]="--steps 12000 --lr 1e-3"
  [gripper-nocl]="--steps 12000 --lr 1e-3 --no-contrastive"
  [blocksworld-nocl]="--steps 16000 --lr 5e-4 --no-contrastive"
  [logistics-nocl]="--steps 12000 --lr 1e-3 --no-contrastive"
  [visitall-nocl]="--steps 12000 --lr 1e-3 --no-contrastive"
)
mkdir -p "$runs"
source "$(dirname "$0")/launch.sh"
for name in "${domains[@]}"; do
  domain=${name%-nocl}
  cmd="$symt train $domain --preset small --seed 0 --eval-every 1000 --threads $threads --quiet --out $runs/$name ${extra[$name]}"
  launch "$name" "$cmd"
done
wait "${pids[@]}"
