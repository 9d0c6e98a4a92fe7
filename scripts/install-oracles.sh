#!/usr/bin/env bash
# Installs HashiCorp's HCL implementation (WASM builds published on npm) used as a differential
# test oracle. Tests that need it skip cleanly when node or the packages are absent.
set -uo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/oracle"
if ! command -v npm >/dev/null 2>&1; then
  echo "run-tests: npm not found; oracle-based differential tests will be skipped." >&2
  exit 0
fi
if [ -d "$dir/node_modules/@cdktf/hcl-tools" ] && [ -d "$dir/node_modules/@cdktf/hcl2json" ]; then
  exit 0
fi
echo "run-tests: installing the HCL test oracle (npm ci in tools/oracle)..." >&2
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) \
  || echo "run-tests: could not install the oracle; oracle-based tests will be skipped." >&2
exit 0
