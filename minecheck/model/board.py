"""A Minesweeper position as plain data, and its geometry.

Glossary (used across minecheck):
  cell      an index ``row * width + col`` into the row-major grid
  covered   not opened and not flagged; a solver's unknown
  flag      a covered cell the player marked; counts as a mine
  digit     an opened cell showing 0-8 mines around it
  truth     the hidden layout of a generated board: the set of all mine cells
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

COVERED = -1
FLAG = -2


@dataclass(frozen=True)
class Board:
    """Width x height cells (COVERED, FLAG or a digit 0-8), total mines if known, truth if known."""

    width: int
    height: int
    cells: tuple[int, ...]
    total_mines: int | None = None
    truth: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a board needs at least one cell, got {self.width}x{self.height}")
        if len(self.cells) != self.width * self.height:
            raise ValueError(f"{len(self.cells)} cells for a {self.width}x{self.height} board")

    def text(self) -> str:
        """The board in the .mine text format (``boardtext.parse_board`` reads it back to this board)."""
        head = f"{self.width}x{self.height}" + (f"x{self.total_mines}" if self.total_mines is not None else "")
        truth = self.truth or frozenset()
        symbol = {COVERED: "H", FLAG: "F"} | {d: str(d) for d in range(9)}
        out = [head]
        for r in range(self.height):
            base = r * self.width
            out.append("".join("m" if (v == COVERED and base + c in truth) else symbol[v]
                               for c, v in enumerate(self.cells[base:base + self.width])))
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        """Board text, as people read boards (hypothesis prints a failing example so), not a tuple of codes."""
        return f"parse_board({self.text()!r})"

    # -- coordinates -------------------------------------------------------
    def cell(self, row: int, col: int) -> int:
        return row * self.width + col

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The up to eight cells around ``cell``, in row-major order."""
        return neighbours(self.width, self.height, cell)

    # -- what the player sees ----------------------------------------------
    @cached_property
    def covered(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.cells) if v == COVERED)

    @cached_property
    def flags(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.cells) if v == FLAG)

    @cached_property
    def digits(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.cells) if v >= 0)

    def is_covered(self, cell: int) -> bool:
        return self.cells[cell] == COVERED

    def is_flag(self, cell: int) -> bool:
        return self.cells[cell] == FLAG

    def is_digit(self, cell: int) -> bool:
        return self.cells[cell] >= 0

    @property
    def size(self) -> int:
        return self.width * self.height


def crop_cell(width: int, cell: int, top: int, left: int, new_width: int, new_height: int) -> int | None:
    """``cell`` of a ``width``-wide grid as a cell of the new_width x new_height grid cut from it with
    its top-left at (top, left); None for a cell the crop removed."""
    row, col = divmod(cell, width)
    row, col = row - top, col - left
    return row * new_width + col if 0 <= row < new_height and 0 <= col < new_width else None


def neighbours(width: int, height: int, cell: int) -> tuple[int, ...]:
    """The up to eight cells around ``cell`` on a width x height grid, in row-major order."""
    row, col = divmod(cell, width)
    out = []
    for r in (row - 1, row, row + 1):
        if 0 <= r < height:
            for c in (col - 1, col, col + 1):
                if 0 <= c < width and (r != row or c != col):
                    out.append(r * width + c)
    return tuple(out)


def label(board: Board, cell: int) -> str:
    """A cell as people read it: ``r2c5`` (row and column from 0)."""
    row, col = board.row_col(cell)
    return f"r{row}c{col}"
