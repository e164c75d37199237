#!/usr/bin/env bash
# Runs one shard of a Google Test executable: its test suites are dealt out to TOTAL shards whole
# (a suite's fixture, such as a demo estate frozen into a bundle, is set up once per process),
# the suites with most cases first, each to the shard with the fewest cases so far.
#   gtest-shard.sh EXECUTABLE INDEX TOTAL [extra arguments for the executable]
# The same executable always gives the same deal, so the TOTAL shards run every case once.
set -euo pipefail
exe=$1 index=$2 total=$3
shift 3
# "Suite." lines, each followed by its cases indented; parameterised ones read "Prefix/Suite.".
# A suite larger than a shard's share is cut into pieces of that share (its fixture is then set
# up once per piece); every other suite stays whole.
mapfile -t deal < <("$exe" --gtest_list_tests | awk -v total="$total" '
  /^[^ ]/ { suite = $1; sub(/  *#.*/, "", suite); order[++n] = suite; next }
  /^  / {
    name = $1
    if (name !~ /^DISABLED_/ && suite !~ /(^|\/)DISABLED_/) { cases[suite, ++count[suite]] = name; all++ }
  }
  END {
    share = int((all + total - 1) / total)
    for (i = 1; i <= n; i++) {
      suite = order[i]; c = count[suite]
      if (c == 0) continue
      if (c <= share) { piece[++m] = suite "*"; size[m] = c; continue }
      for (first = 1; first <= c; first += share) {
        f = ""
        for (k = first; k < first + share && k <= c; k++) f = f (f == "" ? "" : ":") suite cases[suite, k]
        piece[++m] = f; size[m] = (c - first + 1 < share) ? c - first + 1 : share
      }
    }
    # Largest pieces first (stable for equal sizes), each to the least loaded shard.
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
      if (size[j] > size[i]) { t = piece[i]; piece[i] = piece[j]; piece[j] = t; t = size[i]; size[i] = size[j]; size[j] = t }
    for (k = 0; k < total; k++) load[k] = 0
    for (i = 1; i <= m; i++) {
      best = 0
      for (k = 1; k < total; k++) if (load[k] < load[best]) best = k
      load[best] += size[i]
      print best, piece[i]
    }
  }')
filter=
for line in "${deal[@]}"; do
  if [[ ${line%% *} == "$index" ]]; then
    filter+="${filter:+:}${line#* }"
  fi
done
if [[ -z $filter ]]; then
  echo "gtest-shard: shard $index of $total has no test suite"
  exit 0
fi
exec "$exe" --gtest_filter="$filter" "$@"
