# Sourced by recipe_study.sh: start one training command in the background with
# the optional time limit, log it to $runs/<name>.log, and report its exit code and wall time.
# Expects $runs and $limit (seconds, 0: none); appends the background pid to the array `pids`.
pids=()
launch() {
  local name=$1 cmd=$2
  echo "[train] $cmd"
  if [ "$limit" -gt 0 ]; then cmd="timeout $limit $cmd"; fi
  ( start=$(date +%s); $cmd > "$runs/$name.log" 2>&1; rc=$?
    echo "[train] $name exit $rc after $(( $(date +%s) - start )) s" | tee -a "$runs/$name.log" ) &
  pids+=($!)
}
