#!/usr/bin/env bash
# Starts the production server for the console e2e tests on loopback with a fresh DATA_DIR (removed when
# the server exits). Needs a prior `npm run build`. Playwright's webServer runs this and stops it afterwards.
# Besides the admin token, a token file (TOKEN_AUTH_FILE) names one person, the namespace-bound user of
# rbac.spec.ts; its token and name default to the values support.ts uses.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA_DIR="${E2E_DATA_DIR:-$(mktemp -d /tmp/cc-console-e2e.XXXXXX)}"
mkdir -p "$DATA_DIR"
echo "$DATA_DIR" > "${E2E_DATA_DIR_FILE:-/tmp/cc-console-e2e-${E2E_PORT:-3931}.datadir}"
trap 'rm -rf "$DATA_DIR"' EXIT
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=127.0.0.1 DATA_DIR
export PORT="${E2E_PORT:-3931}"
export CLUSTER_ADMIN_TOKEN="${E2E_ADMIN_TOKEN:-console-e2e-admin-token}"
if [ -z "${TOKEN_AUTH_FILE:-}" ]; then
  TOKEN_AUTH_FILE="$DATA_DIR/tokens.csv"
  (umask 077; printf '%s,%s,%s,"%s"\n' \
    "${E2E_USER_TOKEN:-console-e2e-team-a-token}" "${E2E_USER_NAME:-team-a-dev}" "${E2E_USER_NAME:-team-a-dev}-uid" "team-a-devs" \
    > "$TOKEN_AUTH_FILE")
fi
export TOKEN_AUTH_FILE
node --import tsx server.ts &
child=$!
trap 'kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; rm -rf "$DATA_DIR"' EXIT INT TERM
wait "$child"
