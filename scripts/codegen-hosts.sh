#!/usr/bin/env bash
# The Node.js, Go and Python language hosts on PATH, given the GenerateProgram RPC they predate, so that
# `pulumi import` writes a program's code in those languages (tools/codegen-host, on github.com/pulumi/pulumi/pkg/v3
# at the CLI's release). Builds the tool into a cache outside the clone the first time (keyed by its sources), writes
# a `pulumi-language-<language>` wrapper for each host found on PATH, and prints the wrappers' directory: put it
# first on PATH for `pulumi import`.
#
#   export PATH="$(scripts/codegen-hosts.sh | tail -n 1):$PATH"
#
# Needs scripts/pulumi-cli.sh's and scripts/language-hosts.sh's directories on PATH already.
# Environment: PULUMI_RIMU_CACHE (default ~/.cache/pulumi-rimuhosting), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
src="$repo/tools/codegen-host"
root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/printed-dir.sh
. "$repo/scripts/lib/printed-dir.sh"

command -v go >/dev/null || die "Go is not installed (need Go >= 1.26; the first run also needs the Go module proxy)."
hosts=()
for language in nodejs go python; do
  host="$(command -v "pulumi-language-$language" || true)"
  [ -n "$host" ] || die "no pulumi-language-$language on PATH: run scripts/pulumi-cli.sh and scripts/language-hosts.sh first."
  hosts+=("$language=$host")
done
sources_hash="$(cat "$src/main.go" "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-12)"
hosts_hash="$(printf '%s\n' "${hosts[@]}" | sha256sum | cut -c1-12)"
dir="$root/codegen-hosts/$sources_hash-$hosts_hash-$(go env GOOS)-$(go env GOARCH)"
tool="$dir/codegen-host"

if [ ! -x "$tool" ]; then
  started=$SECONDS
  log "building codegen-host (1-5 minutes the first time)..."
  mkdir -p "$dir/bin"
  release_build "$src" "" . "$tool.tmp"
  mv "$tool.tmp" "$tool"
  log "built $tool in $((SECONDS - started)) s"
fi
mkdir -p "$dir/bin"
for entry in "${hosts[@]}"; do
  language="${entry%%=*}"
  # A wrapper must never wrap itself (its directory already first on PATH).
  case "${entry#*=}" in "$dir/bin/"*) continue ;; esac
  printf '#!/bin/sh\nexec "%s" %s "%s" "$@"\n' "$tool" "$language" "${entry#*=}" >"$dir/bin/pulumi-language-$language.tmp"
  chmod +x "$dir/bin/pulumi-language-$language.tmp"
  mv "$dir/bin/pulumi-language-$language.tmp" "$dir/bin/pulumi-language-$language"
done
print_checked_dir "$dir/bin" pulumi-language-nodejs pulumi-language-go pulumi-language-python
