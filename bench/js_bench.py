#!/usr/bin/env python3
"""The JavaScript package's two floors (issue 21), side by side in one run.

    bench/js_bench.py [--build build] [--js-build build-js] [--runs 7]

Writes 10,005 solvable 3x3 boards drawn uniformly at random (bench/anchors.py's
boards and seed), then alternates RUNS times:

  solve  `eight solve --format moves --table T < boards > out` (the whole
         native process, its start and table included)
         against Node solving the same boards with the package
         (bench/js_solve.mjs in a fresh process: paths() over them all, as
         `eight solve` reads them all, timed from the tables ready to the
         last path, cold JIT included; and, reported but not a floor, a
         solve() a board, the way a game asks about the board on screen)
  build  `eight-tablegen --shape 3x3 --out F --quiet` (the whole process,
         writing and syncing the file included)
         against Eight.build({shapes: "3x3"}) in that same Node process
         (the module already loaded)

and prints the median of the pairwise ratios (JavaScript / native) against
the floors: solve at most 3x, build at most 5x. Every path Node printed must
be the native tool's, byte for byte. For reference it also prints the native
tool's time for no boards at all (its start and table), Node's module load
and Node's whole-process time. Exits 1 when a floor is missed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from anchors import BOARDS, SEED, solvable_boards  # noqa: E402

FLOORS = {"solve": 3.0, "build": 5.0}


def timed(cmd, stdin_path=None, stdout_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    stdout = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    for f in (stdin, stdout):
        if f not in (subprocess.DEVNULL, subprocess.PIPE):
            f.close()
    if proc.returncode != 0:
        sys.exit(f"js_bench.py: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[:400]}")
    return wall, proc.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--js-build", default=os.path.join(ROOT, "build-js"))
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    eight = os.path.join(args.build, "bin", "eight")
    tablegen = os.path.join(args.build, "bin", "eight-tablegen")
    table = os.path.join(args.build, "share", "eight", "eight.tbl")
    package = os.path.join(args.js_build, "js", "package")
    node = os.environ.get("NODE", "node")
    with tempfile.TemporaryDirectory() as tmp:
        boards = os.path.join(tmp, "boards")
        empty = os.path.join(tmp, "empty")
        with open(boards, "w") as f:
            f.write("".join("".join(map(str, b)) + "\n" for b in solvable_boards(BOARDS, SEED)))
        open(empty, "w").close()
        native_out, js_out, gen_out = (os.path.join(tmp, n) for n in ("native", "js", "gen.tbl"))
        ratios = {"solve": [], "build": [], "solve() each": []}
        seen = {"native solve": [], "js solve": [], "js solve()": [], "native start": [], "tablegen": [],
                "js build": [], "js load": [], "node process": []}
        for _ in range(args.runs):
            native, _ = timed([eight, "solve", "--format", "moves", "--table", table], boards, native_out)
            start, _ = timed([eight, "solve", "--format", "moves", "--table", table], empty)
            node_wall, printed = timed([node, os.path.join(ROOT, "bench", "js_solve.mjs"), package, boards, js_out])
            js = json.loads(printed)
            gen, _ = timed([tablegen, "--shape", "3x3", "--out", gen_out, "--quiet"])
            with open(native_out, "rb") as a, open(js_out, "rb") as b:
                if a.read() != b.read():
                    sys.exit("js_bench.py: Node's paths differ from eight solve's")
            ratios["solve"].append(js["solve_ms"] / 1000 / native)
            ratios["build"].append(js["build_ms"] / 1000 / gen)
            ratios["solve() each"].append(js["each_ms"] / 1000 / native)
            for k, v in (("native solve", native), ("native start", start), ("tablegen", gen),
                         ("js solve", js["solve_ms"] / 1000), ("js solve()", js["each_ms"] / 1000),
                         ("js build", js["build_ms"] / 1000),
                         ("js load", js["load_ms"] / 1000), ("node process", node_wall)):
                seen[k].append(v)
        for k, v in seen.items():
            print(f"{k:>13}: median {statistics.median(v) * 1000:8.1f} ms  (runs: "
                  + " ".join(f"{x * 1000:.1f}" for x in v) + ")")
        failed = False
        for k, floor in FLOORS.items():
            m = statistics.median(ratios[k])
            ok = m <= floor
            failed |= not ok
            print(f"{k}: JavaScript / native {m:.3f}x (pairs: " + " ".join(f"{r:.2f}" for r in ratios[k])
                  + f"); floor at most {floor}x: {'pass' if ok else 'FAIL'}")
        m = statistics.median(ratios["solve() each"])
        print(f"solve() a board at a time: JavaScript / native {m:.3f}x (pairs: "
              + " ".join(f"{r:.2f}" for r in ratios["solve() each"]) + "); not a floor")
        print(f"{BOARDS} boards, {args.runs} runs alternated; every path Node printed is eight solve's")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
