"""The Python module under the hostile inputs of issue 41, each replayed
exactly: shapes past 10x10 (an out-of-bounds write in the C API beneath),
text that C would cut at a NUL, numbers that are not whole, bytes that are
no UTF-8, and searches that held the GIL.

EIGHT_TABLE (a table file, with the 4x4 pattern databases) comes from CTest
(python/CMakeLists.txt); PYTHONPATH finds the module built in the tree.
"""
import os
import threading
import time

import numpy as np
import pytest

import eight

TABLE = os.environ["EIGHT_TABLE"]

# One of the 17 4x4 boards that need 80 moves (tests/data/hardest_4x4.txt)
# and a 5x5 board far from its goal: searches of seconds to minutes, each
# asked with a budget of a few million nodes so that it ends (a search that
# stops at its budget has run all the same).
FAR_4X4 = "15 10 8 12 11 14 9 13 2 6 5 1 3 7 4 0"
GOAL_4X4 = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"  # its goal there
FAR_5X5 = "24,23,22,21,20/19,18,17,16,15/14,13,12,11,10/9,8,7,6,5/4,3,2,1,0"
BUDGET = 3_000_000


def walked(rows, cols, steps, seed):
    """A board `steps` random moves of the blank from the standard goal, and
    the path back to the goal (legal, reaching it: check() then searches)."""
    rng = np.random.default_rng(seed)
    cells = list(range(1, rows * cols)) + [0]
    at = rows * cols - 1
    step = {"u": -cols, "d": cols, "l": -1, "r": 1}
    back = {"u": "d", "d": "u", "l": "r", "r": "l"}
    walk = []
    while len(walk) < steps:
        m = "udlr"[rng.integers(4)]
        r, c = divmod(at, cols)
        if (m == "u" and r == 0) or (m == "d" and r == rows - 1) or \
           (m == "l" and c == 0) or (m == "r" and c == cols - 1):
            continue
        cells[at], cells[at + step[m]] = cells[at + step[m]], cells[at]
        at += step[m]
        walk.append(m)
    board = "/".join(",".join(map(str, cells[i * cols:(i + 1) * cols])) for i in range(rows))
    return board, "".join(back[m] for m in reversed(walk))


FAR_WALK_5X5 = walked(5, 5, 400, 41)


@pytest.fixture(scope="module")
def from_file():
    return eight.Tables.open(TABLE)


def test_a_shape_past_10x10_is_refused_where_it_is_given_never_built():
    # Issue 41's replays: SIGSEGV (255x255, 16x16), raw stack bytes in the
    # message (1x200).
    with pytest.raises(eight.EightError, match=r"^eight answers no 255x255 boards: the shapes "
                                               r"have rows and columns from 2 to 10$"):
        eight.random_board(shape=(255, 255))
    with pytest.raises(eight.EightError, match=r"^eight answers no 16x16 boards"):
        eight.boards_at(3, shape=(16, 16))
    with pytest.raises(eight.EightError, match=r"^eight answers no 1x200 boards: the shapes "
                                               r"have rows and columns from 2 to 10$"):
        eight.histogram(shape=(1, 200))


def test_every_function_refuses_every_shape_eight_does_not_answer(from_file):
    # Through the check many times over: every pair from -3 to 260 by a
    # stride, and the C int's edges and past them, at every entry point.
    sides = list(range(-3, 14)) + [16, 99, 100, 200, 255, 256, 257, 2**31 - 1, 2**31,
                                   -2**31, 2**63, 10**30]
    calls = [
        lambda s: eight.solve("867254301", shape=s),
        lambda s: eight.distance("867254301", shape=s),
        lambda s: eight.distances(np.zeros((1, 9), dtype=np.uint8), shape=s),
        lambda s: eight.hints("867254301", shape=s),
        lambda s: eight.random_board(shape=s, seed=1),
        lambda s: eight.histogram(shape=s),
        lambda s: eight.boards_at(3, shape=s),
        lambda s: eight.check("867254301", "r", shape=s),
    ]
    refused = 0
    for rows in sides:
        for cols in sides:
            if 2 <= rows <= 10 and 2 <= cols <= 10 or rows == cols == 0:
                continue  # a shape eight answers; (0, 0) is none, as in the C API
            for call in calls:
                with pytest.raises(eight.EightError) as e:
                    call((rows, cols))
                assert str(e.value).startswith(f"eight answers no {rows}x{cols} boards"), e.value
                refused += 1
    assert refused > 5000
    # Every shape eight answers is still taken (the 12-cell shapes need
    # their own table files).
    for rows in range(2, 11):
        for cols in range(2, 11):
            if rows * cols == 12:
                continue
            board = from_file.random_board(shape=(rows, cols), seed=rows * cols)
            try:
                from_file.solve(board, shape=(rows, cols), budget=1000)
            except eight.EightError as e:
                assert "stopped at its budget" in str(e)


def test_a_shape_is_two_whole_numbers():
    for odd in [(3,), (3, 3, 3), 3, "3x3", None.__class__, (2.5, 3), ("3", "3")]:
        with pytest.raises((TypeError, eight.EightError)):
            eight.random_board(shape=odd)
    with pytest.raises(eight.EightError, match="whole number"):
        eight.random_board(shape=(float("nan"), 3))
    assert len(eight.random_board(shape=(2.0, 3.0), seed=5)) == len("123/450")


