#!/usr/bin/env bash
# Soak test: eight-server under a minute of wrk load over a mix of /solve,
# /distance, /hint and /table ranges (bench/http/soak.lua), watching its
# memory. Not part of the suite (it takes a minute); docs/reliability.md
# has the figures.
#
#   bench/http/soak.sh                                   build dir "build"
#   BUILD=build-harden DURATION=60s CONNECTIONS=64 bench/http/soak.sh
#   SERVER_ARGS="--threads 64" bench/http/soak.sh        try other settings
#
# It generates a table and 2,048 boards (64 at each distance 0..31, `eight
# random`) in a temporary folder, starts eight-server --quiet on a free
# loopback port, and samples the server's VmRSS (split into RssAnon, the
# heap and stacks, and RssFile, the mapped table and binaries), VmHWM and
# thread count from /proc at start, after a 5 s warm-up of the same load,
# every 10 s of the soak, and at the end. It fails (exit 1) on any wrk socket error, any
# non-2xx answer, any 5xx in the server's /metrics, resident memory that
# grew by more than SOAK_RSS_SLACK_KB (default 4096) from the warm-up to the
# end, or a server that does not stop with status 0 on SIGTERM.
#
# Everything listens on 127.0.0.1 only and is stopped on exit, whatever happens.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-build}"
DURATION="${DURATION:-60s}"
THREADS="${THREADS:-2}"          # wrk threads
CONNECTIONS="${CONNECTIONS:-64}"
SERVER_ARGS="${SERVER_ARGS:-}"   # extra eight-server options
SOAK_RSS_SLACK_KB="${SOAK_RSS_SLACK_KB:-4096}"
BIN="$ROOT/$BUILD/bin"
SCRIPT="$ROOT/bench/http/soak.lua"

"$ROOT/scripts/install-deps.sh" wrk curl
[ -x "$BIN/eight-server" ] || { echo "soak.sh: $BIN/eight-server is missing; run make build BUILD=$BUILD" >&2; exit 1; }

WORK="$(mktemp -d /tmp/eight-soak.XXXXXX)"
SERVER_PID=""
SAMPLER_PID=""
cleanup() {
  for pid in $SAMPLER_PID $SERVER_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in $SAMPLER_PID $SERVER_PID; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

fail() { echo "soak.sh: FAILED: $*" >&2; exit 1; }

# "rss_kb hwm_kb threads anon_kb file_kb" of the server.
memory() {
  awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } /^Threads:/ { t = $2 }
       /^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 } END { print r, h, t, a, f }' \
    "/proc/$SERVER_PID/status"
}
say_memory() {  # label
  read -r rss hwm threads anon file < <(memory)
  printf '%-22s VmRSS %6d kB (anon %6d, file %5d)  VmHWM %6d kB  threads %d\n' \
    "$1" "$rss" "$anon" "$file" "$hwm" "$threads"
}

"$BIN/eight-tablegen" --quiet --out "$WORK/eight.tbl"
for d in $(seq 0 31); do
  "$BIN/eight" random --table "$WORK/eight.tbl" --distance "$d" --seed "$((1000 + d))" --count 64
done >"$WORK/boards.txt"

. "$ROOT/bench/http/lib.sh"
# shellcheck disable=SC2086  # SERVER_ARGS is a list of options
start_eight_server "$BIN/eight-server" "$WORK/eight.tbl" "$WORK/server.log" --quiet $SERVER_ARGS
URL="http://127.0.0.1:$SERVER_PORT"

echo "# wrk -t$THREADS -c$CONNECTIONS -d$DURATION -s bench/http/soak.lua ($(wc -l <"$WORK/boards.txt") boards)"
echo "# $(nproc) cores, $(uname -sr), eight-server ${SERVER_ARGS:-defaults}: $(head -1 "$WORK/server.log")"
say_memory "at start"
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s "$SCRIPT" "$URL" -- "$WORK/boards.txt" >/dev/null
say_memory "after 5 s warm-up"
read -r warm_rss _ _ warm_anon _ < <(memory)

( while sleep 10; do say_memory "during the soak"; done ) &
SAMPLER_PID=$!
OUT="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$SCRIPT" "$URL" -- "$WORK/boards.txt")"
kill "$SAMPLER_PID"; wait "$SAMPLER_PID" 2>/dev/null || true; SAMPLER_PID=""
say_memory "after the soak"
read -r end_rss _ _ end_anon _ < <(memory)

echo
echo "$OUT" | grep -E 'Latency|Req/Sec|requests in|Requests/sec|Transfer/sec|Socket errors|Non-2xx|50%|99%'
result="$(echo "$OUT" | sed -n 's/^RESULT //p')"
[ -n "$result" ] || { echo "$OUT" >&2; fail "wrk printed no result"; }
echo "RESULT $result"
errors="$(echo "$result" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')"
non2xx="$(echo "$result" | sed -n 's/.*non2xx=\([0-9]*\).*/\1/p')"

metrics="$(curl -fs "$URL/metrics")"
server_5xx="$(echo "$metrics" | awk '/^eight_http_requests_total\{.*status="5[0-9][0-9]"/ { s += $2 } END { print s + 0 }')"
by_route="$(echo "$metrics" | awk -F'[{}",= ]+' '/^eight_http_requests_total\{/ { n[$3 " " $5] += $NF }
  END { for (k in n) printf "%s=%d ", k, n[k] }')"
echo "server counted (route status=requests): $by_route"

kill -TERM "$SERVER_PID"
status=0
wait "$SERVER_PID" || status=$?
SERVER_PID=""

echo
printf 'summary: %s requests, %s socket errors, %s non-2xx, %s 5xx counted by the server;\n' \
  "$(echo "$result" | sed -n 's/.*requests=\([0-9]*\).*/\1/p')" "$errors" "$non2xx" "$server_5xx"
printf '         VmRSS %d kB after warm-up, %d kB after the soak (%+d kB; anon %+d kB); stopped with status %d\n' \
  "$warm_rss" "$end_rss" "$((end_rss - warm_rss))" "$((end_anon - warm_anon))" "$status"
[ "$errors" -eq 0 ] || fail "$errors socket errors"
[ "$non2xx" -eq 0 ] || fail "$non2xx non-2xx answers"
[ "$server_5xx" -eq 0 ] || fail "$server_5xx answers with status 5xx"
[ "$((end_rss - warm_rss))" -le "$SOAK_RSS_SLACK_KB" ] || fail "VmRSS grew by more than $SOAK_RSS_SLACK_KB kB"
[ "$status" -eq 0 ] || fail "eight-server exited with status $status on SIGTERM"
echo "soak passed"
