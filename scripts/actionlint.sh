#!/usr/bin/env bash
# Builds actionlint (the GitHub Actions workflow checker) from the Go module proxy, or reuses an earlier build from
# a cache outside the clone, keyed by its version. Prints the path of the `actionlint` binary on its LAST line.
#
#   actionlint="$(scripts/actionlint.sh | tail -n 1)"
#
# test/docs/workflows.test.ts checks .github/workflows/*.yml and the workflow in docs/ci.md with it; it runs this
# script itself, and .ci/run runs it first so that the build (about a minute, once) is not part of a test.
#
# Needs: Go (any version actionlint's go.mod accepts; 1.26 here) and the Go module proxy.
# Environment: ACTIONLINT_CACHE (default $PULUMI_RIMU_CACHE/actionlint; PULUMI_RIMU_CACHE defaults to ~/.cache/pulumi-rimuhosting), GOFLAGS/GOPROXY as usual.
set -euo pipefail

# The version is pinned: a newer actionlint may add checks, and a check that changes should be a change here.
ACTIONLINT_VERSION=1.7.12

cache="${ACTIONLINT_CACHE:-${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}/actionlint}"
dir="$cache/v$ACTIONLINT_VERSION"
# shellcheck source=lib/cached-tool.sh
. "$(dirname "$0")/lib/cached-tool.sh"

install_into() {
  GOBIN="$1" CGO_ENABLED=0 go install -trimpath "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION"
}
cached_tool actionlint go "it builds actionlint v$ACTIONLINT_VERSION from the Go module proxy" \
  "$dir/actionlint" "$dir" install_into
