#!/usr/bin/env bash
# Installs the PostgreSQL server binaries that the pg backend tests start themselves (a throwaway,
# loopback-only server in a temp dir). Tests skip when PostgreSQL is missing, so a failure here only
# warns.
set -uo pipefail
if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "install-postgres: installing postgresql for the pg backend tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
    || echo "install-postgres: could not install postgresql; the pg backend tests will be skipped" >&2
else
  echo "install-postgres: PostgreSQL not found and cannot install it here; the pg backend tests will be skipped" >&2
fi
exit 0
