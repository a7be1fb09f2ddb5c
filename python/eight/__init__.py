"""eight: exact, instant answers for sliding puzzles, from Python.

    >>> import eight
    >>> eight.distance("867254301")
    31
    >>> answer = eight.solve("8 6 7 2 5 4 3 x 1")
    >>> answer.distance, answer.optimal, answer.path[:6]
    (31, True, 'ruuldd')

Boards are strings in any notation the ``eight`` tool reads ("867254301",
"1 2 3 4 5 6 7 8 x", "123/456/780", "1,2,3,4/5,6,7,8/9,10,11,0"), or lists
and tuples of tiles, flat or as rows (0 is the blank). Moves are the
blank's: u d l r. The module-level functions ask the tables of every shape
up to 10 cells, built in memory at first use (a fraction of a second);
``Tables.open(path)`` reads a table file, for 4x4 and the 12-cell shapes.
Every shape from 2x2 to 10x10 is answered: exactly from a table, optimally
by search, or, past what a search proves, with a path and a proven lower
bound (``optimal`` False).

Errors are ``EightError`` (a ``ValueError``) with the message the ``eight``
tool prints: every value eight refuses (a bad board, shape, path, number or
text) is one; a value of the wrong type altogether is a ``TypeError``. Everything here calls eight's C API (libeight-c), so every
answer is the tool's and the server's, byte for byte (``Answer.json``).
"""
from __future__ import annotations

import dataclasses
import math
import operator
import threading
from typing import Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from . import _eight
from ._eight import EightError

__all__ = [
    "Answer", "Check", "EightError", "Hints", "Move", "Tables", "boards_at", "check", "distance",
    "distances", "hints", "histogram", "random_board", "solve",
]

Board = Union[str, Sequence[int], Sequence[Sequence[int]]]
Shape = Tuple[int, int]

_MOVE_NAMES = {"u": "up", "d": "down", "l": "left", "r": "right"}


@dataclasses.dataclass(frozen=True)
class Answer:
    """A board's answer: its distance, a path, and how good the path is."""
    board: str          # the board in canonical form
    goal: str           # the goal in canonical form
    solvable: bool      # False: the board cannot reach the goal
    distance: Optional[int]     # moves; not proven optimal: its path's length; None if unsolvable
    optimal: bool               # proven optimal (unsolvable: True, proven to have no path)
    lower_bound: Optional[int]  # a proven bound (the distance when optimal); None if unsolvable
    method: str         # "table", "pattern-search", "manhattan-search", "beam-search", "reduction"
    path: str           # the blank's moves, letters u d l r
    json: str           # exactly `eight solve --format json` for this board


@dataclasses.dataclass(frozen=True)
class Move:
    """One legal move from a board, scored."""
    letter: str         # u d l r
    tile: int           # the tile it slides
    board: str          # the board after it
    distance: Optional[int]  # that board's distance (its best path's length, when not optimal)
    optimal: bool       # proven one move closer
    hint: bool          # the first move of the best path found: the one to follow

    @property
    def name(self) -> str:
        """up, down, left or right."""
        return _MOVE_NAMES[self.letter]


@dataclasses.dataclass(frozen=True)
class Hints:
    """Every legal move from a board, best first."""
    distance: Optional[int]  # None: the board cannot reach the goal
    optimal: bool
    moves: Tuple[Move, ...]
    json: str           # exactly `eight hint --format json` for this board


@dataclasses.dataclass(frozen=True)
class Check:
    """Whether a path is legal, reaches the goal, and is optimal, and why."""
    legal: bool
    reaches: bool
    optimal: Optional[bool]  # None: legal and reaching, but not proven either way
    why: str

    def __bool__(self) -> bool:
        return bool(self.optimal)


# The C API's numbers are C ints and uint64s: a Python int past them is
# clamped to the nearest one it refuses the same way.
_INT_MAX = 2**31 - 1
_UINT64_MAX = 2**64 - 1


def _whole(value, what: str) -> int:
    """``value`` as an int: an integer, or a float that is a whole number.

    NaN, an infinity or a fraction is an EightError (``int()`` turned NaN into
    an error of its own and truncated 2.5 to 2); a value of another type a
    TypeError.
    """
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or value != math.floor(value):
            raise EightError(f"{what} is a whole number, not {value}")
        return int(value)
    return operator.index(value)


def _board_text(board: Board) -> str:
    if isinstance(board, str):
        return board
    if isinstance(board, np.ndarray):
        board = board.tolist()
    if isinstance(board, (list, tuple)):
        if board and all(isinstance(row, (list, tuple)) for row in board):
            return "/".join(",".join(str(_whole(t, "a tile")) for t in row) for row in board)
        return ",".join(str(_whole(t, "a tile")) for t in board)
    raise TypeError(f"a board is a string, or a list or tuple of tiles, not {type(board).__name__}")


