#!/usr/bin/env bash
# Starts the production server for the console e2e tests on loopback with a fresh DATA_DIR (removed when
# the server exits). Needs a prior `npm run build`. Playwright's webServer runs this and stops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA_DIR="${E2E_DATA_DIR:-$(mktemp -d /tmp/cc-console-e2e.XXXXXX)}"
mkdir -p "$DATA_DIR"
echo "$DATA_DIR" > "${E2E_DATA_DIR_FILE:-/tmp/cc-console-e2e-${E2E_PORT:-3931}.datadir}"
trap 'rm -rf "$DATA_DIR"' EXIT
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=127.0.0.1 DATA_DIR
export PORT="${E2E_PORT:-3931}"
export CLUSTER_ADMIN_TOKEN="${E2E_ADMIN_TOKEN:-console-e2e-admin-token}"
node --import tsx server.ts &
child=$!
trap 'kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; rm -rf "$DATA_DIR"' EXIT INT TERM
wait "$child"
