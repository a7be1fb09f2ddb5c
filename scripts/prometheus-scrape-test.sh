#!/usr/bin/env bash
# A real Prometheus scrapes a running eight-server, as an operator deploys
# them: the server with /metrics on a metrics port of its own (loopback),
# Prometheus (Debian's prometheus package, the Makefile's TEST_PACKAGES)
# with a temporary configuration and storage folder, listening on loopback
# only, scraping every second. The scrape must be healthy:
#   - /api/v1/targets: the target's health "up" and lastError empty;
#   - a query of an eight_ metric (eight_table_files) returns its value,
#     and eight_http_requests_total the traffic sent before;
#   - every sample of a scrape is a series of its own: the series stored
#     for the job equal scrape_samples_scraped (a series repeated in one
#     scrape is counted there but stored once: Prometheus 2.42 drops the
#     repeat without an error, a warning or a count), and Prometheus
#     counted no sample dropped for a duplicate timestamp, out of order or
#     out of bounds.
# Starts and stops everything itself and removes its files, whatever
# happens. Run by .ci/run after `make test`.
#   scripts/prometheus-scrape-test.sh [BUILD_DIR [TABLE]]
set -euo pipefail
build=${1:-build}
table=${2:-data/eight.tbl}
for tool in prometheus curl python3; do
  command -v "$tool" >/dev/null ||
    { echo "prometheus-scrape-test: $tool not found (make test installs it)" >&2; exit 1; }
done
[ -x "$build/bin/eight-server" ] || { echo "prometheus-scrape-test: no $build/bin/eight-server" >&2; exit 1; }
[ -f "$table" ] || { echo "prometheus-scrape-test: no table $table (make table)" >&2; exit 1; }

work=$(mktemp -d)
server=
prom=
cleanup() {
  for p in $prom $server; do
    kill -TERM "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "prometheus-scrape-test: FAIL: $*" >&2
  [ -f "$work/prometheus.log" ] && tail -n 20 "$work/prometheus.log" >&2
  exit 1
}

# A free loopback port for Prometheus, which cannot be told to take any.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The server: public and metrics ports both on loopback, any free ones. Its
# log exists first: the loop reads it at once, and the background shell may
# not have opened it yet.
: >"$work/server.log"
"$build/bin/eight-server" --table "$table" --host 127.0.0.1 --port 0 --quiet \
  --metrics-host 127.0.0.1 --metrics-port 0 2>"$work/server.log" &
server=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$work/server.log")
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || fail "eight-server exited: $(cat "$work/server.log")"
  sleep 0.1
done
[ -n "$port" ] || fail "eight-server did not start: $(cat "$work/server.log")"
metrics=$(sed -n 's|.*metrics on http://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' "$work/server.log")
[ -n "$metrics" ] || fail "eight-server named no metrics port: $(cat "$work/server.log")"

# Some traffic, answers and errors, before and while Prometheus scrapes.
for target in '/solve?board=867254301' '/distance?board=123/405' '/stats' '/solve?board=12' \
  '/nonexistent' '/hint?board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15'; do
  curl -s -o /dev/null "http://127.0.0.1:$port$target"
done

cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: eight
    static_configs:
      - targets: ['127.0.0.1:$metrics']
EOF
prom_port=$(free_port)
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
prom=$!
api=http://127.0.0.1:$prom_port

# The target's state, once Prometheus has scraped it a few times (or 60 s
# have passed: a hang guard, scrapes come every second).
health=
for _ in $(seq 1 120); do
  kill -0 "$prom" 2>/dev/null || fail "prometheus exited"
  health=$(curl -sf "$api/api/v1/targets" 2>/dev/null | python3 -c '
import json, sys
targets = json.load(sys.stdin)["data"]["activeTargets"]
t = [t for t in targets if t["labels"].get("job") == "eight"]
print(t[0]["health"] + " " + json.dumps(t[0]["lastError"]) if t else "none \"\"")
' 2>/dev/null || true)
  case $health in
    'up ""') break ;;
    'down '*) fail "the scrape is down: $health" ;;
  esac
  sleep 0.5
done
[ "$health" = 'up ""' ] || fail "the target never became healthy: '$health'"

# query EXPR: the first result's value, once Prometheus has it.
query() {
  local value=
  for _ in $(seq 1 60); do
    value=$(curl -sf --get "$api/api/v1/query" --data-urlencode "query=$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")
' 2>/dev/null || true)
    [ -n "$value" ] && break
    sleep 0.5
  done
  echo "$value"
}
files=$(query 'eight_table_files{job="eight"}')
[ "$files" = 1 ] || fail "eight_table_files is '$files', not 1"
solved=$(query 'eight_http_requests_total{job="eight",route="/solve",status="200"}')
[ "$solved" = 1 ] || fail "eight_http_requests_total for /solve 200 is '$solved', not 1"
# A few more scrapes, then Prometheus's own count of samples it dropped.
sleep 3
own=$(curl -sf "$api/metrics") || fail "prometheus's own /metrics"
for counter in prometheus_target_scrapes_sample_duplicate_timestamp_total \
  prometheus_target_scrapes_sample_out_of_order_total \
  prometheus_target_scrapes_sample_out_of_bounds_total; do
  value=$(sed -n "s/^$counter \([0-9.e+]*\)$/\1/p" <<<"$own")
  [ "$value" = 0 ] || fail "$counter is '$value': Prometheus dropped samples of the scrape"
done
samples=$(query 'scrape_samples_scraped{job="eight"}')
stored=$(query 'count({job="eight",__name__=~"eight_.+"})')
[ -n "$samples" ] && [ "$samples" = "$stored" ] ||
  fail "a scrape has $samples samples but Prometheus stored $stored series: a series repeats"
echo "ok: Prometheus scraped eight-server's metrics port: up, no error, $samples samples a scrape, each a series of its own"
