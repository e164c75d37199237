#!/usr/bin/env bash
# Starts a throw-away single-node Ceph (one mon, one memstore OSD) and a radosgw S3 endpoint on
# 127.0.0.1, everything under DIR (config, data, logs, pid files), no systemd, no cephx.
#   scripts/rgw-up.sh DIR [PORT]      PORT = radosgw HTTP port (default 7480)
# Prints "rgw ready: http://127.0.0.1:PORT access=... secret=..." once an S3 call succeeds, then
# exits 0 leaving the daemons running; stop them with: for f in DIR/run/*.pid; do kill "$(cat "$f")"; done
# Environment: RGW_ACCESS_KEY / RGW_SECRET_KEY (fixed test keys by default), RGW_MON_PORT (mon
# messenger port, default PORT+10000), RGW_TIMEOUT (seconds to wait for readiness, default 90).
# Needs Debian's ceph-mon ceph-osd radosgw ceph-common (scripts/deps.sh --test).
set -euo pipefail

dir=${1:?usage: rgw-up.sh DIR [PORT]}
port=${2:-7480}
mon_port=${RGW_MON_PORT:-$((port + 10000))}
access=${RGW_ACCESS_KEY:-STRATATESTACCESSKEY01}
secret=${RGW_SECRET_KEY:-StrataTestSecretKey0123456789abcdefghijk}
timeout=${RGW_TIMEOUT:-90}

for tool in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "rgw-up: $tool is not installed (scripts/deps.sh --test installs ceph-mon ceph-osd radosgw ceph-common)" >&2
    exit 2
  fi
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if compgen -G "$dir/run/*.pid" >/dev/null; then
  for f in "$dir"/run/*.pid; do
    if kill -0 "$(cat "$f")" 2>/dev/null; then
      echo "rgw-up: $dir already has a running daemon ($f); stop it first" >&2
      exit 2
    fi
  done
fi
rm -rf "$dir/mon" "$dir/osd" "$dir/run" "$dir/log" "$dir/rgw"
mkdir -p "$dir/mon" "$dir/osd" "$dir/run" "$dir/log" "$dir/rgw"
fsid=$(cat /proc/sys/kernel/random/uuid)
osd_uuid=$(cat /proc/sys/kernel/random/uuid)
conf="$dir/ceph.conf"

cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
ms bind ipv6 = false
ms mon client mode = crc
ms client mode = crc
ms cluster mode = crc
ms service mode = crc
ms mon cluster mode = crc
ms mon service mode = crc
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
keyring = $dir/keyring
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
mon data = $dir/mon
osd data = $dir/osd
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon data avail warn = 1
mon data avail crit = 0
mon warn on pool no redundancy = false
osd max object name len = 256
osd max object namespace len = 64
rgw data = $dir/rgw
rgw frontends = beast endpoint=127.0.0.1:$port
rgw dns name = localhost
rgw enable usage log = false
rgw thread pool size = 64
debug rgw = 0/0
debug ms = 0/0
EOF
: >"$dir/keyring"

ceph_cli=(ceph -c "$conf" --connect-timeout 10)
started=$(date +%s%N)

monmaptool --create --clobber --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring" >"$dir/log/mkfs-mon.log" 2>&1
ceph-mon -c "$conf" -i a

"${ceph_cli[@]}" osd new "$osd_uuid" >/dev/null
ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >"$dir/log/mkfs-osd.log" 2>&1
ceph-osd -c "$conf" -i 0 2>>"$dir/log/osd-start.log"

# RGW creates its pools on first use; it needs the OSD up to answer.
deadline=$(($(date +%s) + timeout))
until "${ceph_cli[@]}" osd stat 2>/dev/null | grep -q "1 up"; do
  if (($(date +%s) > deadline)); then
    echo "rgw-up: the OSD did not come up within ${timeout}s (see $dir/log)" >&2
    exit 1
  fi
  sleep 0.3
done

# In the foreground under our own pid file: radosgw only daemonizes after reaching the mon, so a
# bad start would otherwise hang here.
nohup radosgw -c "$conf" -n client.rgw -f </dev/null >"$dir/log/radosgw.out" 2>&1 &
echo $! >"$dir/run/radosgw.pid"
radosgw-admin -c "$conf" user create --uid=strata --display-name="Strata tests" \
  --access-key="$access" --secret-key="$secret" >"$dir/log/user-create.log" 2>&1

# Ready when a signed ListBuckets answers 200.
until curl -sf -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access:$secret" \
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "http://127.0.0.1:$port/"; do
  if (($(date +%s) > deadline)); then
    echo "rgw-up: radosgw did not answer on 127.0.0.1:$port within ${timeout}s (see $dir/log)" >&2
    exit 1
  fi
  sleep 0.3
done
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
echo "rgw ready: http://127.0.0.1:$port access=$access secret=$secret (${elapsed_ms} ms)"
