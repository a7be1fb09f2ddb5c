#!/usr/bin/env python3
"""The README's numbers are the programs' (issue 40): every size in bytes
and every count of sections it states, and the shapes it says the default
table answers.

    tests/readme_claims_test.py SOURCE_DIR BIN_DIR TABLE

Each "N bytes" in README.md must be the size of a table the build writes
(the default table TABLE, or the three 3x3 sections `eight-tablegen --shape
3x3` writes here), each "N sections" the default table's count (`eight
info`); "every rectangular board up to K cells" must be the largest shape
the default table answers from its sections, and a board one size past it
(3x4 for 10) must be refused with the command that generates its table.
"""
import pathlib
import re
import subprocess
import sys
import tempfile


def number(text):
    return int(text.replace(",", ""))


def main():
    source, bin_dir, table = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    readme = (source / "README.md").read_text()
    eight = str(bin_dir / "eight")
    info = subprocess.run([eight, "info", str(table)], capture_output=True, text=True,
                          check=True).stdout
    sections = int(re.search(r"^sections\s+(\d+)$", info, re.M).group(1))
    default_size = int(re.search(r"^file size\s+(\d+) bytes$", info, re.M).group(1))
    # The shapes of the sections (tables of positions), not of the pattern databases.
    table_shapes = set(re.findall(r"^section \d+: (\d+)x(\d+) goal .* positions", info, re.M))
    largest = max(int(r) * int(c) for r, c in table_shapes)
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "three.tbl"
        subprocess.run([str(bin_dir / "eight-tablegen"), "--shape", "3x3", "--out", str(out),
                        "--quiet"], check=True)
        three_size = out.stat().st_size
    known = {default_size: "the default table", three_size: "the 3x3 table"}
    failures = []
    claims = 0
    for m in re.finditer(r"\b(\d{1,3}(?:,\d{3})+|\d+) bytes\b", readme):
        claims += 1
        if number(m.group(1)) not in known:
            failures.append(f"README says {m.group(0)}: no table the build writes has that size "
                            f"(default {default_size}, 3x3 {three_size})")
    for m in re.finditer(r"\b(\d+) sections\b", readme):
        claims += 1
        if int(m.group(1)) != sections:
            failures.append(f"README says {m.group(0)}: the default table has {sections}")
    cells = [int(c) for c in re.findall(r"every rectangular board up to (\d+) cells", readme)]
    claims += len(cells)
    failures += [f"README says every rectangular board up to {c} cells: the default table's "
                 f"sections go up to {largest}" for c in cells if c != largest]
    if largest == 10:
        r = subprocess.run([eight, "solve", "1,2,3,4/5,6,7,8/9,10,11,0", "--table", str(table)],
                           capture_output=True, text=True)
        claims += 1
        if r.returncode == 0 or "eight-tablegen --shape 3x4" not in r.stderr:
            failures.append(f"a 3x4 board is not refused with the command that makes its table: "
                            f"exit {r.returncode}, {r.stderr.strip()}")
    print(f"{claims} claims checked: default table {default_size} bytes, {sections} sections, "
          f"sections up to {largest} cells; 3x3 table {three_size} bytes")
    if claims < 4:
        failures.append(f"only {claims} claims found in README.md: the patterns find nothing")
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
