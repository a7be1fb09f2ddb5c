#!/usr/bin/env python3
"""One question, one answer, everywhere (issue 40).

The same 200 questions (every shape class: the table shapes, 4x4, the
pattern shapes of 14 to 16 cells, the grid shapes up to 10x10, a shape no
table serves; boards that cannot reach their goal; bad boards; goals given,
bad, of another shape; shape= named), 41 of them again with the fast
option (issue 39: fast=1, --fast, eight_options_set_fast, fast=True,
{fast: true}), and then, on the boards whose fast answer differs, questions
with a known path (issue 39's continuation: path=, --path,
eight_options_set_path, known_path=, {knownPath}) are asked of

  - the HTTP API: GET /solve of a real eight-server on a free loopback port,
  - the tool: eight solve --format json,
  - the C API: eight_answer_json(), through the Python module, which is
    over the C API,
  - Python: eight.Tables.solve()'s Answer fields,
  - JavaScript (with --js PACKAGE, the Emscripten build's package):
    Eight.solve()'s fields and solveJson(),

and every interface must give the same answer, field for field (the JSON
byte for byte; Python's and JavaScript's fields those of the JSON, named by
their language), or the same error: the core's message (the tool and the
C API say "bad goal: " before a goal text's error, as HTTP names the
parameter "goal"). A far 5x5 board's fast answer must differ from its
default answer (the beam without the 5x5 pattern databases), in every
interface alike; asked fast with the default answer's path known, every
interface must answer with that path (it is the shorter), and asked
without fast with the fast answer's path known, with its own; a known path
that stops a move short, or holds a letter that is no move, is refused
with the same message everywhere.

    interfaces_agree_test.py BIN_DIR TABLE [--js PACKAGE_DIR]

PYTHONPATH must reach the Python module (build/python).
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import eight

FIELDS = ("board", "goal", "solvable", "distance", "optimal", "lower_bound", "method", "path")


# ---------------------------------------------------------------- boards


def text(cells, rows, cols):
    """A board's canonical text (docs/api.md): digits for 3x3, rows otherwise."""
    if (rows, cols) == (3, 3):
        return "".join(map(str, cells))
    sep = "," if rows * cols > 10 else ""
    return "/".join(sep.join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(rows))


def goal_cells(rows, cols):
    return list(range(1, rows * cols)) + [0]


def walk(rows, cols, steps, rng, start=None):
    """A board `steps` random blank moves from `start` (the standard goal):
    solvable, and near it, so every search finishes at once."""
    cells = list(start or goal_cells(rows, cols))
    blank = cells.index(0)
    previous = None
    for _ in range(steps):
        r, c = divmod(blank, cols)
        options = [n for n, ok in ((blank - cols, r > 0), (blank + cols, r < rows - 1),
                                   (blank - 1, c > 0), (blank + 1, c < cols - 1))
                   if ok and n != previous]
        n = rng.choice(options)
        cells[blank], cells[n] = cells[n], cells[blank]
        previous, blank = blank, n
    return cells


def swapped(cells):
    """The other class: two tiles (not the blank) exchanged."""
    cells = list(cells)
    i, j = [k for k, t in enumerate(cells) if t != 0][:2]
    cells[i], cells[j] = cells[j], cells[i]
    return cells


def shuffled(rows, cols, rng):
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    return cells


