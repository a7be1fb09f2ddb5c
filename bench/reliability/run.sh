#!/usr/bin/env bash
# The reliability floors of issue 18 (docs/reliability.md, "Floors"), each
# against its own eight-server on a free loopback port with the default
# table; exits 1 when any floor is missed.
#
#   bench/reliability/run.sh                   all seven
#   bench/reliability/run.sh fd_limit          one (random_stall, search_hog,
#                                              chunk_ext, fd_limit, job_deadline;
#                                              issue 41's empty_objects, held_bodies)
#   BUILD=build TABLE=data/eight.tbl bench/reliability/run.sh
#
# Makes the default table (eight-tablegen --shape default, about 11 s) when
# TABLE is missing; builds nothing else: run `make build` first. The clients
# are bench/reliability/floors.py (Python's standard library only).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export BUILD="${BUILD:-build}"
export TABLE="${TABLE:-$ROOT/data/eight.tbl}"

for bin in eight-server eight-tablegen; do
  [ -x "$ROOT/$BUILD/bin/$bin" ] || { echo "run.sh: $ROOT/$BUILD/bin/$bin is missing; run make build" >&2; exit 1; }
done
if [ ! -f "$TABLE" ]; then
  mkdir -p "$(dirname "$TABLE")"
  "$ROOT/$BUILD/bin/eight-tablegen" --quiet --shape default --out "$TABLE"
fi
# prlimit (util-linux) caps the server's descriptors for fd_limit.
command -v prlimit >/dev/null || { echo "run.sh: needs prlimit (util-linux)" >&2; exit 1; }
exec python3 "$ROOT/bench/reliability/floors.py" "$@"
