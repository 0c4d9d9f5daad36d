#!/usr/bin/env bash
# The servers of teams' backends, for the tests that log the Pulumi CLI in to them (test/engine/backends-*.test.ts):
# a PostgreSQL cluster (`pulumi login postgres://…`) and a local S3 server (`pulumi login s3://…?endpoint=…`).
#
#   eval "$(scripts/backend-servers.sh start)"   # starts both, prints the `export` lines the tests read
#   scripts/backend-servers.sh stop              # stops both (from the directory start exported)
#
# PostgreSQL is Debian's package (`postgresql`; apt-get installs it when no initdb is found, root or sudo the first
# time): a cluster of its own in a new temporary directory, listening on 127.0.0.1 only, on a free port. initdb
# refuses to run as root, so as root the cluster belongs to the `postgres` user the package creates. Connections
# over the Unix socket are trusted (to create the role); over TCP, where the CLI connects, a role with a random
# password (scram-sha-256), so a test can look for that password in everything the provider writes.
# S3 is PyPI's moto (`moto[server]`, MOTO_VERSION below), installed once into a virtual environment cached outside the
# clone, keyed by its version (~/.cache/pulumi-rimuhosting/moto/<version>; PULUMI_RIMU_CACHE moves the root), and
# started as `moto_server` on another free port; the bucket is created before the tests log in.
#
# Exports: RIMU_TEST_POSTGRES_URL (postgres://rimu:<password>@127.0.0.1:<port>/rimu?sslmode=disable),
# RIMU_TEST_S3_URL (s3://<bucket>?endpoint=127.0.0.1:<port>&disableSSL=true&s3ForcePathStyle=true), the AWS
# credentials the tests give the CLI for it (RIMU_TEST_S3_ACCESS_KEY_ID, RIMU_TEST_S3_SECRET_ACCESS_KEY,
# RIMU_TEST_S3_REGION: prefixed, so a shell's own AWS_* stay as they were), and RIMU_BACKEND_SERVERS_DIR (the
# servers' directory: data, logs, pids; `stop` removes it). The progress goes to stderr.
set -euo pipefail

MOTO_VERSION="${MOTO_VERSION:-5.2.5}"
cache_root="${PULUMI_RIMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-rimuhosting}"
say() { echo "backend-servers: $*" >&2; }
die() {
  say "$*"
  exit 1
}
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo -n) # a CI runner that is not root (GitHub's) has sudo without a password

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The directory of PostgreSQL's server programs (initdb, pg_ctl, postgres), installing Debian's package if none.
pg_bindir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    say "installing Debian's postgresql with apt-get"
    "${as_root[@]}" apt-get update -qq >&2
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    dir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  fi
  echo "$dir"
}

# Runs a command as the cluster's owner: `postgres` when this is root (initdb refuses root), else this user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local dir="$1" bin port password
  bin="$(pg_bindir)"
  port="$(free_port)"
  password="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  mkdir -p "$dir/postgres"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir/postgres"
  as_owner "$bin/initdb" -D "$dir/postgres/data" --auth-local=trust --auth-host=scram-sha-256 -U postgres \
    --no-sync >"$dir/postgres/initdb.log" 2>&1 || die "initdb failed: $(tail -n 5 "$dir/postgres/initdb.log")"
  as_owner "$bin/pg_ctl" -D "$dir/postgres/data" -l "$dir/postgres/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/postgres -c fsync=off -c max_connections=200" start >&2 ||
    die "PostgreSQL did not start: $(tail -n 5 "$dir/postgres/server.log")"
  # The password on psql's standard input (printf is a builtin), never in its arguments, which `ps` shows everyone.
  printf '%s\n' "CREATE ROLE rimu LOGIN PASSWORD '$password';" "CREATE DATABASE rimu OWNER rimu;" |
    as_owner "$bin/psql" -h "$dir/postgres" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q -f - >&2
  echo "$bin" >"$dir/postgres/bindir"
  say "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir/postgres/data)"
  echo "export RIMU_TEST_POSTGRES_URL='postgres://rimu:$password@127.0.0.1:$port/rimu?sslmode=disable'"
}

# The moto virtual environment, made once per version. A venv's scripts name its directory, so it is made in place;
# the file `installed` is written last, and a venv without it (an install cut short) is made again.
moto_venv() {
  local venv="$cache_root/moto/$MOTO_VERSION"
  if [ ! -f "$venv/installed" ]; then
    command -v python3 >/dev/null || die "python3 is not on PATH (moto needs Python >= 3.9 with venv)."
    say "installing moto[server]==$MOTO_VERSION from PyPI into $venv"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION" >&2 ||
      die "could not install moto[server]==$MOTO_VERSION from PyPI into $venv."
    "$venv/bin/python" -m pip freeze --disable-pip-version-check >"$venv/installed"
  fi
  echo "$venv"
}

start_s3() {
  local dir="$1" venv port bucket=rimu-pulumi-state
  venv="$(moto_venv)"
  port="$(free_port)"
  mkdir -p "$dir/s3"
  setsid "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/s3/server.log" 2>&1 </dev/null &
  echo $! >"$dir/s3/pid"
  AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing "$venv/bin/python" - "$port" "$bucket" <<'PY' >&2 ||
import sys, time, boto3
port, bucket = sys.argv[1], sys.argv[2]
s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1")
for attempt in range(120):
    try:
        s3.create_bucket(Bucket=bucket)
        break
    except Exception as error:  # not listening yet
        if attempt == 119:
            raise
        time.sleep(0.25)
PY
    die "moto_server did not serve on 127.0.0.1:$port: $(tail -n 5 "$dir/s3/server.log")"
  say "moto $MOTO_VERSION (S3) on 127.0.0.1:$port, bucket $bucket"
  echo "export RIMU_TEST_S3_URL='s3://$bucket?endpoint=127.0.0.1:$port&disableSSL=true&s3ForcePathStyle=true'"
  # moto takes any credentials: a random secret key, which a test can look for in everything the provider writes.
  echo "export RIMU_TEST_S3_ACCESS_KEY_ID=rimu-tests RIMU_TEST_S3_REGION=us-east-1" \
    "RIMU_TEST_S3_SECRET_ACCESS_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(20))')"
}

stop_servers() {
  local dir="${RIMU_BACKEND_SERVERS_DIR:-}"
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  if [ -f "$dir/s3/pid" ]; then
    kill "$(cat "$dir/s3/pid")" 2>/dev/null || true
  fi
  if [ -f "$dir/postgres/bindir" ]; then
    as_owner "$(cat "$dir/postgres/bindir")/pg_ctl" -D "$dir/postgres/data" -m immediate -w stop >&2 || true
  fi
  rm -rf "$dir"
  say "stopped, $dir removed"
}

case "${1:-}" in
  start)
    dir="$(mktemp -d "${TMPDIR:-/tmp}/rimu-backends.XXXXXX")"
    chmod 755 "$dir" # the postgres user reaches its data through it
    trap 'RIMU_BACKEND_SERVERS_DIR="$dir" stop_servers' EXIT # a server that started is stopped if the other fails
    echo "export RIMU_BACKEND_SERVERS_DIR='$dir'"
    start_postgres "$dir"
    start_s3 "$dir"
    trap - EXIT
    ;;
  stop) stop_servers ;;
  *) die "usage: scripts/backend-servers.sh start|stop (start prints the export lines: eval them)" ;;
esac
