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
# Then it fills Maven's local repository (~/.m2, Maven's own cache outside the clone) with everything sdk/java and
# examples/java-quickstart build and run with: com.pulumi:pulumi and its dependencies, the pinned plugins, and the
# Java SDK itself (com.pulumi:rimuhosting, from sdk/java), so that tests run Maven offline (`mvn -o`). Keyed by the
# two pom.xml files: a warm run makes no network call.
#
# Needs: Go >= 1.26 and the Go module proxy (first build only), Maven Central (first fill only). Running programs
# needs a JDK >= 11 and Maven on PATH: with CI=true their absence is an error, otherwise a note and no fill.
# Environment: PULUMI_RIMU_CACHE (default ~/.cache/pulumi-rimuhosting), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/java-versions.sh
. "$repo/scripts/lib/java-versions.sh"
# shellcheck source=lib/printed-dir.sh
. "$repo/scripts/lib/printed-dir.sh"

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
# The plugins run by name, named in full as docs/java.md and test/engine/java-programs.ts do (Maven 3.8's defaults
# are older): install-file, and build-classpath (the tests' launcher jar of a program).
MAVEN_INSTALL_PLUGIN=org.apache.maven.plugins:maven-install-plugin:3.1.3
MAVEN_DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

# warm_maven: sdk/java packaged and installed, and the quickstart compiled and its bootstrap run (the Java host's
# plugin discovery: `compile exec:java` of com.pulumi.bootstrap.internal.Main), all online once. Maven's standard
# output goes to stderr (below, where it is called): with -B -q it still wrote terminal resets (ESC[0m, no newline)
# there on its first run, which became part of the directory this script prints last. -Dstyle.color=never asks it
# for none.
warm_maven() {
  local work
  work="$(mktemp -d)"
  cp -r "$repo/sdk/java" "$work/sdk"
  cp -r "$repo/examples/java-quickstart" "$work/program"
  (cd "$work/sdk" && mvn -B -q -Dstyle.color=never package &&
    mvn -B -q -Dstyle.color=never "$MAVEN_INSTALL_PLUGIN:install-file" -Dfile="target/$1.jar" -Dsources="target/$1-sources.jar" \
      -DpomFile=pom.xml) &&
    (cd "$work/program" && mvn -B -q -Dstyle.color=never compile exec:java -DmainClass=com.pulumi.bootstrap.internal.Main \
      -DmainArgs=packages >/dev/null &&
      mvn -B -q -Dstyle.color=never "$MAVEN_DEPENDENCY_PLUGIN:build-classpath" -Dmdep.outputFile=classpath.txt)
  local status=$?
  rm -rf "$work"
  return $status
}
if command -v mvn >/dev/null && command -v java >/dev/null; then
  sdk_name="$(sed -n 's|^  <artifactId>\(.*\)</artifactId>$|\1|p' "$repo/sdk/java/pom.xml" | head -n 1)-$(
    sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$repo/sdk/java/pom.xml" | head -n 1)"
  stamp="$root/java-host/maven-$(cat "$repo/sdk/java/pom.xml" "$repo/examples/java-quickstart/pom.xml" "$0" |
    sha256sum | cut -c1-12)"
  if [ -f "$stamp" ]; then
    log "Maven's local repository was filled for these pom.xml files ($stamp)"
  else
    started=$SECONDS
    log "filling Maven's local repository for sdk/java and examples/java-quickstart (Maven Central, once)..."
    warm_maven "$sdk_name" >&2 || die "could not build sdk/java or examples/java-quickstart with Maven (above)."
    touch "$stamp"
    log "Maven's local repository filled in $((SECONDS - started)) s"
  fi
fi
print_checked_dir "$bin" pulumi-language-java
