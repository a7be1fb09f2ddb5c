#!/usr/bin/env bash
# HTTP load benchmark: eight-server's /solve against nginx serving a static
# JSON file, both on loopback, both driven by the same wrk script, in one run.
#
#   bench/http/run.sh                                   build dir "build"
#   BUILD=build DURATION=10s ROUNDS=5 bench/http/run.sh
#   CONNECTIONS_LIST="32" IDLE=0 bench/http/run.sh      one load, no idle part
#   SERVER_ARGS="--access-log-lines 1" bench/http/run.sh  try other settings
#   LAYOUTS=shared bench/http/run.sh                    one layout only
#
# nginx (Debian's nginx-light) is the reference for the best this machine's
# loopback HTTP can do: access log off, answering a static file the size of
# a /solve answer. For each connection count (-c32 and -c256), each round
# runs wrk against nginx, then against eight-server with --quiet, then with
# its access log on (to a file), so drift on a shared machine hits all three
# alike; the figure is the median over rounds of each round's ratio to nginx.
#
# Two layouts of the machine's cores (LAYOUTS, default both):
#   pinned  the server (one I/O thread) and nginx (one worker) on CPU 1, wrk
#           (one thread) on CPU 0: the client never takes the server's core,
#           as when it runs on another machine. Latency is measured here.
#   shared  the server (defaults: one I/O thread per core) and nginx (one
#           worker per core) and wrk (two threads) all on both cores. Four
#           busy threads on two cores: every side waits for a core now and
#           then, so p99 here is the scheduler's (nginx's too), not the
#           server's.
#
# Then, with IDLE (default 10000) idle keep-alive connections held open by
# another process (eight-idle-clients, which also times a new client every
# 100 ms), each round runs wrk -c32 against eight-server without them and
# with them, alternating: the throughput ratio, the new clients' waits and
# the server's peak RSS.
#
# The idle part runs in the first layout listed.
#
# Floors (docs/performance.md, "HTTP load"), checked on the medians; the
# script exits 1 when one is missed:
#   /solve >= 1.0x nginx's requests per second at every connection count,
#   quiet and logged, in each layout; p99 < 2 ms at -c32 in the pinned
#   layout; no errors, no non-2xx;
#   with the idle connections: >= 0.9x the throughput without them, new
#   clients answered within 10 ms (p99), server RSS under 128 MB.
#
# Everything listens on 127.0.0.1 only and is stopped on exit, whatever happens.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-build}"
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS_LIST="${CONNECTIONS_LIST:-32 256}"
LAYOUTS="${LAYOUTS:-pinned shared}"
IDLE="${IDLE:-10000}"
SERVER_ARGS="${SERVER_ARGS:-}"  # extra eight-server options
SERVER="$ROOT/$BUILD/bin/eight-server"
IDLE_CLIENTS="$ROOT/$BUILD/bin/eight-idle-clients"
SCRIPT="$ROOT/bench/http/solve.lua"

"$ROOT/scripts/install-deps.sh" wrk nginx-light curl
[ "$(nproc)" -ge 2 ] || { echo "run.sh: needs at least 2 cores" >&2; exit 1; }
[ -x "$SERVER" ] || { echo "run.sh: $SERVER is missing; run make build BUILD=$BUILD" >&2; exit 1; }
if [ "$IDLE" -gt 0 ] && [ ! -x "$IDLE_CLIENTS" ]; then
  echo "run.sh: $IDLE_CLIENTS is missing (built with the benchmarks); or set IDLE=0" >&2; exit 1
fi

WORK="$(mktemp -d /tmp/eight-http-bench.XXXXXX)"
chmod 755 "$WORK"  # nginx workers run as an unprivileged user and must read www/
SERVER_PID=""
NGINX_PID=""
IDLE_PID=""
cleanup() {
  for pid in $IDLE_PID $SERVER_PID $NGINX_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in $IDLE_PID $SERVER_PID $NGINX_PID; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# A loopback port nobody listens on (ss lists the listeners).
free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 40000))
    if ! ss -Htln "sport = :$port" | grep -q .; then echo "$port"; return; fi
  done
  echo "run.sh: no free port found" >&2; exit 1
}

. "$ROOT/bench/http/lib.sh"

# Set by use_layout: how each side is started.
SERVER_PIN=()   # prefix for eight-server and nginx
CLIENT_PIN=()   # prefix for wrk and eight-idle-clients
LAYOUT_ARGS=()  # eight-server options of the layout
THREADS=2       # wrk threads
NGINX_WORKERS=auto
use_layout() {  # pinned | shared
  case "$1" in
    pinned) SERVER_PIN=(taskset -c 1); CLIENT_PIN=(taskset -c 0); LAYOUT_ARGS=(--threads 1)
            THREADS=1; NGINX_WORKERS=1 ;;
    shared) SERVER_PIN=(); CLIENT_PIN=(); LAYOUT_ARGS=(); THREADS=2; NGINX_WORKERS=auto ;;
    *) echo "run.sh: unknown layout '$1' (pinned or shared)" >&2; exit 1 ;;
  esac
  LAYOUT="$1"
}

