#!/usr/bin/env bash
# Runs "$@" with TEST_PG_URL pointing at a throw-away PostgreSQL cluster (Debian's postgresql: initdb and
# pg_ctl from PATH or /usr/lib/postgresql/<version>/bin; as root they run as the postgres user), stopped and
# removed afterwards. A TEST_PG_URL already set is used as is. When no PostgreSQL can start, "$@" still runs
# without TEST_PG_URL and every PostgreSQL test case fails saying so (SKIP_POSTGRES=1 leaves them out
# deliberately; CI never sets it).
set -u
if [ -n "${TEST_PG_URL:-}" ] || [ "${SKIP_POSTGRES:-}" = 1 ]; then
  exec "$@"
fi
bin=""
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
  bin=$(dirname "$(command -v initdb)")
else
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bin=$d; break; fi
  done
fi
if [ -z "$bin" ]; then
  echo "PostgreSQL for tests: initdb/pg_ctl not found (install Debian's postgresql); the PostgreSQL cases will fail" >&2
  "$@"
  exit $?
fi
dir=$(mktemp -d /tmp/cc-pg.XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "cd /tmp && $*"; else sh -c "$*"; fi; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd -r -M postgres
  chown postgres "$dir"
fi
started=0
# fsync=off: a throw-away cluster (the tests kill our server processes, never PostgreSQL).
if as_pg "'$bin/initdb' -D '$dir/data' --auth=trust -U postgres >'$dir/initdb.log' 2>&1"; then
  for attempt in 1 2 3; do
    port=$(( 40000 + RANDOM % 20000 ))
    if as_pg "'$bin/pg_ctl' -D '$dir/data' -o \"-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='$dir' -c max_connections=300 -c fsync=off\" -l '$dir/log' -w start >/dev/null 2>&1"; then
      started=1
      break
    fi
  done
fi
if [ "$started" = 1 ]; then
  export TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL for tests on port $port ($bin)"
else
  echo "PostgreSQL for tests could not start (the PostgreSQL cases will fail):" >&2
  tail -n 20 "$dir/initdb.log" "$dir/log" 2>/dev/null >&2
fi
"$@"
status=$?
[ "$started" = 1 ] && as_pg "'$bin/pg_ctl' -D '$dir/data' -m immediate stop >/dev/null 2>&1"
rm -rf "$dir"
exit $status