def _flag(value, what: str) -> bool:
    """A yes or no: a bool (or an int, None); anything else a TypeError (an
    array's truth is a ValueError of NumPy's own)."""
    if value is None or isinstance(value, (bool, int, np.bool_, np.integer)):
        return bool(value)
    raise TypeError(f"{what} is True or False, not {type(value).__name__}")


def _shape(shape) -> Shape:
    """(rows, cols) as two ints, as the caller wrote them."""
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise TypeError(f"a shape is (rows, columns), not {shape!r}") from None
    return _whole(rows, "a shape's rows"), _whole(cols, "a shape's columns")


def _options(goal: Optional[Board], shape: Optional[Shape], budget: Optional[int] = None,
             optimal_required: bool = False, boards: bool = False) -> "_eight.Options":
    o = _eight.Options()
    if goal is not None:
        o.goal = _board_text(goal)
    if shape is not None:
        # Checked by the C API where it is set (EightError naming the
        # shape), as its options check a shape for every binding; a number
        # past a C int is passed as the nearest, and the message names the
        # caller's.
        rows, cols = _shape(shape)
        r, c = (max(-_INT_MAX, min(n, _INT_MAX)) for n in (rows, cols))
        try:
            o.shape = (r, c)
        except EightError as e:
            raise EightError(str(e).replace(f"{r}x{c}", f"{rows}x{cols}", 1)) from None
    if budget is not None:
        budget = _whole(budget, "a budget")
        if budget <= 0:
            raise EightError(f"a budget is a positive number of nodes, not {budget}")
        o.budget = min(budget, _UINT64_MAX)  # the C API keeps at most 500,000,000
    o.optimal_required = _flag(optimal_required, "optimal_required")
    o.boards = _flag(boards, "boards")
    return o


