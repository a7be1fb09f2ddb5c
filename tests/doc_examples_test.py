#!/usr/bin/env python3
"""Every `$ eight ...` example in docs/*.md and README.md prints what the
document shows under it (standard output and error, in order), run against
the build's default table.

    tests/doc_examples_test.py SOURCE_DIR BIN_DIR TABLE

An example is a line "$ COMMAND" in a ```sh block, its expected output the
lines after it up to the next "$ " line or the block's end. Run: commands
that are `eight ...` or `printf ... | eight ...`. Left out, and counted:
those that need a running server (--server, fetch), write a file (--svg), or
draw unseeded random boards (random without --seed). Exit 1 when an example
differs or when fewer than MIN_EXAMPLES ran (a parse that finds nothing
checks nothing).
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

MIN_EXAMPLES = 12


def examples(text):
    for block in re.findall(r"```(?:sh|console|shell)\n(.*?)```", text, re.S):
        lines = block.split("\n")
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = lines[i][2:]
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ "):
                j += 1
            expected = lines[i + 1:j]
            while expected and expected[-1] == "":
                expected.pop()
            yield command, expected
            i = j


def runnable(command):
    if not re.match(r"(printf [^|]*\| )?eight ", command):
        return False
    if "--server" in command or re.search(r"\beight fetch\b", command) or "--svg" in command:
        return False
    if re.search(r"\beight random\b", command) and "--seed" not in command:
        return False
    return True


def main():
    source, bin_dir, table = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    env = {k: v for k, v in os.environ.items() if not k.startswith("EIGHT_")}
    env.update(PATH=f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}", EIGHT_TABLE=str(table))
    ran = left_out = failed = 0
    docs = sorted((source / "docs").glob("*.md")) + [source / "README.md"]
    with tempfile.TemporaryDirectory() as cwd:
        for doc in docs:
            for command, expected in examples(doc.read_text()):
                if not runnable(command):
                    left_out += 1
                    continue
                ran += 1
                r = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                                   env=env, cwd=cwd, timeout=120)
                got = (r.stdout + r.stderr).rstrip("\n")
                got_lines = got.split("\n") if got else []
                if got_lines != expected:
                    failed += 1
                    print(f"{doc.relative_to(source)}: $ {command}\n  the document shows:")
                    print("\n".join("    " + line for line in expected))
                    print("  the program prints:")
                    print("\n".join("    " + line for line in got_lines))
    print(f"{ran} examples run, {failed} differ, {left_out} left out")
    if ran < MIN_EXAMPLES:
        print(f"fewer than {MIN_EXAMPLES} examples ran: the documents' examples were not found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
