#!/usr/bin/env python3
"""The core against the classic solvers in ../shared/anchors/, in one run.

    bench/anchors.py [--build build] [--runs 7] [--anchors ../shared/anchors]

Builds the two anchors (g++ -O2 -w) into BUILD/anchors/, writes 10,005
solvable boards drawn uniformly at random (fixed seed) in each program's
input format, then runs each pair of whole processes alternately RUNS times
and prints the median of the pairwise ratios of wall time:

  tablegen     eight-tablegen --out F (all 3 sections)  poj1077_table < /dev/null
  moves        eight solve --format moves < boards      poj1077_table < boards
  distances    eight solve --format distance < boards   soj2061_astar < cases

and the CPU time (user + system, from wait4) of `eight solve` for one board,
alternated with /bin/true's.
Answers are checked, not only timed: every path eight prints has the length
of the anchor's, and every distance equals the A* solver's. Exits 1 when a
floor of docs/performance.md is missed (tablegen <= 0.2x, moves <= 0.02x,
distances <= 0.003x, one board's CPU <= 3x /bin/true's), 0 otherwise; prints a
message and exits 0 when the anchors folder is absent.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = 10005
SEED = 20261201
FLOORS = {"tablegen": 0.2, "moves": 0.02, "distances": 0.003}
ONE_BOARD_CPU_RATIO = 3.0


def solvable_boards(n, seed):
    """n boards of the standard goal's class (even tile parity), uniform."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        cells = list(range(9))
        rng.shuffle(cells)
        tiles = [c for c in cells if c]
        inversions = sum(1 for i in range(8) for j in range(i + 1, 8) if tiles[j] < tiles[i])
        if inversions % 2 == 0:
            out.append(cells)
    return out


def run(cmd, stdin_path=None, capture=True):
    """Runs cmd as a whole process; returns (wall seconds, its stdout). For
    timing, capture=False sends the output to /dev/null, as a shell
    redirection would: reading it through a pipe would time this script."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out_to = subprocess.PIPE if capture else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=out_to, stderr=out_to)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    if stdin_path:
        stdin.close()
    if proc.returncode != 0:
        detail = err.decode()[:400] if err else ""
        sys.exit(f"anchors.py: {' '.join(cmd)} failed ({proc.returncode}): {detail}")
    return wall, out


def cpu_of(cmd):
    """CPU seconds (user + system) of one run of cmd, from wait4. Started
    with posix_spawn, so the child is the program from its first
    instruction (a fork would charge it for tearing down a copy of this
    interpreter)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    pid = os.posix_spawn(cmd[0], cmd, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0),
                                       (os.POSIX_SPAWN_DUP2, devnull, 1),
                                       (os.POSIX_SPAWN_DUP2, devnull, 2)])
    os.close(devnull)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"anchors.py: {' '.join(cmd)} failed")
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--anchors", default=os.path.join(os.path.dirname(ROOT), "shared", "anchors"))
    args = ap.parse_args()
    if not os.path.isdir(args.anchors):
        print(f"anchors.py: {args.anchors} is absent: nothing to measure against, skipped")
        return 0
    bin_dir = os.path.join(args.build, "bin")
    eight, tablegen = os.path.join(bin_dir, "eight"), os.path.join(bin_dir, "eight-tablegen")
    out_dir = os.path.join(args.build, "anchors")
    os.makedirs(out_dir, exist_ok=True)
    poj, soj = os.path.join(out_dir, "poj1077_table"), os.path.join(out_dir, "soj2061_astar")
    for name, exe in (("poj1077_table", poj), ("soj2061_astar", soj)):
        subprocess.run(["g++", "-O2", "-w", "-o", exe, os.path.join(args.anchors, name + ".cpp")],
                       check=True)

    work = tempfile.mkdtemp(prefix="eight-anchors-")
    table = os.path.join(work, "eight.tbl")
    subprocess.run([tablegen, "--quiet", "--out", table], check=True)
    boards = solvable_boards(BOARDS, SEED)
    ours = os.path.join(work, "boards.txt")  # one board a line: 867254301
    with open(ours, "w") as f:
        f.writelines("".join(map(str, b)) + "\n" for b in boards)
    pojin = os.path.join(work, "poj.txt")  # 8 6 7 2 5 4 3 x 1, a line each
    with open(pojin, "w") as f:
        f.writelines(" ".join("x" if c == 0 else str(c) for c in b) + "\n" for b in boards)
    sojin = os.path.join(work, "soj.txt")  # T, then board and goal, 18 numbers a case
    with open(sojin, "w") as f:
        f.write(f"{BOARDS}\n")
        f.writelines(" ".join(map(str, b)) + " 1 2 3 4 5 6 7 8 0\n" for b in boards)

    pairs = {
        "tablegen": ([tablegen, "--quiet", "--out", os.path.join(work, "t.tbl")], None, [poj], None),
        "moves": ([eight, "solve", "--table", table, "--format", "moves"], ours, [poj], pojin),
        "distances": ([eight, "solve", "--table", table, "--format", "distance"], ours, [soj], sojin),
    }
    # Correctness first: the same answers as the anchors.
    _, moves = run(pairs["moves"][0], ours)
    _, anchor_moves = run([poj], pojin)
    ours_len = [len(line) for line in moves.decode().split()]
    theirs_len = [len(line) for line in anchor_moves.decode().split()]
    if ours_len != theirs_len:
        sys.exit("anchors.py: path lengths differ from poj1077_table's")
    _, dist = run(pairs["distances"][0], ours)
    _, anchor_dist = run([soj], sojin)
    if dist.split() != anchor_dist.split():
        sys.exit("anchors.py: distances differ from soj2061_astar's")
    print(f"# {BOARDS} boards (seed {SEED}): every path length and distance equals the anchors'")
    print(f"# {os.cpu_count()} cores, load average before: {os.getloadavg()}")

    failed = False
    for name, (cmd, cin, anchor, ain) in pairs.items():
        ratios, mine, theirs = [], [], []
        run(cmd, cin, capture=False)  # warm the page cache and the binaries
        run(anchor, ain, capture=False)
        for _ in range(args.runs):
            a, _ = run(cmd, cin, capture=False)
            b, _ = run(anchor, ain, capture=False)
            mine.append(a)
            theirs.append(b)
            ratios.append(a / b)
        r = statistics.median(ratios)
        ok = r <= FLOORS[name]
        failed |= not ok
        print(f"{name:10s} eight {statistics.median(mine) * 1e3:9.2f} ms   anchor "
              f"{statistics.median(theirs) * 1e3:9.2f} ms   ratio {r:.4f}x "
              f"(floor {FLOORS[name]}x) {'ok' if ok else 'MISSED'}")
    # One board against /bin/true, alternated: a ratio, as every floor here
    # (an absolute figure would be the machine's, not the program's).
    one = [eight, "solve", "--table", table, "867254301"]
    true = ["/bin/true"]
    ratios, mine, base = [], [], []
    for _ in range(max(21, args.runs)):
        a, b = cpu_of(true), cpu_of(one)
        base.append(a)
        mine.append(b)
        ratios.append(b / a if a > 0 else float("inf"))
    r = statistics.median(ratios)
    ok = r <= ONE_BOARD_CPU_RATIO
    failed |= not ok
    print(f"one board  eight solve 867254301: {statistics.median(mine) * 1e3:.3f} ms of CPU, "
          f"/bin/true {statistics.median(base) * 1e3:.3f} ms, ratio {r:.2f}x (median of pairs; "
          f"floor {ONE_BOARD_CPU_RATIO}x) {'ok' if ok else 'MISSED'}")
    if failed:
        print("FLOOR MISSED")
        return 1
    print("floors met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
