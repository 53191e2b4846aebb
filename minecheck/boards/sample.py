"""Seeded samples of the boards of 8 to 12 cells: past the exhaustive sweep (``boards.small``), whose
default walk stops at 7 cells while the smallest board showing some engines' bugs has 10.

A sample draws a shape of 8 to 12 cells (either way round, one cell wide included), then, as the sweep
varies them, where the mines are, which safe cells are open and which mines flagged (on half the boards
none: a no-flag player's), and whether the total is stated.  Every board is consistent: its truth is the
drawn layout (the impossible boards one change away are ``contradict``'s and the sweep's).

With ``guess``, the sample is drawn again until the player must guess on it, as on a ``guess`` board: no cell
known safe (nor with the total, where it is stated), a proved mine left covered, no flags, and 10 to 1,000
layouts without the total number.  A played game never stops there on so few cells (its first click opens a
3x3 square), so these are the guess positions of 8 to 12 cells; about one random draw in 1,200 is one.
"""

from __future__ import annotations

from dataclasses import replace

from minecheck.boards.layouts import scatter
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.errors import BadOption
from minecheck.model.position import Position, render

FEWEST, MOST = 8, 12  # cells: one past the sweep's default walk (7) and its largest sweep (8), up to 12
GUESS_LAYOUTS = (10, 1000)  # a guess sample's layouts without the total, as a ``guess`` board's
GUESS_DRAWS = 20_000  # draws a guess sample makes before it keeps the last (one in about 1,200 is kept: 0.1 s)


def sample_shapes(fewest: int = FEWEST, most: int = MOST) -> tuple[tuple[int, int], ...]:
    """(width, height) of every shape of ``fewest`` to ``most`` cells, both ways round, by cell count."""
    return tuple((size // height, height) for size in range(fewest, most + 1) for height in range(1, size + 1)
                 if size % height == 0)


def sample(rec: Recipe, fewest: int = FEWEST, most: int = MOST, guess: bool = False) -> Position:
    """One board of ``fewest`` to ``most`` cells, every choice drawn from the recipe's seed; with ``guess``,
    the first of the draws on which the player must guess (``must_guess``)."""
    if not 1 <= fewest <= most:
        raise BadOption(f"a sample needs 1 <= fewest <= most cells, not {fewest} and {most}")
    rng = rng_for(rec)
    shapes = sample_shapes(fewest, most)
    if not guess:
        return _draw(rng, shapes)
    for _ in range(GUESS_DRAWS):
        pos = replace(_draw(rng, shapes), flags=frozenset())
        if must_guess(render(pos)):
            break
    return pos


def must_guess(board: Board) -> bool:
    """No cell is known safe (with the total, where the board states it, too), a proved mine is left covered,
    and the layouts without the total number from 10 to 1,000: the position of a bug on an engine's guessing
    path (issue 37)."""
    local = count_board(board, Mode.LOCAL)
    if not local.consistent or not GUESS_LAYOUTS[0] <= local.layouts <= GUESS_LAYOUTS[1]:
        return False
    counts = (local,) if board.total_mines is None else (local, count_board(board, Mode.GLOBAL))
    return (all(count.consistent for count in counts)
            and not any(p == 0 for count in counts for _, p in count.probabilities)
            and any(p == 1 and board.is_covered(c) for c, p in local.probabilities))


def _draw(rng, shapes: tuple[tuple[int, int], ...]) -> Position:
    width, height = shapes[rng.randrange(len(shapes))]
    flags = 0.0 if rng.random() < 0.5 else rng.random()
    pos = scatter(rng, width, height, rng.uniform(0.1, 0.5), rng.uniform(0.2, 0.9), flags)
    return replace(pos, show_total=rng.random() < 0.5)
