#!/usr/bin/env bash
# Trains the plan generators (SymT-ED and the PlanGPT baseline, small preset) on the paper's domains.
# Usage: SYMT="python -m symt.cli" RUNS=runs bash benchmarks/train_plan_models.sh [domain-kind ...]
# where domain-kind is e.g. gripper-ed or visitall-plangpt (default: all eight).
set -uo pipefail
symt=${SYMT:-.venv/bin/symt}
runs=${RUNS:-runs}
limit=${TIME_LIMIT:-0}           # seconds per run (0: none); a killed run keeps its best model
threads=${THREADS:-1}
steps=${STEPS:-12000}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(gripper-ed blocksworld-ed logistics-ed visitall-ed
                                 gripper-plangpt blocksworld-plangpt logistics-plangpt visitall-plangpt)
mkdir -p "$runs"
pids=()
for name in "${names[@]}"; do
  domain=${name%-*}
  case ${name##*-} in ed) kind=symt-ed ;; plangpt) kind=plangpt ;; *) echo "unknown model $name"; exit 2 ;; esac
  cmd="$symt train-plans $domain --kind $kind --preset small --seed 0 --steps $steps --lr 1e-3 --eval-every 500 --coverage-tasks 5 --threads $threads --quiet --out $runs/$name"
  echo "[train] $cmd"
  if [ "$limit" -gt 0 ]; then cmd="timeout $limit $cmd"; fi
  ( start=$(date +%s); $cmd > "$runs/$name.log" 2>&1; rc=$?
    echo "[train] $name exit $rc after $(( $(date +%s) - start )) s" | tee -a "$runs/$name.log" ) &
  pids+=($!)
done
wait "${pids[@]}"
