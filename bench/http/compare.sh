#!/usr/bin/env bash
# Two builds' eight-server side by side, in one run: /solve under the same
# wrk load (bench/http/solve.lua), alternating A and B each round, so drift
# on a shared machine hits both alike. The figure is the median over rounds
# of each round's ratio B/A (requests per second; p50 and p99 latency).
#
#   bench/http/compare.sh BEFORE/build build [rounds] [connections]
#   DURATION=5s bench/http/compare.sh ../wt-e6155ad/build build 5 32
#
# Both servers answer from the same table file (B's eight-tablegen writes
# it; the format is one spec), one I/O thread each, pinned to CPU 1 with wrk
# (one thread) on CPU 0, as bench/http/run.sh's pinned layout. Only one
# server is under load at a time. Everything listens on 127.0.0.1 only and
# is stopped on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
A_BUILD="$(cd "$1" && pwd)"; B_BUILD="$(cd "$2" && pwd)"
ROUNDS="${3:-5}"
CONNECTIONS="${4:-32}"
DURATION="${DURATION:-5s}"
SCRIPT="$ROOT/bench/http/solve.lua"

"$ROOT/scripts/install-deps.sh" wrk curl
[ "$(nproc)" -ge 2 ] || { echo "compare.sh: needs at least 2 cores" >&2; exit 1; }
for b in "$A_BUILD" "$B_BUILD"; do
  [ -x "$b/bin/eight-server" ] || { echo "compare.sh: $b/bin/eight-server is missing" >&2; exit 1; }
done

WORK="$(mktemp -d /tmp/eight-http-compare.XXXXXX)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

. "$ROOT/bench/http/lib.sh"

TABLE="$WORK/eight.tbl"
"$B_BUILD/bin/eight-tablegen" --quiet --out "$TABLE"

SERVER_WRAP="taskset -c 1"
start_eight_server "$A_BUILD/bin/eight-server" "$TABLE" "$WORK/a.log" --threads 1 --quiet
PIDS+=("$SERVER_PID"); A_PORT="$SERVER_PORT"
start_eight_server "$B_BUILD/bin/eight-server" "$TABLE" "$WORK/b.log" --threads 1 --quiet
PIDS+=("$SERVER_PID"); B_PORT="$SERVER_PORT"

run_wrk() {  # label port
  local result
  result="$(WRK_PIN="taskset -c 0" wrk_result 1 "$CONNECTIONS" "http://127.0.0.1:$2")" || exit 1
  echo "$1 $result" | tee -a "$WORK/results"
}

for round in $(seq "$ROUNDS"); do
  run_wrk "A$round" "$A_PORT"
  run_wrk "B$round" "$B_PORT"
done

python3 - "$WORK/results" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, *fields = line.split()
    rows[label] = {k: float(v) for k, v in (f.split("=") for f in fields)}
rounds = sorted({int(l[1:]) for l in rows})
bad = [l for l, r in rows.items() if r["errors"] or r["non2xx"]]
print(f"{'':8s} {'A':>12s} {'B':>12s} {'B/A':>7s}")
for key in ("rps", "p50_us", "p99_us"):
    a = [rows[f"A{i}"][key] for i in rounds]
    b = [rows[f"B{i}"][key] for i in rounds]
    ratio = statistics.median(y / x for x, y in zip(a, b))
    print(f"{key:8s} {statistics.median(a):12.1f} {statistics.median(b):12.1f} {ratio:7.3f}")
if bad:
    print("errors or non-2xx answers in:", " ".join(bad))
    sys.exit(1)
PY
