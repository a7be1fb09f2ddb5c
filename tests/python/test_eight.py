"""The Python module against the `eight` tool, and as a student would use it.

EIGHT_BIN (the tool) and EIGHT_TABLE (a table file) come from CTest
(python/CMakeLists.txt); PYTHONPATH finds the module built in the tree.
"""
import itertools
import os
import random
import subprocess

import numpy as np
import pytest

import eight

EIGHT = os.environ["EIGHT_BIN"]
TABLE = os.environ["EIGHT_TABLE"]


@pytest.fixture(scope="module")
def from_file():
    return eight.Tables.open(TABLE)


def tool(*args, stdin=None):
    done = subprocess.run([EIGHT, *args], input=stdin, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def random_boards(rng, rows, cols, count):
    cells = list(range(rows * cols))
    out = []
    for _ in range(count):
        rng.shuffle(cells)
        out.append("/".join(",".join(map(str, cells[r * cols:(r + 1) * cols]))
                            for r in range(rows)))
    return out


def test_answers_are_the_tools_byte_for_byte(from_file):
    rng = random.Random(20261205)
    boards = random_boards(rng, 3, 3, 10000)
    for rows, cols in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2)]:
        boards += random_boards(rng, rows, cols, 1000)
    rc, out, err = tool("solve", "--format", "json", "--table", TABLE, stdin="\n".join(boards) + "\n")
    assert rc == 0, err
    expected = out.splitlines()
    assert len(expected) == len(boards)
    built = eight.Tables.build()
    for board, line in zip(boards, expected):
        assert from_file.solve(board).json == line, board
        assert built.solve(board).json == line, board
    assert sum('"solvable":false' in line for line in expected) > len(boards) // 4


def test_searched_shapes_answer_as_the_tool_does(from_file):
    rng = random.Random(7)
    boards = random_boards(rng, 4, 4, 5) + random_boards(rng, 5, 5, 3)
    rc, out, err = tool("solve", "--format", "json", "--table", TABLE, stdin="\n".join(boards) + "\n")
    assert rc == 0, err
    for board, line in zip(boards, out.splitlines()):
        answer = from_file.solve(board)
        assert answer.json == line
        if answer.solvable:
            assert answer.lower_bound <= answer.distance
        else:  # the unsolvable answer, as every interface gives it (docs/answers.md)
            assert answer.distance is None and answer.lower_bound is None and answer.optimal


def test_fast_answers_are_the_tools_fast_answers(from_file):
    # The fast option (issue 39): far 5x5 boards by the beam without the 5x5
    # databases (never built here), 6x6 by reduction, 3x3 unchanged.
    rng = random.Random(39)
    boards = random_boards(rng, 5, 5, 3) + random_boards(rng, 6, 6, 1) + ["867254301"]
    rc, out, err = tool("solve", "--fast", "--format", "json", "--table", TABLE,
                        stdin="\n".join(boards) + "\n")
    assert rc == 0, err
    for board, line in zip(boards, out.splitlines()):
        answer = from_file.solve(board, fast=True)
        assert answer.json == line
        assert from_file.distance(board, fast=True) == answer.distance
        rc, hint_out, err = tool("hint", "--fast", "--format", "json", "--table", TABLE, board)
        assert rc == 0, err
        assert from_file.hints(board, fast=True).json == hint_out.strip()
    cells = np.array([[int(t) for t in b.replace("/", ",").split(",")] for b in boards[:3]])
    assert list(from_file.distances(cells, fast=True)) == [
        from_file.distance(b, fast=True) if from_file.solve(b, fast=True).solvable else -1
        for b in boards[:3]]
    assert eight.solve("867254301", fast=True) == eight.solve("867254301")
    with pytest.raises(TypeError, match="fast is True or False"):
        from_file.solve("867254301", fast="yes")


