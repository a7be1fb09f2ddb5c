#!/usr/bin/env bash
# HTTP load benchmark: eight-server's /solve against nginx serving a static
# JSON file, both on loopback, both driven by the same wrk script.
#
#   bench/http/run.sh                                  build dir "build"
#   BUILD=build-server DURATION=10s ROUNDS=3 bench/http/run.sh
#   SERVER_ARGS="--threads 32" bench/http/run.sh       try other settings
#
# nginx (Debian's nginx-light) is the reference for the best this machine's
# loopback HTTP can do: two workers, access log off, answering a static file
# the size of a /solve answer. Each round runs wrk against nginx, then
# against eight-server with --quiet, then against eight-server with its
# access log on (to a file), so drift on a shared machine hits all three.
# The summary gives each run and the medians. The floor (docs/performance.md,
# "HTTP load"): /solve at >= 60% of nginx's requests per second, p99 < 5 ms,
# no errors; the script exits 1 when a median misses it.
#
# Everything listens on 127.0.0.1 only and is stopped on exit, whatever happens.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-build}"
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-3}"
THREADS="${THREADS:-2}"          # wrk threads
CONNECTIONS="${CONNECTIONS:-32}"
SERVER_ARGS="${SERVER_ARGS:-}"   # extra eight-server options
SERVER="$ROOT/$BUILD/bin/eight-server"
SCRIPT="$ROOT/bench/http/solve.lua"

"$ROOT/scripts/install-deps.sh" wrk nginx-light curl
[ -x "$SERVER" ] || { echo "run.sh: $SERVER is missing; run make build BUILD=$BUILD" >&2; exit 1; }

WORK="$(mktemp -d /tmp/eight-http-bench.XXXXXX)"
chmod 755 "$WORK"  # nginx workers run as an unprivileged user and must read www/
SERVER_PID=""
NGINX_PID=""
cleanup() {
  for pid in $SERVER_PID $NGINX_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in $SERVER_PID $NGINX_PID; do wait "$pid" 2>/dev/null || true; done
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

start_server() {  # log file, extra args...
  local log="$1"; shift
  # shellcheck disable=SC2086  # SERVER_ARGS is a list of options
  start_eight_server "$SERVER" "$TABLE" "$log" $SERVER_ARGS "$@"
}

stop_server() {
  local status=0
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" || status=$?
  SERVER_PID=""
  [ "$status" -eq 0 ] || { echo "run.sh: eight-server exited with status $status" >&2; exit 1; }
}

run_wrk() {  # label url [fixed path]
  local label="$1" url="$2" out result; shift 2
  # One second of warm-up (connections, caches), not counted.
  wrk -t"$THREADS" -c"$CONNECTIONS" -d1s -s "$SCRIPT" "$url" -- "$@" >/dev/null
  out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$SCRIPT" "$url" -- "$@")"
  result="$(echo "$out" | sed -n 's/^RESULT //p')"
  [ -n "$result" ] || { echo "run.sh: wrk printed no result:" >&2; echo "$out" >&2; exit 1; }
  echo "$label $result" | tee -a "$RESULTS"
}

TABLE="$WORK/eight.tbl"
RESULTS="$WORK/results"
"$ROOT/$BUILD/bin/eight-tablegen" --quiet --out "$TABLE"

# nginx's file is a real /solve answer of typical length (8 moves, 180
# bytes), so both sides send bodies of about the same size.
mkdir -p "$WORK/nginx/www" "$WORK/nginx/logs"
start_server "$WORK/sample.log" --quiet
curl -fs "http://127.0.0.1:$SERVER_PORT/solve?board=413726580" >"$WORK/nginx/www/answer.json"
stop_server

# nginx with its own config, prefix, pid and logs: nothing system-wide.
NGINX_PORT="$(free_port)"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
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
nginx -e "$WORK/nginx/logs/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!
wait_ready "http://127.0.0.1:$NGINX_PORT/answer.json"

echo "# wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency -s bench/http/solve.lua, $ROUNDS rounds"
echo "# $(nproc) cores, $(uname -sr), nginx $(nginx -v 2>&1 | cut -d/ -f2), eight-server ${SERVER_ARGS:-defaults}"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  run_wrk nginx "http://127.0.0.1:$NGINX_PORT" /answer.json
  start_server "$WORK/quiet.log" --quiet
  run_wrk solve-quiet "http://127.0.0.1:$SERVER_PORT"
  stop_server
  start_server "$WORK/access.log"
  run_wrk solve-logged "http://127.0.0.1:$SERVER_PORT"
  stop_server
  echo "# round $round done; access log lines: $(grep -c 'us$' "$WORK/access.log"); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
done

# Medians per label, the ratio to nginx, and the floor.
awk '
  { label = $1; labels[label] = 1
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[label, kv[1], ++n[label, kv[1]]] = kv[2] } }
  function median(label, key,   m, i, j, a, t) {
    m = n[label, key]; for (i = 1; i <= m; i++) a[i] = v[label, key, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return a[int((m + 1) / 2)]
  }
  END {
    printf "\n%-14s %10s %9s %9s %7s %7s %9s\n", "median of", "req/s", "p50 us", "p99 us", "errors", "non2xx", "vs nginx"
    base = median("nginx", "rps"); fail = 0
    split("nginx solve-quiet solve-logged", order, " ")
    for (k = 1; k <= 3; k++) {
      l = order[k]
      r = median(l, "rps"); p99 = median(l, "p99_us"); e = median(l, "errors"); s = median(l, "non2xx")
      printf "%-14s %10d %9d %9d %7d %7d %8.0f%%\n", l, r, median(l, "p50_us"), p99, e, s, 100 * r / base
      if (l != "nginx" && (r < 0.6 * base || p99 >= 5000 || e > 0 || s > 0)) fail = 1
    }
    if (fail) { print "\nFLOOR MISSED: /solve needs >= 60% of nginx req/s, p99 < 5 ms, no errors"; exit 1 }
    print "\nfloor met: /solve >= 60% of nginx req/s, p99 < 5 ms, no errors"
  }' "$RESULTS"
