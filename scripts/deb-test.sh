#!/usr/bin/env bash
# make deb-test (and .ci/run): the Debian package on a fresh Debian 12.
#
# In a new container of the debootstrapped bookworm base (the Dockerfile's,
# scripts/container-lib.sh) with the .deb mounted read-only, as root:
#   1. apt-get installs the packages of the .deb's Depends line (found by
#      dpkg-shlibdeps) and man-db, and the file system is listed;
#   2. apt-get install ./eight_VERSION_amd64.deb must then install nothing
#      but eight (so Depends is complete);
#   3. eight solve answers 867254301 with its 31 moves; eight verify proves
#      the installed tables (the file, and --tables /usr/share/eight);
#   4. eight-server runs from the unit's own ExecStart line (taken from the
#      installed unit file, as an unprivileged user) until /readyz answers on
#      loopback, /solve is right, the unit's ExecReload line reloads it and
#      SIGTERM stops it with exit 0;
#   5. man eight shows eight(1); the bash completion completes `eight so`;
#   6. apt-get remove eight (not purge): dpkg keeps it as config-files, every
#      file dpkg -L listed is gone but the conffile /etc/default/eight-server,
#      and the file system differs from step 1 by that file alone.
# The base slims images by excluding man pages from dpkg; this test removes
# that exclusion first, as a real machine has none.
#
#   scripts/deb-test.sh [BUILD_DIR]     (default build; run make deb first)
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${1:-build}
CACHE=${EIGHT_CONTAINER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/eight-container}
BASE_MAX_AGE_DAYS=${EIGHT_BASE_MAX_AGE_DAYS:-30}
mkdir -p "$CACHE"
say() { echo "deb-test: $*"; }
die() { echo "deb-test: FAILED: $*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
deb=$BUILD/eight_${version}_amd64.deb
[ -f "$deb" ] || die "no $deb: run make deb"
say "$(basename "$deb"): $(stat -c %s "$deb") bytes; $(dpkg-deb -f "$deb" Depends | sed 's/^/Depends: /')"

. scripts/container-lib.sh
setup_podman
ensure_base_podman

NAME=eight-deb-test-$$
trap 'podman rm -f "$NAME" >/dev/null 2>&1 || true' EXIT
log=$CACHE/deb-test.log
t0=$(now_ms)
if ! podman run --rm --name "$NAME" -v "$PWD/$deb:/tmp/eight.deb:ro" \
  -v "$PWD/scripts/deb-test-inside.sh:/tmp/deb-test-inside.sh:ro" "$BASE_REF" \
  bash /tmp/deb-test-inside.sh /tmp/eight.deb >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  die "in the container (log: $log)"
fi
grep '^deb-test:' "$log" || true
say "passed in $(( ($(now_ms) - t0) / 1000 )) s (log: $log)"
