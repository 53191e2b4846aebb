"""Hypothesis strategies for Minesweeper boards, drawn as the choices that make a board.

Every strategy draws what a board is made of - its size, which cells are mines, which safe cells
are opened, which mines are flagged, whether the header states the total - from hypothesis
primitives, and renders the board from those choices (``minecheck.model.position``).  So every board
drawn is consistent by construction (``inconsistent_boards`` aside), and hypothesis shrinks it as
it shrinks anything: towards fewer mines, opened cells and flags, cells nearer the top left, a
smaller board, and a total that is not stated.

* ``boards(width=, height=, density=, opened=, flags=, total=)``: positions of every shape,
  including the ones people forget: one cell wide or tall, 1x1, no digit, every safe cell opened,
  every mine flagged, the stated total at the smallest and at the largest the digits allow, and
  mines packed up to density 1.0;
* ``positions(level=)``: stuck positions of real games, played by sound deduction from a drawn deal;
* ``inconsistent_boards()``: a digit (or the stated total) changed so that no layout fits, as the
  exact counter confirms.

A parameter takes a fixed value, a ``(low, high)`` range or a strategy.
Boards come without their hidden truth, as a solver must see them, unless ``truth=True``.  Needs
hypothesis installed.
"""

from __future__ import annotations

import math

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from minecheck.boards.contradictions import CHANGES, contradicting_digits, contradicting_totals, with_digit
from minecheck.boards.generators import LEVELS
from minecheck.boards.layouts import extreme_mines
from minecheck.boards.player import play_out
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board, neighbours
from minecheck.model.position import Position, render

Size = int | tuple[int, int] | SearchStrategy
Share = float | tuple[float, float] | SearchStrategy  # of the cells (mines), safe cells (opened), mines (flags)
TOTALS = ("as drawn", "fewest", "most")  # a stated total: the drawn mines, or the fewest / most the digits allow
EPSILON = 1e-9  # so that a share such as (0.25, 0.5) of 4 cells takes 1 or 2


def boards(width: Size = (1, 8), height: Size = (1, 8), density: Share = (0.0, 1.0),
           opened: Share = (0.0, 1.0), flags: Share = (0.0, 1.0), total: bool | None = None,
           truth: bool = False) -> SearchStrategy[Board]:
    """Consistent boards of ``width`` x ``height`` cells.  ``density`` is the share of the cells that are
    mines, ``opened`` the share of the safe cells that are opened, ``flags`` the share of the mines
    that are flagged: a fixed share, or a range (low, high) within which each board's count is drawn.
    ``total`` True / False / None: the header states M always / never / either way; a stated total is
    the drawn mines' count, or the fewest or the most mines the digits allow (the hidden mines are
    moved to make it so).

    Counts at the ends of the ranges are drawn too: no mine or every cell a mine, nothing or every
    safe cell opened, every mine flagged.  ``density=(0.1, 0.3)`` gives boards more like real games."""
    _check_arguments(width, height, density, opened, flags)
    return _scattered(width, height, density, opened, flags, total).map(lambda pos: _shown(render(pos), truth))


@st.composite
def _scattered(draw, width: Size, height: Size, density: Share, opened: Share, flags: Share,
               total: bool | None) -> Position:
    """The position behind ``boards``: the mines, the opened cells and the flags are each a list of
    distinct cells, which hypothesis shrinks by dropping members and moving the rest towards the top
    left, and then the size shrinks as a crop."""
    w, h = _size(draw, width), _size(draw, height)
    mines = _some(draw, range(w * h), density)
    opened_cells = _some(draw, [c for c in range(w * h) if c not in mines], opened)
    flagged = _some(draw, sorted(mines), flags)
    show = draw(st.booleans()) if total is None else bool(total)
    pos = Position(w, h, mines, opened_cells, flagged, show)
    at = draw(st.sampled_from(TOTALS)) if show else TOTALS[0]
    return pos if at == TOTALS[0] else extreme_mines(pos, fewest=at == "fewest")


def positions(level: str | None = "beginner", width: int = 9, height: int = 9, mines: int = 10,
              guesses: int | tuple[int, int] | SearchStrategy = 0, truth: bool = False) -> SearchStrategy[Board]:
    """Stuck positions of real games: a drawn first click and deal, played by sound deduction (and
    ``guesses`` safest-cell guesses) until nothing more follows.  ``level``: beginner, intermediate or
    expert, or None for ``width`` x ``height`` with ``mines``.  A deal solved outright is rejected."""
    if level is not None:
        if level not in LEVELS:
            raise InvalidArgument(f"level={level!r}; known: {', '.join(LEVELS)} (or None with width, height, mines)")
        width, height, mines = LEVELS[level]
    if width < 1 or height < 1 or not 0 <= mines <= width * height - 9:
        raise InvalidArgument(f"{mines} mines do not fit a {width}x{height} board with a safe first click")
    return _games(width, height, mines, guesses).map(lambda pos: _shown(render(pos), truth))


