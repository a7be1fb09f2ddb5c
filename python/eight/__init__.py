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

``eight.__version__`` is the project's version, as ``eight --version``
prints it.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import json as _json
import math
import operator
import threading
from types import TracebackType
from typing import Any, Callable, Dict, Iterator, Optional, Sequence, Tuple, Type, TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import _eight
from ._eight import EightError

# CMake's project(VERSION), compiled into the extension (python/CMakeLists.txt).
__version__: str = _eight.__version__

__all__ = [
    "Answer", "Check", "EightError", "Hints", "Move", "Tables", "boards_at", "check", "distance",
    "distances", "hints", "histogram", "random_board", "solve",
]

Board = Union[str, Sequence[int], Sequence[Sequence[int]]]
Shape = Tuple[int, int]
_Function = TypeVar("_Function", bound=Callable[..., Any])

_MOVE_NAMES = {"u": "up", "d": "down", "l": "left", "r": "right"}


class _BoardFields:
    """What an answer's JSON (``json``) says of its board, read from it when
    first asked: the members ``Answer`` and ``Hints`` share."""
    json: str

    @functools.cached_property
    def _fields(self) -> Dict[str, Any]:
        return dict(_json.loads(self.json))

    @property
    def shape(self) -> str:
        """The board's shape, "RxC" ("3x3")."""
        return str(self._fields["shape"])

    @property
    def board_cells(self) -> Tuple[int, ...]:
        """The board's tiles, row by row (0 the blank)."""
        return tuple(self._fields["board_cells"])

    @property
    def goal_cells(self) -> Tuple[int, ...]:
        """The goal's tiles, row by row (0 the blank)."""
        return tuple(self._fields["goal_cells"])


@dataclasses.dataclass(frozen=True)
class Answer(_BoardFields):
    """A board's answer: its distance, a path, and how good the path is.

    The fields are those of ``eight solve --format json`` (and ``GET /solve``),
    by the same names; ``json`` is that text, byte for byte.
    """
    board: str          # the board in canonical form
    goal: str           # the goal in canonical form
    solvable: bool      # False: the board cannot reach the goal
    # Moves; for an answer not proven optimal, its path's length; None if unsolvable.
    distance: Optional[int]
    # Proven optimal (unsolvable: True, proven to have no path).
    optimal: bool
    # A proven lower bound on the distance (the distance when optimal); None if unsolvable.
    lower_bound: Optional[int]
    method: str         # "table", "pattern-search", "manhattan-search", "beam-search", "reduction"
    path: str           # the blank's moves, letters u d l r
    json: str = dataclasses.field(repr=False)  # exactly `eight solve --format json`

    @property
    def moves(self) -> Tuple[str, ...]:
        """The path's moves by name: "up", "down", "left", "right"."""
        return tuple(_MOVE_NAMES[letter] for letter in self.path)

    @property
    def tiles(self) -> Tuple[int, ...]:
        """The tile each move of the path slides."""
        return tuple(self._fields["tiles"])

    @property
    def boards(self) -> Optional[Tuple[str, ...]]:
        """The board after each move, when asked for (``boards=True``); else None."""
        boards = self._fields.get("boards")
        return None if boards is None else tuple(boards)

    @property
    def boards_cells(self) -> Optional[Tuple[Tuple[int, ...], ...]]:
        """``boards``' tiles, each board's row by row; None unless asked for."""
        cells = self._fields.get("boards_cells")
        return None if cells is None else tuple(tuple(b) for b in cells)


@dataclasses.dataclass(frozen=True)
class Move:
    """One legal move from a board, scored."""
    letter: str         # u d l r
    tile: int           # the tile it slides
    board: str          # the board after it
    # That board's distance (or its best path's length, when not optimal); None if unsolvable.
    distance: Optional[int]
    optimal: bool       # proven one move closer
    # On a board whose answer is not proven optimal (no move is ``optimal``
    # there): the first move of the path found, the one to follow. Always
    # False on an exact answer: follow an ``optimal`` move there
    # (``Hints.hints`` lists the moves to follow in both cases).
    hint: bool

    @property
    def name(self) -> str:
        """up, down, left or right."""
        return _MOVE_NAMES[self.letter]


