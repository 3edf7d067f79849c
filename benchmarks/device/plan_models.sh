#!/usr/bin/env bash
# What ran on the lent GPU machine (one H200, 16 cores) to train the shipped plan generators and
# the ablation models side by side: 8 SymT-ED / PlanGPT models, 8 ablations, 4 SymT-E without the
# contrastive loss. Builds symt's C++ core for the machine's Python first (symt is not installed
# there), then leaves best.pt + log.csv of every run in $OUT as two tarballs (size limit per file).
# Usage there: OUT=out TIME_LIMIT=420 STEPS=5000 bash benchmarks/device/plan_models.sh
set -uo pipefail
out=${OUT:?set OUT}
source "$(dirname "$0")/prepare.sh"
runs=${RUNS:-/tmp/plan-runs}
mkdir -p "$runs" "$out"
nvidia-smi --query-gpu=name,memory.used --format=csv 2>/dev/null | tail -1
plan_names=(${PLAN_NAMES:-gripper-ed blocksworld-ed logistics-ed visitall-ed gripper-plangpt blocksworld-plangpt
            logistics-plangpt visitall-plangpt gripper-ed-nocl blocksworld-ed-nocl logistics-ed-nocl
            visitall-ed-nocl gripper-plangpt-cl blocksworld-plangpt-cl logistics-plangpt-cl visitall-plangpt-cl})
RUNS=$runs bash benchmarks/training/train_plan_models.sh "${plan_names[@]}" > "$runs/plan.out" 2>&1 &
plan=$!
RUNS=$runs bash benchmarks/training/train_shipped_models.sh ${NOCL_NAMES:-gripper-nocl blocksworld-nocl logistics-nocl visitall-nocl} \
  > "$runs/nocl.out" 2>&1 &
nocl=$!
wait $plan $nocl
cat "$runs/plan.out" "$runs/nocl.out" | grep "exit"
for run in "$runs"/*/; do
  name=$(basename "$run")
  tail -2 "$run/log.csv" 2>/dev/null | cut -c1-200 | sed "s/^/$name: /"
done
( cd "$runs" && tar czf "$out/plan-models.tgz" $(ls -d *-ed/best.pt *-ed-nocl/best.pt *-plangpt/best.pt 2>/dev/null) )
( cd "$runs" && tar czf "$out/ablation-models.tgz" $(ls -d *-plangpt-cl/best.pt *-nocl/best.pt 2>/dev/null | grep -v -- -ed-nocl) )
( cd "$runs" && tar czf "$out/logs.tgz" *.log */log.csv */config.json */curves.png 2>/dev/null )
ls -la "$out"
