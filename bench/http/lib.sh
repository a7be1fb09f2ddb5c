# shellcheck shell=bash
# Shared by bench/http/run.sh, compare.sh and soak.sh (sourced, not run).
# Messages name the script that sourced this file.

# Waits until URL answers 2xx, up to 20 s; exits the script otherwise.
wait_ready() {  # url
  for _ in $(seq 400); do
    curl -fs -o /dev/null "$1" && return 0
    sleep 0.05
  done
  echo "${0##*/}: $1 never answered" >&2; exit 1
}

# Starts eight-server on 127.0.0.1 with --port 0, reads the port it chose from
# its first stderr line (appended to LOG), and waits for /readyz. Sets
# SERVER_PID and SERVER_PORT; exits the script, showing LOG, if it fails.
# SERVER_WRAP, if set, is a command that execs the server (taskset -c 1), so
# SERVER_PID is still the server's.
start_eight_server() {  # binary table log [options...]
  local binary="$1" table="$2" log="$3"; shift 3
  : >"$log"
  # shellcheck disable=SC2086  # SERVER_WRAP is a command and its arguments
  ${SERVER_WRAP:-} "$binary" --table "$table" --host 127.0.0.1 --port 0 "$@" 2>>"$log" &
  SERVER_PID=$!
  SERVER_PORT=""
  for _ in $(seq 400); do
    SERVER_PORT="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$log" | head -1)"
    [ -n "$SERVER_PORT" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$SERVER_PORT" ]; then
    echo "${0##*/}: eight-server did not start:" >&2; cat "$log" >&2; exit 1
  fi
  wait_ready "http://127.0.0.1:$SERVER_PORT/readyz"
}

# One wrk measurement of URL with SCRIPT (solve.lua's RESULT line): one
# second of warm-up (connections, caches), not counted, then DURATION with
# latencies. WRK_PIN, if set, is a command that runs wrk (taskset -c 0).
# Prints the fields of the RESULT line; fails (status 1, wrk's output on
# stderr) when there is none: call it as `r="$(wrk_result ...)" || exit 1`.
wrk_result() {  # threads connections url [-- script arguments...]
  local threads="$1" conns="$2" url="$3" out result; shift 3
  # shellcheck disable=SC2086  # WRK_PIN is a command and its arguments
  ${WRK_PIN:-} wrk -t"$threads" -c"$conns" -d1s -s "$SCRIPT" "$url" "$@" >/dev/null
  # shellcheck disable=SC2086
  out="$(${WRK_PIN:-} wrk -t"$threads" -c"$conns" -d"$DURATION" --latency -s "$SCRIPT" "$url" "$@")"
  result="$(echo "$out" | sed -n 's/^RESULT //p')"
  [ -n "$result" ] || { echo "${0##*/}: wrk printed no result:" >&2; echo "$out" >&2; exit 1; }
  echo "$result"
}
