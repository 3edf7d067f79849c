#!/usr/bin/env bash
# Does the canonical object order (symt.tokens.canonical_assignment, issue 60) change SymT-E's
# guidance? The shipped paper-domain models inside Fast Downward (plain GBFS `symt-batch` and
# `symt-first`) on the configs-paper tasks (the paper's extrapolation split, 74 tasks), once with
# objects tokenised in file order (object i -> token i, as before the change: the switch
# benchmarks/experiments/file_order/sitecustomize.py on PYTHONPATH) and once in the canonical
# order, the same code and Fast Downward build otherwise, 60 s and 4 GiB, two runs at a time; then
# a table of coverage and expansions. The commands behind benchmarks/results/robustness/object_order/.
# Usage: bash benchmarks/experiments/object_order.sh
set -euo pipefail
py=${PYTHON:-.venv/bin/python}
out=${OUT:-benchmarks/results/robustness/object_order}
work=${WORK:-runs/object_order}
mkdir -p "$out" "$work"
for version in file canonical; do
  switch=""
  [ "$version" = file ] && switch=$PWD/benchmarks/experiments/file_order
  # Check that the switch is on exactly where it should be before spending an hour.
  PYTHONPATH=$switch "$py" -c "import symt.tokens as t; print('$version arm, tokens from:', t.EncodedTask.assignment.func.__name__)"
  PYTHONPATH=$switch "$py" -m symt.cli experiment configs-paper --algorithms symt-batch symt-first \
    --processes 2 --out "$work/$version" --results "$work/$version-results"
  cp "$work/$version-results/runs.csv" "$out/runs-$version-order.csv"
done
"$py" benchmarks/experiments/compare_runs.py "$out/runs-file-order.csv" "$out/runs-canonical-order.csv" \
  --names "file order" "canonical order" | tee "$out/comparison.md"
