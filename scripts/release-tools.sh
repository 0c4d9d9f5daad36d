#!/usr/bin/env bash
# Installs what `npm run release:build` needs beyond npm's packages, on a Debian or Ubuntu machine:
# - qemu-user and Debian's arm64 C libraries, to run the linux-arm64 plugin before it ships (qemu-aarch64 -L
#   /usr/aarch64-linux-gnu); apt-get only when one is missing, so it needs root (or sudo) only the first time;
# - rcodesign, to sign the macOS plugins ad hoc (scripts/rcodesign.sh: built once with cargo, then cached).
# Prints the path of rcodesign on its LAST line. .ci/run runs it before the tests; so can a release workflow.
set -euo pipefail

packages=(qemu-user libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q ' installed$' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "release-tools: installing ${missing[*]} with apt-get" >&2
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n) # a CI runner that is not root (GitHub's) has sudo without a password
  "${as_root[@]}" apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
"$(dirname "$0")/rcodesign.sh"
