#!/usr/bin/env python3
"""Every doctest case's name can be run by CTest.

doctest_discover_tests() registers each case as a CTest test whose command
is `--test-case=NAME`, and CMake cuts a list at ';': a name holding one
became a CTest test that ran no case at all and passed (found in issue 41's
round: 15 cases, "a cancelled batch stops early; its answer is never sent"
among them, had run nothing under `make test`). This fails naming each
case whose name holds a ';', so none can come back.

    tests/test_names_test.py SOURCE_DIR
"""
import pathlib
import re
import subprocess
import sys

NAME = re.compile(r'(?:TEST_CASE|SUBCASE|TEST_SUITE)\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    files = subprocess.run(["git", "ls-files", "tests", "fuzz"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split()
    bad, seen = [], 0
    for f in files:
        if not f.endswith((".cpp", ".h")):
            continue
        for m in NAME.finditer((root / f).read_text(encoding="utf-8")):
            seen += 1
            name = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
            if ";" in name:
                bad.append(f"{f}: {name}")
    if seen < 100:  # the pattern itself must still find the suite's cases
        print(f"only {seen} test case names found: the pattern no longer reads them")
        return 1
    for b in bad:
        print(f"a ';' in a test case's name (CTest would run no case): {b}")
    print(f"{seen} test case names read, {len(bad)} with a ';'")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
