#!/usr/bin/env bash
# Throwaway PostgreSQL cluster for the test suite.
#
#   scripts/pg-test-cluster.sh start   # (re)create + start; prints the admin URL on stdout
#   scripts/pg-test-cluster.sh stop    # stop + remove the cluster directory (silent, idempotent)
#   scripts/pg-test-cluster.sh url     # print the admin URL
#   scripts/pg-test-cluster.sh status  # exit 0 if running
#
# Environment:
#   TV2_PG_PORT  port to listen on (default 55432, host 127.0.0.1 only)
#   TV2_PG_DIR   cluster directory (default ${TMPDIR:-/tmp}/tv2-pg-test; wiped by start/stop)
#
# Installs Debian's `postgresql` package with apt-get when no initdb is found.
# As root the server runs as the `postgres` OS user (PostgreSQL refuses to run as
# root); as any other user the binaries are run directly. Authentication is `trust`
# and the superuser is `postgres`, so the URL carries no password:
#   postgres://postgres@127.0.0.1:<port>/postgres
# Only the URL goes to stdout; diagnostics go to stderr.
set -euo pipefail

PORT="${TV2_PG_PORT:-55432}"
BASE="${TV2_PG_DIR:-${TMPDIR:-/tmp}/tv2-pg-test}"
BASE="${BASE%/}"
DATA="$BASE/data"
SOCK="$BASE/sock"
LOG="$BASE/postgres.log"
URL="postgres://postgres@127.0.0.1:${PORT}/postgres"

log() { echo "pg-test-cluster: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

case "$PORT" in
  '' | *[!0-9]*) die "TV2_PG_PORT must be a port number, got '$PORT'" ;;
esac
case "$BASE" in
  '' | / | /tmp | /var/tmp | /root | /home | /usr | /etc) die "refusing to use '$BASE' as the cluster directory" ;;
esac

is_root() { [ "$(id -u)" -eq 0 ]; }

# Run a command as the PostgreSQL OS user: `postgres` when we are root, ourselves otherwise.
as_pg() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

find_bindir() {
  local d
  # shellcheck disable=SC2012 # fixed, well-formed paths; sort -V picks the newest major
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
    echo "$d"
    return 0
  fi
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  return 1
}

install_postgres() {
  local sudo=()
  if ! is_root; then
    command -v sudo >/dev/null 2>&1 || die "PostgreSQL is not installed and we are not root (install the 'postgresql' package)"
    sudo=(sudo -n)
  fi
  log "installing PostgreSQL with apt-get"
  {
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  } >&2 || die "apt-get install postgresql failed"
}

ensure_pg_user() {
  is_root || return 0
  if ! id -u postgres >/dev/null 2>&1; then
    log "creating the 'postgres' system user"
    useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
  fi
}

# Stop a server left running in $DATA (quietly); true if nothing is left running.
stop_server() {
  local bindir="$1"
  [ -f "$DATA/postmaster.pid" ] || return 0
  if [ -n "$bindir" ]; then
    as_pg "$bindir/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >/dev/null 2>&1 && return 0
    as_pg "$bindir/pg_ctl" -D "$DATA" -m immediate -w -t 10 stop >/dev/null 2>&1 && return 0
  fi
  # Last resort: signal the postmaster recorded in the pid file.
  local pid
  pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null || true)"
  case "$pid" in
    '' | *[!0-9]*) return 0 ;;
  esac
  kill -QUIT "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}

cmd_start() {
  local bindir
  if ! bindir="$(find_bindir)"; then
    install_postgres
    bindir="$(find_bindir)" || die "initdb not found even after installing postgresql"
  fi
  ensure_pg_user

  stop_server "$bindir" || die "a server in $DATA is still running and could not be stopped"
  rm -rf "$BASE"
  mkdir -p "$DATA" "$SOCK"
  chmod 700 "$DATA"
  if is_root; then
    chown -R postgres: "$BASE"
    runuser -u postgres -- test -x "$BASE" ||
      die "the postgres user cannot reach $BASE (set TV2_PG_DIR or TMPDIR to a world-traversable place)"
  fi

  log "initdb ($bindir) in $DATA"
  if ! as_pg "$bindir/initdb" -D "$DATA" -A trust -U postgres --no-sync \
    --encoding=UTF8 --locale=C >"$BASE/initdb.log" 2>&1; then
    cat "$BASE/initdb.log" >&2
    die "initdb failed"
  fi

  log "starting on 127.0.0.1:$PORT"
  if ! as_pg "$bindir/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
    -o "-p $PORT -k $SOCK -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null 2>&1; then
    tail -n 30 "$LOG" >&2 2>/dev/null || true
    stop_server "$bindir" || true
    die "pg_ctl start failed (is port $PORT already in use? set TV2_PG_PORT)"
  fi
  echo "$URL"
}

cmd_stop() {
  local bindir=''
  bindir="$(find_bindir)" || bindir=''
  stop_server "$bindir" || log "warning: the server in $DATA did not stop"
  rm -rf "$BASE"
}

cmd_status() {
  local bindir
  bindir="$(find_bindir)" || return 1
  [ -d "$DATA" ] || return 1
  as_pg "$bindir/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  url) echo "$URL" ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 start|stop|url|status" >&2
    exit 2
    ;;
esac
