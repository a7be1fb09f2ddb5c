#!/usr/bin/python3
"""The C API answers what `eight` answers, byte for byte.

    c_api_cli_test.py EIGHT SOLVE TABLE

EIGHT is the tool, SOLVE the C example (examples/solve.c, built in the
tree), TABLE a table file. The same boards go to `eight solve --format json
--table TABLE` and to SOLVE, reading TABLE and reading the tables it builds
in memory: 10,000 random 3x3 boards and 1,000 of each other shape of the
in-memory tables (both classes: half of them cannot reach the goal), and
twenty 4x4 and ten 5x5 ones from TABLE. Every line must be the same.
"""
import random
import subprocess
import sys


def board_text(cells, rows, cols):
    sep = "," if rows * cols > 10 else ""
    return "/".join(sep.join(str(c) for c in cells[r * cols:(r + 1) * cols])
                    for r in range(rows))


def boards(rng, rows, cols, count):
    cells = list(range(rows * cols))
    out = []
    for _ in range(count):
        rng.shuffle(cells)
        out.append(board_text(cells, rows, cols) if (rows, cols) != (3, 3)
                   else "".join(map(str, cells)))
    return out


def run(cmd, lines):
    done = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=1200)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr[:2000]}")
    return done.stdout.splitlines()


def compare(what, expected, got, lines):
    if len(expected) != len(lines) or len(got) != len(lines):
        sys.exit(f"{what}: {len(lines)} boards, {len(expected)} lines from eight, "
                 f"{len(got)} from the C API")
    for board, e, g in zip(lines, expected, got):
        if e != g:
            sys.exit(f"{what}: board {board}:\n  eight: {e}\n  C API: {g}")
    print(f"{what}: {len(lines)} answers the same")


def main():
    eight, solve, table = sys.argv[1:4]
    rng = random.Random(20261205)
    small = boards(rng, 3, 3, 10000)
    for rows, cols in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2)]:
        small += boards(rng, rows, cols, 1000)
    searched = boards(rng, 4, 4, 20) + boards(rng, 5, 5, 10)

    cli = run([eight, "solve", "--format", "json", "--table", table], small + searched)
    compare("the table file", cli, run([solve, table], small + searched), small + searched)
    compare("the tables built in memory", cli[:len(small)], run([solve], small), small)
    if sum('"solvable":false' in line for line in cli) < len(small) // 4:
        sys.exit("too few boards of the other class: the test would not cover them")


if __name__ == "__main__":
    main()
