"""A position as the choices that built it: hidden mines, opened cells, flags, extent.

Generators make positions and shrinking edits them; a position always renders to a board
whose digits are true to its mines, so every edited position is valid by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from minecheck.model.board import COVERED, FLAG, Board, neighbours


@dataclass(frozen=True)
class Position:
    """Hidden mines, opened (safe) cells and flags (mines) on a width x height grid."""

    width: int
    height: int
    mines: frozenset[int]
    opened: frozenset[int]
    flags: frozenset[int] = frozenset()
    show_total: bool = True  # whether the board states its total mine count

    def __post_init__(self) -> None:
        if self.opened & self.mines:
            raise ValueError("an opened cell cannot be a mine")
        if not self.flags <= self.mines:
            raise ValueError("a flag must be on a mine")


def render(pos: Position) -> Board:
    """The board a player sees: digits on opened cells, F on flags, covered elsewhere."""
    total = len(pos.mines) if pos.show_total else None
    return Board(pos.width, pos.height, seen_cells(pos.width, pos.height, pos.mines, pos.opened, pos.flags), total,
                 pos.mines)


def seen_cells(width: int, height: int, mines: frozenset[int], opened: frozenset[int],
               flags: frozenset[int]) -> tuple[int, ...]:
    """Each cell as the player sees it: its digit when opened, F when flagged, covered otherwise."""
    cells = [COVERED] * (width * height)
    for c in opened:
        cells[c] = sum(1 for n in neighbours(width, height, c) if n in mines)
    for c in flags:
        cells[c] = FLAG
    return tuple(cells)


def position_of(board: Board) -> Position:
    """The position behind a board that carries its hidden truth."""
    if board.truth is None:
        raise ValueError("this board has no hidden truth to rebuild a position from")
    return Position(board.width, board.height, board.truth, frozenset(board.digits),
                    frozenset(board.flags), board.total_mines is not None)


def open_cell(pos: Position, cell: int) -> Position:
    """Open a safe cell, flood-filling through zeros as the game does."""
    return replace(pos, opened=flood(pos.width, pos.height, pos.mines, pos.flags, pos.opened, cell))


def flood(width: int, height: int, mines: frozenset[int], flags: frozenset[int], opened: frozenset[int],
          cell: int) -> frozenset[int]:
    """The open cells after opening safe ``cell``: the fill spreads through zeros, never through a flag."""
    out = set(opened)
    todo = [cell]
    while todo:
        cur = todo.pop()
        if cur in out or cur in flags:
            continue
        out.add(cur)
        around = neighbours(width, height, cur)
        if not any(n in mines for n in around):
            todo.extend(n for n in around if n not in out)
    return frozenset(out)
