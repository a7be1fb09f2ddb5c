#!/usr/bin/env bash
# The whole suite's CTest time in two build trees, alternated in one run (the
# way every floor here is measured on a noisy machine): each round runs A's
# ctest, then B's, and prints both wall times and B/A; the last line is the
# median of the ratios. Run it with nothing else running, after both trees
# are built (their test data generated).
#
#   bench/compare_ctest.sh BEFORE/build build [rounds] [A's -j] [B's -j]
#
# Each tree's own `make test` parallelism is what counts: e6155ad's ran
# ctest -j(cores), ours ctest -j(2 x cores).
set -euo pipefail
A="$1"; B="$2"; ROUNDS="${3:-3}"
JA="${4:-$(nproc)}"; JB="${5:-$(( 2 * $(nproc) ))}"
ratios=()
for i in $(seq "$ROUNDS"); do
  s=$(date +%s.%N); (cd "$A" && ctest -j "$JA" >/dev/null 2>&1) || true; e=$(date +%s.%N)
  a=$(echo "$e - $s" | bc)
  s=$(date +%s.%N); (cd "$B" && ctest -j "$JB" >/dev/null 2>&1) || true; e=$(date +%s.%N)
  b=$(echo "$e - $s" | bc)
  r=$(echo "scale=3; $b / $a" | bc)
  ratios+=("$r")
  printf 'round %d: A %.2f s (-j%s)  B %.2f s (-j%s)  B/A %s\n' "$i" "$a" "$JA" "$b" "$JB" "$r"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END{printf "median B/A %s\n", (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'
