#!/usr/bin/env bash
# Trains the shipped WL baseline models (issue 33; python/symt/models/wl/): WL-GOOSE's published
# configuration (ILG, 2 WL iterations, ranking SVM) on the data SymT-E trains on. Seconds per
# model once the dataset exists.
#   paper domains: the paper's training split (data/<domain>, made by `symt generate` on first use)
#   the ten IPC 2023 learning-track domains: the training problems the expander can exhaust
#     (data/ipc2023-<domain>-exhaustive, `symt ipc-dataset --plan-time 0`; issue 35 added the six
#     domains without a SymT-E model: 2-45 s each)
# Usage: bash benchmarks/training/train_wl_models.sh [name ...]   (default: all fourteen)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
symt=${SYMT:-.venv/bin/symt}
ipc=${IPC:-../shared/benchmarks/ipc2023-learning}
out=python/symt/models/wl
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(blocksworld gripper logistics visitall
                                  ipc2023-blocksworld ipc2023-ferry ipc2023-miconic ipc2023-transport
                                  ipc2023-childsnack ipc2023-floortile ipc2023-rovers ipc2023-satellite
                                  ipc2023-sokoban ipc2023-spanner)
mkdir -p "$out"
for name in "${names[@]}"; do
  case "$name" in
  ipc2023-*)
    domain=${name#ipc2023-}
    data=data/$name-exhaustive
    [ -f "$data/manifest.json" ] || $symt ipc-dataset "$ipc/$domain" --out "$data" --plan-time 0 --quiet
    # At most 60,000 training states: IPC Miconic has 87 training tasks whose states each carry
    # hundreds of static atoms, which would not fit in memory at 2,000 samples per task.
    cap=(--max-total-states 60000)
    ;;
  *) data=$name; cap=() ;;
  esac
  $symt train-wl "$data" --out "$out/$name.json" "${cap[@]}" --force --quiet
done
