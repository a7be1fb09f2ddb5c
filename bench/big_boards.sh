#!/usr/bin/env bash
# Issue 39's floors on the boards past 25 cells, as eight answers them
# (solve_board() with the default options, eight-grid-bench), one process a
# shape on one core (pinned to CPU 1 when taskset is there), 1,000 uniformly
# random solvable boards a shape from a fixed seed, every path replayed to
# the goal:
#   6x6    mean length at most 130 (DeepCubeA's published mean: 124.65), each under 2 s
#   7x7    mean length at most 266 (DeepCubeA: 255.67), each under 3 s
#   8x8    mean length at most 1.6x the proven lower bound, each under 5 s
#   10x10  the same
# and then the same boards with the fast option: each under 50 ms, 10x10 at
# most 2.5x the bound (issue 20's floors, which issue 39 keeps for it).
# DeepCubeA (Agostinelli et al., Nature Machine Intelligence 1, 2019) as
# released with its code, on its own test sets of uniformly random boards;
# these boards are ours, drawn the same way. The 5x5 floor is
# bench/korf_felner_24.sh's (Korf and Felner's 50, published optimal
# lengths). Prints each shape's line (mean length, lower bound, ratio,
# times) and PASS or FAIL; exits 1 when a floor does not hold.
#
#   bench/big_boards.sh [--boards N] [SHAPE...]
#
# BUILD is the build folder (build/bin/eight-grid-bench, made with
# -DEIGHT_BUILD_BENCHMARKS=ON) and its default table (BUILD/share/eight/eight.tbl,
# whose 5x5 pattern databases the last region's beam reads). Measure with nothing
# else running (docs/performance.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
bin=$build/bin/eight-grid-bench
boards=1000
if [ "${1:-}" = "--boards" ]; then
  boards=${2:?--boards needs a count}
  shift 2
fi
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(6x6 7x7 8x8 10x10)
if [ ! -x "$bin" ]; then
  echo "big_boards.sh: $bin is missing: build with -DEIGHT_BUILD_BENCHMARKS=ON (make build does)" >&2
  exit 2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
status=0
for shape in "${shapes[@]}"; do
  case $shape in
    6x6) floor=(--max-ms 2000 --max-mean-moves 130) ;;
    7x7) floor=(--max-ms 3000 --max-mean-moves 266) ;;
    8x8 | 10x10) floor=(--max-ms 5000 --max-ratio 1.6) ;;
    *) echo "big_boards.sh: no floor for $shape (6x6, 7x7, 8x8, 10x10)" >&2; exit 2 ;;
  esac
  "${pin[@]}" "$bin" --table "$build/share/eight/eight.tbl" --boards "$boards" "${floor[@]}" "$shape" || status=1
done
# The fast option (--fast, Question::grid_fast) keeps issue 20's floors:
# every answer under 50 ms, 10x10 at most 2.5x its bound.
for shape in "${shapes[@]}"; do
  floor=(--max-ms 50)
  [ "$shape" = 10x10 ] && floor+=(--max-ratio 2.5)
  echo "fast option, $shape:"
  "${pin[@]}" "$bin" --fast --table "$build/share/eight/eight.tbl" --boards "$boards" "${floor[@]}" "$shape" || status=1
done
[ $status = 0 ] && echo "big boards: PASS" || echo "big boards: FAIL"
exit $status