@st.composite
def _games(draw, width: int, height: int, mines: int, guesses) -> Position:
    first = draw(st.integers(0, width * height - 1))
    keep_clear = set(neighbours(width, height, first)) | {first}
    spots = [c for c in range(width * height) if c not in keep_clear]
    dealt = Position(width, height, _distinct(draw, spots, mines, mines), frozenset())
    pos = play_out(dealt, first, _size(draw, guesses))
    assume(len(pos.opened) + len(pos.flags) < width * height)  # solved outright: no position to ask about
    return pos


def inconsistent_boards(width: Size = (1, 8), height: Size = (1, 8), density: Share = (0.0, 1.0),
                        opened: Share = (0.0, 1.0), flags: Share = (0.0, 1.0), total: bool | None = None,
                        change: str | None = "digit") -> SearchStrategy[Board]:
    """Boards with no consistent layout, made from a consistent one (the exact counter checks each):

    * ``change="digit"``: one digit takes another value; no layout fits in any mode;
    * ``change="total"``: the stated total is one below the fewest or one above the most mines the
      digits allow; the digits alone still fit (local mode), the total does not (global mode);
    * ``change=None``: either.
    """
    if change not in (*CHANGES, None):
        raise InvalidArgument(f"change={change!r}; expected one of {', '.join(CHANGES)} or None")
    if change == "total":
        if total is False:
            raise InvalidArgument("change='total' needs a stated total (total=True or None)")
        total = True
    _check_arguments(width, height, density, opened, flags)
    return _inconsistent(_scattered(width, height, density, opened, flags, total), change)


@st.composite
def _inconsistent(draw, positions_: SearchStrategy[Position], change: str | None) -> Board:
    pos = draw(positions_)
    board = render(pos)
    how = change or (draw(st.sampled_from(CHANGES)) if pos.show_total else "digit")
    if how == "digit":
        assume(board.digits)
        cell = draw(st.sampled_from(board.digits))
        values = contradicting_digits(board, cell)
        assume(values)  # rare: a digit with eight covered neighbours and nothing else to contradict
        return with_digit(board, cell, draw(st.sampled_from(values)))
    totals = contradicting_totals(pos)
    assume(totals)  # nothing opened: every total from the flags to the cells fits
    bad = Board(board.width, board.height, board.cells, draw(st.sampled_from(totals)))
    if count_board(bad, Mode.GLOBAL).consistent or not count_board(bad, Mode.LOCAL).consistent:
        raise AssertionError(f"minecheck's fewest/most mines are wrong for {bad}")  # a defect in minecheck
    return bad


def _shown(board: Board, truth: bool) -> Board:
    """The board as a solver gets it: without the hidden truth unless it is asked for."""
    return board if truth else Board(board.width, board.height, board.cells, board.total_mines)


# -- parameters: a fixed value, a (low, high) range, or a strategy -----------------------------------

def _size(draw, spec: Size) -> int:
    if isinstance(spec, SearchStrategy):
        return draw(spec)
    if isinstance(spec, tuple):
        return draw(st.integers(*spec))
    return spec


def _some(draw, items, share: Share) -> frozenset[int]:
    """Distinct items, as many as the share says: a fixed share of them, or a count in a (low, high)
    range, or a share drawn from a strategy.  Drawn without replacement (hypothesis samples a unique
    list of ``sampled_from`` that way), so even all of the items come quickly."""
    items = list(items)
    if isinstance(share, SearchStrategy):
        share = draw(share)
        _check_share("a drawn share", share)
    low, high = share if isinstance(share, tuple) else (share, share)
    least, most = math.ceil(low * len(items) - EPSILON), math.floor(high * len(items) + EPSILON)
    if not isinstance(share, tuple) or least > most:  # a fixed share, or a range too narrow for this many
        least = most = math.floor((low + high) / 2 * len(items) + 0.5)
    return _distinct(draw, items, least, most)


def _distinct(draw, items: list, least: int, most: int) -> frozenset:
    """Between ``least`` and ``most`` distinct items; shrinks to fewer, and to the first ones."""
    if not items or most <= 0:
        return frozenset()
    return frozenset(draw(st.lists(st.sampled_from(items), min_size=least, max_size=most, unique=True)))


def _check_arguments(width: Size, height: Size, density: Share, opened: Share, flags: Share) -> None:
    for name, spec in (("density", density), ("opened", opened), ("flags", flags)):
        _check_share(name, spec)
    for name, spec in (("width", width), ("height", height)):
        low = spec[0] if isinstance(spec, tuple) else spec
        if isinstance(low, int) and low < 1:
            raise InvalidArgument(f"{name}={spec!r}: a board needs at least one cell each way")


def _check_share(name: str, spec) -> None:
    values = spec if isinstance(spec, tuple) else () if isinstance(spec, SearchStrategy) else (spec,)
    if any(not 0 <= v <= 1 for v in values) or (isinstance(spec, tuple) and (len(spec) != 2 or spec[0] > spec[1])):
        raise InvalidArgument(f"{name}={spec!r}: expected a share in [0, 1], a range (low, high) or a strategy")
