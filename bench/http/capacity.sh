#!/usr/bin/env bash
# What one replica answers: the figures of docs/deployment.md ("Capacity").
#
#   bench/http/capacity.sh                       native runs only
#   CONTAINER=1 bench/http/capacity.sh           also the image, as the Deployment runs it
#   BUILD=build DURATION=10s IMAGE=localhost/eight:test CONTAINER=1 bench/http/capacity.sh
#   NATIVE=0 CONTAINER=1 bench/http/capacity.sh  the image only
#
# Native: eight-server --threads 1 pinned to CPU 1 (one core, as the
# Deployment's cpu: 1 limit gives it), wrk -t1 pinned to CPU 0, on loopback,
# keep-alive connections. Container: the image (make container-test builds
# localhost/eight:test) with --cpus=1 --memory=64m --read-only
# --cap-drop=ALL, through the engine's port forwarding, wrk on CPU 0.
# Prints one line per run (requests/s, p50, p99, errors) and the server's
# peak memory. Everything listens on 127.0.0.1 only and stops on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${BUILD:-build}"
DURATION="${DURATION:-10s}"
CONTAINER="${CONTAINER:-0}"
IMAGE="${IMAGE:-localhost/eight:test}"
ENGINE="${ENGINE:-podman}"
SERVER="$ROOT/$BUILD/bin/eight-server"
SCRIPT="$ROOT/bench/http/solve.lua"

"$ROOT/scripts/install-deps.sh" wrk curl
[ -x "$SERVER" ] || { echo "capacity.sh: $SERVER is missing; run make build" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "capacity.sh: needs at least 2 cores" >&2; exit 1; }

WORK="$(mktemp -d /tmp/eight-capacity.XXXXXX)"
SERVER_PID=""
CONTAINER_NAME=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  [ -n "$CONTAINER_NAME" ] && "$ENGINE" rm -f "$CONTAINER_NAME" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

. "$ROOT/bench/http/lib.sh"

# wrk against URL; with "random", the solve.lua script's boards.
measure() {  # label connections base-url path|random
  local label="$1" conns="$2" base="$3" what="$4" out
  local path=()
  [ "$what" = random ] || path=(-- "$what")
  taskset -c 0 wrk -t1 -c"$conns" -d1s -s "$SCRIPT" "$base" "${path[@]}" >/dev/null  # warm-up
  out="$(taskset -c 0 wrk -t1 -c"$conns" -d"$DURATION" --latency -s "$SCRIPT" "$base" "${path[@]}")"
  printf '%-58s %s\n' "$label -c$conns" "$(echo "$out" | sed -n 's/^RESULT //p')"
}

native() {  # label extra-server-args...
  local label="$1"; shift
  SERVER_WRAP="taskset -c 1" start_eight_server "$SERVER" "$WORK/eight.tbl" "$WORK/server.log" \
    --threads 1 "$@"
  local base="http://127.0.0.1:$SERVER_PORT"
  measure "$label /solve?board=867254301" 8 "$base" /solve?board=867254301
  measure "$label /solve?board=867254301" 32 "$base" /solve?board=867254301
  measure "$label /solve?board=867254301" 256 "$base" /solve?board=867254301
  measure "$label /solve random boards" 32 "$base" random
  measure "$label /distance?board=867254301" 32 "$base" /distance?board=867254301
  measure "$label /healthz" 32 "$base" /healthz
  echo "$label: peak RSS $(sed -n 's/^VmHWM:[[:space:]]*//p' "/proc/$SERVER_PID/status")"
  kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
}

"$ROOT/$BUILD/bin/eight-tablegen" --quiet --out "$WORK/eight.tbl"
echo "# $(nproc) cores, $(uname -sr); wrk -t1 on CPU 0, $DURATION a run"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${NATIVE:-1}" = 1 ]; then
  native "native, 1 core, --quiet" --quiet
  native "native, 1 core, access log on"
fi

if [ "$CONTAINER" = 1 ]; then
  if [ "$ENGINE" = podman ]; then
    # The image storage and configuration make container-test uses.
    CACHE=${EIGHT_CONTAINER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/eight-container}
    cd "$ROOT"
    . scripts/container-lib.sh
    setup_podman
  fi
  "$ENGINE" image exists "$IMAGE" 2>/dev/null || "$ENGINE" image inspect "$IMAGE" >/dev/null ||
    { echo "capacity.sh: no image $IMAGE (make container-test builds it)" >&2; exit 1; }
  for quiet in 1 0; do
    CONTAINER_NAME="eight-capacity-$$"
    "$ENGINE" run -d --name "$CONTAINER_NAME" --cpus=1 --memory=64m --read-only --cap-drop=ALL \
      -e EIGHT_QUIET="$quiet" -p 127.0.0.1::8080 "$IMAGE" >/dev/null
    port="$("$ENGINE" port "$CONTAINER_NAME" 8080 | head -1 | sed 's/.*://')"
    wait_ready "http://127.0.0.1:$port/readyz"
    label="container, --cpus=1, EIGHT_QUIET=$quiet"
    base="http://127.0.0.1:$port"
    measure "$label /solve?board=867254301" 32 "$base" /solve?board=867254301
    measure "$label /solve random boards" 32 "$base" random
    measure "$label /distance?board=867254301" 32 "$base" /distance?board=867254301
    # The server is the container's first process: its peak RSS, as the host sees it.
    pid="$("$ENGINE" inspect --format '{{.State.Pid}}' "$CONTAINER_NAME")"
    echo "$label: server peak RSS $(sed -n 's/^VmHWM:[[:space:]]*//p' "/proc/$pid/status")"
    "$ENGINE" rm -f "$CONTAINER_NAME" >/dev/null
    CONTAINER_NAME=""
  done
fi
