#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang++-14, ASan + UBSan) into build/fuzz and runs
# each for a bounded time over a scratch copy of its seed corpus (tests/fuzz/corpus/<target>).
#   scripts/fuzz.sh                 every target, 8 s each
#   scripts/fuzz.sh 60              every target, 60 s each
#   scripts/fuzz.sh 60 s3_xml ...   only those targets
# Fails on the first crash, sanitizer report, timeout (10 s for one input) or out-of-memory
# (2 GB); the reproducer is left in build/fuzz/run/<target>/ and the command to replay it is
# printed. Leak detection is off: a crash or an ASan/UBSan error fails, a leak alone does not.
# Inputs the fuzzer finds are kept in the scratch copy only; the repo's corpus changes by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-8}
shift || true
jobs=${STRATA_JOBS:-2}
cxx=${STRATA_FUZZ_CXX:-clang++-14}

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  mapfile -t targets < <(find tests/fuzz/corpus -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi

start=$(date +%s)
CXX=$cxx cmake -S tests/fuzz -B build/fuzz -G Ninja >/dev/null
cmake --build build/fuzz -j "$jobs" -- "${targets[@]}"
echo "fuzz: built ${#targets[@]} targets in $(( $(date +%s) - start )) s"

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One target per core at a time: each still fuzzes for its full time on a core of its own.
fuzz_one() {
  local t=$1 work=build/fuzz/run/$1
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp -r "tests/fuzz/corpus/$t/." "$work/corpus/"
  if build/fuzz/"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1; then
    echo "fuzz: $t ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$') inputs in ${seconds} s)" >"$work/result"
    return 0
  fi
  {
    echo "fuzz: $t FAILED"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|abort' "$work/log" | head -20 || true
    tail -n 60 "$work/log"
    for a in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*; do
      [[ -e $a ]] && echo "fuzz: replay with: build/fuzz/$t $a"
    done
  } >"$work/result"
  return 1
}
for t in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= jobs )); do
    wait -n || true
  done
  fuzz_one "$t" &
done
wait || true
status=0
for t in "${targets[@]}"; do
  result=build/fuzz/run/$t/result
  if [[ -f $result ]] && head -n1 "$result" | grep -q '^fuzz: .* ok '; then
    cat "$result"
  else
    status=1
    cat "$result" >&2 2>/dev/null || echo "fuzz: $t FAILED (no result)" >&2
  fi
done
exit $status
