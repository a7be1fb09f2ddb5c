#!/usr/bin/env bash
# Runs the Python reader printed in docs/table-format.md against a freshly
# generated table: the spec's own example must read the real file.
set -euo pipefail
bin_dir=$1
spec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin_dir/eight-tablegen" --quiet --out "$work/eight.tbl"
awk '/^```python$/ {on=1; next} /^```$/ {on=0} on' "$spec" > "$work/reader.py"
[ -s "$work/reader.py" ] || { echo "no python block in $spec"; exit 1; }
# Debian's interpreter, where python3-xxhash installs (not a pyenv one on PATH).
out=$(cd "$work" && /usr/bin/python3 reader.py)
expected="31 ruulddruuldldrrullurrdlldruurdd"
if [ "$out" != "$expected" ]; then
  echo "reader printed '$out', expected '$expected'"
  exit 1
fi
echo "the spec's Python reader solved 867254301 in 31 moves"
