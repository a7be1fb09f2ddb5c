"""A fuzzer of the Python module's inputs (issue 41): every public function
given text with NULs and lone surrogates, bytes, huge and negative numbers,
NaN and infinities, odd shapes, odd types, and now and then a real board of
any shape. Each call must answer, or raise EightError (a value eight
refuses) or TypeError (a value of the wrong type): no other exception, no
crash (the process would die: the test with it).

Hypothesis (Debian's python3-hypothesis) draws the inputs, derandomized, so
a run is repeatable; EIGHT_PY_FUZZ_EXAMPLES (default 150) is how many
calls each function gets: CTest runs the default, .ci/run's fuzz step more.
Searches are asked with a budget of at most 50,000 nodes, so a call takes
milliseconds: the count bounds the time.
"""
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eight

EXAMPLES = int(os.environ.get("EIGHT_PY_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
REFUSED = (eight.EightError, TypeError)

# Numbers a C int, a uint64 or a byte does not hold, and floats that are
# not whole.
EDGES = [0, 1, -1, 2, 10, 11, 16, 99, 100, 255, 256, 2**31 - 1, 2**31, -2**31, -2**31 - 1,
         2**63, 2**64 - 1, 2**64, 10**30, -10**30]
NUMBERS = st.one_of(
    st.sampled_from(EDGES), st.integers(min_value=-2**70, max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.sampled_from([float("nan"), float("inf"), 2.5, -0.0, np.float32("nan"), np.int64(-1),
                     np.uint64(2**64 - 1)]))
# Any text: NULs, lone surrogates (no UTF-8), controls, every plane.
TEXT = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=()), max_size=40),
    st.text(alphabet="0123456789 ,/x\x00\ud800é\xff-", max_size=40))
# Anything of the wrong type.
ODD = st.one_of(st.binary(max_size=12), st.dictionaries(st.text(max_size=2), st.integers(),
                                                        max_size=2),
                st.just(object()), st.just(3 + 4j), st.just([[1, 2], 3]))


@st.composite
def real_boards(draw):
    """A board of a shape eight answers (some with text after a NUL)."""
    rows, cols = draw(st.integers(2, 10)), draw(st.integers(2, 10))
    cells = draw(st.permutations(list(range(rows * cols))))
    text = "/".join(",".join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(rows))
    form = draw(st.sampled_from(["text", "nul", "list", "rows", "array"]))
    if form == "nul":
        return text + "\x00" + draw(TEXT)
    if form == "list":
        return cells
    if form == "rows":
        return [cells[r * cols:(r + 1) * cols] for r in range(rows)]
    if form == "array":
        return np.array(cells, dtype=draw(st.sampled_from([np.uint8, np.int64, np.float64])))
    return text


BOARDS = st.one_of(
    real_boards(), TEXT, ODD, NUMBERS,
    st.lists(NUMBERS, max_size=12), st.lists(st.lists(NUMBERS, max_size=4), max_size=4),
    st.lists(st.integers(-5, 300), min_size=1, max_size=110).map(lambda t: ",".join(map(str, t))))
SHAPES = st.one_of(
    st.none(), st.tuples(NUMBERS, NUMBERS), st.tuples(st.integers(-3, 300), st.integers(-3, 300)),
    st.tuples(st.integers(2, 10), st.integers(2, 10)), st.lists(st.integers(), max_size=4),
    TEXT, ODD, NUMBERS)
GOALS = st.one_of(st.none(), BOARDS)
# A search's budget: small, or refused; never large (the count bounds the
# time only while every search is short).
BUDGETS = st.one_of(st.none(), st.integers(1, 50_000),
                    st.sampled_from([0, -1, float("nan"), float("inf"), 2.5, "1000", [], -10**30]))
FLAGS = st.one_of(st.booleans(), st.none(), st.integers(), st.just(np.array([1, 2])), TEXT)
PATHS = st.one_of(TEXT, st.text(alphabet="udlrUDLR", max_size=200), ODD, NUMBERS)
DISTANCE_ARRAYS = st.one_of(
    hnp.arrays(dtype=st.sampled_from([np.uint8, np.int8, np.int64, np.float64, np.float32,
                                      np.bool_, np.uint64]),
               shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=10)),
    st.lists(st.lists(NUMBERS, max_size=10), max_size=3), ODD, TEXT)

TABLES = eight.Tables.build()
# The module-level functions (the tables built in memory at first use) and
# a Tables' methods are the same code: both are asked.
ASKED = st.sampled_from([eight, TABLES])


def refused_or_answered(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except REFUSED:
        return None


@FUZZ
@given(ASKED, BOARDS, GOALS, SHAPES, BUDGETS, FLAGS, FLAGS)
def test_solve_answers_or_refuses(on, board, goal, shape, budget, optimal, boards):
    refused_or_answered(on.solve, board, goal, shape=shape, budget=budget,
                        optimal_required=optimal, boards=boards)


@FUZZ
@given(ASKED, BOARDS, GOALS, SHAPES, BUDGETS, FLAGS)
def test_distance_answers_or_refuses(on, board, goal, shape, budget, optimal):
    refused_or_answered(on.distance, board, goal, shape=shape, budget=budget,
                        optimal_required=optimal)


@FUZZ
@given(ASKED, DISTANCE_ARRAYS, GOALS, SHAPES, BUDGETS)
def test_distances_answer_or_refuse(on, boards, goal, shape, budget):
    refused_or_answered(on.distances, boards, goal, shape=shape, budget=budget)


@FUZZ
@given(ASKED, BOARDS, GOALS, SHAPES, BUDGETS, FLAGS)
def test_hints_answer_or_refuse(on, board, goal, shape, budget, optimal):
    refused_or_answered(on.hints, board, goal, shape=shape, budget=budget,
                        optimal_required=optimal)


@FUZZ
@given(ASKED, st.one_of(NUMBERS, st.integers(0, 40), ODD), GOALS, SHAPES, NUMBERS, BUDGETS)
def test_random_board_answers_or_refuses(on, distance, goal, shape, seed, budget):
    refused_or_answered(on.random_board, distance, goal, shape=shape, seed=seed, budget=budget)


@FUZZ
@given(ASKED, GOALS, SHAPES)
def test_histogram_answers_or_refuses(on, goal, shape):
    refused_or_answered(on.histogram, goal, shape=shape)


@FUZZ
@given(ASKED, st.one_of(NUMBERS, st.integers(-2, 35), ODD), GOALS, SHAPES)
def test_boards_at_answers_or_refuses(on, distance, goal, shape):
    boards = refused_or_answered(on.boards_at, distance, goal, shape=shape)
    if boards is not None:
        for _ in zip(range(1000), boards):
            pass


@FUZZ
@given(ASKED, BOARDS, PATHS, GOALS, SHAPES, BUDGETS)
def test_check_answers_or_refuses(on, board, path, goal, shape, budget):
    refused_or_answered(on.check, board, path, goal, shape=shape, budget=budget)


@FUZZ
@given(st.one_of(TEXT, ODD, NUMBERS, st.sampled_from(["/", "/dev/null", "/etc/passwd", ".",
                                                     "/nonexistent/eight.tbl"])))
def test_tables_open_opens_or_refuses(path):
    refused_or_answered(eight.Tables.open, path)
