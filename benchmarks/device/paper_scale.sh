#!/usr/bin/env bash
# Issue 34, one device call (at most ~9.5 minutes, one H100/H200): the GPU training path measured,
# then paper-preset SymT-E trained on Visitall (and on Logistics while time is left), each
# evaluated on the GPU against today's shipped model on the same splits, in the same call.
#
#   1. throughput: benchmarks/speed/bench_gpu_training.py (small, medium and paper presets of
#      SymT-E and SymT-ED; MFU against a bf16 matrix product measured in the same run);
#   2. `symt train DATA --preset paper` with bf16 autocast, fused AdamW, 14 batch workers, length
#      buckets and a wall-clock budget (the cosine schedule ends where the budget does);
#   3. greedy guidance on validation, interpolation and every 10th extrapolation task, all tasks
#      of a split in lockstep on the GPU (benchmarks/training/eval_greedy.py), for the new model and
#      for the shipped one;
#   4. brings back the model weights (fp32, without optimiser state, split into 15 MiB parts:
#      join with `cat NAME.pt.part-* > NAME.pt`), the training log, curves and evaluations.
#
# Carried: data/visitall and data/logistics (`symt generate`), .whl/ (lark). Usage there:
#   OUT=$OUT bash benchmarks/device/paper_scale.sh
# CPU rehearsal (tiny sizes, seconds): REHEARSAL=1 OUT=/tmp/out SKIP_BUILD=1 SYMT=".venv/bin/symt" \
#   PY=.venv/bin/python bash benchmarks/device/paper_scale.sh
set -uo pipefail
out=${OUT:?set OUT}
mkdir -p "$out"
started=$(date +%s)
deadline=${DEADLINE:-560}  # seconds after the start by which everything, packing included, is done
elapsed() { echo $(( $(date +%s) - started )); }
source "$(dirname "$0")/prepare.sh"
py=${PY:-python3}
case $py in */*) py=$(cd "$(dirname "$py")" && pwd)/$(basename "$py") ;; esac  # used from another folder too
export PYTHONUNBUFFERED=1
runs=${RUNS:-/tmp/paper-scale}
rm -rf "$runs" && mkdir -p "$runs"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
echo "built in $(elapsed) s"

if [ -n "${REHEARSAL:-}" ]; then
  device=cpu
  bench=(--device cpu --seconds 2 --warmup 1 --workers 1 --override d_model=16 d_ff=32 n_heads=2 n_layers=2 d_embed=8
         --configs symt-e:paper:16:4 symt-ed:paper:8)
  size=(--d-model 16 --d-ff 32 --n-heads 2 --n-layers 2 --device cpu --workers 1 --batch-size 16 --steps 20 --eval-every 10)
  strides=(--strides validation=10 interpolation=10 extrapolation=100)
else
  device=cuda
  read -r -a configs <<< "${BENCH_CONFIGS:-symt-e:small:512:8 symt-e:medium:512:8 symt-e:paper:512:8 symt-e:paper:512 symt-ed:small:256 symt-ed:paper:128}"
  bench=(--seconds 6 --configs "${configs[@]}")
  # Batch 512 (8x the paper's 64), so the paper's 1e-4 scaled by about sqrt(8) and rounded down
  # (no layer norm, 12 applications of one layer: the paper's architecture, kept stable by
  # clipping); warm-up 100 steps (51,200 samples, about the paper's 2,000 x 64 / 2.5).
  size=(--batch-size 512 --lr 2e-4 --warmup 100 --steps 20000 --eval-every 150 --length-buckets 8)
  strides=(--strides extrapolation=10)
fi

# 1. Throughput (its own time limit, so a hang cannot eat the training).
timeout "${BENCH_LIMIT:-130}" "$py" benchmarks/speed/bench_gpu_training.py --data data/visitall "${bench[@]}" \
  --out "$runs/bench.json" > "$runs/bench.md" 2> "$runs/bench.log" || echo "bench: exit $? (see bench.log)"
cat "$runs/bench.md"
echo "bench done at $(elapsed) s"

# 2.-3. Train and evaluate one domain: NAME DATA SHIPPED BUDGET EXTRA...
train_and_evaluate() {
  local name=$1 data=$2 shipped=$3 budget=$4
  shift 4
  local run=$runs/$name
  echo "== $name: training budget $budget s (at $(elapsed) s)"
  timeout $((budget + 120)) $SYMT train "$data" --preset paper --object-identity hashed --w-rank 1 --seed 0 \
    --coverage-tasks 10 --time-budget "$budget" --quiet --out "$run" "${size[@]}" "${extra[@]}" "$@" > "$run.log" 2>&1 \
    || echo "$name: training exit $? ($(tail -2 "$run.log" | tr '\n' ' '))"
  tail -3 "$run.log"
  [ -f "$run/best.pt" ] || return 0
  local models=("$run/best.pt")
  [ -n "${SKIP_SHIPPED:-}" ] || models+=("$shipped")  # evaluated in an earlier call already
  for model in "${models[@]}"; do
    label=$([ "$model" = "$shipped" ] && echo shipped || echo paper)
    (cd benchmarks/training && timeout 150 "$py" eval_greedy.py --model "$model" --model-label "$name-$label" \
      --data "../../$data" --device $device "${strides[@]}" --json "$run/greedy-$label.json") \
      2> "$run/greedy-$label.log" | tee -a "$runs/greedy.md" || echo "$name-$label: evaluation exit $?"
  done
  # The weights alone (fp32), in parts that fit the 16 MiB limit on returned files.
  "$py" - "$run/best.pt" "$run/model.pt" <<'EOF'
import sys, torch
checkpoint = torch.load(sys.argv[1], map_location="cpu", weights_only=False)
checkpoint.pop("optimizer", None)
torch.save(checkpoint, sys.argv[2])
EOF
  split -b 15M "$run/model.pt" "$out/$name.pt.part-"
  tar czf "$out/$name-run.tgz" -C "$runs" "$name.log" "$name/log.csv" "$name/curves.png" $(cd "$runs" && ls "$name"/greedy-* 2>/dev/null)
  echo "$name done at $(elapsed) s"
}

# EXTRA: training options beyond the paper preset (the second call: the input options of the
# shipped visitall-shared recipe); SHIPPED_VISITALL: the shipped model evaluated beside it.
read -r -a extra <<< "${EXTRA:-}"
left=$(( deadline - $(elapsed) ))
if [ -n "${VISITALL_ONLY:-}" ]; then
  budget=$(( left - ${EVAL_RESERVE:-100} ))
else
  budget=$(( left > 400 ? 210 : left - ${EVAL_RESERVE:-100} ))
fi
train_and_evaluate visitall-paper data/visitall "${SHIPPED_VISITALL:-visitall}" "$budget"
left=$(( deadline - $(elapsed) ))
if [ "$left" -gt 170 ] && [ -z "${VISITALL_ONLY:-}" ]; then
  train_and_evaluate logistics-paper data/logistics logistics $(( left - 120 ))
else
  echo "logistics-paper: skipped, $left s left"
fi
tar czf "$out/bench.tgz" -C "$runs" bench.json bench.md bench.log greedy.md 2>/dev/null
ls -la "$out"
echo "total $(elapsed) s"
echo
cat "$runs/bench.md"
echo
cat "$runs/greedy.md" 2>/dev/null