# 867254301's own path, and another optimal one (its first move "u", where
# the table's path starts "r"), and a longer legal one ("ud" first).
FAR = "867254301"
OWN = "ruulddruuldldrrullurrdlldruurdd"
OTHER = "uurdlldrrullurrdldluurddluurrdd"


def test_a_known_path_no_longer_is_the_answer_as_the_tool_gives_it(from_file):
    # A tie: the known path is the answer (issue 39's continuation).
    answer = from_file.solve(FAR, known_path=OTHER)
    assert (answer.path, answer.distance, answer.optimal) == (OTHER, 31, True)
    rc, out, err = tool("solve", "--format", "json", "--table", TABLE, "--path", OTHER, FAR)
    assert rc == 0, err
    assert answer.json == out.strip()
    assert eight.solve(FAR, known_path=OTHER).path == OTHER
    # A longer one is not: the answer's own path.
    assert from_file.solve(FAR, known_path="ud" + OWN).path == OWN
    assert from_file.distance(FAR, known_path="ud" + OWN) == 31
    assert from_file.hints(FAR, known_path=OTHER).json == from_file.hints(FAR).json
    # On a board the answer does not prove optimal, the hint is the known
    # path's first move when that path is no longer (a 5x5 board's fast
    # answer, asked again with the default answer's path known).
    rng = random.Random(390)
    board = random_boards(rng, 5, 5, 1)[0]
    short, quick = from_file.solve(board), from_file.solve(board, fast=True)
    assert not short.optimal and len(short.path) < len(quick.path)
    hints = from_file.hints(board, fast=True, known_path=short.path)
    assert [m.letter for m in hints.moves if m.hint] == [short.path[0]]
    assert hints.distance == short.distance
    rc, out, err = tool("hint", "--fast", "--format", "json", "--table", TABLE, "--path",
                        short.path, board)
    assert rc == 0, err
    assert hints.json == out.strip()


def test_a_bad_known_path_is_refused_naming_it(from_file):
    for bad in (OWN[:-1], "x" + OWN, "d" + OWN):
        with pytest.raises(eight.EightError, match="known path"):
            from_file.solve(FAR, known_path=bad)
        with pytest.raises(eight.EightError, match="known path"):
            from_file.hints(FAR, known_path=bad)
        rc, out, err = tool("hint", "--table", TABLE, "--path", bad, FAR)
        assert rc == 1 and "known path" in err and out == ""
    with pytest.raises(eight.EightError, match="known path"):
        from_file.solve(FAR, known_path="u" * 20001)
    # Questions about many boards take none (the C API refuses one: c_api_test.c).
    with pytest.raises(TypeError):
        from_file.distances(np.array([[8, 6, 7, 2, 5, 4, 3, 0, 1]]), known_path=OWN)
    with pytest.raises(TypeError, match="known path"):
        from_file.solve(FAR, known_path=["u"])
    rc, out, err = tool("solve", "--table", TABLE, "--path", OWN, FAR, FAR)
    assert rc == 2 and "--path goes with one BOARD" in err


def test_hints_are_the_tools(from_file):
    for board in ["867254301", "123456708", "123456780", "213456780", "123/450",
                  "1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15"]:
        rc, out, err = tool("hint", "--format", "json", "--table", TABLE, board)
        assert rc == 0, err
        assert from_file.hints(board).json == out.strip()


def test_errors_carry_the_tools_messages():
    for board, goal in [("12345678", None), ("867254301", "123456789"), ("1 2 3 4 5 6 7 8 9", None)]:
        args = ["solve", "--table", TABLE] + (["--goal", goal] if goal else []) + [board]
        rc, _, err = tool(*args)
        assert rc != 0
        with pytest.raises(eight.EightError) as caught:
            eight.solve(board, goal)
        assert isinstance(caught.value, ValueError)
        # The tool prefixes its name (and, for an argument, which one).
        assert err.splitlines()[0].endswith(str(caught.value)), (err, caught.value)


