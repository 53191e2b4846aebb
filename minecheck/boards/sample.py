"""Seeded samples of the boards of 8 to 12 cells: past the exhaustive sweep (``boards.small``), whose
default walk stops at 7 cells while the smallest board showing some engines' bugs has 10.

A sample draws a shape of 8 to 12 cells (either way round, one cell wide included), then, as the sweep
varies them, where the mines are, which safe cells are open and which mines flagged (on half the boards
none: a no-flag player's), and whether the total is stated.  Every board is consistent: its truth is the
drawn layout (the impossible boards one change away are ``contradict``'s and the sweep's).
"""

from __future__ import annotations

from dataclasses import replace

from minecheck.boards.layouts import scatter
from minecheck.boards.recipe import Recipe, rng_for
from minecheck.model.errors import BadOption
from minecheck.model.position import Position

FEWEST, MOST = 8, 12  # cells: one past the sweep's default walk (7) and its largest sweep (8), up to 12


def sample_shapes(fewest: int = FEWEST, most: int = MOST) -> tuple[tuple[int, int], ...]:
    """(width, height) of every shape of ``fewest`` to ``most`` cells, both ways round, by cell count."""
    return tuple((size // height, height) for size in range(fewest, most + 1) for height in range(1, size + 1)
                 if size % height == 0)


def sample(rec: Recipe, fewest: int = FEWEST, most: int = MOST) -> Position:
    """One board of ``fewest`` to ``most`` cells, every choice drawn from the recipe's seed."""
    if not 1 <= fewest <= most:
        raise BadOption(f"a sample needs 1 <= fewest <= most cells, not {fewest} and {most}")
    rng = rng_for(rec)
    shapes = sample_shapes(fewest, most)
    width, height = shapes[rng.randrange(len(shapes))]
    flags = 0.0 if rng.random() < 0.5 else rng.random()
    pos = scatter(rng, width, height, rng.uniform(0.1, 0.5), rng.uniform(0.2, 0.9), flags)
    return replace(pos, show_total=rng.random() < 0.5)
