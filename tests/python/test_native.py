"""The module as a Python user expects it (issue 40): Tables closes (close(),
``with``), ``eight.__version__`` is the project's, help() shows every
argument, the reprs read, an answer's fields are the JSON's by name (None
for JSON's null), Move.hint means what its docstring says, and the type
hints check with mypy.

EIGHT_BIN (the tool) and EIGHT_TABLE (a table file) come from CTest
(python/CMakeLists.txt); PYTHONPATH finds the module built in the tree.
"""
import inspect
import json
import os
import pathlib
import pydoc
import subprocess
import sys
import threading

import pytest

import eight

EIGHT = os.environ["EIGHT_BIN"]
TABLE = os.environ["EIGHT_TABLE"]
HERE = pathlib.Path(__file__).resolve().parent

# Every question a Tables answers, as (method name, arguments).
QUESTIONS = [
    ("solve", ("867254301",)),
    ("distance", ("867254301",)),
    ("distances", ([[8, 6, 7, 2, 5, 4, 3, 0, 1]],)),
    ("hints", ("867254301",)),
    ("random_board", (20,)),
    ("histogram", ()),
    ("boards_at", (31,)),
    ("check", ("123456708", "r")),
]
FUNCTIONS = [name for name, _ in QUESTIONS]


def test_a_closed_tables_refuses_every_question_with_an_eighterror():
    with eight.Tables.open(TABLE) as tables:
        assert not tables.closed
        for name, args in QUESTIONS:
            getattr(tables, name)(*args)  # each answers while open
    assert tables.closed
    for name, args in QUESTIONS:
        with pytest.raises(eight.EightError, match="these tables are closed"):
            getattr(tables, name)(*args)
    tables.close()  # again: allowed
    with pytest.raises(eight.EightError, match="closed"):
        with tables:
            pass
    built = eight.Tables.build()
    built.close()
    with pytest.raises(eight.EightError, match="closed"):
        built.solve("867254301")


def test_a_with_block_closes_its_tables_when_it_raises():
    with pytest.raises(eight.EightError, match="expected 9 cells"):
        with eight.Tables.open(TABLE) as tables:
            tables.solve("12345678")
    assert tables.closed


def test_closing_tables_while_another_thread_searches_them_lets_the_search_finish():
    # A 4x4 search takes a while (the GIL released); close() from here
    # leaves it its tables until it returns, never a crash.
    tables = eight.Tables.open(TABLE)
    board = "15 10 8 12 11 14 9 13 2 6 5 1 3 7 4 0"
    goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    results = []
    started = threading.Event()

    def search():
        started.set()
        try:
            results.append(tables.solve(board, goal, budget=2_000_000))
        except eight.EightError as e:  # the budget spent: a refusal, as the tool's
            results.append(e)

    worker = threading.Thread(target=search)
    worker.start()
    started.wait()
    tables.close()
    worker.join(timeout=600)  # a hang guard, far above its time
    assert not worker.is_alive()
    assert len(results) == 1
    assert isinstance(results[0], (eight.Answer, eight.EightError))
    with pytest.raises(eight.EightError, match="closed"):
        tables.distance(board, goal)


