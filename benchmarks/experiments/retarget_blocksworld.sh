#!/usr/bin/env bash
# The paper-domain Blocksworld model on IPC 2023 Blocksworld, which is the same domain with two
# predicates renamed (symt retarget), against the IPC model trained on IPC training problems:
# the exact commands behind benchmarks/results/configs/retarget/README.md.
# Parts: `easy` (plain GBFS, all 30 easy tasks, against ff) and `medium` (symt-first and
# symt-first-lazy, all 30 medium tasks, against ff-pref and lama-first). 60 s, 4 GiB, two runs at
# a time. OLD: the IPC model to compare with (default: the one shipped before the swap, from git
# at b3c0b98). `medium` resumes from context_cache/lazy30's run (eval_ipc.py --resume), so its
# baselines and the old model's symt-first-lazy runs are that run's.
# Usage: bash benchmarks/experiments/retarget_blocksworld.sh [easy] [medium]
set -euo pipefail
py=${PYTHON:-.venv/bin/python}
out=${OUT:-benchmarks/results/configs/retarget}
work=${WORK:-runs/retarget}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(easy medium)
mkdir -p "$out" "$work"
old=${OLD:-$work/ipc2023-blocksworld-before.pt}
[ -f "$old" ] || git show "b3c0b98:python/symt/models/ipc2023-blocksworld.pt" > "$old"
paper=$work/blocksworld-as-ipc.pt
.venv/bin/symt retarget blocksworld ../shared/benchmarks/ipc2023-learning/blocksworld/domain.pddl "$paper"
for part in "${parts[@]}"; do
  case $part in
    easy)
      "$py" benchmarks/training/eval_ipc.py --domain blocksworld --levels easy \
        --models "shipped=$old" "paper=$paper" --baselines ff --max-tasks 30 --time-limit 60 \
        --processes 2 --resume --out "$out/easy-blocksworld" ;;
    medium)
      [ -f "$out/medium-blocksworld.json" ] \
        || git show 5aeac4e:benchmarks/results/context_cache/lazy30/medium-blocksworld.json > "$out/medium-blocksworld.json"
      "$py" benchmarks/training/eval_ipc.py --domain blocksworld --levels medium \
        --models "shipped=$old" "paper=$paper" --symt-searches symt-first-lazy symt-first \
        --baselines ff-pref lama-first --max-tasks 30 --time-limit 60 --processes 2 --resume \
        --out "$out/medium-blocksworld" ;;
    *) echo "unknown part: $part" >&2; exit 2 ;;
  esac
done
