#!/usr/bin/env bash
# A throwaway PostgreSQL for the SQL adapter's tests, on a fresh Debian machine or a developer's.
#
#   export TEST_POSTGRES_URL="$(scripts/ci-postgres.sh | tail -n 1)"   # start; the URL is the last line
#   scripts/ci-postgres.sh restart                                     # fast restart (drops every connection)
#   scripts/ci-postgres.sh stop                                        # stop and delete the cluster
#
# Installs Debian's postgresql when no server binaries are found (needs root), initialises a
# cluster in a temp dir, and serves it on 127.0.0.1:${NEWSWIRE_PG_PORT:-54329} with trust auth.
# Running it again while the cluster is up prints the same URL.
set -euo pipefail

PORT="${NEWSWIRE_PG_PORT:-54329}"
DATABASE=newswire_test
ROLE=newswire
STATE="${TMPDIR:-/tmp}/newswire-pg-${PORT}.datadir"
URL="postgres://${ROLE}@127.0.0.1:${PORT}/${DATABASE}"

find_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# initdb and postgres refuse to run as root; Debian's package creates the postgres user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "${1:-start}" = stop ]; then
  if [ -f "$STATE" ]; then
    DATA="$(cat "$STATE")"
    BIN="$(find_bin)"
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$DATA" "$STATE"
    echo "stopped the PostgreSQL on port ${PORT}"
  else
    echo "no PostgreSQL started by this script on port ${PORT}"
  fi
  exit 0
fi

if [ "${1:-start}" = restart ]; then
  if [ ! -f "$STATE" ]; then
    echo "no PostgreSQL started by this script on port ${PORT}" >&2
    exit 1
  fi
  DATA="$(cat "$STATE")"
  # Fast, as a failover or an operator's restart is: every backend is terminated (57P01).
  as_owner "$(find_bin)/pg_ctl" -D "$DATA" -l "$DATA/server.log" -m fast -w -t 60 restart >/dev/null
  echo "restarted the PostgreSQL on port ${PORT}"
  echo "$URL"
  exit 0
fi

BIN="$(find_bin)"
if [ -z "$BIN" ]; then
  echo "installing postgresql from Debian…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  BIN="$(find_bin)"
fi

if [ -f "$STATE" ] && as_owner "$BIN/pg_ctl" -D "$(cat "$STATE")" status >/dev/null 2>&1; then
  echo "PostgreSQL already running from $(cat "$STATE")"
  echo "$URL"
  exit 0
fi

DATA="$(mktemp -d "${TMPDIR:-/tmp}/newswire-pg.XXXXXX")"
if [ "$(id -u)" = 0 ]; then chown postgres: "$DATA"; fi
echo "$DATA" >"$STATE"

as_owner "$BIN/initdb" -D "$DATA" -U "$ROLE" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
# fsync off: the cluster is thrown away after the tests. The socket stays in the data dir.
as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 \
  -o "-h 127.0.0.1 -p ${PORT} -k ${DATA} -F" start >/dev/null
as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$ROLE" "$DATABASE"

echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') in ${DATA}; stop it with: $0 stop"
echo "$URL"
