"""The endgame: perfect play on a board of any size once few mine layouts remain.

The oracle (``minecheck.play.oracle``) values whole small boards; late in a game on a big board the
digits leave few layouts, and the same search applies unchanged: the layouts are bitmasks over the
board's cells, every one equally likely, and a move's worth is the number of them that perfect play
wins after it.  What bounds the work is the number of layouts, not the board: the covered cells no
digit touches multiply them (C(n, k) ways to hold the mines left there), so the limit is on the whole
count.  The flags are the player's notes and no facts (as for ``board_move_values``): a flagged cell is
a covered cell whose mine the digits have to prove.

Measured (CPU seconds, Python 3.11, one core of a shared machine) on the views where ``exact`` guessed in
Expert games from (3,3): the search takes 5 ms at the median and 0.1 to 0.9 s from about 800 to 1,300
layouts, but 2.8 s at 3,630 and 38 s at 5,408, hence the limit of 1,000 layouts; past 8,000 memoised
states it gives up within about a second (0.6 s at 3,630 layouts, 0.8 s at 5,408).  In 200 games the
``progress`` player searched 162 times, 2.0 s in all, 0.43 s at most, and never gave up.  A limit of
2,000 won the same 555 of the first 1,000 of those games and played them 1.5 times slower.
"""

from __future__ import annotations

from fractions import Fraction

from minecheck.model.board import COVERED, Board
from minecheck.play.oracle import OracleLimit, Search, consistent_layouts, grid

ENDGAME_LAYOUTS = 1_000  # layouts up to which a player searches to the end (JSMinesweeper in play: 1000)
ENDGAME_STATES = 8_000  # memoised states past which that search gives up: about a second of CPU at most


def position_layouts(board: Board, limit: int = ENDGAME_LAYOUTS) -> tuple[int, ...] | None:
    """Every layout consistent with the board's digits and total, as bitmasks in increasing order (flags
    taken as covered cells); None when more than ``limit``, ValueError when there is none."""
    if board.total_mines is None:
        raise ValueError("the endgame needs the board's total mines")
    seen = {c: board.cells[c] for c in board.digits}
    try:
        found = consistent_layouts(grid(board.width, board.height), seen, board.total_mines, (), limit)
    except OracleLimit:
        return None
    if not found:
        raise ValueError("no layout of the board's mines shows its digits")
    return found


def endgame_move(board: Board, limit: int = ENDGAME_LAYOUTS, states: int | None = ENDGAME_STATES,
                 margin: Fraction | None = None) -> tuple[int, Fraction] | None:
    """The best cell to open under perfect play and its chance of winning; ties go to the lower mine probability,
    then the lower index.  None past ``limit`` layouts or ``states`` memoised states.  ``margin``: only cells
    whose mine probability is within it of the lowest are weighed (None: every cell).

    Cells are tried safest first (then by index), each against the best so far: W(c) is at most the layouts
    safe at c, so once a cell is no safer than the best W found, no later cell can beat it, and a cell that
    only ties never replaces the earlier (safer, or as safe and lower) one."""
    found = position_layouts(board, limit)
    if found is None:
        return None
    try:
        return _best_move(board, found, _search(board, states), margin)
    except OracleLimit:
        return None


def _search(board: Board, states: int | None) -> Search:
    """A fresh search over the board's grid, without symmetry keys (a board in play is rarely symmetric)."""
    return Search(grid(board.width, board.height), symmetric=False, max_states=states)


def _best_move(board: Board, found: tuple[int, ...], search: Search,
               margin: Fraction | None) -> tuple[int, Fraction] | None:
    """``endgame_move`` over the board's layouts ``found`` with ``search`` (OracleLimit past its states)."""
    union = inter = found[0]
    for lay in found:
        union |= lay
        inter &= lay
    open_cells = [c for c in range(board.size) if board.cells[c] == COVERED and not inter >> c & 1]
    if not open_cells:
        return None
    n = len(found)
    mines = mines_per_cell(found, board.size)
    safe = {c: n - mines[c] for c in open_cells}
    if margin is not None:
        most = max(safe.values())
        open_cells = [c for c in open_cells if Fraction(most - safe[c], n) <= margin]
    known = sum(1 << c for c in board.digits)
    best, best_wins = None, 0
    for cell in sorted(open_cells, key=lambda c: (-safe[c], c)):
        if safe[cell] <= best_wins:
            break
        wins = search.move(found, cell, known, best_wins)
        if wins > best_wins:
            best, best_wins = cell, wins
    assert best is not None
    return best, Fraction(best_wins, n)


def mines_per_cell(found: tuple[int, ...], size: int) -> list[int]:
    """Per cell, the layouts (bitmasks) with a mine there: one pass over each layout's mines (its binary
    digits found by the string search), not a shift of every layout for every cell."""
    counts = [0] * size
    for lay in found:
        digits = bin(lay)
        last = len(digits) - 1  # the string's index of bit 0
        at = digits.find("1", 2)
        while at != -1:
            counts[last - at] += 1
            at = digits.find("1", at + 1)
    return counts


def move_shortfall(board: Board, cell: int, limit: int = ENDGAME_LAYOUTS,
                   states: int | None = ENDGAME_STATES) -> Fraction | None:
    """How much less opening ``cell`` wins under perfect play than the best move (0 for a best move); None past
    ``limit`` layouts or ``states`` memoised states (in either search)."""
    found = position_layouts(board, limit)
    if found is None:
        return None
    search = _search(board, states)  # one memo for both: the best move's states serve the cell's too
    try:
        best = _best_move(board, found, search, None)
        if best is None:
            return None
        if best[0] == cell:
            return Fraction(0)
        wins = search.move(found, cell, sum(1 << c for c in board.digits), 0)
    except OracleLimit:
        return None
    return best[1] - Fraction(wins, len(found))