def questions():
    """The 200 questions: (board, goal or None, shape "RxC" or None)."""
    rng = random.Random(40)
    q = []
    # The table shapes: random boards (half cannot reach the goal).
    for _ in range(30):
        q.append((text(shuffled(3, 3, rng), 3, 3), None, None))
    for rows, cols in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2)]:
        for _ in range(5):
            q.append((text(shuffled(rows, cols, rng), rows, cols), None, None))
    # Goals of their own: another blank cell, a board and goal in one shape.
    for goal in ["123804765", "012345678", "123456708", "876543210"]:
        for _ in range(3):
            q.append((text(shuffled(3, 3, rng), 3, 3), goal, None))
    q.append(("123/405", "123/450", None))
    q.append(("1234/5670", "1234/5607", None))
    # shape= naming how a flat text is read.
    q.append(("123405", None, "2x3"))
    q.append(("123405", None, "3x2"))
    q.append(("12345670", None, "2x4"))
    q.append(("12345670", None, "4x2"))
    q.append(("123405", "123450", "2x3"))
    # 4x4: near the goal (pattern search), and the other class.
    for steps in (5, 10, 15, 20, 25, 30):
        q.append((text(walk(4, 4, steps, rng), 4, 4), None, None))
    q.append((text(swapped(walk(4, 4, 12, rng)), 4, 4), None, None))
    q.append((text(swapped(goal_cells(4, 4)), 4, 4), None, None))
    goal44 = text(list(range(16)), 4, 4)
    q.append((text(walk(4, 4, 14, rng, list(range(16))), 4, 4), goal44, None))
    # The pattern shapes of 14 to 16 cells, near the goal.
    for rows, cols in [(2, 7), (7, 2), (3, 5), (5, 3), (2, 8), (8, 2)]:
        q.append((text(walk(rows, cols, 12, rng), rows, cols), None, None))
    q.append((text(swapped(walk(3, 5, 8, rng)), 3, 5), None, None))
    # The grid shapes to 10x10: near the goal (proven optimal), far (a
    # bounded answer: beam search to 25 cells, reduction beyond), and the
    # other class.
    for rows, cols in [(5, 5), (4, 5), (5, 4), (3, 7), (6, 6), (7, 7), (8, 8), (9, 9),
                       (10, 10), (6, 9)]:
        q.append((text(walk(rows, cols, 10, rng), rows, cols), None, None))
        q.append((text(walk(rows, cols, 400, rng), rows, cols), None, None))
        q.append((text(swapped(walk(rows, cols, 6, rng)), rows, cols), None, None))
    goal55 = text(walk(5, 5, 3, rng), 5, 5)
    q.append((text(walk(5, 5, 8, rng, [int(t) for t in re.split("[,/]", goal55)]), 5, 5), goal55,
              None))
    # A shape no table of the default set serves (3x4, 12 cells).
    q.append((text(walk(3, 4, 6, rng), 3, 4), None, None))
    q.append((text(walk(4, 3, 6, rng), 4, 3), None, None))
    q.append(("123450789ab0", None, None))
    # Bad boards.
    for bad in ["12345678", "1234567890", "113456780", "123456789", "12345678a", "1 2 3 4",
                "120456783", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,0", "12/345", "0",
                "1234567", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,15",
                "1,2,3/4,5,6/7,8", "99,1,2,3,4,5,6,7,0", "123/456/780/"]:
        q.append((bad, None, None))
    # Bad goals, and goals of another shape than the board's.
    for board, goal in [("867254301", "12345678"), ("867254301", "123456789"),
                        ("867254301", "113456780"), ("867254301", "123/450"),
                        ("123/450", "123456780"), ("867254301", goal44),
                        (goal44, "123456780"), ("867254301", "1234/5670")]:
        q.append((board, goal, None))
    # shape= that the board's text does not fit, or a goal read in it.
    q.append(("867254301", None, "2x3"))
    q.append(("123405", "123456780", "2x3"))
    q.append(("12345670", None, None))  # 8 cells: 2x4 or 4x2, none named
    q.append(("1,2,3,4,5,6,7,8,9,10,11,0", None, None))  # 12 cells: 3x4, 4x3, 2x6, 6x2
    q.append(("1,2,3,4,5,6,7,8,9,10,11,0", None, "2x6"))
    q.append(("1,2,3,4,5,6,7,8,9,10,11,0", None, "6x2"))
    # Fill to 200 with more table-shape boards and goals.
    while len(q) < 200:
        rows, cols = rng.choice([(3, 3), (2, 3), (2, 4), (2, 5), (3, 2)])
        goal = text(shuffled(rows, cols, rng), rows, cols) if rng.random() < 0.5 else None
        q.append((text(shuffled(rows, cols, rng), rows, cols), goal, None))
    assert len(q) == 200, len(q)
    return q


def cells(board):
    """The cells of a board text written with separators (1 for digits alone)."""
    return len(re.split("[,/ ]", board))


def fast_questions(qs):
    """The questions asked again with the fast option: every one of the grid
    shapes past 16 cells (where it changes answers), and some of the others
    (where it must change nothing), as (board, goal, shape, True)."""
    grid = [q for q in qs if cells(q[0]) > 16]
    others = [q for q in qs if q not in grid][::20]
    return [q + (True,) for q in grid + others]


