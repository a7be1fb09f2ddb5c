#!/usr/bin/python3
"""eight info --svg FILE: the histogram picture is valid XML (Python's own
parser reads it), has one bar per distance from 0 to the goal's maximum, and
each bar's height is its count relative to the largest, the counts being the
ones `eight info` prints for the goal's section.

    info_svg_test.py BIN_DIR TEST_DATA_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def histograms(bin_dir, table):
    """Section goal -> counts, from the text of `eight info`."""
    out = run(os.path.join(bin_dir, "eight"), "info", table)
    assert out.returncode == 0, out.stderr
    found, goal = {}, None
    for line in out.stdout.splitlines():
        if line.startswith("section "):
            goal = None  # (a 4x4 pattern database's lines are no distances)
        m = re.match(r"section \d+: \S+ goal (\S+),.* max distance (\d+)$", line)
        if m:
            goal = m.group(1)
            found[goal] = []
            continue
        m = re.match(r"\s+(\d+)\s+(\d+)$", line)
        if m and goal is not None:
            assert int(m.group(1)) == len(found[goal])
            found[goal].append(int(m.group(2)))
    return found


def check(bin_dir, table, counts, args, goal_text):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "h.svg")
        out = run(os.path.join(bin_dir, "eight"), "info", table, "--svg", path, *args)
        assert out.returncode == 0, out.stderr
        assert out.stdout == "%s: distance histogram of goal %s, %d bars (0 to %d moves)\n" % (
            path, goal_text, len(counts), len(counts) - 1), out.stdout
        root = ET.parse(path).getroot()  # raises on anything that is not XML
    assert root.tag == SVG + "svg", root.tag
    bars = [r for r in root.iter(SVG + "rect") if r.get("class") == "bar"]
    assert len(bars) == len(counts), (len(bars), len(counts))
    tallest = max(counts)
    full = max(float(b.get("height")) for b in bars)
    foot = {round(float(b.get("y")) + float(b.get("height")), 1) for b in bars}
    assert len(foot) == 1, "bars stand on one line"
    xs = [float(b.get("x")) for b in bars]
    assert xs == sorted(xs) and len(set(xs)) == len(xs), "bars in distance order"
    for d, (bar, count) in enumerate(zip(bars, counts)):
        assert int(bar.get("data-distance")) == d
        assert int(bar.get("data-count")) == count, (d, bar.get("data-count"), count)
        want = full * count / tallest
        assert abs(float(bar.get("height")) - want) < 0.01, (d, bar.get("height"), want)
    assert goal_text in root.find(SVG + "title").text
    return len(bars)


def main():
    # The default table as eight-tablegen writes it, once per build tree
    # (the build's, for install).
    bin_dir, table = sys.argv[1], sys.argv[2]
    assert os.path.isfile(table), f"no default table at {table}"
    with tempfile.TemporaryDirectory() as work:
        counts = histograms(bin_dir, table)
        # 3x3 (full), 2x3 (full) and 2x5 (mod-3) goals, the first by default.
        n = check(bin_dir, table, counts["123456780"], [], "123456780")
        assert n == 32, n
        n = check(bin_dir, table, counts["123/450"], ["--shape", "2x3"], "123/450")
        assert n == 22, n
        check(bin_dir, table, counts["12345/67890"], ["--shape", "2x5"], "12345/67890")
        # A goal of another section through its symmetry: the section's counts.
        check(bin_dir, table, counts["123456780"], ["--goal", "087654321"], "087654321")
        # A shape the table lacks is refused as every command refuses it.
        bad = run(os.path.join(bin_dir, "eight"), "info", table, "--svg",
                  os.path.join(work, "x.svg"), "--shape", "3x4")
        assert bad.returncode == 3 and "not 3x4 ones" in bad.stderr, bad
        assert not os.path.exists(os.path.join(work, "x.svg"))
    print("eight info --svg: valid SVG, one bar per distance, heights as the counts")


if __name__ == "__main__":
    main()
