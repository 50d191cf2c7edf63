#!/usr/bin/env bash
# Runs "$@" with TEST_PG_URL pointing at a throw-away PostgreSQL cluster when this machine has one
# (initdb/pg_ctl from Debian's postgresql); otherwise runs "$@" as is (the PostgreSQL cases are then skipped).
set -u
if [ -n "${TEST_PG_URL:-}" ] || ! command -v initdb >/dev/null 2>&1 || ! command -v pg_ctl >/dev/null 2>&1; then
  exec "$@"
fi
dir=$(mktemp -d /tmp/cc-pg.XXXXXX)
port=$(( 40000 + RANDOM % 20000 ))
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && { id postgres >/dev/null 2>&1 || useradd -r postgres; chown postgres "$dir"; }
if as_pg "initdb -D $dir/data --auth=trust >/dev/null 2>&1 && pg_ctl -D $dir/data -o '-p $port -c listen_addresses=127.0.0.1' -l $dir/log -w start >/dev/null 2>&1"; then
  export TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL for tests on port $port"
else
  echo "PostgreSQL could not start here; its test cases are skipped"
fi
"$@"
status=$?
as_pg "pg_ctl -D $dir/data -m immediate stop >/dev/null 2>&1"
rm -rf "$dir"
exit $status
