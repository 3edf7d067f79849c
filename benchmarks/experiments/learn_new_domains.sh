#!/usr/bin/env bash
# `symt learn` on classical domains symt ships no model for (issue 61): Driverlog, Zenotravel and
# Depot of Fast Downward's benchmark collection (a copy of aibasel/downward-benchmarks in
# $CLASSICAL), from their smallest problems, judged on the next 8 (`--held-out 8`: the 8 largest
# given), 60 s per run, 12 minutes of training. Settings: p01-p12 (learns from p01-p04) and p01-p16
# (learns from p01-p08); run folders $WORK/<domain>-p01-p<N>. The commands behind
# benchmarks/results/learn/.
# A run named <domain>-<setting>-expanded adds --no-validate-on-plans (the largest expandable
# problem validates), -s1 --seed 1 (both: -expanded-s1).
# Usage: CLASSICAL=runs/dwb bash benchmarks/experiments/learn_new_domains.sh [run ...]
#   e.g. ... driverlog-12 zenotravel-12-s1 (default: the list below, one after the other: they
#   time their training, so two side by side would each get half the steps)
set -euo pipefail
classical=${CLASSICAL:-runs/dwb}
work=${WORK:-runs/learn}
out=${OUT:-benchmarks/results/learn}
mkdir -p "$work" "$out"
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(driverlog-12 zenotravel-12 driverlog-16 depot-12 zenotravel-16)
for item in "${runs[@]}"; do
  IFS=- read -r domain setting variant <<< "$item"
  options=(); suffix=${variant:+-$variant}
  [[ $variant == expanded* ]] && options+=(--no-validate-on-plans)
  [[ $variant == *s1 ]] && options+=(--seed 1)
  problems=$work/$domain-p01-p$setting-problems; run=$work/$domain-p01-p$setting$suffix
  mkdir -p "$problems"
  for i in $(seq -w 1 "$setting"); do cp "$classical/$domain/p$i.pddl" "$problems/"; done
  [ -f "$run/verdict.json" ] || /usr/bin/time -v .venv/bin/symt learn "$classical/$domain/domain.pddl" \
    "$problems" --held-out 8 --minutes 12 "${options[@]}" --out "$run" > "$run.log" 2> "$run.err"
  cp "$run/verdict.json" "$out/$domain-p01-p$setting$suffix.json"
  cp "$run/run/log.csv" "$out/$domain-p01-p$setting$suffix-training.csv"
done
