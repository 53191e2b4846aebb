"""Faulty solvers that need the positions of issue 51 (``minecheck.boards.positions``): a position the total
decides, a finished game, an endgame whose proved mines are left covered, a large component.  Each is one mistake
planted in the exact counter, as in ``bench/faults.py``; ``POSITION_FAULTS`` maps a name to its class and
``POSITION_WITNESS`` gives a board that shows each (tests/bench/test_position_faults.py checks both ways).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from faults import Faulty, _with_cells

from minecheck.engine.constraints import ConstraintSystem, Equation, build_constraints, split_components
from minecheck.engine.counter import count_board, count_system
from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict, verdict_of
from minecheck.model.board import Board

ENDGAME_CELLS = 12  # covered cells at most where the engine below takes its endgame path
CUT = 20  # cells of a component the estimating engine below reads


class TotalIgnoredOffFrontier(Faulty):
    key = "total-ignored-off-frontier"
    fault = ("the cells off every digit get their verdict from the digits alone, never from the total: unknown where "
             "the mines left make them all safe or all mines (their probabilities are right)")

    def adjust(self, board: Board, mode: Mode, result: SolverResult) -> SolverResult:
        if mode is Mode.LOCAL or result.consistent is False:
            return result
        off = set(build_constraints(board).off_frontier)
        return _with_cells(result, (replace(a, verdict=Verdict.UNKNOWN) if a.cell in off else a for a in result.cells))


class NoCoveredCellCrash(Faulty):
    key = "no-covered-cell-crash"
    fault = ("spreads the mines left over the covered cells left: a ZeroDivisionError on a finished game with the "
             "total stated (no covered cell)")

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if mode is Mode.GLOBAL:
            (board.total_mines - len(board.flags)) / len(board.covered)  # division by zero when none is left
        return super().solve(board, mode)


class EndgameMinesKept(Faulty):
    key = "endgame-mines-kept"
    fault = ("in an endgame (12 covered cells or fewer, none safe) it marks the proved mines for itself and weighs its "
             "guess with the mines left still counting them: each kept mine is owed twice by the total")

    def count(self, board: Board, mode: Mode) -> SolverResult:
        kept = self.kept(board) if mode is Mode.GLOBAL else frozenset()
        if not kept:
            return super().count(board, mode)
        equations = []
        for d in board.digits:
            around = board.neighbours(d)
            covered = tuple(sorted(n for n in around if board.is_covered(n) and n not in kept))
            need = board.cells[d] - sum(1 for n in around if board.is_flag(n) or n in kept)
            if covered:
                equations.append(Equation(covered, need, d))
        frontier = tuple(sorted({c for eq in equations for c in eq.cells}))
        off = tuple(c for c in board.covered if c not in set(frontier) and c not in kept)
        left = board.total_mines - len(board.flags)  # the kept mines not taken off: they are owed again
        system = ConstraintSystem(board, frontier, tuple(equations), split_components(tuple(equations)), off, left)
        count = count_system(system, mode)
        if not count.consistent:
            return SolverResult("", mode, consistent=False, reason=count.reason, layouts=0)
        cells = tuple(CellAnswer(c, verdict_of(p), p) for c, p in count.probabilities if p is not None)
        cells += tuple(CellAnswer(c, Verdict.MINE, Fraction(1)) for c in sorted(kept))
        return SolverResult("", mode, consistent=True, cells=tuple(sorted(cells, key=lambda a: a.cell)),
                            layouts=count.layouts)

    def kept(self, board: Board) -> frozenset[int]:
        """The covered proved mines of an endgame: few covered cells, none safe (else it opens that, no guess)."""
        if board.total_mines is None or not 0 < len(board.covered) <= ENDGAME_CELLS:
            return frozenset()
        local = count_board(board, Mode.LOCAL)
        if not local.consistent or any(p == 0 for _, p in local.probabilities):
            return frozenset()
        return frozenset(c for c, p in local.probabilities if p == 1)


class CutAtComponentSize(Faulty):
    key = "estimate-cut-at-20-cells"
    fault = (f"a component of more than {CUT} cells is cut to its first {CUT}: the digits that reach past them are "
             "dropped, and the cells past them answered as cells off the frontier")

    def read(self, board: Board) -> list[Equation] | str:
        equations = super().read(board)
        if isinstance(equations, str):
            return equations
        dropped: set[Equation] = set()
        for component in split_components(tuple(equations)):
            past = set(sorted(component.cells)[CUT:])
            dropped |= {eq for eq in component.equations if past & set(eq.cells)}
        return [eq for eq in equations if eq not in dropped]


POSITION_FAULTS: dict[str, type[Faulty]] = {cls.key: cls for cls in (
    TotalIgnoredOffFrontier, NoCoveredCellCrash, EndgameMinesKept, CutAtComponentSize)}

POSITION_WITNESS = {
    "total-ignored-off-frontier": "5x1x1/F1HHH",
    "no-covered-cell-crash": "2x1x1/F1",
    "endgame-mines-kept": "3x1x2/1HH",
    "estimate-cut-at-20-cells": "22x3/HHHHHHHHHHHHHHHHHHHHHH/1222222222222222222221/0000000000000000000000",
}
