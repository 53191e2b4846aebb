"""The constraint system read straight off the cell array: what ``build_constraints`` gives, faster.

The counter is timed against other engines with the reading of the board included, and
``build_constraints`` asks the board for every neighbour and its kind one method call at a time
(most of the counter's time on a stuck Expert position).  This reads a neighbour table computed
once per board size and walks whichever side is smaller: the covered cells and flags (late in a
game) or the digits (early).  A digit it cannot meet sends the board to ``build_constraints``,
so a Contradiction keeps its exact words.  tests/engine/test_scan.py checks that the two agree.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import filterfalse

from minecheck.engine.constraints import (
    ConstraintSystem,
    Equation,
    build_constraints,
    make_equation,
    split_components,
)
from minecheck.model.board import COVERED, FLAG, Board, neighbours

TABLE = 1 << 16  # cells: a board up to this size keeps a table per size; a bigger one, only the cells walked

# per digit next to a covered cell: those cells (ascending); per digit next to a flag: how many
Around = tuple[dict[int, list[int]], dict[int, int]]
# the walk's result: the board, its covered cells, how many flags, and the Around
Reading = tuple[Board, list[int], int, dict[int, list[int]], dict[int, int]]
# the system before its split: board, equations, frontier, off-frontier cells, mines remaining
Parts = tuple[Board, tuple[Equation, ...], tuple[int, ...], tuple[int, ...], int | None]


def read_constraints(board: Board) -> ConstraintSystem:
    """The board's ConstraintSystem, equal to ``build_constraints(board)``; raises its Contradiction."""
    reading = read_board(board)
    if reading is None:
        return build_constraints(board)  # a digit no layout meets: the reference names it
    return system_of(equations_of(reading))


def read_board(board: Board) -> Reading | None:
    """The walk over the cells: per digit its covered neighbours and flags; None if some digit cannot be met."""
    cells, width, height = board.cells, board.width, board.height
    covered, flags = _where(cells, COVERED), _where(cells, FLAG)
    if 2 * (len(covered) + len(flags)) <= len(cells):
        found = _from_covered(cells, _table(width, height, covered + flags), covered, flags)
    else:  # the digits are listed only for a board too big for a table (a fresh board lists them anew)
        found = _from_digits(cells, neighbour_table(width, height) if len(cells) <= TABLE else
                             _neighbours_of(width, height, board.digits))
    return None if found is None else (board, covered, len(flags), *found)


def equations_of(reading: Reading) -> Parts:
    """The digits' equations (by their cell), the frontier, the cells off it and the mines left."""
    board, covered, flags, around, flagged = reading
    cells = board.cells
    equations = tuple([make_equation(tuple(around[d]), cells[d] - flagged.get(d, 0), d) for d in sorted(around)])
    in_frontier = {c for cs in around.values() for c in cs}
    frontier = tuple(sorted(in_frontier))
    off = tuple(filterfalse(in_frontier.__contains__, covered))
    remaining = None if board.total_mines is None else board.total_mines - flags
    return board, equations, frontier, off, remaining


def system_of(parts: Parts) -> ConstraintSystem:
    """The system, its equations split into components."""
    board, equations, frontier, off, remaining = parts
    return ConstraintSystem(board, frontier, equations, split_components(equations), off, remaining)


def _from_covered(cells: tuple[int, ...], table, covered: list[int], flags: list[int]) -> Around | None:
    """Walk the neighbours of covered cells and flags; None if some digit cannot be met."""
    flagged: dict[int, int] = {}
    for f in flags:
        for n in table[f]:
            if cells[n] >= 0:
                flagged[n] = flagged.get(n, 0) + 1
    around: dict[int, list[int]] = {}
    for c in covered:
        for n in table[c]:
            if cells[n] >= 0:
                around.setdefault(n, []).append(c)
    near_sum = 0
    for d in flagged.keys() | around.keys():
        digit = cells[d]
        near_sum += digit
        need = digit - flagged.get(d, 0)
        if need and not (d in around and 0 < need <= len(around[d])):
            return None
    # the digits no covered cell or flag touches must all be 0: their sum says so at once
    if sum(cells) - COVERED * len(covered) - FLAG * len(flags) != near_sum:
        return None
    return around, flagged


def _from_digits(cells: tuple[int, ...], table) -> Around | None:
    """Walk the neighbours of every digit; None if some digit cannot be met."""
    flagged: dict[int, int] = {}
    around: dict[int, list[int]] = {}
    for d, digit in enumerate(cells):
        if digit < 0:
            continue
        near, flags = [], 0
        for n in table[d]:
            if cells[n] == COVERED:
                near.append(n)
            elif cells[n] == FLAG:
                flags += 1
        need = digit - flags
        if need and not 0 < need <= len(near):
            return None
        if near:
            around[d] = near
        if flags:
            flagged[d] = flags
    return around, flagged


def _where(cells: tuple[int, ...], value: int) -> list[int]:
    """The cells holding ``value``, ascending: by the tuple's own search when they are few."""
    found = cells.count(value)
    if 2 * found > len(cells):
        return [i for i, v in enumerate(cells) if v == value]
    out, at = [], -1
    for _ in range(found):
        at = cells.index(value, at + 1)
        out.append(at)
    return out


@lru_cache(maxsize=8)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Every cell's neighbours on a width x height grid, computed once per size."""
    return tuple(neighbours(width, height, cell) for cell in range(width * height))


def _table(width: int, height: int, wanted):
    """cell -> its neighbours, for the cells walked: the table per size on a board up to TABLE cells."""
    return neighbour_table(width, height) if width * height <= TABLE else _neighbours_of(width, height, wanted)


def _neighbours_of(width: int, height: int, wanted) -> dict[int, tuple[int, ...]]:
    """The neighbours of the ``wanted`` cells only (a table of a million cells would take seconds and
    hundreds of megabytes): inside the grid by eight offsets, on its border as ``neighbours`` finds them."""
    out = {}
    last = (height - 1) * width
    for c in wanted:
        col = c % width
        if width <= c < last and 0 < col < width - 1:
            up, down = c - width, c + width
            out[c] = (up - 1, up, up + 1, c - 1, c + 1, down - 1, down, down + 1)
        else:
            out[c] = neighbours(width, height, c)
    return out


def frontier_size(board: Board) -> int:
    """The covered cells next to a digit, counted at array speed (tens of milliseconds on a million
    cells): what a reference with a limited reach reads to decline a board before it builds anything."""
    import numpy as np  # only the references' early decline needs it

    grid = np.array(board.cells, dtype=np.int8).reshape(board.height, board.width)
    digit = np.pad(grid >= 0, 1)
    near = np.zeros(grid.shape, dtype=bool)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                near |= digit[dr:dr + board.height, dc:dc + board.width]
    return int(np.count_nonzero(near & (grid == COVERED)))
