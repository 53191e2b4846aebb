"""The player that plays generated games: sound deduction (the single-digit rules, then the exact counter's
certain cells) and, where stuck, the safest guess by the exact counter.  ``play``, ``guess`` and the positions of
``boards.positions`` are games it played; ``minecheck.strategies`` deals with it too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from minecheck.engine.counter import count_board
from minecheck.model.board import neighbours
from minecheck.model.position import Position, open_cell, render


def deal(rng: random.Random, width: int, height: int, mines: int) -> tuple[Position, int]:
    """Mines placed away from a first click (its 3x3 square is safe, as in the game), and that click."""
    first = rng.randrange(width * height)
    keep_clear = set(neighbours(width, height, first)) | {first}
    spots = [c for c in range(width * height) if c not in keep_clear]
    return Position(width, height, frozenset(rng.sample(spots, mines)), frozenset()), first


def play_once(rng: random.Random, width: int, height: int, mines: int, guesses: int) -> Position:
    return play_out(*deal(rng, width, height, mines), guesses)


def play_out(pos: Position, first: int, guesses: int = 0) -> Position:
    """Play a dealt position: open ``first``, then deduce until stuck; ``guesses`` safest guesses continue it."""
    width, height = pos.width, pos.height
    pos = open_cell(pos, first)
    left = guesses
    while True:
        pos = deduce(pos)
        if len(pos.opened) + len(pos.mines) == width * height or left == 0:
            return pos
        cell = safest_guess(pos)
        if cell in pos.mines:
            return pos  # the guess would lose: the stuck position is the board
        pos = open_cell(pos, cell)
        left -= 1


def deduce(pos: Position) -> Position:
    """Open every provably safe cell and flag every provable mine, until nothing more follows."""
    while True:
        pos, moved = trivial_moves(pos)
        if moved:
            continue
        count = count_board(render(pos))
        safe = [c for c, p in count.probabilities if p == 0]
        mine = [c for c, p in count.probabilities if p == 1]
        if not safe and not mine:
            return pos
        pos = replace(pos, flags=pos.flags | frozenset(mine))
        for c in safe:
            pos = open_cell(pos, c)


def trivial_moves(pos: Position) -> tuple[Position, bool]:
    """One pass of the single-digit rules (all mines found / all covered are mines)."""
    board = render(pos)
    opened, flags = set(), set()
    for d in board.digits:
        around = board.neighbours(d)
        covered = [n for n in around if board.is_covered(n)]
        if not covered:
            continue
        need = board.cells[d] - sum(1 for n in around if board.is_flag(n))
        if need == 0:
            opened.update(covered)
        elif need == len(covered):
            flags.update(covered)
    pos = replace(pos, flags=pos.flags | frozenset(flags))
    for c in sorted(opened):
        pos = open_cell(pos, c)
    return pos, bool(opened or flags)


def safest_guess(pos: Position) -> int:
    """The covered cell with the lowest exact mine probability (lowest index on ties)."""
    count = count_board(render(pos))
    return min((p, c) for c, p in count.probabilities if p is not None)[1]


def stuck_positions(pos: Position, first: int) -> Iterator[Position]:
    """Each position of a game where deduction is stuck (the player must guess), then its last: the game won, or
    the position in which the safest guess would hit a mine.  The player guesses the safest cell each time."""
    pos = open_cell(pos, first)
    while True:
        pos = deduce(pos)
        yield pos
        if len(pos.opened) + len(pos.mines) == pos.width * pos.height:
            return
        cell = safest_guess(pos)
        if cell in pos.mines:
            return
        pos = open_cell(pos, cell)
