# Sourced by the scripts that build a tool once and keep it in a cache outside the clone, keyed by its version
# (actionlint.sh, rcodesign.sh).

# cached_tool <name> <needed command> <what to tell> <bin> <dir> <installer...>: prints <bin>. Unless it exists,
# runs `<installer...> <tmp>` (it installs the tool into the new directory <tmp>), then renames <tmp> to <dir>, so
# that a build killed halfway leaves nothing behind. Without <needed command>, fails saying <what to tell>.
# shellcheck source=printed-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/printed-dir.sh"

cached_tool() {
  local name="$1" needs="$2" why="$3" bin="$4" dir="$5" tmp
  shift 5
  if [ ! -x "$bin" ]; then
    command -v "$needs" >/dev/null || {
      echo "$name: $needs is not installed ($why)." >&2
      return 1
    }
    echo "$name: building into $dir ($why)..." >&2
    mkdir -p "$(dirname "$dir")"
    tmp="$(mktemp -d "$(dirname "$dir")/build.XXXXXX")"
    if ! "$@" "$tmp" >&2; then
      rm -rf "$tmp"
      return 1
    fi
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  print_checked_file "$bin"
}
