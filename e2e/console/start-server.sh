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
# A real OpenID provider beside the server (oidc-sign-in.spec.ts), on the next port: the server trusts its CA
# and maps its accounts as kube-apiserver's --oidc-* flags would; the sign-in page offers "Sign in with Test SSO".
OIDC_PORT=$((PORT + 1))
node --import tsx e2e/console/oidc-test-provider-server.ts "$DATA_DIR" "$OIDC_PORT" "$PORT" > "$DATA_DIR/oidc-provider.log" 2>&1 &
provider=$!
trap 'kill "$provider" 2>/dev/null; rm -rf "$DATA_DIR"' EXIT INT TERM
for _ in $(seq 1 300); do
  [ -f "$DATA_DIR/oidc.env" ] && break
  kill -0 "$provider" 2>/dev/null || { cat "$DATA_DIR/oidc-provider.log" >&2; exit 1; }
  sleep 0.1
done
[ -f "$DATA_DIR/oidc.env" ] || { echo "the test OpenID provider did not start" >&2; cat "$DATA_DIR/oidc-provider.log" >&2; exit 1; }
set -a
. "$DATA_DIR/oidc.env"
set +a
node --import tsx server.ts &
child=$!
trap 'kill "$child" "$provider" 2>/dev/null; wait "$child" 2>/dev/null; rm -rf "$DATA_DIR"' EXIT INT TERM
wait "$child"
