#!/usr/bin/env bash
# Builds and runs every test: one Debug build with -Werror under ASan + UBSan (desktop, server,
# simulators, every suite, the browser tests, the benchmarks' smoke runs and the fuzz targets over
# their corpora), then checks that strata-server links no GUI library and runs its
# self-test. `.ci/run` calls this through `./strata.sh test`.
#
# One sanitized build instead of a plain Debug build plus a sanitized one: the sanitized build is
# the same Debug -Werror compile with instrumentation, so the plain one found nothing more and
# cost 12 of CI's 30 minutes on 2 cores. The asan preset is a Ninja unity build linked with lld
# (CMakePresets.json). A unity build hides a header's missing include, so the preset also builds
# header_check: one translation unit per library header (cmake/StrataHeaderCheck.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${STRATA_JOBS:-2}
# Most suites wait on simulators, sockets and timers rather than compute: three test processes
# keep two cores busy.
test_jobs=${STRATA_TEST_JOBS:-3}
export STRATA_REQUIRE_ALL=1          # a missing real peer (Ansible, gnome-keyring) fails instead of skipping
export QT_QPA_PLATFORM=offscreen
export LANG=C.UTF-8
start=$(date +%s)
stamp() { echo "== [$(( $(date +%s) - start ))s] $*"; }

stamp "format check (clang-format 14)"
scripts/check-format.sh

stamp "Debug build (-Wall -Wextra -Werror) with ASan + UBSan"
# One ctest test per test case, so a failure is reported by its name (STRATA_TEST_SHARDING=ON,
# cmake/StrataAddTest.cmake, runs whole suites per process instead: measured on 2 cores, the
# same 28 minutes, since the integration suites' own work, not process starts, fills the cores).
cmake --preset asan -DSTRATA_TEST_SHARDING="${STRATA_TEST_SHARDING:-OFF}" >/dev/null
cmake --build --preset asan -j "$jobs"

stamp "tests (ASan + UBSan)"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$test_jobs" --timeout 900

# The fuzz targets' corpora are replayed by ctest above (label fuzz). Exploring new inputs with
# libFuzzer needs a clang build of its own (13 of CI's minutes on 2 cores for 8 s per target), so
# it runs when asked: STRATA_FUZZ_SECONDS=60 ./strata.sh test, or scripts/fuzz.sh alone.
if [[ ${STRATA_FUZZ_SECONDS:-0} -gt 0 ]]; then
  stamp "fuzz (libFuzzer, ASan + UBSan, ${STRATA_FUZZ_SECONDS} s per target)"
  STRATA_JOBS=$jobs scripts/fuzz.sh "${STRATA_FUZZ_SECONDS}"
fi

# The headless claim, checked on the binary itself: strata-server must load no GUI library, then
# serve the demo estate with no display.
stamp "headless: strata-server links no Qt GUI library, self-test"
if ldd build/asan/app/server/strata-server | grep -E 'libQt6(Gui|Widgets|Charts)|libX11|libxcb'; then
  echo "strata-server links a GUI library" >&2
  exit 1
fi
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= ASAN_OPTIONS=detect_leaks=0 \
  build/asan/app/server/strata-server --self-test

stamp "done"
