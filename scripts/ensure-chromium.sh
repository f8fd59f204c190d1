#!/usr/bin/env bash
# Makes Debian's chromium available for the HTML report's browser test (test/diff/html-report.test.ts),
# which drives it headless with playwright-core. Never downloads a browser build of its own.
#
#   scripts/ensure-chromium.sh     installs the chromium package (apt-get) if /usr/bin/chromium is missing,
#                                  then prints the browser's version
#
# Exit status 0 means /usr/bin/chromium runs; anything else means it could not be installed.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [[ ! -x "$CHROMIUM" ]]; then
  echo "ensure-chromium: installing chromium (apt-get)..." >&2
  SUDO=""; [[ "$(id -u)" != "0" ]] && SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
fi

"$CHROMIUM" --headless --no-sandbox --disable-gpu --version
