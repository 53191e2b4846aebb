"""Faulty solvers that need the boards of issue 37: a guessing position with few layouts and proved mines left
covered, a board of 8 to 12 cells, and an engine that reads flags as the player's marks.  Each is one mistake
planted in the exact counter, as in ``bench/faults.py``; ``BOARD_FAULTS`` maps a name to its class and
``BOARD_WITNESS`` gives a board that shows each (tests/bench/test_board_faults.py checks both ways).
"""

from __future__ import annotations

from faults import EdgeWrap, Faulty

from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.solver import MARKS

GUESS_PATH = (10, 1000)  # the layouts (without the total) for which the engine below enumerates them


def trivial_mines(board: Board) -> frozenset[int]:
    """Covered cells a single digit proves mines: its covered neighbours are exactly what it still needs."""
    out: set[int] = set()
    for d in board.digits:
        around = board.neighbours(d)
        covered = [n for n in around if board.is_covered(n)]
        if covered and board.cells[d] - sum(board.is_flag(n) for n in around) == len(covered):
            out.update(covered)
    return frozenset(out)


class MinesCountedTwice(Faulty):
    """Reads each digit as owing its proved mines twice: the ones it found itself, and the same cells still covered."""

    found: frozenset[int] = frozenset()

    def need(self, board: Board, digit: int, flagged: int) -> int:
        return board.cells[digit] - flagged - sum(n in self.found for n in board.neighbours(digit))

    def count(self, board: Board, mode: Mode) -> SolverResult:
        self.found = self.proved(board)
        try:
            return super().count(board, mode)
        finally:
            self.found = frozenset()

    def proved(self, board: Board) -> frozenset[int]:
        return trivial_mines(board)


class GuessMinesTwice(MinesCountedTwice):
    key = "guess-mines-twice"
    fault = ("its guessing path (no cell safe, 10 to 1,000 layouts, which it enumerates) marks the proved mines left "
             "covered and takes them from their digits again")

    def proved(self, board: Board) -> frozenset[int]:
        count = count_board(board, Mode.LOCAL)
        if not count.consistent or not GUESS_PATH[0] <= count.layouts <= GUESS_PATH[1]:
            return frozenset()
        if any(p == 0 for _, p in count.probabilities):
            return frozenset()  # a safe cell: it opens that, no guess
        return frozenset(c for c, p in count.probabilities if p == 1 and board.is_covered(c))


class TableUpTo12(EdgeWrap):
    key = "table-8-to-12-cells"
    fault = ("boards of 8 to 12 cells go through a table-driven path whose neighbours are index offsets (the cell "
             "left of column 0 is the end of the row above); smaller ones through a tested brute force")

    def neighbours(self, board: Board, cell: int) -> tuple[int, ...]:
        return super().neighbours(board, cell) if 8 <= board.size <= 12 else board.neighbours(cell)


class MarksEngine(MinesCountedTwice):
    key = "marks-mines-twice"
    fault = ('reads flags as marks (flags = "marks": a flagged board it cannot answer); a digit with as many covered '
             "neighbours as it shows marks them and owes them again")
    flags = MARKS

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if board.flags:
            return SolverResult(self.name, mode, declined="a flag is a mark here, not a mine")
        return super().solve(board, mode)


BOARD_FAULTS: dict[str, type[Faulty]] = {cls.key: cls for cls in (GuessMinesTwice, TableUpTo12, MarksEngine)}

BOARD_WITNESS = {
    "guess-mines-twice": "8x5x8/01H2HmHm/13mmHHHH/mHmHHHHH/14mHHHHH/02mHHHHH",
    "table-8-to-12-cells": "4x2/HHH1/HHHH",
    "marks-mines-twice": "3x1/1H1",
}
