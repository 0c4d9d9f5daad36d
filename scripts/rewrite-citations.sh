#!/usr/bin/env bash
# Rewrites citations of reference documents that live outside the repository so that they point to the
# pages in docs/ that carry the same facts, with the same section numbers:
#
#   rimuhosting-api.md §4.3                  -> docs/rimuhosting-api.md §4.3
#   pulumi-dynamic-providers.md §8.1         -> docs/dynamic-providers.md §8.1
#   interface.md "States and transitions"    -> docs/rimuhosting-api.md §7.1
#   interface.md "Limits" / Limits           -> docs/rimuhosting-api.md §7.2
#   interface.md (anything else)             -> docs/rimuhosting-api.md §7
#   a bare "§4.3" in a code file that names no document gets "docs/rimuhosting-api.md" on its first one
#
# A name written as Markdown link text or target ("[x.md](x.md)") is a relative link between pages in docs/,
# not a citation, and is left alone. Idempotent: a second run changes nothing. Prints each file it changed, then any citation it could not
# map (peer-providers.md has no page here) and exits 1 if there is one.
#
# Usage: scripts/rewrite-citations.sh [directory]   (default: the repository root)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

self="scripts/rewrite-citations.sh"
names='(rimuhosting-api|pulumi-dynamic-providers|interface|peer-providers)\.md'
# Text files that may cite, outside dependencies, build output and this script.
files_citing() {
  grep -rlE "$1" . \
    --include='*.ts' --include='*.mts' --include='*.cts' --include='*.js' --include='*.mjs' --include='*.cjs' \
    --include='*.md' --include='*.sh' --include='*.yml' --include='*.yaml' --include='*.json' \
    --exclude-dir=node_modules --exclude-dir=dist --exclude-dir=.git --exclude-dir=coverage \
    --exclude-dir=.state 2>/dev/null | sed 's|^\./||' | grep -vxF "$self" || true
}

changed=()
rewrite() { # file: apply the mapping in place, remember the file if it changed
  local f="$1" before after
  before=$(cksum <"$f")
  sed -E -i \
    -e 's#(\.\./|/work/)*(shared/)?reference/('"$names"')#\3#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()interface\.md "States and transitions"#\1docs/rimuhosting-api.md §7.1#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()interface\.md "?Limits"?#\1docs/rimuhosting-api.md §7.2#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()interface\.md "(Older distributions[^"]*)"#\1docs/rimuhosting-api.md §7.3 "\2"#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()interface\.md#\1docs/rimuhosting-api.md §7#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()pulumi-dynamic-providers\.md#\1docs/dynamic-providers.md#g' \
    -e 's#(^|[^]A-Za-z0-9_./[(-]|[^]]\()rimuhosting-api\.md#\1docs/rimuhosting-api.md#g' \
    "$f"
  after=$(cksum <"$f")
  [ "$before" = "$after" ] || changed+=("$f")
}

while IFS= read -r f; do
  [ -n "$f" ] && rewrite "$f"
done < <(files_citing "(^|[^]A-Za-z0-9_./[(-]|[^]]\()$names|reference/$names")

# Bare section signs: a code file that says "(§4.3)" without naming a document means the API page (the
# only reference such files cite). Name it on the first such line; RFC sections are left alone.
while IFS= read -r f; do
  [ -n "$f" ] || continue
  grep -qE 'docs/(rimuhosting-api|dynamic-providers)\.md' "$f" && continue
  line=$(grep -nE '§[0-9R]' "$f" | { grep -vE 'RFC ?[0-9]+ ?§' || true; } | sed -n 1p | cut -d: -f1)
  [ -n "$line" ] || continue
  sed -E -i "${line}s#§([0-9R])#docs/rimuhosting-api.md §\\1#" "$f"
  changed+=("$f")
done < <(grep -rlE '§[0-9R]' provider emulator contract test bench examples \
  --include='*.ts' --include='*.js' --include='*.mjs' --exclude-dir=node_modules 2>/dev/null || true)

for f in "${changed[@]+"${changed[@]}"}"; do echo "rewrote $f"; done

left=$(files_citing "(^|[^]A-Za-z0-9_./[(-]|[^]]\()$names" | while IFS= read -r f; do
  grep -noE "(^|[^]A-Za-z0-9_./[(-]|[^]]\()$names" "$f" | sed "s|^|$f:|"
done)
if [ -n "$left" ]; then
  echo "citations with no page in docs/ (fold the fact into a page, then cite it):" >&2
  echo "$left" >&2
  exit 1
fi
