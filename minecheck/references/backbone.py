"""Backbones: which cells are a mine in every layout, which in none, from any feasibility oracle.

Every solution found is kept: a cell seen both as a mine and as safe is undetermined and is
never asked about.  The off-frontier cells of the global mode are interchangeable, so they are
one question pair about their mine count ("can it be above 0?", "can it be below all?").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minecheck.model.answers import CellAnswer, Verdict
from minecheck.references.model import Model

OFF = -1  # the pseudo-cell standing for the off-frontier mine count


@dataclass(frozen=True)
class Solution:
    """One feasible assignment: the frontier cells that are mines, and the off-frontier mine count."""

    mines: frozenset[int]
    off_mines: int = 0


@dataclass
class Seen:
    """For each cell, the values it has taken in the solutions found so far."""

    model: Model
    mine: set[int] = field(default_factory=set)
    safe: set[int] = field(default_factory=set)

    def add(self, sol: Solution) -> None:
        cells = self.model.cell_set
        self.mine |= sol.mines & cells
        self.safe |= cells - sol.mines
        if self.model.off_cells:
            if sol.off_mines > 0:
                self.mine.add(OFF)
            if sol.off_mines < len(self.model.off_cells):
                self.safe.add(OFF)

    def open_questions(self) -> list[tuple[int, bool]]:
        """(cell, value) pairs not yet seen: can this cell be a mine (True) / be safe (False)?"""
        cells = list(self.model.cells) + ([OFF] if self.model.off_cells else [])
        return [(c, c not in self.mine) for c in cells if (c in self.mine) != (c in self.safe)]

    def answers(self) -> tuple[CellAnswer, ...]:
        out = []
        for c in self.model.cells:
            out.append(CellAnswer(c, _verdict(c in self.mine, c in self.safe)))
        if self.model.off_cells:
            v = _verdict(OFF in self.mine, OFF in self.safe)
            out.extend(CellAnswer(c, v) for c in self.model.off_cells)
        return tuple(out)


def _verdict(can_mine: bool, can_safe: bool) -> Verdict:
    if can_mine and can_safe:
        return Verdict.UNKNOWN
    return Verdict.MINE if can_mine else Verdict.SAFE


def satisfies(model: Model, sol: Solution) -> bool:
    """Check a solution against every row of the model: a found layout is a certificate anyone can verify."""
    if any(sum(1 for c in eq.cells if c in sol.mines) != eq.mines for eq in model.equations):
        return False
    if not sol.mines <= set(model.cells):
        return False
    if model.total is not None:
        return 0 <= sol.off_mines <= len(model.off_cells) and len(sol.mines) + sol.off_mines == model.total
    return sol.off_mines == 0
