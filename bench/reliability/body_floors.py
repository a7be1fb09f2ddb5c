#!/usr/bin/env python3
"""The floors of issue 41's findings 2 and 4 (hostile bodies, memory), each
against a real eight-server; bench/reliability/floors.py runs them too.

    bench/reliability/body_floors.py empty_objects  # a: the 2 MiB body of {} vs one of boards
    bench/reliability/body_floors.py held_bodies    # b: 1,000 unfinished 2 MiB bodies vs RSS
    bench/reliability/body_floors.py held_bodies 100   # b with 100 (for a server without
                                                       # a budget: 2 MB each)

Environment, server and client: floors.py's. Only loopback; every process
and connection opened is closed on the way out.
"""

import re
import statistics
import sys
import time

from floors import Reader, Server, connect, get, verdict

MIB = 1024 * 1024


def post(body):
    return (b"POST /solve HTTP/1.1\r\nHost: eight\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def empty_objects_body():
    """Issue 41's body: {"boards":[{},{},...]} of 2 MiB (699,000 objects)."""
    n = (2 * MIB - len(b'{"boards":[]}') + 1) // 3
    return b'{"boards":[' + b",".join([b"{}"] * n) + b"]}"


def boards_body():
    """2 MiB of boards: 10,000 4x4 boards in the longest notation (spaces,
    padded with a goal field), solved from the tables within the limits."""
    board = b'"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"'
    items = b",".join([board] * 10000)
    body = b'{"boards":[' + items + b'],"goal":"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"}'
    return body + b" " * max(0, 2 * MIB - len(body))  # JSON allows trailing space


def timed_post(port, body):
    with connect(port, timeout=120) as s:
        start = time.monotonic()
        s.sendall(post(body))
        status, _, _ = Reader(s).response()
        return time.monotonic() - start, status


def empty_objects(rounds=15):
    """a. The 2 MiB body of empty objects is answered (413) in at most 10x
    the time of a 2 MiB body of boards (200): alternating, median of ratios."""
    server = Server(["--queue-wait", "600"])
    hostile, honest = empty_objects_body(), boards_body()
    ratios, hostile_s, honest_s, statuses = [], [], [], set()
    try:
        timed_post(server.port, honest)  # warm the tables' pages
        for _ in range(rounds):
            h, hs = timed_post(server.port, hostile)
            b, bs = timed_post(server.port, honest)
            statuses.add((hs, bs))
            hostile_s.append(h)
            honest_s.append(b)
            ratios.append(h / b)
    finally:
        server.close()
    ratio = statistics.median(ratios)
    ok = ratio <= 10 and statuses == {(413, 200)}
    print(f"empty_objects: {len(hostile)} bytes of {{}} (statuses {sorted(statuses)}) vs "
          f"{len(honest)} bytes of 10,000 boards, {rounds} rounds alternating: "
          f"{statistics.median(hostile_s) * 1000:.1f} ms vs {statistics.median(honest_s) * 1000:.1f} "
          f"ms (medians), median ratio {ratio:.3f}; floor: <= 10: {verdict(ok)}")
    return ok


def budget_of(port):
    """The server's --memory-budget in bytes from /metrics, or None (a
    server from before it)."""
    status, body = get(port, "/metrics")
    m = re.search(rb"^eight_memory_budget_bytes (\d+)$", body, re.M)
    return int(m.group(1)) if status == 200 and m else None


def held_bodies(count=1000):
    """b. 1,000 connections each sending the head of a 2 MiB body and all of
    it but its last byte, then holding: the server's resident memory grows
    by at most its memory budget (the default, 16 MiB)."""
    server = Server()
    socks = []
    before = server.rss_kb()
    peak = before
    refused = 0
    try:
        budget = budget_of(server.port)
        body = empty_objects_body()
        for i in range(count):
            s = connect(server.port, timeout=10)
            socks.append(s)
            try:
                s.sendall(post(body)[:-1])
            except OSError:
                pass  # refused at its head and closed while the rest was sent
            if i % 20 == 0:
                peak = max(peak, server.rss_kb())
        time.sleep(1)
        peak = max(peak, server.rss_kb())
        for s in socks:
            s.settimeout(0.01)
            try:
                if s.recv(12) == b"HTTP/1.1 503":
                    refused += 1
            except OSError:
                pass
    finally:
        for s in socks:
            s.close()
        server.close()
    grew = peak - before
    floor_kb = (budget or 16 * MIB) // 1024
    ok = budget is not None and grew <= floor_kb
    print(f"held_bodies: {count} connections holding all but the last byte of the 2 MiB body "
          f"(memory budget {'none' if budget is None else str(budget // MIB) + ' MiB'}): "
          f"{refused} refused 503 at once; RSS {before / 1024:.1f} MB -> peak {peak / 1024:.1f} "
          f"MB, grew {grew / 1024:.1f} MB; floor: grows <= {floor_kb // 1024} MiB: {verdict(ok)}")
    return ok


FLOORS = {"empty_objects": empty_objects, "held_bodies": held_bodies}

if __name__ == "__main__":
    args = sys.argv[1:] or list(FLOORS)
    if len(args) == 2 and args[1].isdigit():
        sys.exit(0 if FLOORS[args[0]](int(args[1])) else 1)
    sys.exit(0 if all(FLOORS[n]() for n in args) else 1)
