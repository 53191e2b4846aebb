"""The 0-1 model of a board shared by the references: which cells are variables, which rows hold.

Local mode: one model per component (components are independent).  Global mode: one model of
the whole frontier, plus the off-frontier cells, which are interchangeable, so a reference may
stand for them all with one integer count ``off_mines`` in 0..len(off_frontier).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from minecheck.engine.constraints import ConstraintSystem, Equation
from minecheck.model.answers import Mode


@dataclass(frozen=True)
class Model:
    """Exactly ``eq.mines`` of ``eq.cells`` for every equation; with a total, sum(cells) + off_mines = total."""

    cells: tuple[int, ...]
    equations: tuple[Equation, ...]
    off_cells: tuple[int, ...] = ()
    total: int | None = None  # mines among cells + off cells, in the global mode

    @cached_property
    def cell_set(self) -> frozenset[int]:
        return frozenset(self.cells)


def models(system: ConstraintSystem, mode: Mode) -> tuple[Model, ...]:
    """The independent models a board splits into in this mode."""
    if mode is Mode.LOCAL:
        return tuple(Model(c.cells, c.equations) for c in system.components)
    assert system.mines_remaining is not None, "the global mode needs the total mine count"
    return (Model(system.frontier, system.equations, system.off_frontier, system.mines_remaining),)