def test_boards_are_strings_lists_tuples_or_rows():
    expected = eight.solve("123456708")
    for board in ([1, 2, 3, 4, 5, 6, 7, 0, 8], (1, 2, 3, 4, 5, 6, 7, 0, 8),
                  [[1, 2, 3], [4, 5, 6], [7, 0, 8]], np.array([[1, 2, 3], [4, 5, 6], [7, 0, 8]])):
        assert eight.solve(board) == expected
    with pytest.raises(TypeError):
        eight.solve(123456708)


def test_distances_of_every_3x3_board_match_one_at_a_time():
    boards = np.array(list(itertools.permutations(range(9))), dtype=np.uint8)
    d = eight.distances(boards)
    assert d.dtype == np.int32 and d.shape == (362880,)
    assert (d < 0).sum() == 181440
    counts = np.bincount(d[d >= 0])
    assert tuple(counts) == eight.histogram()
    for i in range(0, len(boards), 4999):
        # The array's -1 is distance()'s None: no distance.
        one = eight.distance(boards[i].tolist())
        assert one is None if d[i] < 0 else one == d[i]
    as_rows = eight.distances(boards[:100].reshape(100, 3, 3))
    assert (as_rows == d[:100]).all()


def test_distances_refuse_a_bad_board_by_its_index_and_need_a_shape_that_is_not_square():
    boards = np.tile(np.array([1, 2, 3, 4, 5, 6, 7, 8, 0], dtype=np.uint8), (4, 1))
    boards[2, 0] = 2
    with pytest.raises(eight.EightError, match="board 2: its cells are not the tiles 0 to 8"):
        eight.distances(boards)
    six = np.array([[1, 2, 3, 4, 5, 0], [1, 2, 3, 4, 0, 5]])
    with pytest.raises(eight.EightError, match="no square"):
        eight.distances(six)
    assert list(eight.distances(six, shape=(2, 3))) == [0, 1]
    assert list(eight.distances(six.reshape(2, 2, 3))) == [0, 1]


def test_boards_at_a_distance_are_every_one_once():
    hist = eight.histogram()
    far = list(eight.boards_at(31))
    assert sorted(far) == ["647850321", "867254301"]
    at20 = list(eight.boards_at(20))
    assert len(at20) == len(set(at20)) == hist[20]
    assert all(eight.distance(b) == 20 for b in at20[::500])
    with pytest.raises(eight.EightError):
        eight.boards_at(32)


def test_check_says_legal_optimal_or_why_not():
    assert eight.check("123456708", "r").optimal is True
    c = eight.check("123456708", "rlr")
    assert c.legal and c.reaches and c.optimal is False and not c
    assert "3 moves where the distance is 1" in c.why
    c = eight.check("123456708", "d")
    assert not c.legal and "move 1" in c.why
    c = eight.check("123456708", "l")
    assert c.legal and not c.reaches
    # A far 10x10 board's own bounded path: legal, reaching, not proven.
    board = eight.random_board(shape=(10, 10), seed=3)
    answer = eight.solve(board)
    assert not answer.optimal
    c = eight.check(board, answer.path, budget=1000)
    assert c.reaches and c.optimal is None


def test_random_boards_are_repeatable_and_at_their_distance():
    for d in [0, 1, 15, 31]:
        b = eight.random_board(d, seed=d)
        assert eight.distance(b) == d
        assert eight.random_board(d, seed=d) == b
    assert eight.distance(eight.random_board(seed=5)) >= 0
    with pytest.raises(eight.EightError):
        eight.random_board(40, seed=1)


def test_answers_are_small_frozen_typed_values():
    a = eight.solve("867254301")
    assert (a.distance, a.optimal, a.lower_bound, a.method) == (31, True, 31, "table")
    with pytest.raises(Exception):
        a.distance = 3
    h = eight.hints("867254301")
    assert h.moves[0].optimal and h.moves[0].name in ("up", "down", "left", "right")
