#!/usr/bin/env bash
# The 17 positions of the 15-puzzle that need 80 moves
# (tests/data/hardest_4x4.txt, Korf's goal: blank on cell 0), each searched
# for an optimal answer on one core (pinned to CPU 1 when taskset is there)
# with the budget eight gives a question (kDefaultSearchNodes, 50 million
# nodes), from the default table's 6-6-3 pattern databases and from the 7-8
# ones when their file exists. Every answer must be 80 moves, its path
# replayed to the goal; a search that stops at the budget is reported with
# the bound it reached. PASS when every board is answered optimally in under
# 1 s (eight-korf-bench --max-ms 1000, which exits 1 otherwise).
#
#   bench/hardest_4x4.sh [--repeat N]
#
# TABLE is the default table (data/eight.tbl); TABLE_78 the 7-8 file
# (data/eight-4x4-7-8.tbl, from `eight-tablegen --pdb 7-8`, or with
# --pdb-goals corner for Korf's goal alone, which these boards use). BUILD
# is the build folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
bin=$build/bin/eight-korf-bench
table=${TABLE:-$root/data/eight.tbl}
table78=${TABLE_78:-$root/data/eight-4x4-7-8.tbl}
repeat=1
[ "${1:-}" = "--repeat" ] && repeat=${2:?--repeat needs a count}
if [ ! -x "$bin" ]; then
  echo "hardest_4x4.sh: $bin is missing: build with -DEIGHT_BUILD_BENCHMARKS=ON (make build does)" >&2
  exit 2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
status=0
for t in "$table" "$table78"; do
  if [ ! -f "$t" ]; then
    echo "== $t: missing, skipped"
    continue
  fi
  echo "== $t"
  "${pin[@]}" "$bin" --table "$t" --instances "$root/tests/data/hardest_4x4.txt" \
    --budget default --max-ms 1000 --repeat "$repeat" || status=1
done
exit $status
