#!/usr/bin/env bash
# What ran on the lent GPU machine (one H200, 16 cores) to train the shipped plan generators and
# the ablation models side by side: SymT-ED without the contrastive loss, PlanGPT with and without
# it, SymT-E without it. Each row of benchmarks/training/models.toml named in NAMES runs in its own
# benchmarks/training/train_models.py (python3 >= 3.11), all at once, one thread and TIME_LIMIT
# seconds each. Builds symt's C++ core for the machine's Python first (symt is not installed
# there), then leaves best.pt + log.csv of every run in $OUT as tarballs (size limit per file).
# Usage there: OUT=out TIME_LIMIT=430 NAMES="gripper-plangpt.pt ..." bash benchmarks/device/plan_models.sh
# (NAMES default: the 16 rows that came from this machine; benchmarks/results/training/plan_models.md
# gives the two calls as they were split)
set -uo pipefail
out=${OUT:?set OUT}
source "$(dirname "$0")/prepare.sh"
runs=${RUNS:-/tmp/plan-runs}
mkdir -p "$runs" "$out"
nvidia-smi --query-gpu=name,memory.used --format=csv 2>/dev/null | tail -1
names=(${NAMES:-gripper-ed-nocl.pt blocksworld-ed-nocl.pt logistics-ed-nocl.pt visitall-ed-nocl.pt
       gripper-plangpt.pt blocksworld-plangpt.pt logistics-plangpt.pt visitall-plangpt.pt
       gripper-plangpt-cl.pt blocksworld-plangpt-cl.pt logistics-plangpt-cl.pt visitall-plangpt-cl.pt
       gripper-nocl.pt blocksworld-nocl.pt logistics-nocl.pt visitall-nocl.pt})
pids=()
for name in "${names[@]}"; do
  python3 benchmarks/training/train_models.py "$name" --runs "$runs" --threads "${THREADS:-1}" \
    --time-limit "${TIME_LIMIT:-0}" > "$runs/${name%.pt}.log" 2>&1 &
  pids+=($!)
done
wait "${pids[@]}"
grep -h "exited\|stopped\|error" "$runs"/*.log
for run in "$runs"/*/; do
  name=$(basename "$run")
  tail -2 "$run/log.csv" 2>/dev/null | cut -c1-200 | sed "s/^/$name: /"
done
( cd "$runs" && tar czf "$out/plan-models.tgz" $(ls -d *-ed/best.pt *-ed-nocl/best.pt *-plangpt/best.pt 2>/dev/null) )
( cd "$runs" && tar czf "$out/ablation-models.tgz" $(ls -d *-plangpt-cl/best.pt *-nocl/best.pt 2>/dev/null | grep -v -- -ed-nocl) )
( cd "$runs" && tar czf "$out/logs.tgz" *.log */log.csv */config.json */curves.png 2>/dev/null )
ls -la "$out"
