#!/usr/bin/env bash
# Instructions and simulated L1 read misses per call of the 3x3 rank,
# distance lookup, solve and parse, in two trees, by callgrind
# (bench/core_count.cpp): where this machine's timings drift by 2x between
# processes, these counts are the same every run. Each tree must have its
# release library built (build/core/libeight.a); the driver is compiled
# against each tree's headers with one command line.
#
#   bench/count_core.sh BEFORE_TREE AFTER_TREE [PASSES]
set -euo pipefail
A="$(cd "$1" && pwd)"; B="$(cd "$2" && pwd)"; PASSES="${3:-5}"
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
for which in A B; do
  tree="${!which}"
  g++ -std=c++20 -O2 -DNDEBUG -I"$tree/include" "$HERE/core_count.cpp" \
    "$tree/build/core/libeight.a" -lxxhash -pthread -o "$WORK/count_$which"
done
printf '%-9s %-5s %12s %10s %s\n' call tree "Ir/call" "D1mr/call" answers
for what in rank distance solve parse; do
  for which in A B; do
    out="$(valgrind --tool=callgrind --cache-sim=yes --toggle-collect='*count_*' \
      --callgrind-out-file="$WORK/cg" "$WORK/count_$which" "$what" "$PASSES" 2>/dev/null)"
    callgrind_annotate --show=Ir,D1mr --show-percs=no "$WORK/cg" 2>/dev/null | awk -v what="$what" -v which="$which" \
      -v calls="$((PASSES * 4096))" -v out="$out" '
      /PROGRAM TOTALS/ {
        gsub(",", "", $1); gsub(",", "", $2)
        n = split(out, w, " ")
        printf "%-9s %-5s %12.1f %10.2f %s\n", what, which, $1 / calls, $2 / calls, w[n]
      }'
  done
done