start_server() {  # log file, extra args...
  local log="$1"; shift
  # shellcheck disable=SC2086  # SERVER_ARGS is a list of options
  SERVER_WRAP="${SERVER_PIN[*]}" start_eight_server "$SERVER" "$TABLE" "$log" \
    "${LAYOUT_ARGS[@]}" $SERVER_ARGS "$@"
}

stop_server() {
  local status=0
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" || status=$?
  SERVER_PID=""
  [ "$status" -eq 0 ] || { echo "run.sh: eight-server exited with status $status" >&2; exit 1; }
}

rss_kib() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status"; }
peak_rss_kib() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status"; }

run_wrk() {  # label connections url [fixed path]
  local label="$1" conns="$2" url="$3" result; shift 3
  result="$(WRK_PIN="${CLIENT_PIN[*]}" wrk_result "$THREADS" "$conns" "$url" -- "$@")" || exit 1
  echo "$LAYOUT/$label c=$conns $result" | tee -a "$RESULTS"
}

TABLE="$WORK/eight.tbl"
RESULTS="$WORK/results"
"$ROOT/$BUILD/bin/eight-tablegen" --quiet --out "$TABLE"

# nginx's file is a real /solve answer of typical length (8 moves, 180
# bytes), so both sides send bodies of about the same size.
mkdir -p "$WORK/nginx/www" "$WORK/nginx/logs"
use_layout shared
start_server "$WORK/sample.log" --quiet
curl -fs "http://127.0.0.1:$SERVER_PORT/solve?board=413726580" >"$WORK/nginx/www/answer.json"
stop_server

# nginx with its own config, prefix, pid and logs: nothing system-wide;
# started for each layout with that layout's workers and cores.
NGINX_PORT="$(free_port)"
start_nginx() {
  cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes $NGINX_WORKERS;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/nginx/www;
    default_type application/json;
  }
}
CONF
  "${SERVER_PIN[@]}" nginx -e "$WORK/nginx/logs/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
  NGINX_PID=$!
  wait_ready "http://127.0.0.1:$NGINX_PORT/answer.json"
}
stop_nginx() {
  kill -QUIT "$NGINX_PID"  # graceful: the workers finish and the port is free again
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=""
}

echo "# wrk -d$DURATION --latency -s bench/http/solve.lua, $ROUNDS rounds, -c in: $CONNECTIONS_LIST, layouts: $LAYOUTS"
echo "# $(nproc) cores, $(uname -sr), nginx $(nginx -v 2>&1 | cut -d/ -f2), eight-server ${SERVER_ARGS:-defaults}"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for layout in $LAYOUTS; do
  use_layout "$layout"
  start_nginx
  for conns in $CONNECTIONS_LIST; do
    for round in $(seq "$ROUNDS"); do
      run_wrk "nginx r=$round" "$conns" "http://127.0.0.1:$NGINX_PORT" /answer.json
      start_server "$WORK/quiet.log" --quiet
      run_wrk "solve-quiet r=$round" "$conns" "http://127.0.0.1:$SERVER_PORT"
      stop_server
      start_server "$WORK/access.log"
      run_wrk "solve-logged r=$round" "$conns" "http://127.0.0.1:$SERVER_PORT"
      stop_server
      echo "# $layout -c$conns round $round done; access log lines: $(grep -c 'us$' "$WORK/access.log"); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
  stop_nginx
done

