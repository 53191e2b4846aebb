"""Boards one or a few changes away from another: what a campaign's search makes (``campaigns.search``, issue 51).

A ``search`` recipe names its parent (the recipe of the board a subject came closest to being wrong on) and the
seeds of the rounds of changes made to it, so it replays from the recipe alone, as any board does.  A round draws
one to three changes, each one a player's or a board's: a mine moved, a cell opened (flood-filled) or closed, a
mine flagged or its flag taken back, every flag taken back, the total stated or not, the total at the fewest or
the most mines the digits allow, the game played on, the game finished, a row or a column of covered cells more.
Each edits the position (the choices that built the board), so every board made is true to its mines.  A parent
that is no position (a board that cannot be) gets a digit or its total moved by one instead.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace

from minecheck.boards.layouts import extreme_mines
from minecheck.boards.player import deduce
from minecheck.boards.recipe import Recipe
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.position import Position, open_cell

PLAY_CELLS = 2000  # a board past this many cells is not played on (deduction is a counter call per move)


def recipe_json(rec: Recipe) -> str:
    """A recipe as one JSON string: how a search recipe names its parent."""
    return json.dumps([rec.generator, [list(p) for p in rec.params], rec.seed], separators=(",", ":"))


def recipe_from_json(text: str) -> Recipe:
    generator, params, seed = json.loads(text)
    return Recipe(generator, tuple((k, v) for k, v in params), seed)


def step_rng(seed: int, step: int) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(f"search|{seed}|{step}".encode()).digest()[:8], "big"))


# -- changes to a position -------------------------------------------------------------------

def _covered(pos: Position) -> list[int]:
    return [c for c in range(pos.width * pos.height) if c not in pos.opened and c not in pos.flags]


def move_mine(rng: random.Random, pos: Position) -> Position:
    free = [c for c in _covered(pos) if c not in pos.mines]
    hidden = sorted(pos.mines - pos.flags)
    if not free or not hidden:
        return pos
    gone, new = rng.choice(hidden), rng.choice(free)
    return replace(pos, mines=(pos.mines - {gone}) | {new})


def open_one(rng: random.Random, pos: Position) -> Position:
    safe = [c for c in _covered(pos) if c not in pos.mines]
    return open_cell(pos, rng.choice(safe)) if safe else pos


def close_one(rng: random.Random, pos: Position) -> Position:
    return replace(pos, opened=pos.opened - {rng.choice(sorted(pos.opened))}) if pos.opened else pos


def flag_one(rng: random.Random, pos: Position) -> Position:
    unflagged = sorted(pos.mines - pos.flags)
    return replace(pos, flags=pos.flags | {rng.choice(unflagged)}) if unflagged else pos


def unflag_one(rng: random.Random, pos: Position) -> Position:
    return replace(pos, flags=pos.flags - {rng.choice(sorted(pos.flags))}) if pos.flags else pos


def unflag_all(rng: random.Random, pos: Position) -> Position:
    return replace(pos, flags=frozenset())


def toggle_total(rng: random.Random, pos: Position) -> Position:
    return replace(pos, show_total=not pos.show_total)


def fewest_total(rng: random.Random, pos: Position) -> Position:
    return extreme_mines(pos, fewest=True)


def most_total(rng: random.Random, pos: Position) -> Position:
    return extreme_mines(pos, fewest=False)


def play_on(rng: random.Random, pos: Position) -> Position:
    """Deduction until stuck, then one guess among the safe covered cells (a lucky one), then deduction again."""
    if pos.width * pos.height > PLAY_CELLS:
        return pos
    return deduce(open_one(rng, deduce(pos)))


def finish(rng: random.Random, pos: Position) -> Position:
    return replace(pos, opened=frozenset(range(pos.width * pos.height)) - pos.mines)


def grow(rng: random.Random, pos: Position) -> Position:
    """A column (or a row) of covered cells more, on the right (or at the bottom), with no mine."""
    if rng.random() < 0.5:
        w = pos.width + 1
        moved = {c: c // pos.width * w + c % pos.width for c in range(pos.width * pos.height)}
        return Position(w, pos.height, frozenset(moved[c] for c in pos.mines), frozenset(moved[c] for c in pos.opened),
                        frozenset(moved[c] for c in pos.flags), pos.show_total)
    return replace(pos, height=pos.height + 1)


CHANGES = (move_mine, open_one, close_one, flag_one, unflag_one, unflag_all, toggle_total, fewest_total, most_total,
           play_on, finish, grow)
WEIGHTS = (4, 4, 3, 2, 2, 1, 2, 1, 1, 2, 0.5, 1)  # small steps most often: a climb keeps most of what it found


def change_position(rng: random.Random, pos: Position) -> Position:
    """One to three changes drawn from CHANGES (by WEIGHTS)."""
    for _ in range(rng.randint(1, 3)):
        pos = rng.choices(CHANGES, WEIGHTS)[0](rng, pos)
    return pos


def change(rng: random.Random, made: Position | Board) -> Position | Board:
    """One round of changes: to the position, or to a board with no position behind it."""
    return change_board(rng, made) if isinstance(made, Board) else change_position(rng, made)


def change_board(rng: random.Random, board: Board) -> Board:
    """A board with no position behind it: one digit, or its total, one up or down (it may become possible)."""
    cells = list(board.cells)
    digits = [c for c, v in enumerate(cells) if v not in (COVERED, FLAG)]
    if digits and (board.total_mines is None or rng.random() < 0.7):
        c = rng.choice(digits)
        cells[c] = min(8, max(0, cells[c] + rng.choice((-1, 1))))
        return Board(board.width, board.height, tuple(cells), board.total_mines)
    total = board.total_mines
    flags = sum(v == FLAG for v in cells)
    moved = None if total is None else min(board.size, max(flags, total + rng.choice((-1, 1))))
    return Board(board.width, board.height, tuple(cells), moved)