class Tables:
    """A set of tables to answer from: a file, a folder of them, or built in memory.

    Immutable: any number of threads may ask one at once.
    """

    def __init__(self, handle: "_eight.Tables"):
        self._t = handle

    @classmethod
    def open(cls, path: str) -> "Tables":
        """A table file, or every *.tbl file of a folder (as ``eight --table``, ``--tables``)."""
        return cls(_eight.Tables.open(str(path)))

    @classmethod
    def build(cls) -> "Tables":
        """The tables of every table shape up to 10 cells, built in memory."""
        return cls(_eight.Tables.build())

    def solve(self, board: Board, goal: Optional[Board] = None, *, shape: Optional[Shape] = None,
              budget: Optional[int] = None, optimal_required: bool = False,
              boards: bool = False) -> Answer:
        """The answer for ``board`` (``eight solve``); goal: the standard goal of its shape."""
        return Answer(*self._t.solve(_board_text(board),
                                     _options(goal, shape, budget, optimal_required, boards)))

    def distance(self, board: Board, goal: Optional[Board] = None, *,
                 shape: Optional[Shape] = None, budget: Optional[int] = None,
                 optimal_required: bool = False) -> Optional[int]:
        """The distance alone; None when the board cannot reach the goal."""
        return self._t.distance(_board_text(board),
                                _options(goal, shape, budget, optimal_required))

    def distances(self, boards: np.ndarray, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None, budget: Optional[int] = None) -> np.ndarray:
        """The distances of many boards at once, -1 for those that cannot reach the goal.

        ``boards`` is an array of tiles, shape (count, cells) or (count, rows, cols); a
        (count, cells) array of a non-square shape needs ``shape``. Returns int32, (count,).
        """
        try:
            a = np.asarray(boards)
        except (ValueError, OverflowError):  # ragged rows; an int past every dtype
            raise EightError("boards are an array of shape (count, cells) or (count, rows, "
                             "cols), of whole numbers") from None
        # Tiles are whole numbers 0 to 99, checked before the cast to bytes,
        # which made NaN 0 and 2.5 2 (issue 41).
        if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer)
                                       or np.issubdtype(a.dtype, np.floating)):
            raise EightError(f"tiles are whole numbers 0 to 99, not {a.dtype} values")
        if np.issubdtype(a.dtype, np.floating) and a.size and not (
                np.isfinite(a).all() and (a == np.floor(a)).all()):
            raise EightError("tiles are whole numbers 0 to 99: the boards hold NaN, an "
                             "infinity or a fraction")
        if a.ndim == 3:
            if shape is None:
                shape = (a.shape[1], a.shape[2])
            a = a.reshape(a.shape[0], a.shape[1] * a.shape[2])
        if a.ndim != 2:
            raise EightError("boards are an array of shape (count, cells) or (count, rows, cols)")
        if a.size and (a.min() < 0 or a.max() > 99):
            raise EightError("tiles are 0 to 99")
        return self._t.distances(np.ascontiguousarray(a, dtype=np.uint8),
                                 _options(goal, shape, budget))

    def hints(self, board: Board, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None, budget: Optional[int] = None,
              optimal_required: bool = False) -> Hints:
        """Every legal move with its next board's distance, best first (``eight hint``)."""
        d, optimal, moves, text = self._t.hint(_board_text(board),
                                               _options(goal, shape, budget, optimal_required))
        return Hints(d, optimal, tuple(Move(*m) for m in moves), text)

    def random_board(self, distance: Optional[int] = None, goal: Optional[Board] = None, *,
                     shape: Optional[Shape] = None, seed: Optional[int] = None,
                     budget: Optional[int] = None) -> str:
        """A board exactly ``distance`` moves from the goal, or uniformly random among all."""
        if seed is None:
            seed = int.from_bytes(np.random.default_rng().bytes(8), "little")
        seed = _whole(seed, "a seed") % 2**64  # any int, as the tool's 64 bits
        if distance is not None:
            distance = _whole(distance, "a distance")
            if distance < 0 or distance > _INT_MAX:
                raise EightError(f"no board is {distance} moves from the goal")
        return self._t.random(-1 if distance is None else distance, seed,
                              _options(goal, shape, budget))

    def histogram(self, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None) -> Tuple[int, ...]:
        """How many boards lie at each distance from the goal, 0 to the farthest."""
        return tuple(self._t.histogram(_options(goal, shape)))

    def boards_at(self, distance: int, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None) -> Iterator[str]:
        """Every board exactly ``distance`` moves from the goal, each once (up to 10 cells)."""
        distance = _whole(distance, "a distance")
        # Past a C int, the C API's own refusal of the nearest (no board is
        # that far), naming the caller's number.
        d = max(-1, min(distance, _INT_MAX))
        try:
            return iter(self._t.boards_at(d, _options(goal, shape)))
        except EightError as e:
            raise EightError(str(e).replace(f" {d} moves", f" {distance} moves", 1)) from None

    def check(self, board: Board, path: str, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None, budget: Optional[int] = None) -> Check:
        """Whether ``path`` (letters u d l r) is legal from ``board``, reaches the goal, is optimal."""
        legal, reaches, optimal, why = self._t.check(_board_text(board), path,
                                                     _options(goal, shape, budget))
        return Check(legal, reaches, None if optimal < 0 else optimal == 1, why)


_default: Optional[Tables] = None
_default_lock = threading.Lock()


def _tables() -> Tables:
    global _default
    with _default_lock:
        if _default is None:
            _default = Tables.build()
        return _default


def solve(board: Board, goal: Optional[Board] = None, **kwargs) -> Answer:
    """``Tables.solve`` on the tables built in memory."""
    return _tables().solve(board, goal, **kwargs)


def distance(board: Board, goal: Optional[Board] = None, **kwargs) -> Optional[int]:
    """``Tables.distance`` on the tables built in memory."""
    return _tables().distance(board, goal, **kwargs)


def distances(boards: np.ndarray, goal: Optional[Board] = None, **kwargs) -> np.ndarray:
    """``Tables.distances`` on the tables built in memory."""
    return _tables().distances(boards, goal, **kwargs)


def hints(board: Board, goal: Optional[Board] = None, **kwargs) -> Hints:
    """``Tables.hints`` on the tables built in memory."""
    return _tables().hints(board, goal, **kwargs)


def random_board(distance: Optional[int] = None, goal: Optional[Board] = None, **kwargs) -> str:
    """``Tables.random_board`` on the tables built in memory."""
    return _tables().random_board(distance, goal, **kwargs)


def histogram(goal: Optional[Board] = None, **kwargs) -> Tuple[int, ...]:
    """``Tables.histogram`` on the tables built in memory."""
    return _tables().histogram(goal, **kwargs)


def boards_at(distance: int, goal: Optional[Board] = None, **kwargs) -> Iterator[str]:
    """``Tables.boards_at`` on the tables built in memory."""
    return _tables().boards_at(distance, goal, **kwargs)


def check(board: Board, path: str, goal: Optional[Board] = None, **kwargs) -> Check:
    """``Tables.check`` on the tables built in memory."""
    return _tables().check(board, path, goal, **kwargs)
