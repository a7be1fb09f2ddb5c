#!/usr/bin/env bash
# The man pages render without a single groff warning (groff -ww -z -man:
# every warning category, output discarded), and man(1) shows each one.
#   man_pages_test.sh MAN_DIR
set -euo pipefail
dir=$1
status=0
for page in eight.1 eight-tablegen.1 eight-server.8; do
  [ -s "$dir/$page" ] || { echo "FAIL: $dir/$page is missing or empty"; status=1; continue; }
  warnings=$(groff -ww -z -man "$dir/$page" 2>&1) || { echo "FAIL: groff failed on $page"; status=1; }
  if [ -n "$warnings" ]; then
    echo "FAIL: $page: groff warnings:"
    echo "$warnings"
    status=1
    continue
  fi
  name=${page%.*}
  if ! MANWIDTH=80 man -l "$dir/$page" 2>/dev/null | grep -q "^NAME"; then
    echo "FAIL: man -l $page shows no NAME section"
    status=1
    continue
  fi
  if ! zcat "$dir/$page.gz" | cmp -s - "$dir/$page"; then
    echo "FAIL: $page.gz (installed) is not $page"
    status=1
    continue
  fi
  echo "ok: $page ($name) renders without warnings"
done
exit $status
