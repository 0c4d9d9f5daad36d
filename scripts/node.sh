#!/usr/bin/env bash
# Installs the newest Node.js of one major line (22 or 24: the supported ones, package.json "engines") from the npm
# package `node@<major>` (it holds the official binary for this platform), or reuses an earlier install from a cache
# outside the clone, keyed by the exact version. Prints the directory that holds `node` on its LAST line; put it
# first on PATH, so that npm, jest, the pulumi CLI's Node.js language host and the provider plugin all run it.
#
#   export PATH="$(scripts/node.sh 24 | tail -n 1):$PATH"
#
# .ci/run runs the tests on 22 and 24 this way. Needs: npm (any Node runs it) and the npm registry; offline, the
# newest cached install of that line is reused.
# Environment: NODE_CACHE (default $PULUMI_RIMU_CACHE/node; PULUMI_RIMU_CACHE defaults to ~/.cache/pulumi-rimuhosting).
set -euo pipefail

major="${1:-}"
[[ "$major" =~ ^[0-9]+$ ]] || {
  echo "usage: scripts/node.sh <major version, e.g. 22 or 24>" >&2
  exit 2
}
# shellcheck source=lib/printed-dir.sh
. "$(dirname "$0")/lib/printed-dir.sh"
cache="${NODE_CACHE:-${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}/node}"

log() { echo "node.sh: $*" >&2; }

# The newest release of the line, as the registry lists it (npm's answer is a list when several versions match).
if version="$(npm view "node@$major" version --json 2>/dev/null | tr -d '[]" \n' | tr ',' '\n' | sort -V | tail -n 1)" &&
  [[ "$version" == "$major".* ]]; then
  dir="$cache/v$version"
else
  dir="$(ls -d "$cache/v$major".* 2>/dev/null | sort -V | tail -n 1)" || true
  [ -n "$dir" ] || {
    log "cannot ask the npm registry for node@$major, and no Node.js $major is cached in $cache"
    exit 1
  }
  log "the npm registry did not answer; reusing $dir"
fi
bin="$dir/node_modules/.bin"

if [ ! -x "$bin/node" ]; then
  log "installing node@$version (npm) into $dir ..."
  mkdir -p "$cache"
  # Installed into a temporary directory and renamed, so that an install killed halfway leaves nothing behind.
  tmp="$(mktemp -d "$cache/install.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "node@$version" >&2
  "$tmp/node_modules/.bin/node" --version >/dev/null # the platform binary arrived and runs
  rm -rf "$dir"
  mv "$tmp" "$dir"
fi
print_checked_dir "$bin" node
