"""The game itself: dealing game i of seed S, the first-click rules, moves, winning and losing.

Glossary (with board.py's):
  size        width, height and mines of a game (``beginner`` 9x9/10, ``intermediate`` 16x16/40,
              ``expert`` 30x16/99, or ``WxHxM``)
  deal        the hidden mines of one game, made from (seed, index) alone, and its first click
  first click the centre cell (row h//2, column w//2) unless told otherwise, as both articles'
              programs click; the rule says which cells the deal keeps clear of mines:
              ``safe`` the first cell, ``safe-3x3`` it and its neighbours, ``any`` none (the first
              click may lose the game before any player moves)
  move        open a cell, or flag it; a player's *decision* is one or more moves made on one view
  view        the board a player sees: digits, its own flags, covered cells, the total - never
              the hidden mines
  won         every safe cell is open (flags do not matter, as in every Minesweeper)
  lost        a mine was opened

A game is plain data (``Game``); every move returns a new game.  The player's flags are kept as
given, right or wrong: a wrong flag is the player's mistake to live with, not an error here.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, replace
from enum import StrEnum

from minecheck.boards.generators import LEVELS
from minecheck.model.board import Board, label, neighbours
from minecheck.model.errors import BadOption
from minecheck.model.position import Position, flood, seen_cells


@dataclass(frozen=True)
class Size:
    width: int
    height: int
    mines: int

    def describe(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"


class FirstClick(StrEnum):
    SAFE = "safe"  # the first cell is never a mine
    SAFE_3X3 = "safe-3x3"  # neither it nor its neighbours: the first click always opens an area
    ANY = "any"  # mines anywhere: the first click can lose


_SIZE = re.compile(r"^(\d+)x(\d+)x(\d+)$")


def parse_size(text: str) -> Size:
    """``beginner``, ``intermediate``, ``expert`` or ``WxHxM``; ValueError otherwise."""
    if text in LEVELS:
        return Size(*LEVELS[text])
    match = _SIZE.match(text.strip().lower())
    if not match:
        raise BadOption(f"size {text!r} is not beginner, intermediate, expert or WxHxM")
    size = Size(*map(int, match.groups()))
    if size.width < 1 or size.height < 1:
        raise BadOption(f"size {text!r} has no cells")
    return size


def first_cell(size: Size, where: str = "centre") -> int:
    """The first click: ``centre`` (row h//2, column w//2, as both articles click) or ``R,C``."""
    if where == "centre":
        return (size.height // 2) * size.width + size.width // 2
    try:
        row, col = (int(v) for v in where.split(","))
    except ValueError:
        raise BadOption(f"first cell {where!r} is not 'centre' or ROW,COL") from None
    if not (0 <= row < size.height and 0 <= col < size.width):
        raise BadOption(f"first cell {where!r} is off the {size.width}x{size.height} board")
    return row * size.width + col


def kept_clear(size: Size, rule: FirstClick, where: str = "centre") -> frozenset[int]:
    """The cells a deal never puts a mine on, under the first-click rule."""
    first = first_cell(size, where)
    if rule is FirstClick.ANY:
        return frozenset()
    if rule is FirstClick.SAFE:
        return frozenset({first})
    return frozenset({first, *neighbours(size.width, size.height, first)})


def check_fits(size: Size, rule: FirstClick, where: str = "centre") -> None:
    """A deal must be possible: the mines fit the cells the rule leaves them."""
    room = size.width * size.height - len(kept_clear(size, rule, where))
    if not 0 <= size.mines <= room:
        raise BadOption(f"{size.mines} mines do not fit a {size.width}x{size.height} board with first click "
                         f"{rule.value} ({room} cells can hold mines)")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: SHA-256 of (seed, index), so any game replays alone."""
    return int.from_bytes(hashlib.sha256(f"play|{seed}|{index}".encode()).digest()[:8], "big")


# -- the game ------------------------------------------------------------------------------------

class Action(StrEnum):
    OPEN = "open"
    FLAG = "flag"


@dataclass(frozen=True)
class Move:
    """One move and why the player made it: ``safe``/``mine`` (its verdict), ``lowest`` (the lowest
    mine probability it gave), ``blind`` (a guess without probabilities)."""

    action: Action
    cell: int
    reason: str = ""

    def describe(self, board: Board) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.action.value} {label(board, self.cell)}{why}"


@dataclass(frozen=True)
class Game:
    """A game in progress: the hidden mines, the open cells, the player's flags, the mine opened if any."""

    width: int
    height: int
    mines: frozenset[int]
    opened: frozenset[int] = frozenset()
    flags: frozenset[int] = frozenset()
    exploded: int | None = None

    @property
    def safe_cells(self) -> int:
        return self.width * self.height - len(self.mines)

    @property
    def won(self) -> bool:
        return self.exploded is None and len(self.opened) == self.safe_cells

    @property
    def lost(self) -> bool:
        return self.exploded is not None

    @property
    def over(self) -> bool:
        return self.won or self.lost


def deal(size: Size, rule: FirstClick, seed: int, index: int, where: str = "centre") -> Game:
    """Game ``index`` of seed ``seed``: mines drawn from (seed, index) alone, then the first click made."""
    check_fits(size, rule, where)
    clear = kept_clear(size, rule, where)
    spots = [c for c in range(size.width * size.height) if c not in clear]
    mines = frozenset(random.Random(game_seed(seed, index)).sample(spots, size.mines))
    return open_cell(Game(size.width, size.height, mines), first_cell(size, where))


def open_cell(game: Game, cell: int) -> Game:
    """Open a covered cell: a mine loses the game, a safe cell opens and flood-fills through zeros
    (never through the player's flags). Opening an open or flagged cell, or any cell of a lost
    game, changes nothing. (A won game is over for ``play``; Article 003's loop plays on.)"""
    if game.lost or cell in game.opened or cell in game.flags:
        return game
    if cell in game.mines:
        return replace(game, exploded=cell)
    return replace(game, opened=flood(game.width, game.height, game.mines, game.flags, game.opened, cell))


def flag_cell(game: Game, cell: int) -> Game:
    """Flag a covered cell (right or wrong); flagging an open or flagged cell changes nothing."""
    if game.lost or cell in game.opened or cell in game.flags:
        return game
    return replace(game, flags=game.flags | {cell})


def play_move(game: Game, move: Move) -> Game:
    return open_cell(game, move.cell) if move.action is Action.OPEN else flag_cell(game, move.cell)


def view(game: Game) -> Board:
    """What the player sees: digits, its flags, covered cells and the total; no hidden truth."""
    cells = seen_cells(game.width, game.height, game.mines, game.opened, game.flags)
    return Board(game.width, game.height, cells, len(game.mines))


def position(game: Game) -> Position | None:
    """The game as a Position (with its hidden truth), or None when a flag is wrong (a Position
    cannot hold a flag on a safe cell)."""
    if not game.flags <= game.mines:
        return None
    return Position(game.width, game.height, game.mines, game.opened, game.flags)
