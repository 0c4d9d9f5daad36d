#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium (the `chromium` package) for test/emulator/dashboard-browser.test.ts,
# which opens the emulator's dashboard in it over the DevTools protocol. apt-get runs only when the package is
# missing, so it needs root (or sudo) only the first time. Prints the browser's path on its LAST line.
set -euo pipefail

if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q ' installed$'; then
  echo "chromium: installing Debian's chromium with apt-get" >&2
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n) # a CI runner that is not root (GitHub's) has sudo without a password
  "${as_root[@]}" apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi
command -v chromium
