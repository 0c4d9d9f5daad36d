#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium (the `chromium` package) for test/emulator/dashboard-browser.test.ts,
# which opens the emulator's dashboard in it over the DevTools protocol. Nothing happens when a `chromium` is on PATH
# already; otherwise apt-get installs it, so it needs root (or sudo) only the first time. Prints the browser's path
# on its LAST line.
set -euo pipefail
# shellcheck source=lib/printed-dir.sh
. "$(dirname "$0")/lib/printed-dir.sh"

if ! command -v chromium >/dev/null; then
  echo "chromium: installing Debian's chromium with apt-get" >&2
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n) # a CI runner that is not root (GitHub's) has sudo without a password
  "${as_root[@]}" apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi
print_checked_file "$(command -v chromium)"
