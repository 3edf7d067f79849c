#!/usr/bin/env bash
# Issue 15, direction 1: IPC 2023 models with a cached state-independent context against today's
# (shipped) models, inside Fast Downward. The exact commands behind
# benchmarks/results/speed/context_cache/README.md. Models: RUNS=runs/study bash
# benchmarks/training/recipe_study.sh ipc-tr-ctx ipc-bw-ctx ipc-mi-ctx (each run's best.pt is
# exported to model.pt by eval_ipc.py).
# Directions 3 and 4 (parts `student`, `student-medium`): the distilled students of recipe_study.sh
# (ipc-<d>-student: 32 wide, 2 layers; ipc-<d>-half: the teacher's width, 2 layers, from its
# weights) and several expansions per forward pass (K = 8). RESUME=1: keep the runs of earlier
# results with the same searches (eval_ipc.py --resume), to add a student to a finished run.
# Part `lazy`: the shipped models with deferred evaluation (symt-first-lazy) on all 30 medium tasks;
# `lazy-hard`: the same on section 5's hard tasks.
# Part `fold` (direction 2): Transport models whose type atoms are folded into the objects.
# Usage: [DOMAINS="miconic ..."] bash benchmarks/experiments/context_study.sh [speed] [easy] [medium] [hard] [student] [student-medium] [lazy] [lazy-hard] [fold]
set -euo pipefail
py=${PYTHON:-.venv/bin/python}
runs=${RUNS:-runs/study}
out=${OUT:-benchmarks/results/speed/context_cache}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(speed easy medium hard)
declare -A short=([blocksworld]=bw [miconic]=mi [transport]=tr [ferry]=fe)
# Today's model: the IPC model shipped before this study (commit 004766c), from git, since the
# shipped ipc2023-miconic is a context model now.
before() {
  local path=$runs/ipc2023-$1-before.pt
  [ -f "$path" ] || git show "004766c:python/symt/models/ipc2023-$1.pt" > "$path"
  echo "shipped=$path"
}
model() {  # LABEL=PATH: the context model of a domain where one was trained, else the shipped one
  local run=$runs/ipc-${short[$1]}-ctx
  if [ -f "$run/best.pt" ]; then echo "context=$run"; else echo "shipped=ipc2023-$1"; fi
}
students() {  # LABEL=PATH for each trained student run of a domain (STUDENTS: which ones)
  for name in ${STUDENTS:-student half}; do
    if [ -f "$runs/ipc-${short[$1]}-$name/best.pt" ]; then echo "$name=$runs/ipc-${short[$1]}-$name"; fi
  done
}
speed_and_easy() {  # NAME DOMAIN "K ..." LABEL=PATH...: plain GBFS, evaluations/s on every 5th
                    # medium task with K expansions per batch, guidance on every 3rd easy task with K = 1
  local name=$1 d=$2 ks=$3
  shift 3
  $py benchmarks/training/eval_ipc.py --domain "$d" --levels medium --max-tasks 6 --time-limit 60 \
    --expansions-per-batch $ks --no-baselines --processes 2 ${RESUME:+--resume} --models "$@" --out "$out/$name-speed-$d"
  $py benchmarks/training/eval_ipc.py --domain "$d" --levels easy --max-tasks 10 --time-limit 60 \
    --expansions-per-batch 1 --no-baselines --processes 2 ${RESUME:+--resume} --models "$@" --out "$out/$name-easy-$d"
}
mkdir -p "$out"
for part in "${parts[@]}"; do
  case $part in
    speed)  # plain GBFS, the same expansion order for both models (K = 1), every 5th medium task
      for d in ${DOMAINS:-miconic transport blocksworld}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels medium --max-tasks 6 --time-limit 60 \
          --expansions-per-batch 1 --no-baselines \
          --models "$(before "$d")" "$(model "$d")" --out "$out/speed-$d"
      done ;;
    easy)  # guidance where both models solve tasks: plain GBFS as in `speed`, every 3rd easy task
      for d in ${DOMAINS:-miconic transport blocksworld}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels easy --max-tasks 10 --time-limit 60 \
          --expansions-per-batch 1 --no-baselines \
          --models "$(before "$d")" "$(model "$d")" --out "$out/easy-$d"
      done ;;
    medium)  # coverage: every 5th medium task (MEDIUM_TASKS=30: all), symt-first against ff-pref, ff, lama-first
      for d in ${DOMAINS:-blocksworld ferry miconic transport}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels medium --max-tasks "${MEDIUM_TASKS:-6}" --time-limit 60 \
          --symt-searches symt-first --models "$(model "$d")" --out "$out/medium-$d"
      done ;;
    hard)  # whatever it shows: every 10th hard task (HARD_TASKS=2: every 15th)
      for d in ${DOMAINS:-blocksworld ferry miconic transport}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels hard --max-tasks "${HARD_TASKS:-3}" --time-limit 60 \
          --symt-searches symt-first --models "$(model "$d")" --out "$out/hard-$d"
      done ;;
    student)  # evaluations/s and guidance: today's, context and student models, K = 1 and 8
      for d in ${DOMAINS:-blocksworld transport}; do
        speed_and_easy student "$d" "1 8" "$(before "$d")" "context=$runs/ipc-${short[$d]}-ctx" $(students "$d")
      done ;;
    fold)  # direction 2: type atoms folded into the objects (recipe_study.sh ipc-tr-fold, ipc-tr-fold3)
           # against today's model and the shipped context model, as in `speed` and `easy`
      for d in ${DOMAINS:-transport}; do
        speed_and_easy fold "$d" 1 "$(before "$d")" "context=ipc2023-$d" $(STUDENTS="fold fold3" students "$d")
      done ;;
    student-medium)  # coverage of symt-first with the student, as in `medium`
      for d in ${DOMAINS:-blocksworld transport}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels medium --max-tasks "${MEDIUM_TASKS:-6}" --time-limit 60 \
          --symt-searches symt-first --processes 2 ${RESUME:+--resume} --models $(students "$d") --out "$out/student-medium-$d"
      done ;;
    lazy)  # all 30 medium tasks: symt-first-lazy (symt() once per expanded state) with the shipped
           # model against ff-pref and lama-first; symt-first's all-30 runs are in recipe_study/round5
      for d in ${DOMAINS:-miconic transport blocksworld ferry}; do
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels medium --max-tasks 30 --time-limit 60 \
          --symt-searches symt-first-lazy --baselines ff-pref lama-first --processes 2 ${RESUME:+--resume} \
          --models "shipped=ipc2023-$d" --out "$out/lazy30/medium-$d"
      done ;;
    lazy-hard)  # section 5's hard tasks (Transport left out: its translator alone exceeds 60 s)
      for d in ${DOMAINS:-miconic blocksworld ferry}; do
        tasks=2; [ "$d" = miconic ] && tasks=3
        $py benchmarks/training/eval_ipc.py --domain "$d" --levels hard --max-tasks "$tasks" --time-limit 60 \
          --symt-searches symt-first-lazy --baselines ff-pref --processes "${PROCESSES:-2}" ${RESUME:+--resume} \
          --models "shipped=ipc2023-$d" --out "$out/lazy30/hard-$d"
      done ;;
    *) echo "unknown part $part (speed, easy, medium, hard, student, student-medium, lazy, lazy-hard)" >&2; exit 2 ;;
  esac
done
