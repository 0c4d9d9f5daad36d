#!/usr/bin/env bash
# Builds rcodesign (the crates.io crate apple-codesign: signs Mach-O programs on Linux) with cargo, or reuses an
# earlier build from a cache outside the clone, keyed by its version. Prints the path of the `rcodesign` binary on
# its LAST line.
#
#   rcodesign="$(scripts/rcodesign.sh | tail -n 1)"
#
# `npm run release:build` (tools/release/build.ts) runs it to sign the macOS plugin executables ad hoc: embedding
# the plugin in Node's binary drops Node's signature, and Apple Silicon runs no unsigned program. .ci/run runs it
# first so that the build (several minutes, once per machine) is not part of a test.
#
# Needs: cargo and crates.io. Without the `notarize` feature (Apple's notary service, the AWS SDK): ad hoc signing
# needs neither.
# Environment: RCODESIGN_CACHE (default $PULUMI_RIMU_CACHE/rcodesign; PULUMI_RIMU_CACHE defaults to ~/.cache/pulumi-rimuhosting).
set -euo pipefail

# Pinned: a newer rcodesign may sign differently, and that should be a change here.
RCODESIGN_VERSION=0.29.0

cache="${RCODESIGN_CACHE:-${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}/rcodesign}"
# Optimized at level 1, not cargo's 3 (CARGO_PROFILE_RELEASE_OPT_LEVEL): the build is CI's slowest on a cold machine,
# and level 1 signs a 154 MB plugin in the same second and writes the same bytes (compared with `cmp`); the cache is
# keyed by both.
OPT_LEVEL=1
dir="$cache/v$RCODESIGN_VERSION-o$OPT_LEVEL"
# shellcheck source=lib/cached-tool.sh
. "$(dirname "$0")/lib/cached-tool.sh"

install_into() {
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$OPT_LEVEL \
    cargo install --quiet --locked --no-default-features --root "$1" "apple-codesign@$RCODESIGN_VERSION"
}
cached_tool rcodesign cargo "it builds rcodesign v$RCODESIGN_VERSION from crates.io, several minutes, once" \
  "$dir/bin/rcodesign" "$dir" install_into
