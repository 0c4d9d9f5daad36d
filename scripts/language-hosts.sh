#!/usr/bin/env bash
# Builds the YAML, Go, Python and Java language hosts of the Pulumi CLI from the Go module proxy (or reuses an earlier
# build from a cache outside the clone), the Python virtual environment with Pulumi's Python SDK from PyPI, and the
# SDK generator (scripts/gen-sdk.sh), and fills Go's build cache for programs on the Go SDK. Run it after
# scripts/pulumi-cli.sh, with that `pulumi` first on PATH: the hosts are matched to its version.
#
# Prints the directory that holds the hosts on its LAST line of output; put it on PATH beside the CLI's:
#
#   export PATH="$(scripts/pulumi-cli.sh | tail -n 1):$PATH"
#   export PATH="$(scripts/language-hosts.sh | tail -n 1):$PATH"
#
# Beside that bin directory, `python-venv` links to the virtual environment (test/engine/language-programs.ts finds
# it there). A warm run makes no network call. scripts/README.md says why these
# versions and what the module proxy refuses; in short:
# - YAML: github.com/pulumi/pulumi-yaml v1.38.1, the newest release (the proxy refuses its version list, so newer
#   ones are tried by name), built against pkg/v3 and sdk/v3 at the CLI's version.
# - Go: the Go host has been a module of its own since v3.67 (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3),
#   which the proxy does not serve; v3.66.0 is the last release of sdk/v3 that has it as a package.
# - Python: likewise a module of its own since v3.80 (…/sdk/python/cmd/pulumi-language-python/v3, not served);
#   v3.79.0 is the last release of sdk/v3 that has it. The host runs the program through the
#   `pulumi-language-python-exec` script found beside it; we take that script from sdk/v3 at the release of the PyPI
#   `pulumi` package installed in the virtual environment, so script and SDK match.
# - Java: scripts/java-host.sh builds github.com/pulumi/pulumi-java/pkg v1.22.0's host (the newest release the proxy
#   serves) into a cache entry of its own, and fills Maven's local repository (~/.m2) with what Java programs and
#   sdk/java build with; this script links the host into its bin directory.
# - The Python SDK (PyPI `pulumi`) is the CLI's release when PyPI has it, else PINNED_PYTHON_SDK_VERSION: the newest
#   on PyPI not above the CLI. PyPI lags the module proxy (3.274.x and 3.276.0, served by the proxy, are not on PyPI),
#   so the CLI's release alone failed on a fresh machine; the lower of the two is taken.
#
# Needs: Go >= 1.26 and the Go module proxy, python3 >= 3.10 with venv and PyPI (first run only), `pulumi` on PATH.
# Environment: PULUMI_RIMU_CACHE (default ~/.cache/pulumi-rimuhosting), PULUMI_CLI_VERSION (instead of asking
# `pulumi version`), PULUMI_PYTHON_SDK_VERSION (another pin of the Python SDK), PULUMI_YAML_VERSION (try another
# pulumi-yaml release), GOFLAGS/GOPROXY as usual.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
YAML_VERSION="${PULUMI_YAML_VERSION:-1.38.1}"
GO_HOST_SDK_VERSION=3.66.0
PYTHON_HOST_SDK_VERSION=3.79.0
# The newest `pulumi` on PyPI not above PINNED_CLI_VERSION (scripts/pulumi-cli.sh); see "Python SDK" above.
PINNED_PYTHON_SDK_VERSION=3.272.0
# shellcheck source=lib/go-release-build.sh
. "$repo/scripts/lib/go-release-build.sh"
# shellcheck source=lib/java-versions.sh
. "$repo/scripts/lib/java-versions.sh"
# shellcheck source=lib/printed-dir.sh
. "$repo/scripts/lib/printed-dir.sh"

timed() { # timed <label> <command...>: runs it, logs how long it took
  local started=$SECONDS
  "${@:2}"
  log "$1: $((SECONDS - started)) s"
}

command -v go >/dev/null || die "Go is not installed (need Go >= 1.26 and the Go module proxy)."
command -v python3 >/dev/null || die "python3 is not on PATH (need Python >= 3.10 with the venv module)."
if [ -n "${PULUMI_CLI_VERSION:-}" ]; then
  cli_version="${PULUMI_CLI_VERSION#v}"
else
  command -v pulumi >/dev/null || die "no pulumi on PATH: run scripts/pulumi-cli.sh first and put its directory on PATH."
  cli_version="$(pulumi version)"
  cli_version="${cli_version#v}"
