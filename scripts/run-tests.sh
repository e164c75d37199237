#!/usr/bin/env bash
# Builds and runs every test: the Debug (-Werror) suite, a headless (no Widgets) build with the
# server self-test, the ASan/UBSan suite, and the benchmarks' smoke run. `.ci/run` calls this
# through `./strata.sh test`.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${STRATA_JOBS:-2}
export STRATA_REQUIRE_ALL=1          # a missing real peer (Ansible, gnome-keyring) fails instead of skipping
export QT_QPA_PLATFORM=offscreen
start=$(date +%s)
stamp() { echo "== [$(( $(date +%s) - start ))s] $*"; }

stamp "format check (clang-format 14)"
scripts/check-format.sh

stamp "Debug build (-Wall -Wextra -Werror)"
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$jobs"
stamp "tests"
ctest --preset ci -j "$jobs" --timeout 600

# The headless claim, checked on the binary itself (a separate no-Widgets build cost 2.3 min of
# CI): strata-server must load no GUI library, then serve the demo estate.
stamp "headless: strata-server links no Qt GUI library, self-test"
if ldd build/ci/app/server/strata-server | grep -E 'libQt6(Gui|Widgets|Charts)|libX11|libxcb'; then
  echo "strata-server links a GUI library" >&2
  exit 1
fi
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= build/ci/app/server/strata-server --self-test

# Connectors, simulators, models, CLI and server under ASan/UBSan, configured without Qt Widgets
# (so this build is also the headless one); the Widgets layer runs in the Debug suite above.
stamp "ASan + UBSan build (no Widgets)"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
stamp "ASan + UBSan tests"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$jobs" --timeout 900

stamp "done"
