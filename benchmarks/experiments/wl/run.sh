#!/usr/bin/env bash
# Issue 33's measurements: the WL baseline (wl(), WL-GOOSE) beside SymT-E, ff and lama-first,
# in the same runs, with the same limits as configs-paper / configs-ipc (60 s, 4 GiB per run).
#   bash benchmarks/experiments/wl/run.sh models     # the shipped WL models, into runs/wl/ (seconds each; datasets on first use)
#   bash benchmarks/experiments/wl/run.sh paper      # the paper's extrapolation split (74 tasks x 4 algorithms)
#   bash benchmarks/experiments/wl/run.sh ipc        # IPC 2023 easy + medium, 3 tasks per domain and level
#   bash benchmarks/experiments/wl/run.sh rankings   # where SymT-E and WL order successors differently
# Results go to benchmarks/results/wl/ (README.md there says what each answers).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
SYMT=${SYMT:-.venv/bin/symt}
PY=${PY:-.venv/bin/python}
RESULTS=benchmarks/results/wl
ALGORITHMS=(wl symt-batch ff lama-first)
case "${1:-}" in
models) $PY benchmarks/training/train_models.py 'wl/*' ;;   # prints the cp lines that ship them
paper)
    $SYMT experiment configs-paper --algorithms "${ALGORITHMS[@]}" --processes 1 \
        --out experiments/wl-configs-paper --results $RESULTS/paper ;;
ipc)
    $SYMT experiment configs-ipc --algorithms "${ALGORITHMS[@]}" --max-tasks 3 --processes 1 \
        --out experiments/wl-configs-ipc --results $RESULTS/ipc ;;
rankings)
    $PY benchmarks/experiments/wl/compare_rankings.py --states-per-task 200 --out $RESULTS/rankings.md ;;
cost)
    $PY benchmarks/experiments/wl/per_state_cost.py $RESULTS/paper/runs.csv $RESULTS/ipc/runs.csv ;;
*) echo "usage: $0 models|paper|ipc|rankings|cost" >&2; exit 2 ;;
esac
