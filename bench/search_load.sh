#!/usr/bin/env bash
# The 3x3 answers' p99 beside 4x4 searches: 32 clients asking 3x3 /solve while
# 32 search Korf's quick 4x4 boards, for 6 s, against the real eight-server on
# a free loopback port (bench/search_load_bench.cpp). Floor p99 < 5 ms
# (issue 12); reference 3.1 ms on the quiet development machine
# (docs/performance.md). Prints the figure; exits non-zero below the floor.
#
#   bench/search_load.sh                 build dir "build"
#   BUILD=build ROUNDS=3 bench/search_load.sh
#
# Needs the build configured with -DEIGHT_BUILD_TESTS=ON
# -DEIGHT_BUILD_BENCHMARKS=ON -DEIGHT_BUILD_SERVER=ON; builds its target.
# Run it on a quiet machine: it measures the machine as much as the server,
# which is why it is not in the test suite.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-build}"
ROUNDS="${ROUNDS:-1}"

cmake --build "$ROOT/$BUILD" --target eight-search-load-bench eight-server >/dev/null
status=0
for _ in $(seq "$ROUNDS"); do
  # -s: doctest shows the run's MESSAGE too (counts of 4x4 answers).
  "$ROOT/$BUILD/bin/eight-search-load-bench" -s --no-version || status=1
done
exit "$status"
