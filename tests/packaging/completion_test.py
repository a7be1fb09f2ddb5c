#!/usr/bin/env python3
"""The bash completion for eight offers what `eight --help` documents.

  completion_test.py COMPLETION_FILE EIGHT_BINARY

From the usage lines of `eight --help` ("eight CMD [--opt ...]", continued
on indented lines) and `eight probe --help`, it takes each command and its
options, and the values of --format a|b|c; then, in bash with the
completion file sourced, checks that completing `eight ` offers every
command, `eight CMD --` every option of CMD, and `eight CMD --format ` every
format CMD's usage names; and the same after `eight --server URL` for the
commands that ask a server. A command or option added to --help but not to
the completion fails here.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def usage_commands(text):
    """{command: usage text} from lines '  eight CMD ...' and their continuations."""
    out, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^\s*(?:usage:\s*)?eight (\w+)\b(.*)$", line)
        if m:
            current = m.group(1)
            out[current] = out.get(current, "") + m.group(2)
        elif current and re.match(r"^\s+\[", line):
            out[current] += line
        else:
            current = None
    return out


def complete(completion, words):
    """COMPREPLY for the command line `words` (the last is being completed)."""
    quoted = " ".join("'" + w + "'" for w in words)
    script = (f'source "{completion}"\n'
              f'COMP_WORDS=({quoted})\n'
              f'COMP_CWORD={len(words) - 1}\n'
              '_eight\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
    run = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                         text=True, check=True)
    return set(run.stdout.split())


def main():
    completion, eight = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([eight, "--help"], capture_output=True, text=True, check=True).stdout
    commands = usage_commands(help_text)
    probe = subprocess.run([eight, "probe", "--help"], capture_output=True, text=True,
                           check=True).stdout
    commands.update(usage_commands(probe))
    if len(commands) < 6:
        print(f"FAIL: only {sorted(commands)} found in eight --help")
        return 1
    failures = []
    offered = complete(completion, ["eight", ""])
    for cmd in commands:
        if cmd not in offered:
            failures.append(f"`eight <TAB>` does not offer {cmd} (offers {sorted(offered)})")
    checked = 0
    for cmd, usage in commands.items():
        offered = complete(completion, ["eight", cmd, "--"])
        for opt in sorted(set(OPTION.findall(usage))):
            checked += 1
            if opt not in offered:
                failures.append(f"`eight {cmd} --<TAB>` does not offer {opt}")
        m = re.search(r"--format ([a-z|]+)", usage)
        if m:
            values = complete(completion, ["eight", cmd, "--format", ""])
            for v in m.group(1).split("|"):
                checked += 1
                if v not in values:
                    failures.append(f"`eight {cmd} --format <TAB>` does not offer {v}")
    # After the client's options (eight --server URL [--timeout-ms N]), the
    # commands that ask a server are offered, and then their options.
    for before in (["--server", "http://127.0.0.1:8080"],
                   ["--server", "http://127.0.0.1:8080", "--timeout-ms", "500"],
                   ["--server=http://127.0.0.1:8080"]):
        offered = complete(completion, ["eight", *before, ""])
        for cmd in ("solve", "hint", "random"):
            checked += 1
            if cmd not in offered:
                failures.append(f"`eight {' '.join(before)} <TAB>` does not offer {cmd}"
                                f" (offers {sorted(offered)})")
        for cmd in ("solve", "hint", "random"):
            offered = complete(completion, ["eight", *before, cmd, "--"])
            wanted = set(OPTION.findall(commands[cmd])) - {"--table", "--tables", "--server"}
            for opt in sorted(wanted):
                checked += 1
                if opt not in offered:
                    failures.append(f"`eight {' '.join(before)} {cmd} --<TAB>` does not offer {opt}")
        values = complete(completion, ["eight", *before, "solve", "--format", ""])
        checked += 1
        if "json" not in values:
            failures.append(f"`eight {' '.join(before)} solve --format <TAB>` does not offer json")
    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print(f"ok: {len(commands)} commands and {checked} options and values are completed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
