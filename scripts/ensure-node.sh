#!/usr/bin/env bash
# Makes the other Node lines restgen supports available to the tests (scripts/test-node-lines.ts runs part of the
# suite on each): users run restgen and the code it generates on Node 20.19+, 22 and 24, and the suite itself
# runs on the Node that runs npm test.
#
#   scripts/ensure-node.sh     fetches each pinned Node binary (once; kept in ~/.cache/restgen/node), links it as
#                              test/.tmp/node/<major>, and prints each link with its version
#
# The binaries are the official Node builds as published on the npm registry (node-<os>-<arch>, the packages the
# `node` package installs), fetched with npm pack, which checks each tarball against the registry's integrity hash.
# Exit status 0 means every pinned Node runs here; anything else means one could not be fetched or does not run.
set -euo pipefail

# The newest release of each line, pinned exactly; raise them together with the dependencies.
VERSIONS=(22.23.3 24.21.0)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LINKS="$ROOT/test/.tmp/node"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/restgen/node"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) PLATFORM=linux-x64 ;;
  Linux-aarch64) PLATFORM=linux-arm64 ;;
  Darwin-x86_64) PLATFORM=darwin-x64 ;;
  Darwin-arm64) PLATFORM=darwin-arm64 ;;
  *) echo "ensure-node: no Node build on the npm registry for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
mkdir -p "$LINKS" "$CACHE"

for version in "${VERSIONS[@]}"; do
  dir="$CACHE/$version"
  if [[ ! -x "$dir/bin/node" ]]; then
    echo "ensure-node: fetching Node $version (node-$PLATFORM from the npm registry)..." >&2
    tmp="$(mktemp -d "$CACHE/.fetch-XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack "node-$PLATFORM@$version" --silent --pack-destination "$tmp" >/dev/null)
    tar -xzf "$tmp"/node-"$PLATFORM"-"$version".tgz -C "$tmp"
    # Another run may have put it there meanwhile: theirs stays (it may be running), ours goes.
    [[ -x "$dir/bin/node" ]] || { rm -rf "$dir"; mv -T "$tmp/package" "$dir" 2>/dev/null || [[ -x "$dir/bin/node" ]]; }
    rm -rf "$tmp"
    trap - EXIT
  fi
  ran="$("$dir/bin/node" --version)"
  if [[ "$ran" != "v$version" ]]; then
    echo "ensure-node: $dir/bin/node says $ran, not v$version; remove $dir and run again" >&2
    exit 1
  fi
  ln -sfn "$dir" "$LINKS/${version%%.*}"
  echo "$LINKS/${version%%.*} $ran"
done