use_layout "${LAYOUTS%% *}"
if [ "$IDLE" -gt 0 ]; then
  echo "# $LAYOUT: with $IDLE idle keep-alive connections held by eight-idle-clients, wrk -c32"
  IDLE_SECONDS=$(( ${DURATION%s} + 8 ))
  for round in $(seq "$ROUNDS"); do
    start_server "$WORK/quiet.log" --quiet
    run_wrk "no-idle r=$round" 32 "http://127.0.0.1:$SERVER_PORT"
    stop_server
    start_server "$WORK/quiet.log" --quiet
    "${CLIENT_PIN[@]}" "$IDLE_CLIENTS" --port "$SERVER_PORT" --connections "$IDLE" \
      --seconds "$IDLE_SECONDS" >"$WORK/idle.out" &
    IDLE_PID=$!
    for _ in $(seq 600); do grep -q '^ready' "$WORK/idle.out" && break; sleep 0.05; done
    grep -q "^ready $IDLE\$" "$WORK/idle.out" || { echo "run.sh: idle clients not ready:" >&2; cat "$WORK/idle.out" >&2; exit 1; }
    open_before="$(curl -fs "http://127.0.0.1:$SERVER_PORT/metrics" | sed -n 's/^eight_connections_open //p')"
    run_wrk "with-idle r=$round" 32 "http://127.0.0.1:$SERVER_PORT"
    rss="$(rss_kib "$SERVER_PID")"
    peak="$(peak_rss_kib "$SERVER_PID")"
    kill -TERM "$IDLE_PID"
    wait "$IDLE_PID" || { echo "run.sh: eight-idle-clients failed:" >&2; cat "$WORK/idle.out" >&2; exit 1; }
    IDLE_PID=""
    idle_result="$(sed -n 's/^RESULT //p' "$WORK/idle.out")"
    stop_server
    echo "$LAYOUT/idle r=$round open_before_wrk=$open_before rss_kib=$rss peak_rss_kib=$peak $idle_result" | tee -a "$RESULTS"
  done
fi

# Per-round ratios, their medians, and the floors.
awk -v idle="$IDLE" -v il="$LAYOUT" '
  function median(arr, m,   i, j, a, t) {
    for (i = 1; i <= m; i++) a[i] = arr[i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return a[int((m + 1) / 2)]
  }
  {
    delete kv
    for (i = 2; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
    split($1, lp, "/"); layout = lp[1]; label = $1; round = kv["r"]; c = kv["c"]
    if (lp[2] == "idle") {
      ni++; idle_p99[ni] = kv["probe_p99_us"]; idle_max[ni] = kv["probe_max_us"]
      idle_peak[ni] = kv["peak_rss_kib"]; idle_open[ni] = kv["still_open"]; idle_failed += kv["failed"]
      next
    }
    rps[label, c, round] = kv["rps"]; p99[label, c, round] = kv["p99_us"]
    errors += kv["errors"] + kv["non2xx"]
    if (!((label, c) in seen)) { seen[label, c] = 1; order[++no] = label SUBSEP c }
    if (round > rounds) rounds = round
  }
  END {
    fail = 0
    printf "\n%-21s %5s %10s %9s %12s\n", "median of", "-c", "req/s", "p99 us", "x nginx"
    for (k = 1; k <= no; k++) {
      split(order[k], lc, SUBSEP); l = lc[1]; c = lc[2]
      split(l, lp, "/"); ly = lp[1]; name = lp[2]
      if (name == "no-idle" || name == "with-idle") continue
      m = 0; delete r; delete q; delete x
      for (i = 1; i <= rounds; i++) if ((l, c, i) in rps) {
        m++; r[m] = rps[l, c, i]; q[m] = p99[l, c, i]; x[m] = rps[l, c, i] / rps[ly "/nginx", c, i]
      }
      ratio = median(x, m)
      printf "%-21s %5s %10d %9d %11.2fx\n", l, c, median(r, m), median(q, m), ratio
      if (name != "nginx" && ratio < 1.0) fail = 1
      if (name != "nginx" && ly == "pinned" && c == 32 && median(q, m) >= 2000) fail = 1
    }
    if (idle > 0) {
      m = 0
      for (i = 1; i <= rounds; i++) if ((il "/with-idle", 32, i) in rps) {
        m++; x[m] = rps[il "/with-idle", 32, i] / rps[il "/no-idle", 32, i]; r[m] = rps[il "/with-idle", 32, i]
      }
      ratio = median(x, m)
      printf "\n%s, with %d idle connections (-c32): %d req/s, %.2fx the run without them;\n", il, idle, median(r, m), ratio
      printf "new clients waited %d us (p99 of each round, median), %d us at worst (median);\n", median(idle_p99, ni), median(idle_max, ni)
      printf "server peak RSS %d KiB (median); idle connections still open at the end: %d of %d\n", median(idle_peak, ni), median(idle_open, ni), idle
      if (ratio < 0.9 || median(idle_p99, ni) >= 10000 || median(idle_peak, ni) >= 128 * 1024 || idle_failed > 0 || median(idle_open, ni) < idle) fail = 1
    }
    printf "\nerrors and non-2xx answers over all runs: %d\n", errors
    if (errors > 0) fail = 1
    if (fail) { print "FLOOR MISSED: see the floors at the top of bench/http/run.sh"; exit 1 }
    print "floors met: >= 1.0x nginx at every -c in every layout, p99 < 2 ms at -c32 pinned, no errors; with idle connections >= 0.9x, new clients within 10 ms, RSS < 128 MB"
  }' "$RESULTS"
