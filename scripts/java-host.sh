#!/usr/bin/env bash
# Builds Pulumi's Java language host (pulumi-language-java) from the Go module proxy, or reuses an earlier build from
# a cache outside the clone, and prints the directory that holds it on its LAST line. scripts/language-hosts.sh runs
# it and links the host into its own bin directory, so that one directory on PATH has every host; run it alone to
# rebuild only the Java host:
#
#   export PATH="$(scripts/java-host.sh | tail -n 1):$PATH"
#
# Why this version (scripts/README.md has the table):
# - The host is the package cmd/pulumi-language-java of github.com/pulumi/pulumi-java/pkg. The proxy refuses that
#   module's version list and serves only some versions by name: v1.16.0, v1.17.0 and v1.22.0 answered; v1.18.0 to
#   v1.21.0 and v1.23.0 to v1.31.0 were refused (2026-11-28). v1.22.0 is the newest it serves: it reads Pulumi.yaml's
#   runtime options (`binary:`) and has the code-generation RPCs (`pulumi import` writes Java with it).
# - It is built against the pkg/v3 and sdk/v3 it asks for, v3.228.0: it does not compile against the CLI's (pkg/v3
#   renamed schema.Parameterization's BaseProvider and dropped pcl.Resource's DecomposeToken since), so it shares
#   little of the CLI's build cache. The host speaks to the CLI over gRPC only, as Pulumi's own hosts of other
#   releases do.
# - The Java SDK programs compile against is Maven Central's com.pulumi:pulumi, a release of the same repository:
#   Central serves it up to 1.20.0 (1.21.0 and 1.22.0: "Could not find artifact"), so programs and sdk/java use
#   1.20.0, the nearest to the host (JAVA_SDK_VERSION in scripts/lib/java-versions.sh).
#
# Needs: Go >= 1.26 and the Go module proxy (first build only). Running programs needs a JDK >= 11 and Maven on
# PATH: with CI=true their absence is an error, otherwise a note.
# Environment: PULUMI_RIMU_CACHE (default ~/.cache/pulumi-rimuhosting), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/java-versions.sh
. "$repo/scripts/lib/java-versions.sh"

command -v go >/dev/null || die "Go is not installed (need Go >= 1.26 and the Go module proxy)."
key="java-v$JAVA_HOST_VERSION-$(go env GOOS)-$(go env GOARCH)"
bin="$root/java-host/$key/bin"

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null; then
    [ "${CI:-}" = "true" ] && die "$tool is not on PATH: Java programs need a JDK >= 11 and Maven (CI=true: not skipped)."
    log "note: $tool is not on PATH; the Java host builds, but Java programs need a JDK >= 11 and Maven to run."
  fi
done

if [ -x "$bin/pulumi-language-java" ]; then
  log "reusing $bin"
else
  started=$SECONDS
  mkdir -p "$root/java-host"
  work="$(mktemp -d "$root/java-host/build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  log "building pulumi-language-java v$JAVA_HOST_VERSION (first build: minutes on 2 cores)..."
  # A throwaway module requiring the host's module (`go install pkg@version` refuses modules with replace
  # directives, as pulumi-java's is); its replaces, and pkg/v3's, are repeated.
  (cd "$work" &&
    go mod init example.invalid/java-host >/dev/null 2>&1 &&
    go mod edit -replace "$CLIPBOARD_REPLACE" \
      -replace github.com/Sirupsen/logrus=github.com/sirupsen/logrus@v1.8.3 \
      -replace github.com/gogo/protobuf=github.com/gogo/protobuf@v1.3.2 &&
    GOFLAGS=-mod=mod go get "github.com/pulumi/pulumi-java/pkg@v$JAVA_HOST_VERSION" >/dev/null 2>&1) ||
    die "could not resolve github.com/pulumi/pulumi-java/pkg@v$JAVA_HOST_VERSION from the Go module proxy" \
      "($(go env GOPROXY)); it serves that module only at some versions (scripts/README.md)."
  mkdir -p "$work/bin"
  GOFLAGS=-mod=mod release_build "$work" "-X github.com/pulumi/pulumi-java/pkg/version.Version=$JAVA_HOST_VERSION" \
    github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java "$work/bin/pulumi-language-java"
  mkdir -p "$(dirname "$bin")"
  rm -rf "$bin"
  mv "$work/bin" "$bin"
  log "pulumi-language-java v$JAVA_HOST_VERSION built in $((SECONDS - started)) s"
fi
echo "$bin"
