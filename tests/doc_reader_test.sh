#!/usr/bin/env bash
# Runs the Python reader printed in docs/table-format.md against the default
# table as eight-tablegen writes it (every shape up to 10 cells, full and
# mod-3, and the pattern databases of 4x4, 2x7, 3x5 and 5x5; the one the build generates for
# install): the spec's own example must read the real file, agree with every
# test vector in tests/data/table_vectors.txt, and refuse a wrong one.
#   doc_reader_test.sh SPEC VECTORS TABLE
set -euo pipefail
spec=$1
vectors=$2
table=$3
[ -f "$table" ] || { echo "FAIL: no default table at $table"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$(realpath "$table")" "$work/eight.tbl"
awk '/^```python$/ {on=1; next} /^```$/ {on=0} on' "$spec" > "$work/reader.py"
[ -s "$work/reader.py" ] || { echo "no python block in $spec"; exit 1; }
# Debian's interpreter, where python3-xxhash installs (not a pyenv one on PATH).
py=/usr/bin/python3
out=$(cd "$work" && $py reader.py)
expected="31 ruulddruuldldrrullurrdlldruurdd"
if [ "$out" != "$expected" ]; then
  echo "reader printed '$out', expected '$expected'"
  exit 1
fi
echo "the spec's Python reader solved 867254301 in 31 moves"
count=$(grep -cv '^#' "$vectors")
out=$(cd "$work" && $py reader.py eight.tbl "$vectors")
if [ "$out" != "$count vectors agree" ]; then
  echo "reader printed '$out' over the $count vectors"
  exit 1
fi
echo "and agrees with all $count test vectors"
# A vector with one move changed must be refused: the check can fail.
sed '0,/^867254301 123456780 31 r/s//867254301 123456780 31 l/' "$vectors" > "$work/wrong.txt"
if cmp -s "$vectors" "$work/wrong.txt"; then echo "could not make a wrong vector"; exit 1; fi
if (cd "$work" && $py reader.py eight.tbl wrong.txt >/dev/null 2>&1); then
  echo "reader accepted a wrong vector"
  exit 1
fi
echo "and refuses a wrong one"
# reads_as ARGS... EXPECTED: the reader on eight.tbl with ARGS prints EXPECTED.
reads_as() {
  local want=${*: -1}
  out=$(cd "$work" && $py reader.py eight.tbl "${@:1:$#-1}")
  if [ "$out" != "$want" ]; then
    echo "reader printed '$out' given ${*:1:$#-1}, expected '$want'"
    exit 1
  fi
}
korf=$(dirname "$vectors")/korf100.txt
reads_as --korf "$korf" "100 boards: the heuristic bounds every length, with its parity"
echo "and its 4x4 heuristic bounds Korf's 100"
# A table whose pattern database was altered (resealed, so only the
# heuristic can tell) must be caught: the check can fail.
# all_15s ROWS COLS OUT: the table with its first ROWSxCOLS pattern
# database's entries all set to 15, resealed.
all_15s() {
  $py - "$work/eight.tbl" "$1" "$2" "$3" <<'PY'
import struct, sys, xxhash
data = bytearray(open(sys.argv[1], "rb").read())
rows, cols = int(sys.argv[2]), int(sys.argv[3])
n, = struct.unpack_from("<H", data, 18)
for i in range(n):
    if data[32 + 64 * i : 32 + 64 * i + 3] == bytes([rows, cols, 3]):
        offset, size = struct.unpack_from("<QQ", data, 32 + 64 * i + 8)
        data[offset:offset + size] = b"\xff" * size   # every entry 15
        break
else:
    sys.exit(f"no {rows}x{cols} pattern database")
struct.pack_into("<Q", data, 8, xxhash.xxh3_64_intdigest(bytes(data[16:])))
open(sys.argv[4], "wb").write(data)
PY
}
all_15s 4 4 "$work/bad.tbl"
if (cd "$work" && $py reader.py bad.tbl --korf "$korf" >/dev/null 2>&1); then
  echo "reader's heuristic accepted a pattern database of all 15s"
  exit 1
fi
echo "and catches an altered pattern database"
korf24=$(dirname "$vectors")/korf_felner_24.txt
reads_as --korf24 "$korf24" "50 boards: the 5x5 heuristic bounds every length, with its parity"
echo "and its 5x5 heuristic (the 5x5 sections' headers and entries) bounds Korf and Felner's 50"
all_15s 5 5 "$work/bad55.tbl"
if (cd "$work" && $py reader.py bad55.tbl --korf24 "$korf24" >/dev/null 2>&1); then
  echo "reader's heuristic accepted a 5x5 pattern database of all 15s"
  exit 1
fi
echo "and catches an altered 5x5 one"
out=$(cd "$work" && $py reader.py eight.tbl --near 14)
if [ "$out" != "11 goals: the heuristic bounds every distance near them, with its parity" ]; then
  echo "reader printed '$out' over the 2x7, 3x5 and 2x8 goals"
  exit 1
fi
echo "and its 2x7, 3x5 and 2x8 heuristics (2x8's the largest of its three sets) bound every distance within 14 moves of their goals"
# The same for a 2x7 pattern database turned to all 15s.
all_15s 2 7 "$work/bad27.tbl"
if (cd "$work" && $py reader.py bad27.tbl --near 14 >/dev/null 2>&1); then
  echo "reader's heuristic accepted a 2x7 pattern database of all 15s"
  exit 1
fi
echo "and catches an altered 2x7 one"