def shape_tuple(shape):
    return None if shape is None else tuple(int(n) for n in shape.split("x"))


# ------------------------------------------------------------ interfaces
#
# Each gives, per question, ("answer", json_text_or_None, fields) or
# ("error", message, goal_at_fault): goal_at_fault is True, False, or None
# where the interface does not say.

BAD_GOAL = "bad goal: "


# The tool names a line's goal at fault "goal: " (a goal no table answers).
LINE_GOAL = "goal: "


def error_of(message, prefixes=(BAD_GOAL,)):
    message = message.strip()
    for prefix in prefixes:
        if message.startswith(prefix):
            return ("error", message[len(prefix):], True)
    return ("error", message, None)


def answer_of_json(line, prefixes=(BAD_GOAL,)):
    j = json.loads(line)
    if "error" in j and "input" in j:  # a refused line of eight solve --format json
        return error_of(j["error"], prefixes)
    return ("answer", line, {f: j[f] for f in FIELDS})


class Server:
    def __init__(self, bin_dir, table):
        self.err = tempfile.TemporaryFile()
        # In a session of its own, as a deployed server is (the browser
        # test's support.mjs says why: in ctest's session its nice-19
        # compute threads would starve beside the other tests), stopped if
        # this script dies first (setpriv --pdeathsig). Both exec: the
        # child is the server.
        self.proc = subprocess.Popen(
            ["setsid", "setpriv", "--pdeathsig", "TERM", "--",
             os.path.join(bin_dir, "eight-server"), "--table", table, "--host", "127.0.0.1",
             "--port", "0", "--job-deadline", "600"],
            stdout=subprocess.DEVNULL, stderr=self.err)
        self.port = None
        for _ in range(600):  # a hang guard: it listens in well under a second
            self.err.seek(0)
            m = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", self.err.read())
            if m:
                self.port = int(m.group(1))
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        if self.port is None:
            self.err.seek(0)
            self.stop()
            sys.exit("eight-server did not start: " + self.err.read().decode(errors="replace"))

    def ask(self, board, goal, shape, fast=False, known=None):
        params = {"board": board}
        if goal is not None:
            params["goal"] = goal
        if shape is not None:
            params["shape"] = shape
        if fast:
            params["fast"] = "1"
        if known is not None:
            params["path"] = known
        url = f"http://127.0.0.1:{self.port}/solve?" + urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(url, timeout=600) as r:
                return answer_of_json(r.read().decode())
        except urllib.error.HTTPError as e:
            problem = json.loads(e.read().decode())
            return ("error", problem["detail"], problem.get("parameter") == "goal")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def ask_tool(bin_dir, table, board, goal, shape, fast=False, known=None):
    args = [os.path.join(bin_dir, "eight"), "solve", "--table", table, "--format", "json"]
    if goal is not None:
        args += ["--goal", goal]
    if shape is not None:
        args += ["--shape", shape]
    if fast:
        args += ["--fast"]
    if known is not None:
        args += ["--path", known]
    r = subprocess.run(args + [board], capture_output=True, text=True, timeout=600)
    if r.stdout.strip():
        return answer_of_json(r.stdout.strip(), (BAD_GOAL, LINE_GOAL))
    first = r.stderr.splitlines()[0] if r.stderr else f"exit status {r.returncode}, no message"
    first = re.sub(r"^eight: (argument \d+: )?", "", first)
    return error_of(first, (BAD_GOAL, LINE_GOAL))


def ask_c_and_python(tables, board, goal, shape, fast=False, known=None):
    """The C API's JSON (eight_answer_json) and Python's fields, one call."""
    try:
        a = tables.solve(board, goal, shape=shape_tuple(shape), fast=fast, known_path=known)
    except eight.EightError as e:
        err = error_of(str(e))
        return err, err
    fields = {f: getattr(a, f) for f in FIELDS}
    return answer_of_json(a.json), ("answer", None, fields)


