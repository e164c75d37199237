#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for test processes (ctest runs every test case in its own
# process), the store tests and the replica tests.
#   pg-fixture.sh up DIR     reuse the cluster recorded under DIR when it answers, else initdb and
#                            start one on a free loopback port; prints "reused URL" or "started URL".
#                            Serialised by a lock, so concurrent callers share one cluster.
#   pg-fixture.sh down DIR   stop the cluster and delete its data directory.
# The connection URL (postgresql://strata:PASSWORD@127.0.0.1:PORT/postgres, a superuser with a
# random scram-sha-256 password) is also in DIR/url (mode 0600).
#
# PostgreSQL refuses to run as root and CI runs as root: then the cluster runs as `nobody`, its
# data under a private directory in /tmp (DIR may sit under a home directory nobody cannot
# enter). Durability is off (fsync=off): the data is thrown away.
set -euo pipefail

cmd=${1:?usage: pg-fixture.sh up|down DIR}
dir=${2:?usage: pg-fixture.sh up|down DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bindir=""
for d in /usr/lib/postgresql/*/bin; do
  [[ -x "$d/initdb" ]] && bindir=$d
done
if [[ -z "$bindir" ]]; then
  echo "pg-fixture: no PostgreSQL server (initdb) under /usr/lib/postgresql: run scripts/deps.sh --test" >&2
  exit 1
fi

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u nobody -- "$@"
  else
    "$@"
  fi
}

alive() {
  [[ -f "$dir/url" && -f "$dir/datadir" ]] || return 1
  local data
  data=$(cat "$dir/datadir")
  [[ -d "$data/db" ]] || return 1
  as_owner "$bindir/pg_ctl" -D "$data/db" status >/dev/null 2>&1 || return 1
  "$bindir/pg_isready" -q -h 127.0.0.1 -p "$(cat "$dir/port")" -t 5
}

stop() {
  if [[ -f "$dir/datadir" ]]; then
    local data
    data=$(cat "$dir/datadir")
    if [[ -d "$data/db" ]]; then
      as_owner "$bindir/pg_ctl" -D "$data/db" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    # Only ever delete what this script created.
    [[ "$data" == /tmp/strata-pg.* ]] && rm -rf "$data"
  fi
  rm -f "$dir/url" "$dir/datadir" "$dir/port"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

exec 9>"$dir/.lock"
flock 9
case "$cmd" in
up)
  if alive; then
    echo "reused $(sed 's#://strata:[^@]*@#://strata:***@#' "$dir/url")"
    exit 0
  fi
  stop
  data=$(mktemp -d /tmp/strata-pg.XXXXXX)
  chmod 0711 "$data"
  password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
  umask 077
  printf '%s\n' "$password" >"$data/pw"
  mkdir "$data/db" "$data/sock"
  if [[ $(id -u) -eq 0 ]]; then
    chown nobody "$data/pw" "$data/db" "$data/sock"
  fi
  echo "$data" >"$dir/datadir"
  if ! as_owner "$bindir/initdb" -D "$data/db" -U strata --auth=scram-sha-256 --pwfile="$data/pw" \
    -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    stop
    exit 1
  fi
  rm -f "$data/pw"
  port=$(free_port)
  echo "$port" >"$dir/port"
  if ! as_owner "$bindir/pg_ctl" -D "$data/db" -l "$data/db/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >"$dir/start.log" 2>&1 9>&-; then
    cat "$dir/start.log" >&2
    as_owner cat "$data/db/server.log" >&2 || true
    stop
    exit 1
  fi
  printf 'postgresql://strata:%s@127.0.0.1:%s/postgres\n' "$password" "$port" >"$dir/url"
  chmod 0600 "$dir/url"
  echo "started postgresql://strata:***@127.0.0.1:$port/postgres ($("$bindir/postgres" --version))"
  ;;
down)
  stop
  echo "stopped"
  ;;
*)
  echo "usage: pg-fixture.sh up|down DIR" >&2
  exit 2
  ;;
esac
