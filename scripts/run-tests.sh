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

stamp "headless build: core + server without Qt Widgets"
cmake --preset headless >/dev/null
cmake --build --preset headless -j "$jobs" --target strata-server
build/headless/app/server/strata-server --self-test

stamp "ASan + UBSan build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
stamp "ASan + UBSan tests"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$jobs" --timeout 900

stamp "done"
