#!/usr/bin/env bash
# The Python module as a user installs it: `pip install` from a copy of the
# repository, offline (--no-index; setuptools, CMake, pybind11 and NumPy from
# Debian: `make deps`), into a fresh venv that sees Debian's NumPy, then the
# module's tests (tests/python) against that install, from outside the tree;
# pip's version of it is eight.__version__ (both CMake's project(VERSION)).
#   python-package-test.sh BUILD_DIR    (a built tree: its eight and table)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy of the tracked files: pip builds in its source folder, and the
# repository stays as it was.
(cd "$src" && git ls-files -z | tar --null -T - -cf -) | (mkdir -p "$work/src" && tar -xf - -C "$work/src")
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$work/src/python"
cd "$work"
"$work/venv/bin/python" -c 'import eight, sys, importlib.metadata as m; assert eight.__file__.startswith(sys.argv[1]), eight.__file__; assert m.version("eight") == eight.__version__, (m.version("eight"), eight.__version__)' "$work/venv"
EIGHT_BIN="$build/bin/eight" EIGHT_TABLE="$build/share/eight/eight.tbl" \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python"
echo "ok: pip install --no-build-isolation --no-index ./python, offline; its tests pass against the install"