JS_DRIVER = r"""
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
const [pkg, table] = process.argv.slice(2);
const { Eight, EightError } = await import(pathToFileURL(resolve(pkg, "index.js")).href);
const e = await Eight.open(readFileSync(table), { name: table });
const out = [];
for (const [board, goal, shape, fast, known] of JSON.parse(readFileSync(0, "utf8"))) {
  const options = {};
  if (goal !== null) options.goal = goal;
  if (shape !== null) options.shape = shape.split("x").map(Number);
  if (fast) options.fast = true;
  if (known !== null) options.knownPath = known;
  try {
    out.push({ answer: e.solve(board, options), json: e.solveJson(board, options) });
  } catch (x) {
    if (!(x instanceof EightError)) throw x;
    out.push({ error: x.message });
  }
}
process.stdout.write(JSON.stringify(out));
"""

# JavaScript's names for the answer's fields (camelCase, docs/javascript.md).
JS_NAMES = {"lower_bound": "lowerBound"}


def ask_js(package, table, qs):
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", delete=False) as f:
        f.write(JS_DRIVER)
        driver = f.name
    try:
        node = os.environ.get("EIGHT_NODE", "node")
        r = subprocess.run([node, driver, package, table], input=json.dumps(qs),
                           capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(driver)
    if r.returncode != 0:
        sys.exit("the JavaScript driver failed: " + r.stderr)
    got = []
    for item in json.loads(r.stdout):
        if "error" in item:
            got.append(error_of(item["error"]))
        else:
            a = item["answer"]
            fields = {f: a[JS_NAMES.get(f, f)] for f in FIELDS}
            json_answer = answer_of_json(item["json"])
            got.append(("answer", item["json"], fields) if json_answer[2] == fields
                       else ("answer", item["json"], {"fields": fields, "json": json_answer[2]}))
    return got


# ---------------------------------------------------------------- compare


def agree(reference, other):
    """Whether `other` gives what `reference` (HTTP) does."""
    if reference[0] != other[0]:
        return False
    if reference[0] == "answer":
        if reference[1] is not None and other[1] is not None and reference[1] != other[1]:
            return False
        return reference[2] == other[2]
    # An error: the same message; a goal at fault named so where both say.
    if reference[1] != other[1]:
        return False
    return other[2] is None or reference[2] == other[2]


def known_questions(qs, http):
    """The questions with a known path, as (board, goal, shape, fast, known),
    each with the path its answer must have (None: refused): on each board
    whose fast answer differs from its default one and is longer, the fast
    question with the default answer's path known (the answer is that path)
    and the default question with the fast answer's (the answer is its own);
    on the first of them, two bad known paths (a move short of the goal; a
    letter that is no move)."""
    out = []
    for i, (board, goal, shape, fast, _) in enumerate(qs):
        if not fast:
            continue
        slow, quick = http[qs.index((board, goal, shape, False, None))], http[i]
        if (quick[0] != "answer" or slow[0] != "answer" or
                len(quick[2]["path"]) <= len(slow[2]["path"])):
            continue
        out.append(((board, goal, shape, True, slow[2]["path"]), slow[2]["path"]))
        out.append(((board, goal, shape, False, quick[2]["path"]), slow[2]["path"]))
    if out:
        (board, goal, shape, _, path), _ = out[0]
        out += [((board, goal, shape, False, path[:-1]), None),
                ((board, goal, shape, False, "x" + path), None)]
    return [q for q, _ in out], [e for _, e in out]


def ask_everywhere(qs, server, bin_dir, table, tables, js_package, results):
    """Asks `qs` of every interface, each result appended to its list."""
    for board, goal, shape, fast, known in qs:
        results["HTTP"].append(server.ask(board, goal, shape, fast, known))
        results["CLI"].append(ask_tool(bin_dir, table, board, goal, shape, fast, known))
        c, py = ask_c_and_python(tables, board, goal, shape, fast, known)
        results["C"].append(c)
        results["Python"].append(py)
    if js_package:
        results.setdefault("JavaScript", []).extend(ask_js(js_package, table, qs))


def main():
    args = sys.argv[1:]
    js_package = None
    if "--js" in args:
        i = args.index("--js")
        js_package = args[i + 1]
        del args[i:i + 2]
    bin_dir, table = args
    default = [q + (False, None) for q in questions()]
    qs = default + [q + (None,) for q in fast_questions(questions())]
    server = Server(bin_dir, table)
    tables = eight.Tables.open(table)
    results = {name: [] for name in ("HTTP", "CLI", "C", "Python")}
    try:
        ask_everywhere(qs, server, bin_dir, table, tables, js_package, results)
        # Then the questions with a known path, made from the answers above.
        known, expected = known_questions(qs, results["HTTP"])
        ask_everywhere(known, server, bin_dir, table, tables, js_package, results)
    finally:
        server.stop()
    asked = len(qs)
    qs = qs + known

    failures = []
    for i, question in enumerate(qs):
        reference = results["HTTP"][i]
        for name, got in results.items():
            if not agree(reference, got[i]):
                failures.append(
                    f"question {i} {question}:\n  HTTP: {reference}\n  {name}: {got[i]}")
    kinds = [r[0] for r in results["HTTP"]]
    answers = [r for r in results["HTTP"] if r[0] == "answer"]
    unsolvable = sum(1 for r in answers if not r[2]["solvable"])
    methods = sorted({r[2]["method"] for r in answers})
    print(f"{len(qs)} questions ({len(known)} with a known path) over {', '.join(results)}: "
          f"{kinds.count('answer')} answers "
          f"({unsolvable} unsolvable; methods {', '.join(methods)}), {kinds.count('error')} errors")
    # The test's own reach: every class of question was asked.
    reach = [unsolvable >= 20, kinds.count("error") >= 25,
             {"table", "pattern-search", "manhattan-search", "beam-search", "reduction"} <=
             set(methods)]
    if not all(reach):
        failures.append(f"the questions no longer reach every class: {reach}")
    # The fast option changes the far 5x5 boards' answers (the beam without
    # the 5x5 pattern databases), those past 25 cells (the reduction's path
    # alone, without the beam over its last region), and may change other
    # bounded answers of 17 to 24 cells (its beam 4,000 wide, the default's
    # 16,000), and no answer of a table shape: a bounded answer only, its
    # bound no larger (past 25 cells no shorter: the default keeps the
    # region's beam only when shorter).
    changed = []
    for i, (board, goal, shape, fast, _) in enumerate(qs[:asked]):
        if not fast:
            continue
        slow = results["HTTP"][qs.index((board, goal, shape, False, None))]
        quick = results["HTTP"][i]
        if quick[0] != "answer" or slow[0] != "answer" or slow[2] == quick[2]:
            continue
        changed.append(board)
        a, b = slow[2], quick[2]
        expected_method = "beam-search" if cells(board) <= 25 else "reduction"
        if (b["optimal"] or a["optimal"] or b["method"] != expected_method or
                b["lower_bound"] > a["lower_bound"] or
                (cells(board) > 25 and b["distance"] < a["distance"])):
            failures.append(f"fast changed {board!r} from {a} to {b}: only a bounded answer "
                            f"may change, to the {expected_method}'s, its bound no larger")
    far55 = [b for b in changed if cells(b) == 25]
    big = [b for b in changed if cells(b) > 25]
    beamed = [b for b in changed if 17 <= cells(b) < 25]
    if not far55 or not big or len(changed) != len(far55) + len(big) + len(beamed):
        failures.append(f"fast changed the answers of {changed}: expected the far 5x5 boards, "
                        "those past 25 cells and bounded ones of 17 to 24 cells")
    # A known path no longer than the answer's own is the answer; a longer
    # one is not; a bad one is refused (naming the known path).
    for i, ((board, _, _, fast, path), want) in enumerate(zip(known, expected), start=asked):
        got = results["HTTP"][i]
        if want is None:
            if got[0] != "error" or "known path" not in got[1]:
                failures.append(f"a bad known path {path[:20]}... on {board!r} was not refused: "
                                f"{got}")
        elif got[0] != "answer" or got[2]["path"] != want or got[2]["distance"] != len(want):
            failures.append(f"known path {path[:20]}... on {board!r} (fast {fast}): expected the "
                            f"path {want[:20]}..., got {got}")
    if len(known) < 6:
        failures.append(f"only {len(known)} questions with a known path: expected the far "
                        "boards'")
    # The unsolvable answer, as docs/answers.md defines it once.
    for r in answers:
        f = r[2]
        if not f["solvable"] and (f["distance"] is not None or f["lower_bound"] is not None or
                                  f["optimal"] is not True or f["path"] != ""):
            failures.append(f"an unsolvable answer not as docs/answers.md defines it: {f}")
    if failures:
        print(f"{len(failures)} disagreements:", *failures[:30], sep="\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
