"""Every layout of a small board with its weight: the proof of its count and of each probability.

The layouts are of the frontier (the covered cells digits touch), visited by backtracking over the
board's own rules (``minecheck.certify.rules``).  In the local mode each counts once; in the global
mode a frontier layout with k mines stands for C(off, remaining - k) layouts of the board, one for
each way to lay the mines it leaves over on the ``off`` covered cells no digit touches.  The count
is the sum of the weights, a cell's probability the weight of the layouts with it a mine over the
count: a page lists them and a reader adds them up.  ``check_enumeration`` checks a list: each
layout keeps every digit, none twice, each weight right, and none missing (their number against
``minecheck.engine.enumeration``, the plain enumeration ``brute`` runs, which shares no code with this).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from minecheck.certify.rules import Reading
from minecheck.engine.enumeration import TooBig, enumerate_count
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, Board
from minecheck.model.errors import EngineError

LIMIT = 1_000  # layouts listed at most: a page of a shrunk board shows them all


@dataclass(frozen=True)
class Layout:
    """The frontier cells that are mines, and how many layouts of the board this one stands for."""

    mines: tuple[int, ...]
    weight: int


@dataclass(frozen=True)
class Enumeration:
    """Every layout of a board's frontier in one mode, each with its weight."""

    mode: Mode
    frontier: tuple[int, ...]
    off: tuple[int, ...]  # covered cells no digit touches (weighed, not listed)
    remaining: int | None  # mines left for the covered cells (global mode)
    layouts: tuple[Layout, ...]

    @property
    def count(self) -> int:
        return sum(lay.weight for lay in self.layouts)

    def probability(self, cell: int) -> Fraction | None:
        """The cell's exact mine probability from the list (None: an off-frontier cell in the local mode,
        or a board without layouts)."""
        if not self.count:
            return None
        if cell in self.off:
            if self.remaining is None:
                return None
            off_mines = sum(lay.weight * (self.remaining - len(lay.mines)) for lay in self.layouts)
            return Fraction(off_mines, self.count * len(self.off))
        return Fraction(sum(lay.weight for lay in self.layouts if cell in lay.mines), self.count)


class TooMany(EngineError, ValueError):
    """The board has more layouts than the enumeration lists."""


def enumerate_layouts(board: Board, mode: Mode, limit: int = LIMIT) -> Enumeration:
    """Every frontier layout keeping the board's digits and flags, weighed; TooMany past ``limit``."""
    reading = Reading(board, mode)
    rules = [r for k, r in reading.rules.items() if k[0] == "digit"]
    flags = set(board.flags)
    frontier = tuple(sorted({c for r in rules for c in r.cells if c not in flags}))
    owed = [r.mines - sum(1 for c in r.cells if c in flags) for r in rules]
    free = [sum(1 for c in r.cells if c not in flags) for r in rules]
    touching = {c: [i for i, r in enumerate(rules) if c in r.cells] for c in frontier}
    remaining = None if mode is Mode.LOCAL else board.total_mines - len(flags)
    off = reading.off_frontier
    found: list[Layout] = []
    mines: list[int] = []
    if any(not 0 <= o <= f for o, f in zip(owed, free)):
        return Enumeration(mode, frontier, off, remaining, ())

    def visit(i: int) -> None:
        if i == len(frontier):
            weight = 1 if remaining is None else comb(len(off), remaining - len(mines)) if (
                0 <= remaining - len(mines) <= len(off)) else 0
            if weight:
                if len(found) == limit:
                    raise TooMany(f"more than {limit} layouts to list")
                found.append(Layout(tuple(mines), weight))
            return
        cell = frontier[i]
        for mine in (1, 0):
            for r in touching[cell]:
                free[r] -= 1
                owed[r] -= mine
            if all(0 <= owed[r] <= free[r] for r in touching[cell]):
                mines.extend([cell] * mine)
                visit(i + 1)
                del mines[len(mines) - mine:]
            for r in touching[cell]:
                free[r] += 1
                owed[r] += mine

    visit(0)
    return Enumeration(mode, frontier, off, remaining, tuple(found))


def check_enumeration(board: Board, enumeration: Enumeration) -> list[str]:
    """Why the list is not every layout of the board with its weight (empty: it is)."""
    problems = []
    flags = set(board.flags)
    for lay in enumeration.layouts:
        mines = set(lay.mines) | flags
        if not set(lay.mines) <= set(enumeration.frontier) or any(board.cells[c] != COVERED for c in lay.mines):
            problems.append(f"layout {lay.mines} puts a mine off the frontier")
        for d in board.digits:
            if sum(1 for n in _around(board, d) if n in mines) != board.cells[d]:
                problems.append(f"layout {lay.mines} breaks the digit at cell {d}")
                break
        if enumeration.remaining is not None:
            left = enumeration.remaining - len(lay.mines)
            right = comb(len(enumeration.off), left) if 0 <= left <= len(enumeration.off) else 0
            if lay.weight != right:
                problems.append(f"layout {lay.mines} weighs {lay.weight}, not C({len(enumeration.off)}, {left})")
        elif lay.weight != 1:
            problems.append(f"layout {lay.mines} weighs {lay.weight} in the local mode")
    if len({lay.mines for lay in enumeration.layouts}) != len(enumeration.layouts):
        problems.append("a layout is listed twice")
    try:
        others = enumerate_count(board, enumeration.mode)
    except TooBig as err:
        return problems + [f"cannot be counted again: {err}"]
    if others.layouts != enumeration.count:
        problems.append(f"{enumeration.count} layouts listed, the plain enumeration counts {others.layouts}")
    return problems


def _around(board: Board, cell: int) -> list[int]:
    row, col = divmod(cell, board.width)
    return [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
            if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]
