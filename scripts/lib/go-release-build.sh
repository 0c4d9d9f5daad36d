# Sourced (not run) by the scripts that build Pulumi's programs from the Go module proxy: pulumi-cli.sh,
# language-hosts.sh and gen-sdk.sh.

# pkg/v3 replaces github.com/atotto/clipboard with a fork in its go.mod; a module that requires pkg/v3 must repeat
# the replace (tools/gen-sdk/go.mod has it too).
CLIPBOARD_REPLACE="github.com/atotto/clipboard=github.com/tgummerer/clipboard@v0.0.0-20241001131231-d02d263e614e"

# release_build <module dir> <extra -ldflags> <main package> <output>: Pulumi's release flags (CGO off, trimpath,
# the osusergo and grpcnotrace tags, stripped). The same flags everywhere, so that what the CLI, the language hosts
# and gen-sdk share is compiled once in Go's build cache.
release_build() {
  (cd "$1" && CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace -ldflags "-s -w $2" -o "$4" "$3")
}

# log/die: messages to stderr, prefixed with the script's name (stdout is kept for the result the script prints).
log() { echo "$(basename "$0" .sh): $*" >&2; }
die() {
  log "$*"
  exit 1
}
