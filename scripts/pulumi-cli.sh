#!/usr/bin/env bash
# Builds the Pulumi CLI (`pulumi`) and its Node.js language host (`pulumi-language-nodejs`) from the Go module
# proxy, or reuses an earlier build from a cache outside the clone, and puts the dynamic-provider plugin shim
# (`pulumi-resource-pulumi-nodejs`, shipped in the @pulumi/pulumi npm package) beside them.
#
# Needs: Go >= 1.26 and the Go module proxy; `npm ci` done (the shim and the SDK version come from node_modules).
# Prints the directory that holds the three programs on its LAST line of output; put it first on PATH.
#
#   bin="$(scripts/pulumi-cli.sh | tail -n 1)" && export PATH="$bin:$PATH"
#
# Which versions, and why (scripts/README.md says the same for contributors):
# - The CLI is the main package github.com/pulumi/pulumi/pkg/v3/cmd/pulumi at PINNED_CLI_VERSION: v3.276.0, the
#   release of the installed @pulumi/pulumi and the newest the proxy serves (`go list -m -versions
#   github.com/pulumi/pulumi/pkg/v3`). The proxy serves only some releases of pkg/v3 (never v3.270.0), and which ones
#   changes from day to day ("the nearest servable" picked v3.260.0 one day and v3.274.0 the next), so the release is
#   pinned: the same CLI on every machine. When the SDK moves past a release the proxy serves, the note below says so.
#   Its Python SDK is not on PyPI (3.272.0 is the newest there), so language-hosts.sh pins the Python SDK on its own.
#   Moving the CLI is a change of its own, with a whole CI run.
#   `go install pkg@version` refuses the package (its go.mod has replace directives), so a throwaway wrapper
#   module requires pkg/v3 and sdk/v3 at that version and builds the package.
# - The language host has been a module of its own (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
#   since v3.69, never tagged. The proxy serves no version of that module, so we build the last release in which the
#   language host was still a package of sdk/v3 (LANGHOST_SDK_VERSION). It only launches `node` on the SDK's own
#   runner (node_modules/@pulumi/pulumi/cmd/run) and passes the engine's flags; the engine, the plan, the steps and
#   the state are all the CLI's. The CLI falls back on its own for the RPCs this older host lacks, except RunPlugin,
#   which starts a policy pack given as a directory: `--policy-pack policy-pack` fails with "not supported", and
#   `--policy-pack policy-pack/analyzer` (a launcher in the pack, which the CLI runs itself) works
#   (policy-pack/README.md). A `pulumi-analyzer-policy` beside the CLI would not help: the CLI only looks for it
#   when it finds no Node.js language host.
# - Release flags: CGO off, trimpath, osusergo/grpcnotrace tags, and the version stamped in (without it the update
#   check calls out and the Automation API refuses the binary).
#
# Environment: PULUMI_CLI_CACHE (default $PULUMI_RIMU_CACHE/pulumi-cli; PULUMI_RIMU_CACHE defaults to ~/.cache/pulumi-rimuhosting), PULUMI_CLI_VERSION (another
# release than PINNED_CLI_VERSION, e.g. 3.260.0), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PULUMI_CLI_CACHE:-${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}/pulumi-cli}"
LANGHOST_SDK_VERSION=3.68.0
# The CLI's release (see "Which versions" above): the installed @pulumi/pulumi's, which the Go module proxy serves.
PINNED_CLI_VERSION=3.276.0
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/printed-dir.sh
. "$repo/scripts/lib/printed-dir.sh"

command -v go >/dev/null || die "Go is not installed (need Go >= 1.26 and the Go module proxy)."
command -v node >/dev/null || die "node is not on PATH."
shim="$(cd "$repo" && node -p 'require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs")' 2>/dev/null)" ||
  die "@pulumi/pulumi is not installed in $repo: run 'npm ci' first."
sdk_version="$(cd "$repo" && node -p 'require("@pulumi/pulumi/package.json").version')"
mkdir -p "$cache"

cli_version="${PULUMI_CLI_VERSION:-$PINNED_CLI_VERSION}"
cli_version="${cli_version#v}"
go mod download -json "github.com/pulumi/pulumi/pkg/v3@v$cli_version" >/dev/null 2>&1 ||
  die "the Go module proxy ($(go env GOPROXY)) cannot serve github.com/pulumi/pulumi/pkg/v3@v$cli_version; set PULUMI_CLI_VERSION to a release it serves."
if [ "$cli_version" != "$sdk_version" ]; then
  log "note: @pulumi/pulumi is $sdk_version; the CLI is v$cli_version (the Go module proxy does not serve pkg/v3 v$sdk_version; scripts/README.md)."
fi

key="cli-v$cli_version-langhost-v$LANGHOST_SDK_VERSION-$(go env GOOS)-$(go env GOARCH)"
bin="$cache/$key/bin"

build() { # build <module dir> <version stamp> <main package> <output>
  release_build "$1" "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$2" "$3" "$4"
}

if [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ]; then
  log "reusing $bin"
else
  started=$SECONDS
  work="$(mktemp -d "$cache/build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/cli" "$work/langhost" "$work/bin"

  log "building pulumi v$cli_version (first build: 10-20 minutes on 2 cores)..."
  (cd "$work/cli" &&
    go mod init example.invalid/pulumi-cli-build >/dev/null 2>&1 &&
    go mod edit -replace "$CLIPBOARD_REPLACE" &&
    GOFLAGS=-mod=mod go get "github.com/pulumi/pulumi/pkg/v3@v$cli_version" "github.com/pulumi/pulumi/sdk/v3@v$cli_version" >/dev/null 2>&1 &&
    GOFLAGS=-mod=mod go get "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v$cli_version" >/dev/null 2>&1) ||
    die "could not resolve the modules of pulumi v$cli_version from the Go module proxy."
  build "$work/cli" "$cli_version" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$work/bin/pulumi"

  log "building pulumi-language-nodejs (sdk/v3 v$LANGHOST_SDK_VERSION)..."
  (cd "$work/langhost" &&
    go mod init example.invalid/pulumi-language-nodejs-build >/dev/null 2>&1 &&
    GOFLAGS=-mod=mod go get "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs@v$LANGHOST_SDK_VERSION" >/dev/null 2>&1) ||
    die "could not resolve sdk/v3 v$LANGHOST_SDK_VERSION from the Go module proxy."
  build "$work/langhost" "$LANGHOST_SDK_VERSION" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
    "$work/bin/pulumi-language-nodejs"

  mkdir -p "$cache/$key"
  rm -rf "$bin"
  mv "$work/bin" "$bin"
  log "built in $((SECONDS - started)) s"
fi

# The shim is a 5-line script that runs the installed SDK's dynamic-provider host; copy the one this checkout has.
install -m 0755 "$shim" "$bin/pulumi-resource-pulumi-nodejs"
log "$("$bin/pulumi" version) (CLI), language host from sdk v$LANGHOST_SDK_VERSION, in:"
print_checked_dir "$bin" pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs
