#!/usr/bin/python3
"""The Python module's floors (issue 21), in one run, alternated:

  1. eight.distances() over all 181,440 solvable 3x3 boards in a NumPy array,
     against a straightforward pure-Python breadth-first search computing the
     same distances: at most 0.02x its time.
  2. One eight.distance() call's overhead beyond the lookup: a Python loop of
     distance() calls, per call, less a board's share of one distances() call
     over the same boards (the lookup and the validation, in C++): under 2 us.

    PYTHONPATH=build/python bench/python_bench.py [ROUNDS]
"""
import statistics
import sys
import time

import numpy as np

import eight

GOAL = "123456780"
STEPS = {0: (1, 3), 1: (0, 2, 4), 2: (1, 5), 3: (0, 4, 6), 4: (1, 3, 5, 7), 5: (2, 4, 8),
         6: (3, 7), 7: (4, 6, 8), 8: (5, 7)}


def bfs():
    """Distances of every board that reaches GOAL, by breadth-first search."""
    dist = {GOAL: 0}
    frontier = [GOAL]
    while frontier:
        nxt = []
        for board in frontier:
            d = dist[board] + 1
            blank = board.index("0")
            for to in STEPS[blank]:
                cells = list(board)
                cells[blank], cells[to] = cells[to], cells[blank]
                b = "".join(cells)
                if b not in dist:
                    dist[b] = d
                    nxt.append(b)
        frontier = nxt
    return dist


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    truth = bfs()
    boards = sorted(truth)
    cells = np.array([[int(c) for c in b] for b in boards], dtype=np.uint8)
    tables = eight.Tables.build()
    got = tables.distances(cells)
    assert list(got) == [truth[b] for b in boards], "distances() disagrees with the BFS"

    ratios, bfs_times, eight_times = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        bfs()
        t1 = time.perf_counter()
        tables.distances(cells)
        t2 = time.perf_counter()
        bfs_times.append(t1 - t0)
        eight_times.append(t2 - t1)
        ratios.append((t2 - t1) / (t1 - t0))
    ratio = statistics.median(ratios)
    print(f"BFS {statistics.median(bfs_times) * 1e3:.1f} ms, distances() "
          f"{statistics.median(eight_times) * 1e3:.2f} ms: ratio {ratio:.4f} (floor 0.02)")

    sample = boards[::18]  # 10,080 boards
    sample_cells = cells[::18]
    overheads = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for b in sample:
            tables.distance(b)
        t1 = time.perf_counter()
        tables.distances(sample_cells)
        t2 = time.perf_counter()
        overheads.append(((t1 - t0) - (t2 - t1)) / len(sample))
    overhead = statistics.median(overheads) * 1e6
    print(f"distance() overhead beyond the lookup: {overhead:.2f} us a call (floor 2 us)")
    ok = ratio <= 0.02 and overhead < 2.0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