fi
# The lower of the CLI's release and the pin (PULUMI_PYTHON_SDK_VERSION overrides the pin).
python_sdk_pin="${PULUMI_PYTHON_SDK_VERSION:-$PINNED_PYTHON_SDK_VERSION}"
python_sdk_version="$(printf '%s\n' "$cli_version" "${python_sdk_pin#v}" | sort -V | head -n 1)"
goos="$(go env GOOS)"
goarch="$(go env GOARCH)"
# The Python SDK is in the key only when it is not the CLI's release (as before the pin: those caches stay valid).
python_sdk_key=""
[ "$python_sdk_version" = "$cli_version" ] || python_sdk_key="-pysdk-v$python_sdk_version"
key="yaml-v$YAML_VERSION-go-v$GO_HOST_SDK_VERSION-python-v$PYTHON_HOST_SDK_VERSION-sdk-v$cli_version$python_sdk_key-$goos-$goarch"
bin="$root/language-hosts/$key/bin"
mkdir -p "$root/language-hosts"

# build <module dir> <-ldflags> <main package> <output>: the CLI's release flags, so the packages the hosts share with
# the CLI come from its build cache; -mod=mod fills the wrapper's go.sum with what the main package needs.
build() { GOFLAGS=-mod=mod release_build "$@"; }

# wrapper <dir> <name> <module@version...>: a throwaway module that requires what the host is built from (`go
# install pkg@version` refuses modules with replace directives, as pulumi-yaml's and pkg/v3's are).
wrapper() {
  local dir="$1" name="$2"
  shift 2
  mkdir -p "$dir"
  (cd "$dir" &&
    go mod init "example.invalid/$name" >/dev/null 2>&1 &&
    go mod edit -replace "$CLIPBOARD_REPLACE" &&
    GOFLAGS=-mod=mod go get "$@" >/dev/null 2>&1) ||
    die "could not resolve $* from the Go module proxy ($(go env GOPROXY))."
}

build_yaml() {
  wrapper "$work/yaml" yaml-host "github.com/pulumi/pulumi-yaml@v$YAML_VERSION" \
    "github.com/pulumi/pulumi/pkg/v3@v$cli_version" "github.com/pulumi/pulumi/sdk/v3@v$cli_version"
  build "$work/yaml" "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$YAML_VERSION" \
    github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml "$work/bin/pulumi-language-yaml"
}

build_go() {
  wrapper "$work/go" go-host "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go@v$GO_HOST_SDK_VERSION"
  build "$work/go" "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$GO_HOST_SDK_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go "$work/bin/pulumi-language-go"
}

build_python() {
  wrapper "$work/python" python-host \
    "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python@v$PYTHON_HOST_SDK_VERSION"
  build "$work/python" "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PYTHON_HOST_SDK_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python "$work/bin/pulumi-language-python"
  # The program runner the host starts with `python3`: the one shipped with the SDK release we install from PyPI.
  local sdk_dir
  sdk_dir="$(go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$python_sdk_version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [ -f "$sdk_dir/python/cmd/pulumi-language-python-exec" ] ||
    die "sdk/v3 v$python_sdk_version has no python/cmd/pulumi-language-python-exec."
  install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$work/bin/pulumi-language-python-exec"
}

hosts=(pulumi-language-yaml pulumi-language-go pulumi-language-python pulumi-language-python-exec)
have_all() {
  local h
  for h in "${hosts[@]}"; do [ -x "$bin/$h" ] || return 1; done
}

if have_all; then
  log "reusing $bin"
else
  started=$SECONDS
  work="$(mktemp -d "$root/language-hosts/build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/bin"
  log "building the language hosts (first build: 5-10 minutes on 2 cores with the CLI's build cache warm)..."
  timed "pulumi-language-yaml v$YAML_VERSION" build_yaml
  timed "pulumi-language-go (sdk/v3 v$GO_HOST_SDK_VERSION)" build_go
  timed "pulumi-language-python (sdk/v3 v$PYTHON_HOST_SDK_VERSION)" build_python
  mkdir -p "$(dirname "$bin")"
  rm -rf "$bin"
  mv "$work/bin" "$bin"
  log "hosts built in $((SECONDS - started)) s"
fi

# The Python virtual environment: the PyPI `pulumi` at the CLI's version, what generated Python SDKs require beside it
# (parver; semver and typing-extensions come with pulumi), and setuptools and wheel, to install a generated SDK
# (setup.py) without reaching PyPI. Keyed by that list and the interpreter; complete only once its stamp is
# written. Programs get a virtual environment of their own on top of it (test/engine/language-programs.ts).
python_tag="$(python3 -c 'import sys; print("%s%d.%d" % (sys.implementation.name, *sys.version_info[:2]))')"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
  die "python3 is $python_tag; Pulumi's Python SDK $python_sdk_version needs Python >= 3.10."
python_packages=("pulumi==$python_sdk_version" parver setuptools wheel)
venv="$root/python/pulumi-$python_sdk_version-$python_tag-$(echo "${python_packages[*]}" | sha256sum | cut -c1-8)"
make_venv() {
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${python_packages[@]}" ||
    die "could not install ${python_packages[*]} from PyPI into $venv."
  "$venv/bin/python" -m pip freeze --disable-pip-version-check >"$venv/installed.txt"
  touch "$venv/.complete"
}
if [ -f "$venv/.complete" ]; then
  log "reusing $venv"
else
  log "creating $venv (${python_packages[*]} from PyPI)..."
  timed "python virtual environment" make_venv
fi
ln -sfn "$venv" "$root/language-hosts/$key/python-venv"

# The Java host (its own cache entry, keyed by its version), linked beside the others so that one directory on PATH
# has every host. The link is remade on each run: it names the current Java build.
# java-host.sh checks the directory it prints; the link is made only to a host that runs (a path spoiled by a tool's
# output once left a broken link here, and every Java test failed).
java_bin="$(timed "pulumi-language-java" "$repo/scripts/java-host.sh" | tail -n 1)"
host_runs "$java_bin/pulumi-language-java" ||
  die "not linking pulumi-language-java: $(printf '%q' "$java_bin/pulumi-language-java") (java-host.sh's last line) does not run."
ln -sfn "$java_bin/pulumi-language-java" "$bin/pulumi-language-java"

# The SDK generator (built into its own cache entry, keyed by its sources).
timed "gen-sdk" "$repo/scripts/gen-sdk.sh" --build >/dev/null

# Go's caches: the Go host compiles each program with `go build`, and the first program on sdk/v3 compiles its whole
# dependency tree (about 5 minutes on 2 cores). Compile a package that imports what a generated Go SDK and its
# program import, with the flags the host uses (none), so that end-to-end tests find it compiled; and have every
# module of that build list in the module cache with its metadata, so that programs build with GOPROXY=off (the
# host runs `go list -m -json`, which reads it). Both caches are Go's own, outside the clone
# (`go env GOCACHE GOMODCACHE`).
warm_go() { # <sdk/v3 version>
  local version="$1" warm="$root/go-warmup/sdk-v$1"
  mkdir -p "$warm"
  # Not a main package: `go build` compiles it and its dependencies without linking a binary.
  printf '%s\n' '// Imports what generated Go SDKs and their programs import, to fill Go'"'"'s build cache.' \
    'package warmup' '' 'import (' \
    '	_ "github.com/blang/semver"' \
    '	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi"' \
    '	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"' \
    '	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi/internals"' \
    ')' >"$warm/warmup.go"
  if [ ! -f "$warm/go.sum" ]; then
    (cd "$warm" && rm -f go.mod && go mod init example.invalid/go-warmup >/dev/null 2>&1 &&
      go get "github.com/pulumi/pulumi/sdk/v3@v$version" github.com/blang/semver@v3.5.1+incompatible \
        >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1) ||
      die "could not resolve sdk/v3 v$version from the Go module proxy."
  fi
  if ! (cd "$warm" && GOPROXY=off go list -m -json all >/dev/null 2>&1); then
    (cd "$warm" && go list -m -json all >/dev/null) || die "could not list the modules of sdk/v3 v$version."
  fi
  (cd "$warm" && GOPROXY=off go build .)
}
timed "Go build cache for programs on sdk/v3 v$cli_version" warm_go "$cli_version"
# The Go examples pin sdk/v3 at the release they were written for (examples/go-quickstart/go.mod), which need not
# be the CLI's: the CLI is the newest release the proxy serves, and that moves. Tests build those examples with
# GOPROXY=off, which needs each such version's modules, and their checksums (go.sum's or the checksum database's,
# looked up here online), in Go's module cache.
for version in $(sed -n 's|^[[:space:]]*github.com/pulumi/pulumi/sdk/v3 v\([0-9.]*\).*|\1|p' "$repo"/examples/*/go.mod | sort -u); do
  [ "$version" = "$cli_version" ] || timed "Go build cache for the examples on sdk/v3 v$version" warm_go "$version"
done

log "pulumi-language-yaml v$YAML_VERSION, pulumi-language-go v$GO_HOST_SDK_VERSION," \
  "pulumi-language-python v$PYTHON_HOST_SDK_VERSION (runner and PyPI pulumi v$python_sdk_version)," \
  "pulumi-language-java v$JAVA_HOST_VERSION, in:"
for host in "$bin"/pulumi-language-*; do
  case "$host" in *-exec) continue ;; esac # the Python host's runner, a script the host starts with python3
  host_runs "$host" || die "$(basename "$host") in $bin does not run: remove $bin and run this script again."
done
print_checked_dir "$bin" "${hosts[@]}" pulumi-language-java
