"""Boards that cannot be: a digit no layout meets, or a total the digits cannot hold.

A solver must call such a board inconsistent, with a reason, and never crash on it; the
articles' code mostly does not (impossible digits skipped, every cell a mine, 0.5 everywhere).
They are made from a consistent position, changing one thing, and the exact counter confirms
each one:

* a digit: one opened cell shows a value no layout meets, so no mode has a layout;
* a total: the stated total is one below the fewest or one above the most mines the digits
  allow, so the digits alone fit (local mode) and the total does not (global mode).

There is no hidden truth behind such a board: it is a Board, and shrinking edits it as one.
"""

from __future__ import annotations

from minecheck.boards.layouts import extreme_mines, scatter
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.position import Position, render

CHANGES = ("digit", "total")


def with_digit(board: Board, cell: int, value: int) -> Board:
    cells = list(board.cells)
    cells[cell] = value
    return Board(board.width, board.height, tuple(cells), board.total_mines)


def contradicting_digits(board: Board, cell: int) -> list[int]:
    """The values the digit at ``cell`` could show that leave no layout at all."""
    return [v for v in range(9) if v != board.cells[cell]
            and not count_board(with_digit(board, cell, v), Mode.LOCAL).consistent]


def contradicting_totals(pos: Position) -> list[int]:
    """Totals one past what the digits allow (fewest - 1, most + 1) that a board of this size can state."""
    board = render(pos)
    fewest, most = len(extreme_mines(pos, fewest=True).mines), len(extreme_mines(pos, fewest=False).mines)
    return [m for m in (fewest - 1, most + 1) if len(pos.flags) <= m <= board.size]


def contradict(rec: Recipe, width: int = 0, height: int = 0, density: float = 0.25, open_prob: float = 0.5,
               change: str = "") -> Board:
    """A board with no layout: a scattered position (size drawn from 2x2 to 8x6 unless given) with one digit,
    or its total, changed; the exact counter checks that no layout fits where none should."""
    rng = rng_for(rec)
    for _ in range(100):
        w, h = width or rng.randint(2, 8), height or rng.randint(2, 6)
        pos = scatter(rng, w, h, density, open_prob, flag_prob=0.2)
        board = render(pos)
        how = change or rng.choice(CHANGES)
        if how == "digit" and board.digits:
            cell = rng.choice(board.digits)
            values = contradicting_digits(board, cell)
            if values:
                return with_digit(board, cell, rng.choice(values))
        elif how == "total":
            totals = contradicting_totals(pos)
            if totals:
                bad = Board(board.width, board.height, board.cells, rng.choice(totals))
                if count_board(bad, Mode.GLOBAL).consistent or not count_board(bad, Mode.LOCAL).consistent:
                    raise AssertionError(f"minecheck's fewest/most mines are wrong for {bad}")
                return bad
    raise ValueError(f"no contradiction found in 100 attempts for {rec.describe()}")
