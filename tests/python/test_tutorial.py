"""docs/python.md runs as written: every ```python block, in order, in one
namespace, and the plain ``` block right after one is exactly what it
prints."""
import contextlib
import io
import os
import re

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def blocks(text):
    """(code, expected output or None) for each python block."""
    fences = list(re.finditer(r"^```(\w*)\n(.*?)^```\n", text, re.S | re.M))
    out = []
    for i, f in enumerate(fences):
        if f.group(1) != "python":
            continue
        expected = None
        if i + 1 < len(fences) and fences[i + 1].group(1) == "" and \
                text[f.end():fences[i + 1].start()].strip() == "":
            expected = fences[i + 1].group(2)
        out.append((f.group(2), expected))
    return out


def test_the_tutorial_runs_and_prints_what_it_shows():
    with open(DOC, encoding="utf-8") as f:
        found = blocks(f.read())
    assert len(found) >= 7, "the tutorial's code blocks were not found"
    namespace = {"__name__": "tutorial"}
    for code, expected in found:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, DOC, "exec"), namespace)  # noqa: S102: the document's own code
        if expected is not None:
            assert printed.getvalue() == expected, code
