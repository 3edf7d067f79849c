#!/usr/bin/env bash
# What ran on the lent GPU machine (one H100, 16 cores) for round 2 of the SymT-E recipe study
# (issue 12): every run of the round side by side, one torch thread each, on the one GPU. Builds
# symt's C++ core for the machine's Python first (symt is not installed there; lark travels as a
# wheel in .whl/), expects the datasets in data/ (carried: the paper domains from `symt generate`,
# the IPC ones from `symt ipc-dataset --plan-time 10`), and leaves best.pt, log.csv, config.json
# and curves.png of every run in $OUT as tarballs (the size limit is per file).
# Usage there: OUT=out TIME_LIMIT=440 bash benchmarks/device/recipe_gpu.sh [NAME ...]
# Round 5 ran as two calls: OUT=$OUT THREADS=2 TIME_BUDGET=380 TIME_LIMIT=480 bash benchmarks/device/recipe_gpu.sh \
#   ipc-bw-r5 ipc-fe-r5 ipc-mi-r5 ipc-tr-r5 ipc-bw-r5-w128 ipc-bw-r5-plans lg-r5 va-r5
# then OUT=$OUT THREADS=4 TIME_BUDGET=200 TIME_LIMIT=260 bash benchmarks/device/recipe_gpu.sh \
#   ipc-fe-r5-w128 ipc-mi-r5-w128 ipc-tr-r5-w128
# (TIME_BUDGET: seconds of training per run, loading excluded; TIME_LIMIT: the hard stop).
# Round 7 carried data/ (symt generate blocksworld, logistics, visitall) and .whl/, in two calls:
# OUT=$OUT THREADS=2 TIME_BUDGET=380 TIME_LIMIT=460 EXTRA="--eval-every 1000" bash benchmarks/device/recipe_gpu.sh \
#   bw-r6-hashed bw-r6-hashed-s1 bw-r7-hashed-w128 bw-r7-hashed-b256 va-r7 lg-r7-medium
# then OUT=$OUT THREADS=4 TIME_BUDGET=250 TIME_LIMIT=300 EXTRA="--eval-every 1000" bash benchmarks/device/recipe_gpu.sh \
#   bw-r7-hashed-w128-s1 bw-r7-hashed-w128-b256 va-r7-w128
set -uo pipefail
out=${OUT:?set OUT}
source "$(dirname "$0")/prepare.sh"
runs=${RUNS:-/tmp/recipe-runs}
mkdir -p "$runs" "$out"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(bw-r2 bw-r2-s1 bw-r2-nocl bw-r2-hashed bw-r2-L8 bw-r2-L12 bw-r2-w128
                                  bw-r2-w128-L8 bw-r2-b128 lg-r2 lg-r2-w128-L8 va-r2
                                  ipc-blocksworld ipc-ferry ipc-miconic ipc-transport)
RUNS=$runs THREADS=${THREADS:-1} TIME_LIMIT=${TIME_LIMIT:-0} TIME_BUDGET=${TIME_BUDGET:-0} bash benchmarks/training/recipe_study.sh "${names[@]}" > "$runs/round.out" 2>&1
grep "exit" "$runs/round.out"
for name in "${names[@]}"; do
  tail -1 "$runs/$name/log.csv" 2>/dev/null | cut -c1-220 | sed "s/^/$name: /"
  grep -m1 -i "error" "$runs/$name.log" | sed "s/^/$name: /"
done
nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader 2>/dev/null
cd "$runs" || exit 1
tar czf "$out/bw-models.tgz" $(ls -d bw-*/best.pt 2>/dev/null)
tar czf "$out/other-models.tgz" $(ls -d lg-*/best.pt va-*/best.pt ipc-*/best.pt 2>/dev/null)
tar czf "$out/logs.tgz" round.out *.log */log.csv */config.json */curves.png 2>/dev/null
ls -la "$out"
