#!/usr/bin/env bash
# The five official `node` binaries a release embeds, taken from nodejs.org and checked against Node's signed
# checksums, written where tools/release/node-binaries.ts looks for them (RELEASE_NODE_CACHE). The release workflow
# runs it before `npm run release:build`, so a published plugin carries the Node that Node's releasers signed:
#
#   scripts/node-from-nodejs-org.sh <node version> <cache dir>
#   RELEASE_NODE_CACHE=<cache dir> npm run release:build
#
# For each of linux-x64, linux-arm64, darwin-x64, darwin-arm64 and win-x64 it downloads the archive, checks
# SHASUMS256.txt's signature with gpgv against Node's release keys (the keyring of github.com/nodejs/release-keys at a
# pinned commit, itself checked by its SHA-256), checks the archive's SHA-256 against SHASUMS256.txt, and writes
# <cache dir>/node-<platform>-<version>/node (node.exe on Windows) and LICENSE. A local build takes the same
# binaries from the npm registry instead (checked by npm's integrity hash only: docs/releasing.md).
#
# Environment: NODE_DIST_URL (default https://nodejs.org/dist), NODE_KEYRING (a keyring file to use instead of
# downloading Node's; the tests give a throwaway one). Needs curl, gpgv, sha256sum, tar, xz and unzip.
set -euo pipefail

# github.com/nodejs/release-keys at b28073028e6d (2026-07-01): gpg/pubring.kbx, every key that signed a release.
KEYS_COMMIT=b28073028e6d6855cfb53bf7fa0137599c01f967
KEYS_SHA256=6030d4e0cd53330acf2ab68acd455b7ca98bb5d5975376f0b7c0892308ba2d57

die() {
  echo "node-from-nodejs-org: $*" >&2
  exit 1
}
[ "$#" -eq 2 ] || die "usage: scripts/node-from-nodejs-org.sh <node version> <cache dir>"
version="${1#v}"
cache="$2"
dist="${NODE_DIST_URL:-https://nodejs.org/dist}/v$version"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fetch() { curl --fail --silent --show-error --location --output "$work/$1" "$2" || die "could not download $2"; }

if [ -n "${NODE_KEYRING:-}" ]; then
  cp "$NODE_KEYRING" "$work/keyring.kbx"
else
  fetch keyring.kbx "https://raw.githubusercontent.com/nodejs/release-keys/$KEYS_COMMIT/gpg/pubring.kbx"
  echo "$KEYS_SHA256  $work/keyring.kbx" | sha256sum --check --quiet ||
    die "Node's release keyring is not the one pinned here (SHA-256 $KEYS_SHA256)"
fi
fetch SHASUMS256.txt "$dist/SHASUMS256.txt"
fetch SHASUMS256.txt.sig "$dist/SHASUMS256.txt.sig"
gpgv --keyring "$work/keyring.kbx" "$work/SHASUMS256.txt.sig" "$work/SHASUMS256.txt" 2>"$work/gpgv.out" || {
  cat "$work/gpgv.out" >&2
  die "SHASUMS256.txt of $version is not signed by a Node.js release key"
}
echo "node-from-nodejs-org: SHASUMS256.txt of v$version is signed by a Node.js release key"

# Pulumi's platform name, Node's, and the archive.
while read -r platform node archive; do
  fetch "$archive" "$dist/$archive"
  (cd "$work" && grep -F "  $archive" SHASUMS256.txt | grep -E "^[0-9a-f]{64}  $archive\$" | sha256sum --check --quiet --strict) ||
    die "$archive is not what the signed SHASUMS256.txt says"
  out="$cache/node-$platform-$version"
  mkdir -p "$out" "$work/$platform"
  case "$archive" in
    *.zip) unzip -q "$work/$archive" -d "$work/$platform" ;;
    *) tar -xf "$work/$archive" -C "$work/$platform" ;;
  esac
  top="$work/$platform/node-v$version-$node"
  cp "$top/LICENSE" "$out/LICENSE"
  # the executable last: tools/release/node-binaries.ts takes a directory with it as complete
  if [ "$node" = win-x64 ]; then
    cp "$top/node.exe" "$out/node.exe.tmp" && mv "$out/node.exe.tmp" "$out/node.exe"
  else
    cp "$top/bin/node" "$out/node.tmp" && mv "$out/node.tmp" "$out/node"
  fi
  echo "node-from-nodejs-org: $archive checked: $out"
done <<EOF
linux-amd64 linux-x64 node-v$version-linux-x64.tar.xz
linux-arm64 linux-arm64 node-v$version-linux-arm64.tar.xz
darwin-amd64 darwin-x64 node-v$version-darwin-x64.tar.gz
darwin-arm64 darwin-arm64 node-v$version-darwin-arm64.tar.gz
windows-amd64 win-x64 node-v$version-win-x64.zip
EOF
