"""A typed use of the eight package, checked by mypy --strict
(test_native.py): what a program writes type-checks, and what it must not
write is caught (each "type: ignore" must be needed: --warn-unused-ignores)."""
from typing import Iterator, Optional, Tuple

import numpy as np
import numpy.typing as npt

import eight

version: str = eight.__version__
with eight.Tables.open("data/eight.tbl") as tables:
    answer: eight.Answer = tables.solve("867254301", "123456780", budget=1000, boards=True)
    distance: Optional[int] = answer.distance
    bound: Optional[int] = answer.lower_bound
    moves: Tuple[str, ...] = answer.moves
    tiles: Tuple[int, ...] = answer.tiles
    after: Optional[Tuple[str, ...]] = answer.boards
    hints: eight.Hints = tables.hints([[8, 6, 7], [2, 5, 4], [3, 0, 1]], shape=(3, 3))
    follow: Tuple[eight.Move, ...] = hints.hints
    hint: bool = hints.moves[0].hint
    check: eight.Check = tables.check("123456708", "r")
    proven: Optional[bool] = check.optimal
    all_d: npt.NDArray[np.int32] = tables.distances(np.zeros((1, 9), dtype=np.uint8))
    board: str = tables.random_board(20, seed=1)
    counts: Tuple[int, ...] = tables.histogram(shape=(2, 3))
    far: Iterator[str] = tables.boards_at(31)
one: Optional[int] = eight.distance("867254301", optimal_required=True)
quick: eight.Answer = eight.solve("867254301", fast=True)
closed: bool = tables.closed

wrong: int = eight.distance("867254301")  # type: ignore[assignment]
eight.solve("867254301", budgett=5)  # type: ignore[call-arg]
eight.solve("867254301", shape="3x3")  # type: ignore[arg-type]
