#!/usr/bin/env bash
# The default table as eight-tablegen writes it (--shape default: every
# shape up to 10 cells and the 4x4 pattern databases, 21 MB, some 11 s),
# generated once per build tree for the tests that read a real file:
#   default_table.sh BIN_DIR DATA_DIR   prints the table's path
# It is written again when missing or older than eight-tablegen. Test
# processes run at once, so under the lock that the C++ tests' support
# (program_default_table_path, tests/support.cpp) takes too.
set -euo pipefail
bin_dir=$1
data_dir=$2
table="$data_dir/eight-default.tbl"
mkdir -p "$data_dir"
exec 9>"$table.lock"
flock 9
if [ ! -f "$table" ] || [ "$bin_dir/eight-tablegen" -nt "$table" ]; then
  "$bin_dir/eight-tablegen" --quiet --shape default --out "$table" >&2
fi
echo "$table"
