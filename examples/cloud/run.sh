#!/usr/bin/env bash
# Starts the cloud simulator on a free loopback port, applies this example against it, prints the
# simulator's counters, and stops the simulator. Usage: examples/cloud/run.sh [extra apply flags]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
run_dir="$here/.cloudsim"
mkdir -p "$run_dir"
url="$("$root/scripts/cloudsim" start "$run_dir" -state-file="$run_dir/state.json" -latency-ms=20)"
trap '"$root/scripts/cloudsim" stop "$run_dir" >/dev/null 2>&1 || true' EXIT
"$root/strata" -chdir="$here" apply -auto-approve -var "endpoint=$url" "$@"
echo
echo "Simulator counters:"
curl -fs "$url/admin/counters"
echo
