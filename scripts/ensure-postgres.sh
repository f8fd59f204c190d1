#!/usr/bin/env bash
# Makes a PostgreSQL server available on 127.0.0.1 for the PostgreSQL-backed tests, and prints its URL.
#
#   scripts/ensure-postgres.sh          installs Debian's postgresql package if missing, starts a cluster whose data
#                                       lives in test/.tmp/postgres/data on a free loopback port (unless POSTGRES_URL
#                                       or the recorded one already answers), prints postgres://restgen:...@127.0.0.1:PORT/restgen
#   scripts/ensure-postgres.sh --stop   stops the cluster this script started (its data stays for the next start)
#
# The running server's URL is kept in test/.tmp/postgres/url (mode 600: it holds the password); tests read
# POSTGRES_URL or that file. The cluster listens on 127.0.0.1 only (no Unix socket) and asks for a password
# (scram-sha-256). As root the server runs as the `postgres` user, which owns the data folder; PostgreSQL
# refuses to run as root. Exit status 0 means a server answers at the printed URL; anything else means it
# could not be started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$ROOT/test/.tmp/postgres"
DATA="$STATE/data"
mkdir -p "$STATE"
chmod 755 "$STATE"

# The binaries of the newest installed major version (Debian keeps initdb and pg_ctl out of PATH).
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

# Runs a server binary as the data folder's owner: `postgres` when this script runs as root.
as_owner() {
  if [[ "$(id -u)" == "0" ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

answers() { # $1: a postgres:// URL
  [[ -n "$1" ]] && PGCONNECT_TIMEOUT=3 psql "$1" -Atqc 'select 1' >/dev/null 2>&1
}

if [[ "${1:-}" == "--stop" ]]; then
  BIN="$(pg_bin)"
  if [[ -n "$BIN" && -f "$DATA/postmaster.pid" ]]; then
    as_owner "$BIN/pg_ctl" -D "$DATA" stop -m fast -w >/dev/null 2>&1 || true
  fi
  rm -f "$STATE/url"
  exit 0
fi

if [[ -z "$(pg_bin)" ]] || ! command -v psql >/dev/null 2>&1; then
  echo "ensure-postgres: installing postgresql (apt-get)..." >&2
  SUDO=""; [[ "$(id -u)" != "0" ]] && SUDO="sudo"
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
fi
BIN="$(pg_bin)"
if [[ -z "$BIN" ]]; then echo "ensure-postgres: no PostgreSQL binaries under /usr/lib/postgresql/*/bin" >&2; exit 1; fi

for url in "${POSTGRES_URL:-}" "$(cat "$STATE/url" 2>/dev/null || true)"; do
  if answers "$url"; then echo "$url"; exit 0; fi
done

# A cluster of our own, created once: user `restgen` with a random password, database `restgen`.
if [[ ! -f "$DATA/PG_VERSION" ]]; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  PASSWORD="$(node -e 'console.log(require("crypto").randomBytes(18).toString("base64url"))')"
  PWFILE="$(mktemp)"
  echo "$PASSWORD" >"$PWFILE"
  if [[ "$(id -u)" == "0" ]]; then
    chown postgres "$DATA" "$PWFILE"
    runuser -u postgres -- test -w "$DATA" ||
      { rm -f "$PWFILE"; echo "ensure-postgres: the postgres user cannot reach $DATA (a parent folder is not traversable)" >&2; exit 1; }
  fi
  chmod 700 "$DATA"
  as_owner "$BIN/initdb" -D "$DATA" -U restgen --pwfile="$PWFILE" --auth=scram-sha-256 -E UTF8 --no-locale >"$STATE/initdb.log" 2>&1 ||
    { rm -f "$PWFILE"; echo "ensure-postgres: initdb failed (see $STATE/initdb.log)" >&2; exit 1; }
  rm -f "$PWFILE"
  (umask 077; echo "$PASSWORD" >"$STATE/password")
fi
PASSWORD="$(cat "$STATE/password")"

# A stale server of this data folder (an earlier run) is stopped first, so it can move to a free port.
if [[ -f "$DATA/postmaster.pid" ]]; then as_owner "$BIN/pg_ctl" -D "$DATA" stop -m fast -w >/dev/null 2>&1 || true; fi

# A free loopback port: ask the kernel for one.
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
LOG="$STATE/postgres.log"
touch "$LOG"
if [[ "$(id -u)" == "0" ]]; then chown postgres "$LOG"; fi
as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories='' -c max_connections=200 -c fsync=on" >&2 ||
  { echo "ensure-postgres: the server did not start (see $LOG)" >&2; exit 1; }

URL="postgres://restgen:$PASSWORD@127.0.0.1:$PORT/restgen"
BASE="postgres://restgen:$PASSWORD@127.0.0.1:$PORT/postgres"
for _ in $(seq 1 50); do
  if answers "$BASE"; then
    psql "$BASE" -Atqc "select 1 from pg_database where datname = 'restgen'" | grep -q 1 ||
      psql "$BASE" -qc 'create database restgen' >&2
    (umask 077; echo "$URL" >"$STATE/url")
    echo "$URL"
    exit 0
  fi
  sleep 0.1
done
echo "ensure-postgres: PostgreSQL did not answer on 127.0.0.1:$PORT (see $LOG)" >&2
exit 1
