"""The constraint system a board implies: frontier, digit equations, components and boxes.

Every opened digit says "exactly k of these covered neighbours are mines".  This module
computes that once, as data, so that every solver reads the same geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board, label
from minecheck.model.errors import EngineError

_new = object.__new__


class Contradiction(EngineError, ValueError):
    """A digit that no layout can satisfy, named by its cell (row and column from 0)."""

    def __init__(self, board: Board, cell: int, reason: str):
        self.cell = cell
        self.row, self.col = board.row_col(cell)
        super().__init__(f"digit {board.cells[cell]} at {label(board, cell)}: {reason}")


@dataclass(frozen=True)
class Equation:
    """Exactly ``mines`` of ``cells`` are mines; ``source`` is the digit that says so."""

    cells: tuple[int, ...]
    mines: int
    source: int


@dataclass(frozen=True)
class Box:
    """Frontier cells that lie in exactly the same equations: s cells holding j mines give C(s, j) layouts."""

    cells: tuple[int, ...]
    equations: tuple[int, ...]  # indices into the component's equations


def make_equation(cells: tuple[int, ...], mines: int, source: int) -> Equation:
    """``Equation(cells, mines, source)``, the same object made in half the time: the instance's dict filled
    at once, not through the frozen class's ``object.__setattr__`` per field (a small call makes a dozen)."""
    eq = _new(Equation)
    fields = eq.__dict__
    fields["cells"] = cells
    fields["mines"] = mines
    fields["source"] = source
    return eq


def make_box(cells: tuple[int, ...], equations: tuple[int, ...]) -> Box:
    """``Box(cells, equations)``, made as ``make_equation`` makes an equation."""
    box = _new(Box)
    fields = box.__dict__
    fields["cells"] = cells
    fields["equations"] = equations
    return box


@dataclass(frozen=True)
class Component:
    """Frontier cells linked through shared equations; independent of every other component."""

    cells: tuple[int, ...]
    equations: tuple[Equation, ...]
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class ConstraintSystem:
    """What the digits say about the covered cells of one board."""

    board: Board
    frontier: tuple[int, ...]
    equations: tuple[Equation, ...]
    components: tuple[Component, ...]
    off_frontier: tuple[int, ...]
    mines_remaining: int | None  # total mines minus flags, when the total is known


@lru_cache(maxsize=4)
def build_constraints(board: Board) -> ConstraintSystem:
    """Derive the system; raise Contradiction for a digit that is locally impossible.

    Cached per board: every solver of a cross-check reads the same system.  Only digits next to
    a covered cell or a flag can give an equation; every other digit must be 0.
    """
    near = {n for c in board.covered + board.flags for n in board.neighbours(c)}
    for cell in board.digits:
        if cell not in near and board.cells[cell]:
            raise Contradiction(board, cell, f"needs {board.cells[cell]} more mines but has only 0 covered neighbours")
    equations = tuple(eq for eq in (_equation(board, c) for c in sorted(near) if board.is_digit(c)) if eq is not None)
    frontier = tuple(sorted({cell for eq in equations for cell in eq.cells}))
    in_frontier = set(frontier)
    off = tuple(c for c in board.covered if c not in in_frontier)
    remaining = None if board.total_mines is None else board.total_mines - len(board.flags)
    return ConstraintSystem(board, frontier, equations, split_components(equations), off, remaining)


def _equation(board: Board, cell: int) -> Equation | None:
    digit = board.cells[cell]
    around = board.neighbours(cell)
    flagged = sum(1 for n in around if board.is_flag(n))
    covered = tuple(n for n in around if board.is_covered(n))
    need = digit - flagged
    if need < 0:
        raise Contradiction(board, cell, f"{flagged} flagged neighbours, more than {digit}")
    if need > len(covered):
        raise Contradiction(
            board, cell, f"needs {need} more mines but has only {len(covered)} covered neighbours")
    return Equation(covered, need, cell) if covered else None


def split_components(equations: tuple[Equation, ...]) -> tuple[Component, ...]:
    """Group equations whose cells overlap, and each group's cells into boxes, in one pass over the cells.

    The order is the one a reader expects: components by their first cell, each one's equations in
    the order given, its boxes by their first cell, a box's equations by their index in the component.
    """
    member: dict[int, list[int]] = {}  # cell -> the equations it lies in, ascending
    for index, eq in enumerate(equations):
        for cell in eq.cells:
            found = member.get(cell)
            if found is None:
                member[cell] = [index]
            else:
                found.append(index)
    cells = sorted(member)
    by_key: dict[tuple[int, ...], list[int]] = {}  # a box: the cells with the same equations, by first cell
    for cell in cells:
        key = tuple(member[cell])
        box = by_key.get(key)
        if box is None:
            by_key[key] = [cell]
        else:
            box.append(cell)
    # union-find over the equations, linked by each box's equations; a set's root is its lowest equation, so
    # a parent is never above its child and one pass upwards leaves every equation pointing at its root
    parent = list(range(len(equations)))
    for key in by_key:
        if len(key) > 1:
            root = key[0]
            while parent[root] != root:
                parent[root] = parent[parent[root]]
                root = parent[root]
            for other in key[1:]:
                while parent[other] != other:
                    parent[other] = parent[parent[other]]
                    other = parent[other]
                if other != root:
                    if other < root:
                        root, other = other, root
                    parent[other] = root
    for index in range(len(equations)):
        parent[index] = parent[parent[index]]
    if not equations:
        return ()
    if not any(parent):  # the usual case: one component, whose indices are the equations' own
        return (Component(tuple(cells), equations, tuple([make_box(tuple(box), key) for key, box in by_key.items()])),)
    position = [0] * len(equations)  # an equation's index within its component
    equations_of: dict[int, list[Equation]] = {}
    for index, eq in enumerate(equations):
        group = equations_of.setdefault(parent[index], [])
        position[index] = len(group)
        group.append(eq)
    cells_of: dict[int, list[int]] = {}
    for cell in cells:
        cells_of.setdefault(parent[member[cell][0]], []).append(cell)
    boxes_of: dict[int, list[Box]] = {root: [] for root in cells_of}
    for key, box in by_key.items():
        boxes_of[parent[key[0]]].append(make_box(tuple(box), tuple([position[e] for e in key])))
    return tuple(Component(tuple(cells), tuple(equations_of[root]), tuple(boxes_of[root]))
                 for root, cells in cells_of.items())


def system_or_refusal(name: str, board: Board, mode: Mode, **answer) -> ConstraintSystem | SolverResult:
    """The shared start of every solver that reads the constraint system: the system, or the
    inconsistent answer naming the digit (``answer`` adds fields such as layouts=0); the global
    mode on a board that states no total is bad input."""
    if mode is Mode.GLOBAL and board.total_mines is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    try:
        return build_constraints(board)
    except Contradiction as err:
        return SolverResult(name, mode, consistent=False, reason=str(err), **answer)
