#!/usr/bin/env bash
# Issue 39's 2x8 part: the 30 far 2x8 boards of docs/answers.md (the
# standard goal, Rng(1)'s shuffles, 70 to 112 moves) searched as eight's
# optimal attempt searches them (IDA* over the largest of 2x8's three
# pattern sets' sums), on one core (CPU 1 when taskset is there). Prints
# each board's distance and nodes, the nodes in all and the most on one
# board, and PASS when every board is proven optimal within the attempt's
# kTwoByEightAttemptNodes (25,000,000), FAIL otherwise (exit status 1).
# Counts of nodes do not depend on the machine's load; seconds do.
# Builds the sets in memory first (one core, seconds), as a process without
# the default table would. Extra arguments go to eight-two-by-eight-nodes
# (--boards N, --seed S, --max-nodes M, partitions to measure instead).
#
#   bench/two_by_eight.sh
#   bench/two_by_eight.sh --boards 100 --seed 20261203
#
# BUILD is the build folder (build/bin/eight-two-by-eight-nodes, made with
# -DEIGHT_BUILD_BENCHMARKS=ON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
bin=$build/bin/eight-two-by-eight-nodes
if [ ! -x "$bin" ]; then
  echo "two_by_eight.sh: $bin is missing: build with -DEIGHT_BUILD_BENCHMARKS=ON (make build does)" >&2
  exit 2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
exec "${pin[@]}" "$bin" "$@"
