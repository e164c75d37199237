#!/usr/bin/env bash
# Starts the desktop app on the built-in simulated estate (after ./strata.sh built it).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/dev/app/desktop/strata

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
  cat <<MSG
No display found, so the desktop window cannot open here. Ways to use Strata on this machine:
  * in a virtual display:   xvfb-run -a -s "-screen 0 1400x900x24" ./strata.sh demo
  * offscreen (no window):  QT_QPA_PLATFORM=offscreen $bin demo
  * the CLI on the same simulated estate, for example:
        $bin --demo get sources
        $bin --demo get volumes -o json
        $bin --demo get snapshots --volume chest_xray
  * the web console in a browser (http://127.0.0.1:8080; its users' passwords are printed):
        ./strata.sh web
  * a standalone ONTAP simulator for your own tools (Ansible, curl):
        build/dev/simulators/strata-sim ontap --port 8443 --cert-out /tmp/ontap-ca.pem

Here is the simulated estate through the CLI:
MSG
  "$bin" --demo get sources
  "$bin" --demo get volumes | head -n 25
  exit 0
fi

exec "$bin" demo "$@"