def test_text_with_a_nul_is_refused_not_cut(from_file):
    # Issue 41's replays: each was answered about the text before the NUL.
    with pytest.raises(eight.EightError, match="the board holds a NUL character .at 9."):
        eight.solve("867254301\x00garbage")
    board = eight.solve("867254301").path
    assert eight.check("867254301", board).optimal
    with pytest.raises(eight.EightError, match="the path holds a NUL character .at 1."):
        eight.check("123456708", "r\x00lr")
    with pytest.raises(eight.EightError, match="the table path holds a NUL character"):
        eight.Tables.open(TABLE + "\x00junk")
    with pytest.raises(eight.EightError, match="the goal holds a NUL character"):
        eight.solve("867254301", goal="123456780\x00")
    for call in (eight.distance, eight.hints):
        with pytest.raises(eight.EightError, match="NUL"):
            call("\x00")


def test_text_that_is_no_utf8_or_quotes_bytes_is_an_eight_error():
    # Issue 41's replay: check(b, 'é') raised UnicodeDecodeError reading the
    # C API's message, which quoted the first byte of é's UTF-8 alone.
    c = eight.check("123456708", "é")
    assert not c.legal and c.why == "move 1 is '\\xC3', not one of u d l r"
    with pytest.raises(eight.EightError, match="UTF-8"):
        eight.solve("\ud800")
    with pytest.raises(eight.EightError):
        eight.solve("8672543\xff01")


def test_distances_refuse_nan_fractions_and_out_of_range_tiles():
    good = np.array([[8, 6, 7, 2, 5, 4, 3, 0, 1]])
    assert eight.distances(good.astype(np.float64)).tolist() == [31]
    for bad in ([[8, 6, 7, 2, 5, 4, 3, 0, float("nan")]],     # was read as 0
                [[8, 6, 7, 2, 5, 4, 3, 0, 1.5]],              # was read as 1
                [[8, 6, 7, 2, 5, 4, 3, 0, float("inf")]],
                [[8, 6, 7, 2, 5, 4, 3, 0, 256]],
                [[8, 6, 7, 2, 5, 4, 3, 0, -1]],
                [["8", "6", "7", "2", "5", "4", "3", "0", "1"]],
                [[True] * 9]):
        with pytest.raises(eight.EightError):
            eight.distances(np.array(bad))
    with pytest.raises(eight.EightError, match="whole number"):
        eight.solve([8, 6, 7, 2, 5, 4, 3, 0, float("nan")])


def test_numbers_past_what_c_holds_are_eight_errors():
    with pytest.raises(eight.EightError, match=f"no board is {10**30} moves"):
        eight.random_board(10**30)
    with pytest.raises(eight.EightError, match=f"no board is {2**31} moves"):
        eight.boards_at(2**31)
    with pytest.raises(eight.EightError, match="whole number"):
        eight.random_board(float("nan"))
    with pytest.raises(eight.EightError, match="whole number"):
        eight.solve("867254301", budget=float("nan"))
    assert eight.solve("867254301", budget=10**40).distance == 31
    assert eight.random_board(seed=-1) == eight.random_board(seed=2**64 - 1)


def run_beside(search):
    """Runs `search` in a thread and counts the iterations another thread
    makes meanwhile (the GIL shared: Python runs while the core works)."""
    done = threading.Event()
    errors = []

    def work():
        try:
            search()
        except Exception as e:  # noqa: BLE001: reported below
            errors.append(e)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    count = 0
    while not done.is_set():
        count += 1
        time.sleep(0)  # yields the GIL to the search thread, if it wants it
    t.join(timeout=600)  # a hang guard, far above the search's seconds
    assert not errors, errors
    return count


@pytest.mark.parametrize("ask", [
    lambda t: t.distance(FAR_4X4, GOAL_4X4, budget=BUDGET, optimal_required=True),
    lambda t: t.solve(FAR_4X4, GOAL_4X4, budget=BUDGET, optimal_required=True),
    lambda t: t.hints(FAR_4X4, GOAL_4X4, budget=BUDGET, optimal_required=True),
    lambda t: t.check(*FAR_WALK_5X5, budget=BUDGET),
    lambda t: t.distance(FAR_5X5, budget=BUDGET, optimal_required=True),
    lambda t: t.solve(FAR_5X5, budget=BUDGET, optimal_required=True),
], ids=["distance 4x4", "solve 4x4", "hints 4x4", "check 4x4", "distance 5x5", "solve 5x5"])
def test_a_search_lets_other_threads_run(from_file, ask):
    # Issue 41's replay: Tables.distance() on a 4x4 search held the GIL, and
    # another thread counted nothing for its 10 s. Counted, not timed: a
    # thread that never got the GIL back would count once or twice.
    def search():
        try:
            ask(from_file)
        except eight.EightError:
            pass  # a search that stops at its budget has still run
    assert run_beside(search) > 1000


def test_opening_and_building_tables_let_other_threads_run():
    # Building the tables in memory and reading a table file (its checksum
    # checked) take a fraction of a second each: released too.
    assert run_beside(lambda: [eight.Tables.build() for _ in range(3)]) > 1000
    assert run_beside(lambda: [eight.Tables.open(TABLE) for _ in range(10)]) > 100