@dataclasses.dataclass(frozen=True)
class Hints(_BoardFields):
    """Every legal move from a board, best first.

    The fields are those of ``eight hint --format json`` (and ``GET /hint``),
    by the same names; ``json`` is that text, byte for byte.
    """
    distance: Optional[int]  # the board's; None if it cannot reach the goal
    optimal: bool
    moves: Tuple[Move, ...]
    json: str = dataclasses.field(repr=False)  # exactly `eight hint --format json`

    @property
    def board(self) -> str:
        """The board in canonical form."""
        return str(self._fields["board"])

    @property
    def goal(self) -> str:
        """The goal in canonical form."""
        return str(self._fields["goal"])

    @property
    def solvable(self) -> bool:
        """False: the board cannot reach the goal."""
        return bool(self._fields["solvable"])

    @property
    def lower_bound(self) -> Optional[int]:
        """A proven lower bound on the distance; None if unsolvable."""
        bound = self._fields["lower_bound"]
        return None if bound is None else int(bound)

    @property
    def method(self) -> str:
        """How the distance was found, as ``Answer.method``."""
        return str(self._fields["method"])

    @property
    def hints(self) -> Tuple[Move, ...]:
        """The moves to follow, as ``GET /hint``'s ``hints``: every ``optimal`` move,
        or, where the answer is not proven optimal, the ``hint`` move."""
        return tuple(m for m in self.moves if m.optimal or m.hint)


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


def _whole(value: Any, what: str) -> int:
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


def _flag(value: Any, what: str) -> bool:
    """A yes or no: a bool (or an int, None); anything else a TypeError (an
    array's truth is a ValueError of NumPy's own)."""
    if value is None or isinstance(value, (bool, int, np.bool_, np.integer)):
        return bool(value)
    raise TypeError(f"{what} is True or False, not {type(value).__name__}")


def _shape(shape: Any) -> Shape:
    """(rows, cols) as two ints, as the caller wrote them."""
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise TypeError(f"a shape is (rows, columns), not {shape!r}") from None
    return _whole(rows, "a shape's rows"), _whole(cols, "a shape's columns")


def _options(goal: Optional[Board], shape: Optional[Shape], budget: Optional[int] = None,
             optimal_required: bool = False, boards: bool = False,
             fast: bool = False, known_path: Optional[str] = None) -> "_eight.Options":
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
    o.fast = _flag(fast, "fast")
    if known_path is not None:
        if not isinstance(known_path, str):
            raise TypeError(f"a known path is a string of letters u d l r, not {known_path!r}")
        o.known_path = known_path  # checked with the board by the C API
    return o


# What each argument of the questions means, for their docstrings (help()
# shows them under "Arguments"): one text for the Tables method and the
# module-level function of the same name.
_ARGUMENTS = {
    "board": "a string in any notation the tool reads, or tiles as a list or tuple, "
             "flat or as rows (0 the blank)",
    "boards": "list the board after each move in ``Answer.boards`` (``--boards``)",
    "path": "the blank's moves, letters u d l r",
    "distance": "exactly this many moves from the goal (random_board: None for any board)",
    "goal": "the goal, as a board; None: the standard goal of the board's shape",
    "shape": "(rows, columns), for boards and goals written without rows (``--shape``)",
    "budget": "nodes a search may expand (``--budget``; default 50,000,000)",
    "optimal_required": "only a proven optimal answer, else an EightError (``--optimal required``)",
    "fast": "where no answer is proven optimal (boards past 16 cells), the quicker, longer "
            "paths (``--fast``; docs/answers.md); False: the shorter ones",
    "known_path": "a path already held from the board to the goal (letters u d l r, the "
                  "rest of an earlier answer's; HTTP's ``path=``, ``--path``): the answer is "
                  "never longer, this path on a tie, so following hints never raises the "
                  "distance (docs/answers.md); None: none",
    "seed": "the same seed gives the same board (``eight random --seed``); None: a fresh one",
}


def _explained(**meanings: str) -> Callable[[_Function], _Function]:
    """Adds its arguments' meanings (``_ARGUMENTS``, or ``meanings`` where a
    name means something else there) to a method's docstring."""
    def explain(method: _Function) -> _Function:
        names = [n for n in inspect.signature(method).parameters if n != "self"]
        lines = "\n".join(f"    {n}: {meanings.get(n) or _ARGUMENTS[n]}" for n in names)
        method.__doc__ = f"{inspect.cleandoc(method.__doc__ or '')}\n\nArguments:\n{lines}"
        return method
    return explain


