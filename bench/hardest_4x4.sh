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
# TABLE, TABLE_78 and BUILD as for bench/korf100.sh, which runs them (the 7-8
# file with --pdb-goals corner is enough: these boards use Korf's goal).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repeat=(--repeat 1)
if [ "${1:-}" = "--repeat" ]; then
  repeat=(--repeat "${2:?--repeat needs a count}")
fi
exec "$here/korf100.sh" "${repeat[@]}" --instances "$here/../tests/data/hardest_4x4.txt" \
  --budget default --max-ms 1000
