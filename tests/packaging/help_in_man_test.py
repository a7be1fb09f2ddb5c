#!/usr/bin/env python3
"""Every option a program's --help names appears in its man page.

  help_in_man_test.py MAN_PAGE -- PROGRAM ARGS... [-- PROGRAM ARGS...]

Runs each help command (exit 0 expected), takes every option it prints
(--word, and -x short options at a word boundary), renders the man page to
plain text with groff and checks that each option is there as a whole word.
Generic on purpose: an option added to a program's --help and not to its
man page fails here, whoever adds it.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def options_in(text):
    return set(OPTION.findall(text))


def main():
    args = sys.argv[1:]
    page = args[0]
    commands, current = [], None
    for a in args[1:]:
        if a == "--":
            current = []
            commands.append(current)
        else:
            current.append(a)
    rendered = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou", page], check=True,
                              capture_output=True, text=True).stdout
    # groff hyphenates at line ends and may break "--name" there: undo it.
    rendered = re.sub(r"-\n\s*", "-", rendered)
    in_page = options_in(rendered)
    missing = []
    total = 0
    for cmd in commands:
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: {' '.join(cmd)} exited {run.returncode}: {run.stderr.strip()}")
            return 1
        wanted = options_in(run.stdout)
        if not wanted:
            print(f"FAIL: {' '.join(cmd)} printed no options: {run.stdout[:200]!r}")
            return 1
        total += len(wanted)
        for opt in sorted(wanted):
            if opt not in in_page:
                missing.append((" ".join(cmd), opt))
    for cmd, opt in missing:
        print(f"FAIL: {opt} is in `{cmd}` but not in {page}")
    if missing:
        return 1
    print(f"ok: the {total} options of {len(commands)} help texts are all in {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
