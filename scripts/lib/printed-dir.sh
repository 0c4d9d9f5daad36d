# Sourced by every set-up script that prints a directory (or a file) on its LAST line for a caller to put on PATH
# (.ci/run, tools/pulumi-on-path.ts, scripts/language-hosts.sh read it with `tail -n 1`). A tool such a script runs
# may write to standard output without a newline (Maven's terminal resets, ESC[0m, did on a fresh machine), and
# whatever it wrote becomes part of the printed line: the caller then links or puts on PATH a path that does not
# exist. So the scripts send their tools' output to stderr, and print only through these functions, which check
# what they print first and fail, naming it, when it is not a plain existing path.

# printed_path_fail <what is wrong>: to stderr, prefixed with the script's name; exits 1.
printed_path_fail() {
  echo "$(basename "$0" .sh): $*" >&2
  exit 1
}

# printed_path_plain <path>: fails unless <path> holds no control character and is absolute. Control characters are
# looked for first: a tool's output in front of the path (Maven's ESC[0m) also makes it relative, and the message
# should say what happened.
printed_path_plain() {
  if [[ "$1" =~ [[:cntrl:]] ]]; then
    printed_path_fail "refusing to print $(printf '%q' "$1"): it holds control characters (a tool's output?)"
  fi
  case "$1" in /*) ;; *) printed_path_fail "refusing to print $(printf '%q' "$1"): not an absolute path" ;; esac
}

# print_checked_dir <dir> <executable...>: prints <dir> alone on a line once it is a plain absolute path of an
# existing directory that holds each <executable> as a regular file (a link is followed) that may be executed.
print_checked_dir() {
  local dir="$1" name
  shift
  printed_path_plain "$dir"
  [ -d "$dir" ] || printed_path_fail "refusing to print $dir: no such directory"
  for name in "$@"; do
    [ -f "$dir/$name" ] && [ -x "$dir/$name" ] || printed_path_fail "refusing to print $dir: $name is missing there or not executable"
  done
  printf '%s\n' "$dir"
}

# print_checked_file <file>: prints <file> alone on a line once it is a plain absolute path of an executable file.
print_checked_file() {
  printed_path_plain "$1"
  [ -f "$1" ] && [ -x "$1" ] || printed_path_fail "refusing to print $1: no such executable file"
  printf '%s\n' "$1"
}

# host_runs <executable>: whether it starts at all. A language host asked for --help either prints its usage and
# exits (Go's flag package: 0 or 2) or, given nothing to serve, waits and is stopped after 10 s (124); a path that
# cannot be executed exits 126 or 127, and a binary for another machine or a broken one dies of a signal (> 128).
host_runs() {
  local status=0
  timeout 10 "$1" --help </dev/null >/dev/null 2>&1 || status=$?
  [ "$status" -ne 126 ] && [ "$status" -ne 127 ] && { [ "$status" -le 128 ] || [ "$status" -eq 124 ]; }
}
