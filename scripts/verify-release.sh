#!/usr/bin/env bash
# Downloads the plugin of one platform from a pulumi-rimuhosting release, verifies it, and installs it: the route of
# docs/installation-configuration.md ("Verify what you install") as one command, for CI.
#
#   scripts/verify-release.sh <version> <platform>    # e.g. 0.1.0 linux-amd64; installs with `pulumi plugin install`
#   scripts/verify-release.sh --dir <dir>             # only verifies a release directory: every file SHA256SUMS lists
#
# Verifying means: SHA256SUMS.sig is a good signature over SHA256SUMS by the release key (RELEASE_KEY, or
# keys/release-signing-key.asc beside this script as the docs copy it, or in the checkout this script is in), then each file's SHA-256 is what SHA256SUMS says. Anything else stops it
# before the plugin is installed. The release workflow runs `--dir dist/release` before it publishes anything.
#
# Environment: RELEASE_KEY (the armored public key; default: the repository's), RELEASE_URL (where the release's
# files are; default: the GitHub release v<version>), WORK_DIR (where the files are downloaded; default: a new
# temporary directory, removed after). Needs curl, gpgv (GnuPG), sha256sum, and pulumi to install.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Copied as docs/installation-configuration.md says, keys/ is beside the script; in a checkout it is one level up.
key="${RELEASE_KEY:-}"
if [ -z "$key" ]; then
  key="$here/keys/release-signing-key.asc"
  [ -f "$key" ] || key="$here/../keys/release-signing-key.asc"
fi

# What to remove however the script ends (set -e included): the GnuPG home and keyring of check_signature, and
# the download directory it made itself.
scratch=()
cleanup() {
  if [ -n "${GNUPGHOME:-}" ] && [ -d "$GNUPGHOME" ]; then gpgconf --kill gpg-agent 2>/dev/null || true; fi
  if [ "${#scratch[@]}" -gt 0 ]; then rm -rf "${scratch[@]}"; fi
}
trap cleanup EXIT

die() {
  echo "verify-release: $*" >&2
  exit 1
}

usage="usage: scripts/verify-release.sh <version> <platform>  |  scripts/verify-release.sh --dir <dir>"
[ "$#" -eq 2 ] || die "$usage"
[ -f "$key" ] || die "no release key at $key: set RELEASE_KEY to the armored public key (keys/release-signing-key.asc)"
for tool in gpg gpgv sha256sum; do
  command -v "$tool" >/dev/null || die "$tool is not installed (GnuPG and coreutils)"
done

# The signature over SHA256SUMS, checked with the release key only: a keyring of its own, and a GnuPG home of its
# own for reading the key (the user's keyrings are neither read nor changed).
check_signature() {
  local dir="$1" keyring
  GNUPGHOME="$(mktemp -d)"
  export GNUPGHOME
  scratch+=("$GNUPGHOME")
  [ -f "$dir/SHA256SUMS.sig" ] || die "$dir has no SHA256SUMS.sig: this release is not signed, do not install it"
  keyring="$(mktemp)"
  scratch+=("$keyring" "$keyring.out")
  gpg --batch --quiet --yes --dearmor --output "$keyring" <"$key"
  if ! gpgv --keyring "$keyring" "$dir/SHA256SUMS.sig" "$dir/SHA256SUMS" 2>"$keyring.out"; then
    cat "$keyring.out" >&2
    die "SHA256SUMS.sig is not a good signature by the release key over SHA256SUMS: do not install this release"
  fi
  rm -f "$keyring" "$keyring.out"
  echo "verify-release: SHA256SUMS is signed by the release key ($(gpg --batch --with-colons --import-options show-only --import <"$key" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'))"
  gpgconf --kill gpg-agent 2>/dev/null || true
  rm -rf "$GNUPGHOME"
}

if [ "$1" = "--dir" ]; then
  dir="$2"
  [ -f "$dir/SHA256SUMS" ] || die "$dir has no SHA256SUMS"
  check_signature "$dir"
  (cd "$dir" && sha256sum --check --quiet --strict SHA256SUMS) || die "a file of $dir is not what SHA256SUMS says"
  echo "verify-release: every file SHA256SUMS lists is in $dir, as it says"
  exit 0
fi

version="${1#v}"
platform="$2"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+].*)?$ ]] || die "$1 is not a version (e.g. 0.1.0)"
case "$platform" in
  linux-amd64 | linux-arm64 | darwin-amd64 | darwin-arm64 | windows-amd64) ;;
  *) die "$platform is not a platform of the release: linux-amd64, linux-arm64, darwin-amd64, darwin-arm64 or windows-amd64" ;;
esac
command -v curl >/dev/null || die "curl is not installed"
command -v pulumi >/dev/null || die "pulumi is not on PATH"
release="${RELEASE_URL:-https://github.com/pulumi-rimuhosting/pulumi-rimuhosting/releases/download/v$version}"
tarball="pulumi-resource-rimuhosting-v$version-$platform.tar.gz"
if [ -n "${WORK_DIR:-}" ]; then
  work="$WORK_DIR"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  scratch+=("$work")
fi

# Downloads one file of the release; prints the HTTP status (curl's own error, as a sentence, if there is none).
download() {
  local status
  status="$(curl --silent --show-error --location --output "$work/$1" --write-out '%{http_code}' "${release%/}/$1")" ||
    die "could not download $1 from ${release%/}/ (is the address right, and the network up?)"
  echo "$status"
}
for file in "$tarball" SHA256SUMS; do
  status="$(download "$file")"
  [ "$status" = 200 ] || die "could not download $file from ${release%/}/ (HTTP $status): is $version a release with a $platform plugin?"
done
status="$(download SHA256SUMS.sig)"
[ "$status" != 404 ] || die "${release%/}/ has no SHA256SUMS.sig: this release is not signed, do not install it"
[ "$status" = 200 ] || die "could not download SHA256SUMS.sig from ${release%/}/ (HTTP $status)"
check_signature "$work"
grep -qF "  $tarball" "$work/SHA256SUMS" || die "SHA256SUMS does not list $tarball"
(cd "$work" && sha256sum --check --ignore-missing --strict SHA256SUMS) ||
  die "$tarball is not what the signed SHA256SUMS says: do not install it"
pulumi plugin install resource rimuhosting "$version" --file "$work/$tarball"
echo "verify-release: installed rimuhosting $version ($platform), verified"
