"""Brute force: every layout of the covered cells, checked against every digit.

The oracle the exact counter is tested against, so it shares none of its code: it reads the
digits straight off the board and enumerates all 2^n layouts with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from minecheck.answers import Mode
from minecheck.board import Board

CAP = 20  # covered cells; 2^20 layouts is about a second


class TooBig(ValueError):
    """The board has more covered cells than brute force enumerates."""


@dataclass(frozen=True)
class BruteCount:
    consistent: bool
    layouts: int
    probabilities: tuple[tuple[int, Fraction | None], ...]


def brute_count(board: Board, mode: Mode, cap: int = CAP) -> BruteCount:
    """Layouts and exact probabilities by enumeration; local mode enumerates the frontier only."""
    frontier = sorted({n for d in board.digits for n in board.neighbours(d) if board.is_covered(n)})
    cells = list(board.covered) if mode is Mode.GLOBAL else frontier
    if len(cells) > cap:
        raise TooBig(f"{len(cells)} covered cells to enumerate, above the cap of {cap}")
    index = {c: i for i, c in enumerate(cells)}
    masks = np.arange(1 << len(cells), dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(len(cells))) & 1).astype(np.int16)
    ok = np.ones(len(masks), dtype=bool)
    for d in board.digits:
        around = board.neighbours(d)
        need = board.cells[d] - sum(1 for n in around if board.is_flag(n))
        cols = [index[n] for n in around if board.is_covered(n)]
        got = bits[:, cols].sum(axis=1) if cols else np.zeros(len(masks), dtype=np.int16)
        ok &= got == need
    if mode is Mode.GLOBAL:
        assert board.total_mines is not None, "the global mode needs the total mine count"
        ok &= bits.sum(axis=1) == board.total_mines - len(board.flags)
    good = bits[ok]
    layouts = int(good.shape[0])
    if layouts == 0:
        return BruteCount(False, 0, ())
    mines = good.sum(axis=0)
    probs: dict[int, Fraction | None] = {c: None for c in board.covered}
    for c, i in index.items():
        probs[c] = Fraction(int(mines[i]), layouts)
    return BruteCount(True, layouts, tuple(sorted(probs.items())))
