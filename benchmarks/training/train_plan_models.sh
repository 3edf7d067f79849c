#!/usr/bin/env bash
# Trains the plan generators (SymT-ED and the PlanGPT baseline) on the paper's domains: the shipped
# <domain>-ed and <domain>-plangpt models, and the paper's ablations <domain>-ed-nocl (SymT-ED
# without the contrastive loss) and <domain>-plangpt-cl (PlanGPT with it).
# Usage: SYMT="python -m symt.cli" RUNS=runs bash benchmarks/training/train_plan_models.sh [name ...]
# where a name is e.g. gripper-ed, visitall-plangpt, logistics-ed-nocl (default: the eight shipped).
# Afterwards: cp $RUNS/<name>/best.pt python/symt/models/<name>.pt (planner files need no export).
set -uo pipefail
symt=${SYMT:-.venv/bin/symt}
runs=${RUNS:-runs}
limit=${TIME_LIMIT:-0}           # seconds per run (0: none); a killed run keeps its best model
threads=${THREADS:-1}
steps=${STEPS:-12000}
ed_steps=${ED_STEPS:-$steps}     # per-kind step counts (default: STEPS)
gpt_steps=${GPT_STEPS:-$steps}
batch=${BATCH:-64}
preset=${PRESET:-small}
extra=${EXTRA:-}                  # more train-plans options for every run, e.g. "--k 8 --w-att 0.1 --w-hid 0.1"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(gripper-ed blocksworld-ed logistics-ed visitall-ed
                                 gripper-plangpt blocksworld-plangpt logistics-plangpt visitall-plangpt)
mkdir -p "$runs"
source "$(dirname "$0")/launch.sh"
for name in "${names[@]}"; do
  case $name in
    *-ed) kind=symt-ed; contrastive=""; n=$ed_steps ;;
    *-ed-nocl) kind=symt-ed; contrastive="--no-contrastive"; n=$ed_steps ;;
    *-plangpt) kind=plangpt; contrastive="--no-contrastive"; n=$gpt_steps ;;   # the paper's PlanGPT: none
    *-plangpt-cl) kind=plangpt; contrastive=""; n=$gpt_steps ;;
    *) echo "unknown model $name"; exit 2 ;;
  esac
  domain=${name%%-*}
  cmd="$symt train-plans $domain --kind $kind --preset $preset --seed 0 --steps $n --batch-size $batch --lr 1e-3 --eval-every 500 --coverage-tasks 5 --threads $threads --quiet --out $runs/$name $contrastive $extra"
  launch "$name" "$cmd"
done
wait "${pids[@]}"
