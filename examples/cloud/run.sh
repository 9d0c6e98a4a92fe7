#!/usr/bin/env bash
# Starts the cloud simulator on a free loopback port, applies this example against it, prints the
# simulator's counters, and stops the simulator. Usage: examples/cloud/run.sh [extra apply flags]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
"$root/strata" version >/dev/null   # builds the CLI (and the simulator) if needed
port="${CLOUDSIM_PORT:-8787}"
cp="$(ls "$root"/strata-cloudsim/target/strata-cloudsim-*.jar | head -1):$(ls -d "$root"/strata-cli/target/lib)/*"
java -cp "$cp" dev.strata.cloudsim.Main -port="$port" -state-file="$here/.cloudsim-state.json" &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/admin/counters" >/dev/null 2>&1 && break
  sleep 0.1
done
"$root/strata" -chdir="$here" apply -auto-approve -var "endpoint=http://127.0.0.1:$port" "$@"
echo
echo "Simulator counters:"
curl -fs "http://127.0.0.1:$port/admin/counters"
echo
