#!/usr/bin/env bash
# Makes a redis-server available on 127.0.0.1 for the Redis-backed tests, and prints its URL.
#
#   scripts/ensure-redis.sh            installs redis-server (Debian package) if missing, starts one on a free
#                                      loopback port unless REDIS_URL already answers, prints redis://127.0.0.1:PORT
#   scripts/ensure-redis.sh --stop     stops the server this script started
#
# The running server's URL is kept in test/.tmp/redis/url; tests read REDIS_URL or that file.
# Exit status 0 means a server answers PING at the printed URL; anything else means it could not be started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$ROOT/test/.tmp/redis"
mkdir -p "$STATE"

ping_url() { # $1: redis://host:port
  local hostport="${1#redis://}"
  redis-cli -h "${hostport%%:*}" -p "${hostport##*:}" ping 2>/dev/null | grep -q PONG
}

if [[ "${1:-}" == "--stop" ]]; then
  if [[ -f "$STATE/pid" ]]; then kill "$(cat "$STATE/pid")" 2>/dev/null || true; rm -f "$STATE/pid" "$STATE/url"; fi
  exit 0
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "ensure-redis: installing redis-server (apt-get)..." >&2
  SUDO=""; [[ "$(id -u)" != "0" ]] && SUDO="sudo"
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >&2
fi

for url in "${REDIS_URL:-}" "$(cat "$STATE/url" 2>/dev/null || true)"; do
  if [[ -n "$url" ]] && ping_url "$url"; then echo "$url"; exit 0; fi
done

# A free loopback port: ask the kernel for one.
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
redis-server --bind 127.0.0.1 --port "$PORT" --save '' --appendonly no --daemonize yes \
  --pidfile "$STATE/redis.pid" --logfile "$STATE/redis.log" --dir "$STATE" >&2
for _ in $(seq 1 50); do
  if ping_url "redis://127.0.0.1:$PORT"; then
    cp "$STATE/redis.pid" "$STATE/pid"
    echo "redis://127.0.0.1:$PORT" | tee "$STATE/url"
    exit 0
  fi
  sleep 0.1
done
echo "ensure-redis: redis-server did not answer on 127.0.0.1:$PORT (see $STATE/redis.log)" >&2
exit 1
