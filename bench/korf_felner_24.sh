#!/usr/bin/env bash
# Korf and Felner's 50 24-puzzle (5x5) instances (tests/data/korf_felner_24.txt,
# optimal lengths summing to 5039), answered on one core (pinned to CPU 1
# when taskset is there) as eight answers a 5x5 board: solve_board() with
# the grid question of Korf's goal (blank on cell 0) and the default budget:
# a brief optimal attempt, the beam over the 5x5 pattern databases and its
# endgame (docs/performance.md, issue 39: 5,387 moves, 1.069x, when last
# measured; FAIL on the ratio). Every path is replayed to the
# goal, every lower bound checked against the published length; prints each
# instance, the totals and PASS or FAIL against issue 39's floors (moves in
# all at most 1.03x the published sum, every answer under 1 s, every lower
# bound at most the published length; issue 20's was 1.15x). One answer is
# taken first, untimed (a warm-up). The 5x5 pattern databases are the
# default table's (BUILD/share/eight/eight.tbl, which the build generates).
# Exits as eight-korf24-bench does:
# 0 when every floor holds, 1 when one does not.
#
#   bench/korf_felner_24.sh [--repeat N]
#
# BUILD is the build folder (build/bin/eight-korf24-bench, made with
# -DEIGHT_BUILD_BENCHMARKS=ON) and its default table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
bin=$build/bin/eight-korf24-bench
repeat=1
[ "${1:-}" = "--repeat" ] && repeat=${2:?--repeat needs a count}
if [ ! -x "$bin" ]; then
  echo "korf_felner_24.sh: $bin is missing: build with -DEIGHT_BUILD_BENCHMARKS=ON (make build does)" >&2
  exit 2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
exec "${pin[@]}" "$bin" --instances "$root/tests/data/korf_felner_24.txt" --repeat "$repeat" \
  --table "$build/share/eight/eight.tbl" \
  --max-ms 1000 --max-ratio 1.03