def test_version_is_the_projects_as_the_tool_prints_it():
    done = subprocess.run([EIGHT, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout == f"eight {eight.__version__}\n"
    assert eight.__version__[0].isdigit()


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_function_names_its_keyword_arguments_and_help_explains_them(name):
    function = getattr(eight, name)
    method = getattr(eight.Tables, name)
    params = inspect.signature(function).parameters
    assert not any(p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in params.values())
    # The same arguments, names, defaults and kinds as the Tables method's.
    assert list(params.values()) == list(inspect.signature(method).parameters.values())[1:]
    text = pydoc.render_doc(function, renderer=pydoc.plaintext)
    for p in params:
        assert f"{p}: " in text.split("Arguments:")[1], (name, p)
    assert "**kwargs" not in text
    assert method.__doc__ in function.__doc__


def test_reprs_read_as_values_not_json():
    tables = eight.Tables.open(TABLE)
    answer = tables.solve("867254301")
    assert repr(answer) == (
        "Answer(board='867254301', goal='123456780', solvable=True, distance=31, "
        "optimal=True, lower_bound=31, method='table', path='ruulddruuldldrrullurrdlldruurdd')")
    hints = tables.hints("123456708")
    assert repr(hints) == (
        "Hints(distance=1, optimal=True, moves=(Move(letter='r', tile=8, board='123456780', "
        "distance=0, optimal=True, hint=False), Move(letter='u', tile=5, board='123406758', "
        "distance=2, optimal=False, hint=False), Move(letter='l', tile=7, board='123456078', "
        "distance=2, optimal=False, hint=False)))")
    assert repr(tables) == f"<eight.Tables {TABLE!r}>"
    tables.close()
    assert repr(tables) == f"<eight.Tables {TABLE!r}, closed>"
    assert repr(eight.Tables.build()) == "<eight.Tables built in memory>"


def as_tuples(value):
    """JSON's lists as the tuples an Answer holds."""
    return tuple(as_tuples(v) for v in value) if isinstance(value, list) else value


@pytest.mark.parametrize("board, options", [
    ("867254301", {}),
    ("123456870", {}),  # unsolvable: JSON's nulls are None
    ("123456708", {"boards": True}),
    ("123/405", {}),
    ("283164705", {"goal": "123804765"}),
    ("1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24", {}),
])
def test_an_answers_fields_are_the_jsons_by_name(board, options):
    answer = eight.Tables.open(TABLE).solve(board, **options)
    fields = json.loads(answer.json)
    for key, value in fields.items():
        assert getattr(answer, key) == as_tuples(value), key
    if not answer.solvable:
        assert answer.distance is None and answer.lower_bound is None
    if "boards" not in fields:
        assert answer.boards is None
    # A hint answer's too, its moves Move objects (test_hint_... below).
    hints = eight.Tables.open(TABLE).hints(board, options.get("goal"))
    fields = json.loads(hints.json)
    for key, value in fields.items():
        if key not in ("moves", "hints"):
            assert getattr(hints, key) == as_tuples(value), key
    assert [m.board for m in hints.moves] == [m["board"] for m in fields["moves"]]


def test_unsolvable_boards_have_no_distance_in_every_question():
    tables = eight.Tables.open(TABLE)
    assert tables.distance("123456870") is None
    assert tables.hints("123456870").distance is None
    assert all(m.distance is None for m in tables.hints("123456870").moves)
    assert tables.distances([[1, 2, 3, 4, 5, 6, 8, 7, 0]])[0] == -1  # an int32 array's "none"


def test_hint_is_the_move_to_follow_only_where_no_move_is_proven_and_hints_lists_them():
    tables = eight.Tables.open(TABLE)
    exact = tables.hints("867254301")
    assert exact.optimal
    assert not any(m.hint for m in exact.moves)
    assert exact.hints == tuple(m for m in exact.moves if m.optimal) and exact.hints
    big = tables.random_board(shape=(6, 6), seed=1)
    found = tables.hints(big)
    assert not found.optimal
    assert not any(m.optimal for m in found.moves)
    assert [m for m in found.moves if m.hint] == list(found.hints) and len(found.hints) == 1
    for h in (exact, found):  # GET /hint's hints, in the same order
        assert [m.letter for m in h.hints] == [m["letter"] for m in json.loads(h.json)["hints"]]


def test_the_type_hints_check_with_mypy():
    # python3-mypy (the Makefile's TEST_PACKAGES): the package and a typed
    # use of it check with --strict, and a wrong use is caught (the
    # "type: ignore" there is an error if nothing needs ignoring). Run from
    # the folder holding the package (the build's, or an install's
    # site-packages, which mypy refuses in MYPYPATH).
    module = pathlib.Path(eight.__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
         "--warn-unused-ignores", "eight", str(HERE / "typed_use.py")],
        capture_output=True, text=True, timeout=600, cwd=module)
    assert done.returncode == 0, done.stdout + done.stderr
