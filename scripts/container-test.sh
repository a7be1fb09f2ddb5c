#!/usr/bin/env bash
# make container-test: builds the image from the Dockerfile and checks it for
# real: runs it on a loopback port, checks /readyz, a /solve answer, the /table
# ETag against the table's checksum and the health check, stops it and checks
# it exited 0 within 2 seconds, then removes the container. Prints the image
# size and the time from `run` to ready.
#
# Engine: docker when a Docker engine answers, else podman (rootful, as CI
# runs), installed from Debian with runc and debootstrap when missing. With
# podman everything lives under a cache folder ($EIGHT_CONTAINER_CACHE, else
# ${XDG_CACHE_HOME:-~/.cache}/eight-container): its own containers.conf
# (runc, lowered default ulimits: crun and the stock limits fail on these
# machines), its own image storage, and the Debian base image, built with
# debootstrap --variant=minbase from the mirror this machine's apt uses and
# imported under the exact name the Dockerfile's FROM uses, so the build runs
# with --pull=never and the same Dockerfile builds unchanged where a registry
# exists.
#
# Environment:
#   EIGHT_CONTAINER_ENGINE   docker or podman (default: docker if its engine answers)
#   EIGHT_CONTAINER_CACHE    cache folder (see above)
#   EIGHT_IMAGE              tag to build (default localhost/eight:test)
#   EIGHT_BASE_MAX_AGE_DAYS  rebuild the cached base image when older (default 30)
#   EIGHT_DEBIAN_MIRROR      Debian mirror for debootstrap (default: from apt's sources)
#   EIGHT_CONTAINER_SUITE    on (default): the build stage builds and runs the
#                            suite; off: it builds the programs and the table
#                            only (the Dockerfile's EIGHT_SUITE build argument), for
#                            .ci/run, whose `make test` has run the suite
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${EIGHT_IMAGE:-localhost/eight:test}
CACHE=${EIGHT_CONTAINER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/eight-container}
BASE_MAX_AGE_DAYS=${EIGHT_BASE_MAX_AGE_DAYS:-30}
READY_TIMEOUT_S=30
STOP_LIMIT_MS=2000
NAME=eight-container-test-$$
# Not SUITE: scripts/container-lib.sh sets that to the Debian release.
IMAGE_SUITE=${EIGHT_CONTAINER_SUITE:-on}
case "$IMAGE_SUITE" in on | off) ;; *)
  echo "container-test: EIGHT_CONTAINER_SUITE is on or off, not '$IMAGE_SUITE'" >&2
  exit 2
  ;;
esac

mkdir -p "$CACHE"

PASSED=0  # checks passed so far; the closing line counts them
say() { echo "container-test: $*"; }
ok() { PASSED=$((PASSED + 1)); say "$*"; }
die() {
  echo "container-test: FAILED: $*" >&2
  echo "container-test: $PASSED passed, 1 failed"
  exit 1
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# ---------------------------------------------------------------- engine

ENGINE=${EIGHT_CONTAINER_ENGINE:-}
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
    ENGINE=docker
  else
    ENGINE=podman
  fi
fi
case "$ENGINE" in docker | podman) ;; *) die "unknown engine '$ENGINE'" ;; esac

# The base image (from the Dockerfile's FROM), podman's own configuration and
# storage under $CACHE, and the debootstrapped base: shared with
# scripts/fresh-machine-test.sh.
. scripts/container-lib.sh

# ---------------------------------------------------------------- HTTP over bash

