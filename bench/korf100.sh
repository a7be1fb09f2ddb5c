#!/usr/bin/env bash
# Korf's 100 15-puzzle instances, solved optimally on one core (pinned to
# CPU 1 when taskset is there) from the default table's 6-6-3 pattern
# databases, and from the 7-8 ones when their file exists; every length is
# checked against the published one and every path replayed
# (eight-korf-bench, which exits 1 on a wrong answer).
#
#   bench/korf100.sh [--repeat N] [eight-korf-bench option...]
#
# Options after --repeat go to eight-korf-bench for both tables (--instances
# FILE, --budget, --max-ms: bench/hardest_4x4.sh is this script with them).
#
# TABLE is the default table (data/eight.tbl; set and empty: skipped);
# TABLE_78 the 7-8 file (data/eight-4x4-7-8.tbl, from `eight-tablegen --pdb
# 7-8`, or with --pdb-goals corner for Korf's goal alone). BUILD is the build
# folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
bin=$build/bin/eight-korf-bench
table=${TABLE-$root/data/eight.tbl}
table78=${TABLE_78:-$root/data/eight-4x4-7-8.tbl}
repeat=1
if [ "${1:-}" = "--repeat" ]; then
  repeat=${2:?--repeat needs a count}
  shift 2
fi
if [ ! -x "$bin" ]; then
  echo "$(basename "$0"): $bin is missing: build with -DEIGHT_BUILD_BENCHMARKS=ON (make build does)" >&2
  exit 2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
status=0
for t in "$table" "$table78"; do
  if [ -z "$t" ]; then
    echo "== the default table: not asked for (TABLE is empty), skipped"
    continue
  fi
  if [ ! -f "$t" ]; then
    echo "== $t: missing, skipped"
    continue
  fi
  echo "== $t"
  "${pin[@]}" "$bin" --table "$t" --repeat "$repeat" "$@" || status=1
done
exit $status
