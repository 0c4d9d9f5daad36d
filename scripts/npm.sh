#!/usr/bin/env bash
# Installs the newest npm of one major line (e.g. 12, npm's `latest`) from the npm registry, or reuses an earlier
# install from a cache outside the clone, keyed by the exact version. Prints the directory that holds `npm` and `npx`
# on its LAST line; put it first on PATH to run that npm on the node already first on PATH.
#
#   export PATH="$(scripts/npm.sh 12 | tail -n 1):$PATH"
#
# .ci/run installs and runs the unit suite with npm 12 this way, beside the npm that ships with Node 22; the install
# tests (test/package/readme.test.ts and packed.test.ts) take the README's routes with it. Needs: npm (any version
# runs it) and the npm registry; offline, the newest cached install of that line is reused.
# Environment: NPM_CACHE_DIR (default $PULUMI_RIMU_CACHE/npm; PULUMI_RIMU_CACHE defaults to ~/.cache/pulumi-rimuhosting).
set -euo pipefail

major="${1:-}"
[[ "$major" =~ ^[0-9]+$ ]] || {
  echo "usage: scripts/npm.sh <major version, e.g. 12>" >&2
  exit 2
}
# shellcheck source=lib/printed-dir.sh
. "$(dirname "$0")/lib/printed-dir.sh"
cache="${NPM_CACHE_DIR:-${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}/npm}"

log() { echo "npm.sh: $*" >&2; }

# The newest release of the line, as the registry lists it (npm's answer is a list when several versions match).
if version="$(npm view "npm@$major" version --json 2>/dev/null | tr -d '[]" \n' | tr ',' '\n' | sort -V | tail -n 1)" &&
  [[ "$version" == "$major".* ]]; then
  dir="$cache/v$version"
else
  dir="$(ls -d "$cache/v$major".* 2>/dev/null | sort -V | tail -n 1)" || true
  [ -n "$dir" ] || {
    log "cannot ask the npm registry for npm@$major, and no npm $major is cached in $cache"
    exit 1
  }
  log "the npm registry did not answer; reusing $dir"
fi
bin="$dir/node_modules/.bin"

if [ ! -x "$bin/npm" ]; then
  log "installing npm@$version into $dir ..."
  mkdir -p "$cache"
  # Installed into a temporary directory and renamed, so that an install killed halfway leaves nothing behind.
  tmp="$(mktemp -d "$cache/install.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "npm@$version" >&2
  [ "$("$tmp/node_modules/.bin/npm" --version)" = "$version" ] # it arrived and runs
  rm -rf "$dir"
  mv "$tmp" "$dir"
fi
print_checked_dir "$bin" npm