WORK=$(mktemp -d)
# http_get PORT PATH [HEADER]: fetches into $WORK/head (status line and
# headers, CR stripped) and $WORK/body. No curl needed in the image or here.
http_get() {
  local port=$1 path=$2 extra=${3:-}
  : >"$WORK/raw"
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n%sConnection: close\r\n\r\n' \
      "$path" "$port" "${extra:+$extra$'\r\n'}" >&3
    timeout 10 cat <&3 >"$WORK/raw"
  ) 2>/dev/null || true
  local head_bytes
  head_bytes=$(LC_ALL=C awk '{ n += length($0) + 1 } /^\r?$/ { print n; exit }' "$WORK/raw")
  LC_ALL=C awk '{ sub(/\r$/, "") } /^$/ { exit } { print }' "$WORK/raw" >"$WORK/head"
  tail -c +"$(( ${head_bytes:-0} + 1 ))" "$WORK/raw" >"$WORK/body"
}
http_status() { awk 'NR == 1 { print $2 }' "$WORK/head"; }
http_header() { awk -v h="$(echo "$1" | tr 'A-Z' 'a-z')" 'index(tolower($0), h ": ") == 1 { sub(/^[^:]*: */, ""); print; exit }' "$WORK/head"; }

# ---------------------------------------------------------------- run

cleanup() {
  "$ENGINE" rm -f "$NAME" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

say "engine: $ENGINE ($("$ENGINE" --version 2>/dev/null | head -n1 || echo '?'))"
build_args=(--build-arg "REVISION=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  --build-arg "EIGHT_SUITE=$IMAGE_SUITE")
if [ "$ENGINE" = podman ]; then
  setup_podman
  ensure_base_podman
  # Docker image format, so HEALTHCHECK is kept (the OCI format drops it).
  build_args+=(--format docker --pull=never)
fi

if [ "$IMAGE_SUITE" = on ]; then
  say "building $IMAGE (build stage: deps, build, suite, table)"
else
  say "building $IMAGE (build stage: deps, build without the suite, table; EIGHT_SUITE=off)"
fi
t0=$(now_ms)
if ! "$ENGINE" build "${build_args[@]}" -t "$IMAGE" -f Dockerfile . >"${CACHE}/build.log" 2>&1; then
  tail -n 40 "$CACHE/build.log" >&2
  die "image build failed (log: $CACHE/build.log)"
fi
ok "built in $(( ($(now_ms) - t0) / 1000 )) s (log: $CACHE/build.log)"
if [ "$IMAGE_SUITE" = on ]; then
  # The build stage's ctest must have run and passed (a failure stops the
  # build above; this catches a build stage that ran no suite at all).
  line=$(grep -E 'tests passed|tests failed' "$CACHE/build.log" | tail -n1)
  case "$line" in
    *"100% tests passed"*) ok "build-stage suite: $line" ;;
    *) die "the build stage ran no suite (log: $CACHE/build.log)" ;;
  esac
fi

size_bytes=$("$ENGINE" image inspect --format '{{.Size}}' "$IMAGE")
say "image size: $(( size_bytes / 1000000 )) MB ($size_bytes bytes)"
user=$("$ENGINE" image inspect --format '{{.Config.User}}' "$IMAGE")
[ -n "$user" ] && [ "${user%%:*}" != 0 ] && [ "${user%%:*}" != root ] || die "image runs as '$user'"
ok "runs as user $user, not root"

t0=$(now_ms)
# As locked down as the Kubernetes Deployment runs it: read-only root, no
# capabilities, no privilege gain. (podman without systemd, as here, says it
# cannot set up the health check's timer; the check still runs on demand below.)
if ! "$ENGINE" run -d --name "$NAME" -p 127.0.0.1::8080 --read-only --cap-drop=ALL \
  --security-opt=no-new-privileges "$IMAGE" >/dev/null 2>"$WORK/run.err"; then
  cat "$WORK/run.err" >&2
  die "$ENGINE run failed"
fi
port=$("$ENGINE" port "$NAME" 8080/tcp | head -n1 | sed 's/.*://')
[ -n "$port" ] || die "no host port for 8080"
ready=""
while [ $(( $(now_ms) - t0 )) -lt $(( READY_TIMEOUT_S * 1000 )) ]; do
  http_get "$port" /readyz
  if [ "$(http_status)" = 200 ]; then
    ready=$(( $(now_ms) - t0 ))
    break
  fi
  sleep 0.05
