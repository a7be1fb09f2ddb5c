#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then examples/ built out of
# tree against it, as a user would: find_package(eight CONFIG) with the
# shared (eight::core) and the static (eight::core_static) library, and
# pkg-config's eight.pc; and examples/solve.c, in C, against the C API
# (libeight-c.so) through find_package's eight::c and pkg-config's eight-c.pc.
# Checks
#   - the layout: programs, eight's module, table, man pages, headers,
#     libeight.a and libeight.so.3.0.0 with SONAME libeight.so.3 (the
#     library's own version, core/CMakeLists.txt), the CMake
#     package, eight.pc, units, completion, copyright; and that nothing went
#     outside the prefix;
#   - the installed eight and eight-server find the installed table by
#     themselves, run from outside any repository, and the installed eight
#     asks the installed server with --server (through its module);
#   - each build of solve_board prints the right answer: 867254301 is 31 moves
#     (the 8-puzzle's farthest boards are 31 moves away), boards that
#     `eight random` draws at distances 0 to 31 come back at those distances,
#     and every printed path, replayed, leads from the board to the goal in
#     that many moves.
#   install_example_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/eight bin/eight-tablegen bin/eight-server lib/eight/eight-remote.so share/eight/eight.tbl \
  share/man/man1/eight.1.gz share/man/man1/eight-tablegen.1.gz share/man/man8/eight-server.8.gz \
  include/eight/solver.h include/eight/table_set.h lib/libeight.a lib/libeight.so.3.0.0 \
  lib/cmake/eight/eight-config.cmake lib/cmake/eight/eight-config-version.cmake \
  lib/pkgconfig/eight.pc include/eight/c.h lib/libeight-c.so.1.0.0 lib/pkgconfig/eight-c.pc \
  lib/systemd/system/eight-server.service lib/systemd/system/eight-server.socket \
  etc/default/eight-server share/bash-completion/completions/eight share/doc/eight/copyright; do
  [ -e "$prefix/$f" ] || fail "cmake --install put no $f under the prefix"
done
[ "$(readlink "$prefix/lib/libeight.so")" = libeight.so.3 ] || fail "libeight.so is not a link to libeight.so.3"
[ "$(readlink "$prefix/lib/libeight.so.3")" = libeight.so.3.0.0 ] || fail "libeight.so.3 is not a link to libeight.so.3.0.0"
soname=$(readelf -d "$prefix/lib/libeight.so.3.0.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libeight.so.3 ] || fail "SONAME is '$soname', not libeight.so.3"
csoname=$(readelf -d "$prefix/lib/libeight-c.so.1.0.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$csoname" = libeight-c.so.1 ] || fail "libeight-c's SONAME is '$csoname', not libeight-c.so.1"
outside=$(grep -v "^$prefix/" "$build/install_manifest.txt" || true)
[ -z "$outside" ] || fail "installed outside the prefix: $outside"
echo "ok: installed $(wc -l <"$build/install_manifest.txt") files under the prefix; libeight.so.3.0.0 has SONAME $soname"

table=$prefix/share/eight/eight.tbl
# The installed tool finds the installed table by itself (from a folder
# with no data/eight.tbl, and no EIGHT_TABLE).
found=$(cd "$prefix" && env -u EIGHT_TABLE "$prefix/bin/eight" solve --format distance 867254301) ||
  fail "the installed eight did not find the installed table by itself"
[ "$found" = 31 ] || fail "the installed eight answered '$found' for 867254301, not 31"
echo "ok: the installed eight answers from $table without --table"
# So does the installed server, by the same rule (common/defaults.h). Its
# log exists first: the loop reads it at once, and the background shell may
# not have opened it yet.
: >"$work/server.err"
(cd "$prefix" && exec env -u EIGHT_TABLE -u EIGHT_TABLES "$prefix/bin/eight-server" \
  --host 127.0.0.1 --port 0 --quiet 2>"$work/server.err") &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$work/server.err")
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || fail "the installed eight-server exited: $(cat "$work/server.err")"
  sleep 0.1
done
[ -n "$port" ] || fail "the installed eight-server did not start: $(cat "$work/server.err")"
grep -q "(table $table, " "$work/server.err" ||
  fail "the installed eight-server serves another table: $(cat "$work/server.err")"
# Python's standard library, not curl: the image's build stage has no curl.
answer=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
  "http://127.0.0.1:$port/distance?board=867254301") ||
  fail "the installed eight-server did not answer /distance"
python3 -c 'import json, sys; assert json.loads(sys.argv[1])["distance"] == 31, sys.argv[1]' "$answer" ||
  fail "the installed eight-server answered $answer for 867254301"
# The installed eight asks it through its installed module (lib/eight/eight-remote.so).
remote=$("$prefix/bin/eight" --server "http://127.0.0.1:$port" solve --format distance 867254301) ||
  fail "the installed eight --server did not answer (its module, lib/eight/eight-remote.so?)"
[ "$remote" = 31 ] || fail "the installed eight --server answered '$remote' for 867254301, not 31"
kill -TERM "$server"
wait "$server" || fail "the installed eight-server exited $? on SIGTERM"
trap 'rm -rf "$work"' EXIT
echo "ok: the installed eight-server serves $table without --table"
# Boards at every distance of the 8-puzzle, drawn by the installed tool.
boards=(867254301)
for d in 0 1 2 5 10 15 20 25 30 31; do
  boards+=($("$prefix/bin/eight" random --table "$table" --distance "$d" --seed "$d" --count 2))
