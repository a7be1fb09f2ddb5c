#!/usr/bin/env bash
# Prints, one a line, the Debian packages that own the shared libraries the
# given programs load (what a runtime image must install to run them).
#
#   scripts/runtime-packages.sh build/bin/eight-server build/bin/eight
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 PROGRAM..." >&2; exit 2; }

owner() {
  # dpkg knows a file under the path its package shipped it at, which with
  # merged /usr may differ from the one the loader reports: try both.
  local lib=$1 real alt
  real=$(readlink -f "$lib")
  for alt in "$lib" "$real" "${lib#/usr}" "${real#/usr}" "/usr$lib" "/usr$real"; do
    if out=$(dpkg-query -S "$alt" 2>/dev/null); then
      echo "${out%%:*}" | cut -d, -f1 | sed 's/:.*//'
      return 0
    fi
  done
  echo "runtime-packages: no Debian package owns $lib" >&2
  return 1
}

for program in "$@"; do
  ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
done | sort -u | while read -r lib; do
  owner "$lib"
done | sort -u
