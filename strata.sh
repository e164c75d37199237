#!/usr/bin/env bash
# Strata's developer entry point (see README "Quick start").
#   ./strata.sh demo   install what is missing, build, start the desktop app on the simulated estate
#   ./strata.sh test   install what is missing, build (Debug and ASan/UBSan), run every test
#   ./strata.sh web    install what is missing, build, serve the web console on the simulated estate
#   ./strata.sh build  build the everyday Debug preset only
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

jobs=${STRATA_JOBS:-2}

build() { # preset [targets...]
  local preset=$1; shift
  cmake --preset "$preset" >/dev/null
  if (($#)); then
    cmake --build --preset "$preset" -j "$jobs" --target "$@"
  else
    cmake --build --preset "$preset" -j "$jobs"
  fi
}

case "${1:-}" in
  demo)
    scripts/deps.sh
    build dev strata strata-server strata-sim
    shift
    exec scripts/run-demo.sh "$@"
    ;;
  web)
    scripts/deps.sh
    build dev strata-server
    shift
    exec build/dev/app/server/strata-server serve --demo --listen "${STRATA_LISTEN:-127.0.0.1:8080}" "$@"
    ;;
  test)
    scripts/deps.sh --test
    exec scripts/run-tests.sh
    ;;
  build)
    scripts/deps.sh
    build dev
    ;;
  *)
    echo "usage: $0 demo|test|web|build" >&2
    exit 2
    ;;
esac
