#!/usr/bin/env bash
# /metrics of a real eight-server, after traffic that includes errors, as
# Prometheus reads it: `promtool check metrics` (the prometheus package;
# its linter also flags names, types and help) finds no problem, and every
# series (name and labels) appears once, which promtool 2.42 does not check
# and a Prometheus scrape silently drops (issue 18: the 4x4 goals' max
# distance once per pattern database). Twice: the default table (every
# shape up to 10 cells and the 4x4 pattern databases), and a --tables
# folder of several files sharing goals (told apart by path).
#   promtool_metrics_test.sh BIN_DIR DEFAULT_TABLE
set -euo pipefail
bin=$1
default_table=$2
command -v promtool >/dev/null ||
  { echo "FAIL: promtool not found (Debian's prometheus package; make test installs it)"; exit 1; }
[ -f "$default_table" ] || { echo "FAIL: no default table at $default_table"; exit 1; }
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# start_server ARGS...: starts eight-server on a free loopback port; sets
# pid and port.
start_server() {
  # The log exists before the server does: the loop reads it at once, and
  # the background shell may not have opened it yet.
  : >"$work/stderr"
  "$bin/eight-server" --host 127.0.0.1 --port 0 --quiet "$@" 2>"$work/stderr" &
  pid=$!
  port=
  for _ in $(seq 1 300); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$work/stderr")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || fail "eight-server exited: $(cat "$work/stderr")"
    sleep 0.1
  done
  [ -n "$port" ] || fail "eight-server did not start: $(cat "$work/stderr")"
}

stop_server() {
  kill -TERM "$pid"
  wait "$pid" || fail "eight-server exited $? on SIGTERM"
  pid=
}

# status METHOD PATH [BODY]: the status of one request.
status() {
  local args=(-s -o /dev/null -w '%{http_code}' -X "$1" "http://127.0.0.1:$port$2")
  [ "$1" = HEAD ] && args+=(--head)
  [ $# -gt 2 ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl --max-time 30 "${args[@]}" || true
}

# Answers and errors of every kind, so the counters and histograms hold
# several routes and statuses.
traffic() {
  local want got
  while read -r want method path body; do
    got=$(status "$method" "$path" ${body:+"$body"})
    [ "$got" = "$want" ] || fail "$method $path answered $got, not $want"
  done <<'EOF'
200 GET /solve?board=867254301
200 GET /distance?board=123/405
200 GET /hint?board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15
200 GET /random?distance=10&seed=7
200 GET /stats
200 HEAD /readyz
200 POST /solve {"boards":["867254301","123456708"]}
400 GET /solve?board=12345678
400 GET /solve?gaol=123456780
400 POST /solve {"boards":
404 GET /nonexistent
405 DELETE /solve
204 OPTIONS /solve
EOF
}

# check NAME: scrapes /metrics into NAME.txt and checks it.
check() {
  local text=$work/$1.txt
  curl -sf "http://127.0.0.1:$port/metrics" >"$text" || fail "$1: GET /metrics failed"
  grep -q '^eight_http_requests_total{route="/solve",status="400"} 3$' "$text" ||
    fail "$1: the traffic's errors are not counted: $(grep requests_total "$text")"
  grep -q '^eight_table_pattern_database_max_entry{' "$text" ||
    fail "$1: no pattern database series"
  promtool check metrics <"$text" >"$work/promtool.out" 2>&1 ||
    { cat "$work/promtool.out"; fail "$1: promtool check metrics found problems"; }
  local repeated
  repeated=$(grep -v '^#' "$text" | sed 's/ [^ ]*$//' | sort | uniq -d)
  [ -z "$repeated" ] || fail "$1: series repeated in one scrape:"$'\n'"$repeated"
  echo "ok: $1: promtool check metrics passes, $(grep -vc '^#' "$text") series, each once"
}

start_server --table "$default_table"
traffic
check "default table"
stop_server

mkdir "$work/tables"
ln -s "$(realpath "$default_table")" "$work/tables/eight.tbl"
"$bin/eight-tablegen" --quiet --shape 3x3 --out "$work/tables/three.tbl"
start_server --tables "$work/tables"
traffic
check "a folder of two tables"
stop_server
