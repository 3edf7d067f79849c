#!/usr/bin/env bash
# The IPC 2023 learning track in one report (issue 35). benchmarks/results/ipc/track/runs.csv holds
# every current run of the track's parts (easy, medium, and the hard parts that exist; reruns with
# newer models already in place of the runs they replaced). A new part -- the report folder of a
# `symt experiment ipc-track ... --out experiments/NAME` run, or its runs.csv -- goes after them, so
# that `symt report --supersede` keeps its runs where it reruns a task; then issue 35's two targets
# over easy + medium. With no part it rewrites the report from the committed runs.
#
#     bash benchmarks/experiments/ipc_track_report.sh [PART ...]   # writes benchmarks/results/ipc/track/
#
# The parts' own folders (and the order this script merged them in) are in commit 5aeac4e:
# benchmarks/results/ipc-track/ and benchmarks/experiments/ipc_track_report.sh there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
track=benchmarks/results/ipc/track
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$track/runs.csv" "$work/track.csv"   # symt report rewrites runs.csv in the folder it writes
files=("$work/track.csv")
for part in "$@"; do
    if [ -f "$part" ]; then files+=("$part")
    elif [ -f "$part/runs.csv" ]; then files+=("$part/runs.csv")
    elif [ -f "$part/report/runs.csv" ]; then files+=("$part/report/runs.csv")
    else echo "$part: no runs.csv there (an experiment folder, its report folder, or a runs.csv)" >&2; exit 2
    fi
done
.venv/bin/symt report "${files[@]}" --supersede --out "$track" --title "IPC 2023 learning track" \
    --limits "60 s and 4096 MiB per run" \
    --algorithms symt-first symt-first-lazy symt-batch wl ff ff-pref lama-first \
    --learned symt-batch --baselines ff wl ff-pref --analysis "$track/analysis.md"
.venv/bin/python benchmarks/experiments/ipc_track_criteria.py "$track/runs.csv" \
    --levels easy medium > "$track/criteria.md"
echo "criteria: $track/criteria.md"
