#!/usr/bin/python3
"""The bindings answer what `eight` answers on the 12-cell table shapes too.

    bindings_twelve_cell_test.py BUILD JS_PACKAGE

BUILD is a native build tree (bin/eight, bin/eight-tablegen,
bin/eight-c-solve-example, python/), JS_PACKAGE the JavaScript package
(build-js/js/package). Writes the 12-cell tables (eight-tablegen --shape
3x4 and --shape 2x6: 240 and 180 MB, about a minute each), then asks 1,000
random boards of each of 3x4, 4x3, 2x6 and 6x2 (both classes) of `eight
solve --format json`, of the C API (examples/solve.c), of the Python module
and of the JavaScript package (the table's bytes), each from the file: every
line must be the same. Run by .ci/run, not by make test (the tables).
"""
import os
import random
import subprocess
import sys
import tempfile

SHAPES = {"3x4": [(3, 4), (4, 3)], "2x6": [(2, 6), (6, 2)]}


def boards(rng, rows, cols, count):
    cells = list(range(rows * cols))
    out = []
    for _ in range(count):
        rng.shuffle(cells)
        out.append("/".join(",".join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(rows)))
    return out


def run(cmd, lines, env=None):
    done = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=1800, env=env)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd[:3])}: exit {done.returncode}: {done.stderr[:2000]}")
    return done.stdout.splitlines()


PYTHON = """
import sys, eight
tables = eight.Tables.open(sys.argv[1])
for line in sys.stdin.read().splitlines():
    print(tables.solve(line).json)
"""

NODE = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
const [pkg, table] = process.argv.slice(1);  // (node -e: no script name)
const { Eight } = await import(pathToFileURL(resolve(pkg, "index.js")).href);
const eight = await Eight.open(readFileSync(table), { name: table });
const out = readFileSync(0, "utf8").trimEnd().split("\\n").map((b) => eight.solveJson(b));
process.stdout.write(out.join("\\n") + "\\n");
"""


def main():
    build, package = (os.path.abspath(a) for a in sys.argv[1:3])
    rng = random.Random(20261206)
    with tempfile.TemporaryDirectory() as tmp:
        for name, shapes in SHAPES.items():
            table = os.path.join(tmp, f"eight-{name}.tbl")
            subprocess.run([os.path.join(build, "bin", "eight-tablegen"), "--shape", name, "--out", table,
                            "--quiet"], check=True, timeout=1800)
            lines = [b for r, c in shapes for b in boards(rng, r, c, 1000)]
            want = run([os.path.join(build, "bin", "eight"), "solve", "--format", "json", "--table", table],
                       lines)
            env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
            got = {
                "C API": run([os.path.join(build, "bin", "eight-c-solve-example"), table], lines),
                "Python": run(["/usr/bin/python3", "-c", PYTHON, table], lines, env),
                "JavaScript": run(["node", "--input-type=module", "-e", NODE, package, table], lines),
            }
            if sum('"solvable":false' in w for w in want) < len(lines) // 4:
                sys.exit(f"{name}: too few boards of the other class: the test would not cover them")
            for who, answers in got.items():
                if len(answers) != len(lines):
                    sys.exit(f"{name}: {who} gave {len(answers)} answers for {len(lines)} boards")
                for board, w, g in zip(lines, want, answers):
                    if w != g:
                        sys.exit(f"{name}: {who}: board {board}:\n  eight: {w}\n  {who}: {g}")
                print(f"{name} table: {who}: {len(lines)} answers ({', '.join(f'{r}x{c}' for r, c in shapes)}) "
                      "the same as eight solve's")
            os.remove(table)


if __name__ == "__main__":
    main()
