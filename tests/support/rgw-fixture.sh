#!/usr/bin/env bash
# Shared Ceph RGW for test processes (ctest runs every test case in its own process).
#   rgw-fixture.sh up DIR     reuse the RGW under DIR when it answers, else start one on free
#                             ports (scripts/rgw-up.sh); prints "reused <endpoint>" or
#                             "started <endpoint>". Serialised by a lock, so concurrent callers
#                             share one instance.
#   rgw-fixture.sh down DIR   stop the daemons under DIR and wait for them to exit.
# The endpoint is also in DIR/endpoint; keys are rgw-up.sh's fixed test keys (or RGW_ACCESS_KEY /
# RGW_SECRET_KEY when set).
set -euo pipefail

cmd=${1:?usage: rgw-fixture.sh up|down DIR}
dir=${2:?usage: rgw-fixture.sh up|down DIR}
here=$(cd "$(dirname "$0")" && pwd)
access=${RGW_ACCESS_KEY:-STRATATESTACCESSKEY01}
secret=${RGW_SECRET_KEY:-StrataTestSecretKey0123456789abcdefghijk}
mkdir -p "$dir"

alive() {
  [[ -f "$dir/endpoint" ]] || return 1
  local f
  for f in "$dir"/run/mon.a.pid "$dir"/run/osd.0.pid "$dir"/run/radosgw.pid; do
    [[ -f "$f" ]] && kill -0 "$(cat "$f")" 2>/dev/null || return 1
  done
  curl -sf -o /dev/null --max-time 5 --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access:$secret" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$(cat "$dir/endpoint")/"
}

stop() {
  local f pids=()
  for f in "$dir"/run/*.pid; do
    [[ -f "$f" ]] || continue
    local pid
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  # The OSD takes 2-3 s to exit; give everything 15 s, then SIGKILL.
  local waited=0
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null && ((waited < 150)); do
      sleep 0.1
      waited=$((waited + 1))
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -f "$dir/endpoint"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

exec 9>"$dir/.lock"
flock 9
case "$cmd" in
up)
  if alive; then
    echo "reused $(cat "$dir/endpoint")"
    exit 0
  fi
  stop
  port=$(free_port)
  mon_port=$(free_port)
  while [[ "$mon_port" == "$port" ]]; do mon_port=$(free_port); done
  if ! RGW_MON_PORT=$mon_port RGW_ACCESS_KEY=$access RGW_SECRET_KEY=$secret \
    "$here/../../scripts/rgw-up.sh" "$dir" "$port" >"$dir/up.log" 2>&1 9>&-; then
    cat "$dir/up.log" >&2
    stop
    exit 1
  fi
  echo "http://127.0.0.1:$port" >"$dir/endpoint"
  echo "started http://127.0.0.1:$port $(tail -1 "$dir/up.log" | sed -n 's/.*(\(.*\))$/(\1)/p')"
  ;;
down)
  stop
  echo "stopped"
  ;;
*)
  echo "usage: rgw-fixture.sh up|down DIR" >&2
  exit 2
  ;;
esac
