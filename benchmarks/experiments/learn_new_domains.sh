#!/usr/bin/env bash
# `symt learn` on classical domains symt ships no model for (issue 61): Driverlog and Zenotravel
# of Fast Downward's benchmark collection (a copy of aibasel/downward-benchmarks in $CLASSICAL),
# from their smallest problems, judged on the next 8 (`--held-out 8`: the 8 largest given), 60 s
# per run, 12 minutes of training. Two settings: p01-p12 (learns from p01-p04; run folder
# $WORK/<domain>) and p01-p16 (learns from p01-p08; $WORK/<domain>-8). The commands behind
# benchmarks/results/learn/.
# Usage: CLASSICAL=runs/dwb bash benchmarks/experiments/learn_new_domains.sh
set -euo pipefail
classical=${CLASSICAL:-runs/dwb}
work=${WORK:-runs/learn}
out=${OUT:-benchmarks/results/learn}
mkdir -p "$work" "$out"
for setting in 12 16; do
  for domain in driverlog zenotravel; do
    problems=$work/$domain-problems; run=$work/$domain
    [ "$setting" = 16 ] && problems=$work/$domain-16 && run=$work/$domain-8
    mkdir -p "$problems"
    for i in $(seq -w 1 "$setting"); do cp "$classical/$domain/p$i.pddl" "$problems/"; done
    [ -f "$run/verdict.json" ] || /usr/bin/time -v .venv/bin/symt learn "$classical/$domain/domain.pddl" \
      "$problems" --held-out 8 --minutes 12 --out "$run" > "$run.log" 2> "$run.err"
    cp "$run/verdict.json" "$out/$domain-p01-p$setting.json"
    cp "$run/run/log.csv" "$out/$domain-p01-p$setting-training.csv"
  done
done
# Goal subsets (--goal-subsets 8): Driverlog p01-p12 again, eight extra training problems per
# expanded one.
run=$work/driverlog-goals
[ -f "$run/verdict.json" ] || /usr/bin/time -v .venv/bin/symt learn "$classical/driverlog/domain.pddl" \
  "$work/driverlog-problems" --held-out 8 --minutes 12 --goal-subsets 8 --out "$run" > "$run.log" 2> "$run.err"
cp "$run/verdict.json" "$out/driverlog-p01-p12-goal-subsets.json"
cp "$run/run/log.csv" "$out/driverlog-p01-p12-goal-subsets-training.csv"
