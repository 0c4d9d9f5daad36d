#!/usr/bin/env bash
# Writes Go, Node.js, Python and Java SDKs for a package schema with Pulumi's own code generators (tools/gen-sdk, on
# github.com/pulumi/pulumi/pkg/v3 at the CLI's version). Builds the tool into a cache outside the clone the first
# time (keyed by its sources, which pin the pkg/v3 version), then runs it offline.
#
#   scripts/gen-sdk.sh [-version <semver>] <schema.json> <outdir> [go|nodejs|python|java ...]
#   npm run sdk:gen -- <schema.json> <outdir>            # the same
#   scripts/gen-sdk.sh --build                           # only build (or find) the tool; prints its path
#
# Each language goes to <outdir>/<language>, emptied first. Java is written by gen-sdk-java (tools/gen-sdk/java, a
# module of its own on pulumi-java's generator), built beside gen-sdk; the Java SDK requires Maven's
# com.pulumi:pulumi at JAVA_SDK_VERSION (scripts/lib/java-versions.sh). See tools/gen-sdk/README.md.
# Environment: PULUMI_RIMU_CACHE (default ~/.cache/pulumi-rimuhosting), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
src="$repo/tools/gen-sdk"
root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/java-versions.sh
. "$repo/scripts/lib/java-versions.sh"
# shellcheck source=lib/printed-dir.sh
. "$repo/scripts/lib/printed-dir.sh"

command -v go >/dev/null || die "Go is not installed (need Go >= 1.26; the first run also needs the Go module proxy)."
pkg_version="$(sed -n 's#^\tgithub.com/pulumi/pulumi/pkg/v3 \(v[^ ]*\)$#\1#p' "$src/go.mod")"
sources_hash="$(cat "$src"/*.go "$src/go.mod" "$src/go.sum" "$src"/java/*.go "$src/java/go.mod" "$src/java/go.sum" \
  "$src"/schemafile/*.go "$src/schemafile/go.mod" | sha256sum | cut -c1-12)"
tool="$root/gen-sdk/pkg-$pkg_version-$sources_hash-$(go env GOOS)-$(go env GOARCH)/gen-sdk"

if [ ! -x "$tool" ] || [ ! -x "$(dirname "$tool")/gen-sdk-java" ]; then
  started=$SECONDS
  log "building the SDK generator (pkg/v3 $pkg_version; 1-5 minutes the first time)..."
  mkdir -p "$(dirname "$tool")"
  # The CLI's release flags, so pkg/v3's packages come from the CLI's build cache.
  release_build "$src" "" . "$tool.tmp"
  # The Java generator: pulumi-java's, on the pkg/v3 it compiles against (tools/gen-sdk/java/main.go says why).
  release_build "$src/java" "" . "$(dirname "$tool")/gen-sdk-java"
  mv "$tool.tmp" "$tool"
  log "built $tool in $((SECONDS - started)) s"
fi

if [ "${1:-}" = "--build" ]; then
  print_checked_file "$tool"
  exit 0
fi
exec "$tool" -java-sdk-version "$JAVA_SDK_VERSION" "$@"
