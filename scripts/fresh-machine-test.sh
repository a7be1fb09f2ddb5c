#!/usr/bin/env bash
# The fresh-machine check of the quick start: a clean clone of HEAD, in a fresh
# Debian 12 container that has only what debootstrap --variant=minbase brings
# (the Dockerfile's base, see scripts/container-lib.sh), runs
#   test: apt-get install make, then `make test`, which must install the rest;
#   run:  apt-get install make, then `make run`, until `/readyz` answers 200.
# Each target gets its own fresh container and clone. Heavy (a few minutes and
# every package download), so it is a developer's tool, not part of CI.
#
#   scripts/fresh-machine-test.sh [test] [run]     (default: test run)
#
# Logs go to $CACHE/fresh-TARGET.log. Runs as root (podman, debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${EIGHT_CONTAINER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/eight-container}
BASE_MAX_AGE_DAYS=${EIGHT_BASE_MAX_AGE_DAYS:-30}
RUN_READY_TIMEOUT_S=${EIGHT_FRESH_RUN_TIMEOUT_S:-1200}
mkdir -p "$CACHE"

say() { echo "fresh-machine: $*"; }
die() { echo "fresh-machine: FAILED: $*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

. scripts/container-lib.sh

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(test run)
for t in "${targets[@]}"; do
  case "$t" in test | run) ;; *) die "unknown target '$t' (test or run)" ;; esac
done

setup_podman
ensure_base_podman

WORK=$(mktemp -d "$CACHE/tmp/fresh.XXXXXX")
NAME=eight-fresh-$$
cleanup() {
  podman rm -f "$NAME" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# A clean clone of HEAD, as CI and a user get it: nothing untracked, no build.
clone() {
  rm -rf "$WORK/src"
  git clone -q --no-hardlinks "$PWD" "$WORK/src"
  say "clean clone of $(git -C "$WORK/src" rev-parse --short HEAD)"
}

# The only step by hand: make itself (the prerequisite the README names).
PREP='export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends make >/dev/null
cd /src'

# What a machine of this kind has beyond its packages: the TLS trust for its
# egress (npm fetches over HTTPS; apt uses plain HTTP), handed to Node.js the
# way the machine's own environment does, through NODE_EXTRA_CA_CERTS.
machine_env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  machine_env+=(-v "$NODE_EXTRA_CA_CERTS:/run/machine-ca.crt:ro" -e NODE_EXTRA_CA_CERTS=/run/machine-ca.crt)
fi

failed=0
for t in "${targets[@]}"; do
  clone
  log=$CACHE/fresh-$t.log
  t0=$(now_ms)
  case "$t" in
    test)
      say "make test in a fresh $BASE_REF container (log: $log)"
      if podman run --rm --name "$NAME" "${machine_env[@]}" -v "$WORK/src:/src" "$BASE_REF" \
        bash -c "$PREP && make test" >"$log" 2>&1; then
        say "make test passed in $(( ($(now_ms) - t0) / 1000 )) s: $(grep -E 'tests passed|tests failed' "$log" | tail -n1)"
      else
        tail -n 40 "$log" >&2
        say "make test FAILED after $(( ($(now_ms) - t0) / 1000 )) s (log: $log)"
        failed=1
      fi
      ;;
    run)
      say "make run in a fresh $BASE_REF container (log: $log)"
      podman run -d --name "$NAME" "${machine_env[@]}" -v "$WORK/src:/src" "$BASE_REF" \
        bash -c "$PREP && exec make run HOST=127.0.0.1 PORT=8080" >/dev/null 2>"$log.err" ||
        { cat "$log.err" >&2; die "podman run failed"; }
      ready=""
      while [ $(( $(now_ms) - t0 )) -lt $(( RUN_READY_TIMEOUT_S * 1000 )) ]; do
        if [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" != true ]; then
          break
        fi
        if podman exec "$NAME" sh -c '[ -x /src/build/bin/eight ] && /src/build/bin/eight probe --port 8080 --path /readyz' \
          >/dev/null 2>&1; then
          ready=$(( ($(now_ms) - t0) / 1000 ))
          break
        fi
        sleep 2
      done
      podman logs "$NAME" >"$log" 2>&1 || true
      if [ -n "$ready" ]; then
        answer=$(podman exec "$NAME" /src/build/bin/eight probe --port 8080 --path '/solve?board=867254301')
        say "make run served in $ready s: $answer"
      else
        tail -n 40 "$log" >&2
        say "make run FAILED: not ready (log: $log)"
        failed=1
      fi
      podman rm -f "$NAME" >/dev/null 2>&1 || true
      ;;
  esac
done
[ "$failed" = 0 ] || die "see the logs above"
say "passed: ${targets[*]}"
