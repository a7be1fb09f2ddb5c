#!/usr/bin/env bash
# Two builds of eight-bench side by side, in one run: each round runs A then
# B pinned to CPU 1, and each benchmark's figure is the median over the
# rounds, its ratio the median of the pairwise ratios B/A (the way every
# floor here is measured on a noisy machine).
#
#   bench/compare_core.sh BEFORE/build/bin/eight-bench build/bin/eight-bench [rounds] [filter]
set -euo pipefail
A="$1"; B="$2"; ROUNDS="${3:-5}"
FILTER="${4:-BM_Rank|BM_Unrank|BM_Parse|BM_Distance|BM_Solve|BM_GenerateSection|BM_CheckTable}"
OUT="$(mktemp)"; trap 'rm -f "$OUT"' EXIT
for _ in $(seq "$ROUNDS"); do
  for which in A B; do
    bin="${!which}"
    taskset -c 1 "$bin" --benchmark_filter="$FILTER" --benchmark_format=json 2>/dev/null |
      python3 -c "
import json, sys
for b in json.load(sys.stdin)['benchmarks']: print('$which', b['name'], b['real_time'], b['time_unit'])" >>"$OUT"
  done
done
python3 - "$OUT" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
units = {}
for line in open(sys.argv[1]):
    which, name, t, unit = line.split()
    runs[name][which].append(float(t))
    units[name] = unit
print(f"{'benchmark':30s} {'A':>12s} {'B':>12s} {'B/A':>6s}")
for name, r in runs.items():
    ratios = [b / a for a, b in zip(r['A'], r['B'])]
    print(f"{name:30s} {statistics.median(r['A']):9.2f} {units[name]:2s} "
          f"{statistics.median(r['B']):9.2f} {units[name]:2s} {statistics.median(ratios):6.3f}")
PY