class Tables:
    """A set of tables to answer from: a file, a folder of them, or built in memory.

    Immutable: any number of threads may ask one at once. ``close()`` (or
    leaving a ``with`` block) lets its memory go: at once, or when the last
    question already under way ends; a question after it is an EightError.

        with eight.Tables.open("data/eight.tbl") as tables:
            tables.solve("867254301")
    """

    def __init__(self, handle: "_eight.Tables", source: str = "built in memory"):
        self._t: Optional[_eight.Tables] = handle
        self._source = source

    @classmethod
    def open(cls, path: str) -> "Tables":
        """A table file, or every *.tbl file of a folder (as ``eight --table``, ``--tables``).

        The file is read whole: a file changed afterwards changes no answer.
        """
        return cls(_eight.Tables.open(str(path)), repr(str(path)))

    @classmethod
    def build(cls) -> "Tables":
        """The tables of every table shape up to 10 cells, built in memory."""
        return cls(_eight.Tables.build())

    def close(self) -> None:
        """Lets the tables go; asking them anything after it is an EightError.

        A question another thread has under way ends first (it holds the
        tables until it returns). Closing twice is allowed.
        """
        self._t = None

    @property
    def closed(self) -> bool:
        """True after ``close()``."""
        return self._t is None

    def __enter__(self) -> "Tables":
        self._handle()
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<eight.Tables {self._source}{', closed' if self._t is None else ''}>"

    def _handle(self) -> "_eight.Tables":
        # One read of the handle: a close() in another thread from here on
        # leaves this question its tables (the local reference) until it returns.
        t = self._t
        if t is None:
            raise EightError("these tables are closed")
        return t

    @_explained()
    def solve(self, board: Board, goal: Optional[Board] = None, *, shape: Optional[Shape] = None,
              budget: Optional[int] = None, optimal_required: bool = False,
              boards: bool = False, fast: bool = False,
              known_path: Optional[str] = None) -> Answer:
        """The answer for ``board`` (``eight solve``): its distance, a path, how good it is."""
        (board_text, goal_text, solvable, d, optimal, bound, method, path,
         text) = self._handle().solve(_board_text(board),
                                      _options(goal, shape, budget, optimal_required, boards, fast,
                                               known_path))
        # Not solvable: no distance and no bound (the JSON's nulls).
        return Answer(board_text, goal_text, solvable, d if solvable else None, optimal,
                      bound if solvable else None, method, path, text)

    @_explained()
    def distance(self, board: Board, goal: Optional[Board] = None, *,
                 shape: Optional[Shape] = None, budget: Optional[int] = None,
                 optimal_required: bool = False, fast: bool = False,
                 known_path: Optional[str] = None) -> Optional[int]:
        """The distance alone (``eight solve --format distance``); None when the board
        cannot reach the goal."""
        return self._handle().distance(_board_text(board),
                                       _options(goal, shape, budget, optimal_required, fast=fast,
                                                known_path=known_path))

    @_explained(boards="an array of tiles, shape (count, cells) or (count, rows, cols)")
    def distances(self, boards: npt.ArrayLike, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None, budget: Optional[int] = None,
                  fast: bool = False) -> npt.NDArray[np.int32]:
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
        return self._handle().distances(np.ascontiguousarray(a, dtype=np.uint8),
                                        _options(goal, shape, budget, fast=fast))

    @_explained()
    def hints(self, board: Board, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None, budget: Optional[int] = None,
              optimal_required: bool = False, fast: bool = False,
              known_path: Optional[str] = None) -> Hints:
        """Every legal move with its next board's distance, best first (``eight hint``)."""
        d, optimal, moves, text = self._handle().hint(
            _board_text(board), _options(goal, shape, budget, optimal_required, fast=fast,
                                         known_path=known_path))
        # The extension gives None for a distance that does not exist.
        scored = tuple(Move(letter, tile, after, to, best, hint)
                       for letter, tile, after, to, best, hint in moves)
        return Hints(d, optimal, scored, text)

    @_explained()
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
        return self._handle().random(-1 if distance is None else distance, seed,
                                     _options(goal, shape, budget))

    @_explained()
    def histogram(self, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None) -> Tuple[int, ...]:
        """How many boards lie at each distance from the goal, 0 to the farthest."""
        return tuple(self._handle().histogram(_options(goal, shape)))

    @_explained()
    def boards_at(self, distance: int, goal: Optional[Board] = None, *,
                  shape: Optional[Shape] = None) -> Iterator[str]:
        """Every board exactly ``distance`` moves from the goal, each once (up to 10 cells)."""
        distance = _whole(distance, "a distance")
        # Past a C int, the C API's own refusal of the nearest (no board is
        # that far), naming the caller's number.
        d = max(-1, min(distance, _INT_MAX))
        try:
            return iter(self._handle().boards_at(d, _options(goal, shape)))
        except EightError as e:
            raise EightError(str(e).replace(f" {d} moves", f" {distance} moves", 1)) from None

    @_explained()
    def check(self, board: Board, path: str, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None, budget: Optional[int] = None) -> Check:
        """Whether ``path`` is legal from ``board``, reaches the goal, and is optimal, and why."""
        legal, reaches, optimal, why = self._handle().check(_board_text(board), path,
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


def _asks(method: Callable[..., Any]) -> Callable[[_Function], _Function]:
    """Gives a module-level function the docstring of the ``Tables`` method it
    calls, so ``help()`` shows the same words for both."""
    def document(function: _Function) -> _Function:
        function.__doc__ = (f"{method.__doc__}\n\nAsks the tables of every shape up to 10 "
                            f"cells, built in memory at first use (``Tables.{method.__name__}``).")
        return function
    return document


@_asks(Tables.solve)
def solve(board: Board, goal: Optional[Board] = None, *, shape: Optional[Shape] = None,
          budget: Optional[int] = None, optimal_required: bool = False,
          boards: bool = False, fast: bool = False, known_path: Optional[str] = None) -> Answer:
    return _tables().solve(board, goal, shape=shape, budget=budget,
                           optimal_required=optimal_required, boards=boards, fast=fast,
                           known_path=known_path)


@_asks(Tables.distance)
def distance(board: Board, goal: Optional[Board] = None, *, shape: Optional[Shape] = None,
             budget: Optional[int] = None, optimal_required: bool = False,
             fast: bool = False, known_path: Optional[str] = None) -> Optional[int]:
    return _tables().distance(board, goal, shape=shape, budget=budget,
                              optimal_required=optimal_required, fast=fast,
                              known_path=known_path)


@_asks(Tables.distances)
def distances(boards: npt.ArrayLike, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None, budget: Optional[int] = None,
              fast: bool = False) -> npt.NDArray[np.int32]:
    return _tables().distances(boards, goal, shape=shape, budget=budget, fast=fast)


@_asks(Tables.hints)
def hints(board: Board, goal: Optional[Board] = None, *, shape: Optional[Shape] = None,
          budget: Optional[int] = None, optimal_required: bool = False,
          fast: bool = False, known_path: Optional[str] = None) -> Hints:
    return _tables().hints(board, goal, shape=shape, budget=budget,
                           optimal_required=optimal_required, fast=fast,
                           known_path=known_path)


@_asks(Tables.random_board)
def random_board(distance: Optional[int] = None, goal: Optional[Board] = None, *,
                 shape: Optional[Shape] = None, seed: Optional[int] = None,
                 budget: Optional[int] = None) -> str:
    return _tables().random_board(distance, goal, shape=shape, seed=seed, budget=budget)


@_asks(Tables.histogram)
def histogram(goal: Optional[Board] = None, *, shape: Optional[Shape] = None) -> Tuple[int, ...]:
    return _tables().histogram(goal, shape=shape)


@_asks(Tables.boards_at)
def boards_at(distance: int, goal: Optional[Board] = None, *,
              shape: Optional[Shape] = None) -> Iterator[str]:
    return _tables().boards_at(distance, goal, shape=shape)


@_asks(Tables.check)
def check(board: Board, path: str, goal: Optional[Board] = None, *,
          shape: Optional[Shape] = None, budget: Optional[int] = None) -> Check:
    return _tables().check(board, path, goal, shape=shape, budget=budget)