done
if [ -z "$ready" ]; then
  "$ENGINE" logs "$NAME" 2>&1 | tail -n 20 >&2
  die "not ready on 127.0.0.1:$port within ${READY_TIMEOUT_S} s"
fi
ok "run to ready: ${ready} ms (/readyz 200 on 127.0.0.1:$port)"

http_get "$port" "/solve?board=867254301"
[ "$(http_status)" = 200 ] && grep -q '"distance": *31' "$WORK/body" &&
  grep -q '"path": *"ruulddruuldldrrullurrdlldruurdd"' "$WORK/body" ||
  die "/solve?board=867254301 answered $(http_status): $(head -c 300 "$WORK/body")"
ok "/solve?board=867254301: 31 moves, ruulddruuldldrrullurrdlldruurdd"

checksum=$("$ENGINE" exec "$NAME" eight verify | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p')
[ -n "$checksum" ] || die "eight verify in the container printed no checksum"
http_get "$port" /table
etag=$(http_header etag)
[ "$(http_status)" = 200 ] || die "/table answered $(http_status)"
[ "$(stat -c %s "$WORK/body")" = "$(http_header content-length)" ] || die "/table body is not Content-Length long"
case "$etag" in *"$checksum"*) ;; *) die "/table ETag '$etag' does not hold the table checksum $checksum" ;; esac
http_get "$port" /table "If-None-Match: $etag"
[ "$(http_status)" = 304 ] || die "/table with If-None-Match: $etag answered $(http_status), not 304"
ok "/table ETag $etag is the table's checksum; If-None-Match gives 304"

if [ "$ENGINE" = podman ]; then
  podman healthcheck run "$NAME" >/dev/null || die "health check reports unhealthy"
  health=$(podman inspect --format '{{.State.Health.Status}}' "$NAME" 2>/dev/null ||
    podman inspect --format '{{.State.Healthcheck.Status}}' "$NAME")
else
  health=""
  for _ in $(seq 1 40); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$NAME")
    [ "$health" = healthy ] && break
    sleep 0.5
  done
fi
[ "$health" = healthy ] || die "health status '$health'"
ok "health check: $health"

t0=$(now_ms)
# (podman without systemd also complains here that it has no health-check timer to remove)
"$ENGINE" stop -t 10 "$NAME" >/dev/null 2>"$WORK/stop.err" || { cat "$WORK/stop.err" >&2; die "stop failed"; }
stopped=$(( $(now_ms) - t0 ))
code=$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$code" = 0 ] || die "exit code $code after stop"
[ "$stopped" -lt "$STOP_LIMIT_MS" ] || die "stop took ${stopped} ms (limit ${STOP_LIMIT_MS} ms)"
ok "stopped in ${stopped} ms, exit code $code"

"$ENGINE" logs "$NAME" >"$WORK/server.log" 2>&1 || true
# The image's /var/lib/eight (a volume, here an anonymous one) is where the
# server builds the 7-8 pattern databases, and a stop during the build is
# not held up by it.
grep -q 'building the 4x4 7-8 pattern databases' "$WORK/server.log" ||
  die "no background build of the 7-8 pattern databases: $(tail -n 20 "$WORK/server.log")"
ok "the 7-8 pattern databases were building in /var/lib/eight, and the stop did not wait for them"
"$ENGINE" rm -v "$NAME" >/dev/null 2>&1 || die "cannot remove $NAME"
if [ "$ENGINE" = podman ]; then
  # Drop the build stage's layers (about 400 MB) so the cache does not grow
  # run after run: it keeps the base and the image just tested, and every run
  # builds the build stage afresh (deps, build, suite, table).
  podman image prune -f >/dev/null 2>&1 || true
fi
rm -rf "$WORK"
trap - EXIT
say "passed: image $(( size_bytes / 1000000 )) MB, ready in ${ready} ms, stopped in ${stopped} ms"
say "$PASSED passed, 0 failed"
