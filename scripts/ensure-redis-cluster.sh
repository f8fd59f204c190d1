#!/usr/bin/env bash
# Makes a Redis Cluster available on 127.0.0.1 for the tests: 3 primaries, each with a replica (so a primary can be
# killed and its replica promoted), from Debian's redis-server in cluster mode; prints its nodes.
#
#   scripts/ensure-redis-cluster.sh                 installs redis-server (Debian package) if missing, starts a cluster
#                                                   unless the recorded one answers, prints 127.0.0.1:PORT,127.0.0.1:PORT,...
#   scripts/ensure-redis-cluster.sh --dir DIR       the same for a cluster of its own kept in DIR (a test that kills
#                                                   nodes starts one of its own); --replicas 0 for primaries only
#   scripts/ensure-redis-cluster.sh --stop [--dir DIR]   stops that cluster's nodes and forgets it
#   scripts/ensure-redis-cluster.sh --restart --dir DIR  starts again the nodes of that cluster that are not running (a
#                                                   test killed them), with their cluster configuration, and waits for it
#
# The nodes are kept in test/.tmp/redis-cluster/nodes (or DIR/nodes); each node's pid is in DIR/<port>/redis.pid.
# Exit status 0 means every node answers and the cluster's state is ok; anything else means it could not start.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="$ROOT/test/.tmp/redis-cluster"
STOP=0
RESTART=0
REPLICAS=1
PRIMARIES=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --stop) STOP=1; shift ;;
    --restart) RESTART=1; shift ;;
    --dir) STATE="$2"; shift 2 ;;
    --replicas) REPLICAS="$2"; shift 2 ;;
    *) echo "ensure-redis-cluster: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$STATE"
# redis-server runs from its --dir: every path it is given must be absolute.
STATE="$(cd "$STATE" && pwd)"

stop_nodes() {
  for pidfile in "$STATE"/*/redis.pid; do
    [[ -f "$pidfile" ]] || continue
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

# Whether every recorded node answers and sees the cluster as ok.
cluster_ok() {
  [[ -f "$STATE/nodes" ]] || return 1
  local node
  for node in $(tr ',' ' ' <"$STATE/nodes"); do
    redis-cli -h 127.0.0.1 -p "${node##*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
}

# Starts (or starts again) the node on port $1, its data and cluster configuration in $STATE/$1.
start_node() {
  mkdir -p "$STATE/$1"
  # cluster-node-timeout 2000: a killed primary's replica takes over within seconds, as the failover tests need; a
  # replica copies its primary at once (no 5 s wait for other replicas to join a diskless sync).
  redis-server --bind 127.0.0.1 --port "$1" --cluster-enabled yes --cluster-config-file nodes.conf \
    --cluster-node-timeout 2000 --repl-diskless-sync-delay 0 --save "" --appendonly no --daemonize yes \
    --pidfile "$STATE/$1/redis.pid" --logfile "$STATE/$1/redis.log" --dir "$STATE/$1" >&2
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done
  return 1
}

if [[ "$STOP" == 1 ]]; then
  stop_nodes
  rm -rf "${STATE:?}"/*
  exit 0
fi

if [[ "$RESTART" == 1 ]]; then
  for node in $(tr ',' ' ' <"$STATE/nodes"); do
    port="${node##*:}"
    if ! redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then start_node "$port"; fi
  done
  for _ in $(seq 1 100); do
    if cluster_ok; then cat "$STATE/nodes"; exit 0; fi
    sleep 0.1
  done
  echo "ensure-redis-cluster: the restarted cluster in $STATE did not reach cluster_state:ok" >&2
  exit 1
fi

if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  echo "ensure-redis-cluster: installing redis-server (apt-get)..." >&2
  SUDO=""; [[ "$(id -u)" != "0" ]] && SUDO="sudo"
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >&2
fi

if cluster_ok; then cat "$STATE/nodes"; exit 0; fi

# Leftovers of a cluster that no longer answers: stopped and forgotten, then a new one.
stop_nodes
rm -rf "${STATE:?}"/*

COUNT=$((PRIMARIES * (REPLICAS + 1)))
# Free loopback ports whose cluster bus port (port + 10000) is free too.
PORTS="$(node -e '
const net = require("net");
const free = (port) => new Promise((resolve) => { const s = net.createServer(); s.once("error", () => resolve(false)); s.listen(port, "127.0.0.1", () => s.close(() => resolve(true))); });
(async () => {
  const found = [];
  for (let tries = 0; found.length < Number(process.argv[1]) && tries < 2000; tries++) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    if (!found.includes(port) && (await free(port)) && (await free(port + 10000))) found.push(port);
  }
  console.log(found.join(" "));
})();' "$COUNT")"
read -r -a PORT_LIST <<<"$PORTS"
if [[ "${#PORT_LIST[@]}" -ne "$COUNT" ]]; then echo "ensure-redis-cluster: no $COUNT free loopback port pairs" >&2; exit 1; fi

for port in "${PORT_LIST[@]}"; do start_node "$port"; done

NODES=()
for port in "${PORT_LIST[@]}"; do NODES+=("127.0.0.1:$port"); done
redis-cli --cluster create "${NODES[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >"$STATE/create.log" 2>&1 ||
  { echo "ensure-redis-cluster: redis-cli --cluster create failed (see $STATE/create.log)" >&2; exit 1; }
(IFS=','; echo "${NODES[*]}") >"$STATE/nodes"

# Every replica known as one, and linked to its primary: a failover test may kill a primary at once.
replicas_ready() {
  local port linked=0
  for port in "${PORT_LIST[@]}"; do
    redis-cli -h 127.0.0.1 -p "$port" info replication 2>/dev/null | grep -q '^master_link_status:up' && linked=$((linked + 1))
  done
  [[ "$linked" -eq $((PRIMARIES * REPLICAS)) ]]
}
for _ in $(seq 1 150); do
  if cluster_ok && replicas_ready; then cat "$STATE/nodes"; exit 0; fi
  sleep 0.1
done
echo "ensure-redis-cluster: the cluster on ${NODES[*]} did not reach cluster_state:ok (see $STATE/*/redis.log)" >&2
exit 1