done

# check_answers OUTPUT_FILE: solve_board's lines against the known distances.
check_answers() {
  python3 - "$@" <<'PY'
import sys
out = open(sys.argv[1]).read().split("\n")[:-1]
boards = sys.argv[2:]
expected = {"867254301": 31}
# The boards of `eight random --distance d --count 2`, two per distance.
for i, d in enumerate([0, 1, 2, 5, 10, 15, 20, 25, 30, 31]):
    for b in boards[1 + 2 * i: 3 + 2 * i]:
        expected[b] = d
assert len(out) == len(boards), f"{len(out)} lines for {len(boards)} boards"
step = {"u": -3, "d": 3, "l": -1, "r": 1}
for line, board in zip(out, boards):
    got_board, distance, path = (line.split() + [""])[:3]
    assert got_board == board, f"line {line!r} is not about {board}"
    assert int(distance) == expected[board], f"{board}: distance {distance}, not {expected[board]}"
    assert len(path) == int(distance), f"{board}: a path of {len(path)} moves for distance {distance}"
    cells = list(board)
    blank = cells.index("0")
    for m in path:
        to = blank + step[m]
        assert 0 <= to < 9 and not (m in "lr" and to // 3 != blank // 3), f"{board}: illegal move {m}"
        cells[blank], cells[to] = cells[to], cells[blank]
        blank = to
    assert "".join(cells) == "123456780", f"{board}: {path} ends at {''.join(cells)}"
print(f"{len(out)} boards, distances 0 to 31, every path replayed to the goal")
PY
}

for kind in shared static; do
  flag=OFF
  [ "$kind" = static ] && flag=ON
  cmake -S "$src/examples" -B "$work/example-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -DEIGHT_EXAMPLE_STATIC=$flag -DCMAKE_BUILD_TYPE=Release >"$work/configure-$kind.log" 2>&1 ||
    { cat "$work/configure-$kind.log"; fail "configuring examples/ against the prefix ($kind)"; }
  cmake --build "$work/example-$kind" >"$work/build-$kind.log" 2>&1 ||
    { cat "$work/build-$kind.log"; fail "building examples/ against the prefix ($kind)"; }
  program=$work/example-$kind/solve_board
  linked=$(ldd "$program" | grep libeight || true)
  if [ "$kind" = shared ]; then
    case "$linked" in *"$prefix/lib/libeight.so.3"*) ;; *) fail "shared example loads '$linked'" ;; esac
  else
    [ -z "$linked" ] || fail "static example loads $linked"
  fi
  "$program" "$table" "${boards[@]}" >"$work/out-$kind"
  result=$(check_answers "$work/out-$kind" "${boards[@]}" 2>&1) || fail "find_package(eight) $kind: $result"
  echo "ok: find_package(eight CONFIG), eight::core$([ "$kind" = static ] && echo _static): $result"
done

# pkg-config, as a Makefile would use it.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion eight)" = "$(sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/eight.pc")" ] ||
  fail "pkg-config --modversion eight"
# shellcheck disable=SC2046
c++ -std=c++20 -O1 -o "$work/solve_board_pc" "$src/examples/solve_board.cpp" \
  $(pkg-config --cflags --libs eight) -Wl,-rpath,"$prefix/lib" || fail "building with pkg-config eight"
"$work/solve_board_pc" "$table" "${boards[@]}" >"$work/out-pc"
result=$(check_answers "$work/out-pc" "${boards[@]}" 2>&1) || fail "pkg-config: $result"
echo "ok: pkg-config eight ($(pkg-config --libs eight)): $result"

# The C API from C: examples/solve.c built by find_package's eight::c (the
# shared example build above) and by pkg-config's eight-c.pc, each printing
# for every board exactly what the installed eight prints.
printf '%s\n' "${boards[@]}" >"$work/boards"
"$prefix/bin/eight" solve --format json --table "$table" <"$work/boards" >"$work/json-eight"
"$work/example-shared/solve" "$table" <"$work/boards" >"$work/json-c-cmake" ||
  fail "the C example (find_package eight::c) failed"
cmp -s "$work/json-eight" "$work/json-c-cmake" || fail "the C example (eight::c) answers differ from eight's"
# shellcheck disable=SC2046
cc -std=c11 -O1 -o "$work/solve_c_pc" "$src/examples/solve.c" \
  $(pkg-config --cflags --libs eight-c) -Wl,-rpath,"$prefix/lib" || fail "building with pkg-config eight-c"
case "$(ldd "$work/solve_c_pc")" in *"$prefix/lib/libeight-c.so.1"*) ;; *) fail "the C example loads no libeight-c.so.1 of the prefix" ;; esac
"$work/solve_c_pc" "$table" <"$work/boards" >"$work/json-c-pc" || fail "the C example (eight-c.pc) failed"
cmp -s "$work/json-eight" "$work/json-c-pc" || fail "the C example (eight-c.pc) answers differ from eight's"
echo "ok: examples/solve.c through eight::c and pkg-config eight-c ($(pkg-config --libs eight-c)): ${#boards[@]} answers, byte for byte eight's"
