#!/usr/bin/env python3
"""`make run` builds what it serves and nothing more (issue 40): no test,
benchmark, fuzzer or binding target is among what its build asks for.

    tests/packaging/make_run_test.py SOURCE_DIR

The targets are read from the Makefile itself (`make -n run`, a dry run that
executes nothing), then every target they depend on, however indirectly, is
found in CMake's own model of the build (its file API, codemodel-v2) of a
tree configured here as `make` configures one, tests and benchmarks on. The
test fails when a reached target is defined under tests/, bench/, fuzz/,
python/, js/ or examples/, when a named target does not exist, or when the
model holds no test target at all (a model that cannot show the fault).
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

NOT_SERVED = ("tests", "bench", "fuzz", "python", "js", "examples")


def run_targets(source, build):
    dry = subprocess.run(["make", "-n", "--no-print-directory", "run", f"BUILD={build}"],
                         cwd=source, capture_output=True, text=True, check=True).stdout
    lines = [line for line in dry.splitlines() if line.startswith("cmake --build") and "--target" in line]
    if len(lines) != 1:
        sys.exit(f"expected one `cmake --build ... --target` line in make -n run, found:\n{dry}")
    words = lines[0].split()
    targets = []
    for word in words[words.index("--target") + 1:]:
        if word.startswith("-"):
            break
        targets.append(word)
    return targets


def code_model(build):
    reply = os.path.join(build, ".cmake", "api", "v1", "reply")
    index = json.load(open(sorted(glob.glob(os.path.join(reply, "index-*.json")))[-1]))
    model = json.load(open(os.path.join(reply, index["reply"]["codemodel-v2"]["jsonFile"])))
    by_id = {}
    for t in model["configurations"][0]["targets"]:
        by_id[t["id"]] = json.load(open(os.path.join(reply, t["jsonFile"])))
    return by_id


def main():
    source = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as build:
        targets = run_targets(source, build)
        print("make run builds:", " ".join(targets))
        query = os.path.join(build, ".cmake", "api", "v1", "query")
        os.makedirs(query)
        open(os.path.join(query, "codemodel-v2"), "w").close()
        subprocess.run(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DEIGHT_BUILD_TESTS=ON", "-DEIGHT_BUILD_SERVER=ON",
                        "-DEIGHT_BUILD_BENCHMARKS=ON"], check=True, stdout=subprocess.DEVNULL)
        by_id = code_model(build)
        by_name = {t["name"]: t for t in by_id.values()}
        folder = {name: t["paths"]["source"].split("/")[0] for name, t in by_name.items()}
        tests = [n for n, f in folder.items() if f == "tests"]
        if not tests:
            sys.exit("the model holds no target under tests/: it cannot show the fault")
        missing = [t for t in targets if t not in by_name]
        if missing:
            sys.exit(f"make run asks for targets the build does not define: {missing}")
        reached, stack = set(), list(targets)
        while stack:
            name = stack.pop()
            if name in reached:
                continue
            reached.add(name)
            stack += [by_id[d["id"]]["name"] for d in by_name[name].get("dependencies", [])]
        wrong = sorted(n for n in reached if folder[n] in NOT_SERVED)
        print(f"{len(reached)} targets reached of {len(by_name)} ({len(tests)} under tests/)")
        if wrong:
            sys.exit("make run builds targets it does not serve: "
                     + ", ".join(f"{n} ({folder[n]}/)" for n in wrong))
        if "eight-server" not in reached:
            sys.exit("make run does not build eight-server")


if __name__ == "__main__":
    main()
