"""Seeded boards: every board is reproducible from (generator, parameters, seed) on any machine.

* ``reveal``: random mines, each safe cell opened with a given probability (article 000's check);
* ``play``: a real game - a safe first click with its 3x3 neighbourhood, openings flood-filled,
  cells opened and flagged by sound deduction until stuck, optionally continued by guesses;
* ``stress``: large loose frontiers from many extra safe openings, to push the counter.

Randomness comes from ``random.Random`` seeded with an integer derived by SHA-256 from the
recipe, so the stream does not depend on the platform or on PYTHONHASHSEED.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace

from minecheck.board import Board, neighbours
from minecheck.position import Position, open_cell, render

LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


@dataclass(frozen=True)
class Recipe:
    """How to make one board again: the generator's name, its parameters, the seed."""

    generator: str
    params: tuple[tuple[str, object], ...]
    seed: int

    def describe(self) -> str:
        args = " ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.generator} {args} seed={self.seed}".replace("  ", " ")


def rng_for(recipe: Recipe, salt: str = "") -> random.Random:
    text = f"{recipe.generator}|{recipe.params!r}|{recipe.seed}|{salt}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def recipe(generator: str, seed: int, **params: object) -> Recipe:
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    return Recipe(generator, tuple(sorted(params.items())), seed)


def generate(rec: Recipe) -> Position:
    """The position a recipe makes (render() turns it into a Board)."""
    return GENERATORS[rec.generator](rec, **dict(rec.params))


def generate_board(rec: Recipe) -> Board:
    return render(generate(rec))


# -- reveal ----------------------------------------------------------------------------------

def reveal(rec: Recipe, width: int = 5, height: int = 4, density: float = 0.18,
           open_prob: float = 0.45, show_total: bool = True) -> Position:
    """Independent mines with the given density; each safe cell opened with probability open_prob."""
    rng = rng_for(rec)
    cells = range(width * height)
    mines = frozenset(c for c in cells if rng.random() < density)
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    return Position(width, height, mines, opened, frozenset(), show_total)


# -- play ------------------------------------------------------------------------------------

def play(rec: Recipe, level: str = "", width: int = 9, height: int = 9, mines: int = 10,
         guesses: int = 0) -> Position:
    """A game played by sound deduction until stuck; ``guesses`` safest-cell guesses continue it."""
    if level:
        width, height, mines = LEVELS[level]
    if mines > width * height - 9:
        raise ValueError(f"{mines} mines do not fit a {width}x{height} board with a safe first click")
    for attempt in range(100):  # a game solved outright is no position; deal again
        pos = _play_once(rng_for(rec, str(attempt)), width, height, mines, guesses)
        if len(pos.opened) + len(pos.flags) < width * height:
            return pos
    return pos


def _play_once(rng: random.Random, width: int, height: int, mines: int, guesses: int) -> Position:
    first = rng.randrange(width * height)
    keep_clear = set(neighbours(width, height, first)) | {first}
    spots = [c for c in range(width * height) if c not in keep_clear]
    pos = Position(width, height, frozenset(rng.sample(spots, mines)), frozenset())
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
    from minecheck.counter import count_board  # the counter is the sound deduction

    while True:
        pos, moved = _trivial_moves(pos)
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


def _trivial_moves(pos: Position) -> tuple[Position, bool]:
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
    from minecheck.counter import count_board

    count = count_board(render(pos))
    return min((p, c) for c, p in count.probabilities if p is not None)[1]


# -- stress ----------------------------------------------------------------------------------

def stress(rec: Recipe, width: int = 30, height: int = 16, density: float = 0.2,
           open_prob: float = 0.3, show_total: bool = True) -> Position:
    """Many scattered single openings (no flood fill): large, loosely constrained frontiers."""
    rng = rng_for(rec)
    cells = list(range(width * height))
    mines = frozenset(rng.sample(cells, round(density * len(cells))))
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    return Position(width, height, mines, opened, frozenset(), show_total)


GENERATORS = {"reveal": reveal, "play": play, "stress": stress}

__all__ = ["Recipe", "recipe", "generate", "generate_board", "GENERATORS", "LEVELS"]
