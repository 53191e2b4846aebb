"""java.util.Random's 48-bit state, saved between a game's decisions and restored for the next.

The articles' players keep one ``java.util.Random`` for a whole game; minecheck hands a player's
state back with each view, so the stream is carried as its 48-bit state: ``ResumableRandom.at``
restores it, ``.state`` saves it, and ``skip`` moves it past draws made elsewhere (a sampler
that starts from a seed of its own) without drawing them.
"""

from __future__ import annotations

from minecheck.solvers.javarand import JavaRandom

MULTIPLIER = 0x5DEECE66D  # java.util.Random's LCG: state' = state * MULTIPLIER + ADDEND mod 2^48
ADDEND = 0xB
MASK48 = (1 << 48) - 1


def initial_state(seed: int) -> int:
    """The state of ``new Random(seed)``."""
    return (seed ^ MULTIPLIER) & MASK48


def seed_for(state: int) -> int:
    """The seed whose ``new Random(seed)`` starts at ``state`` (the constructor's scramble undone)."""
    return state ^ MULTIPLIER


class ResumableRandom(JavaRandom):
    """java.util.Random that can be restored at a saved state and read back."""

    @classmethod
    def at(cls, state: int) -> ResumableRandom:
        return cls(seed_for(state))

    @property
    def state(self) -> int:
        return self._seed


def skip(state: int, steps: int) -> int:
    """The state ``steps`` LCG steps later (each ``next(bits)`` is one step, ``nextDouble`` two),
    by squaring the affine step: O(log steps)."""
    mult, add = MULTIPLIER, ADDEND  # the step applied 2^k times: state -> state * mult + add
    while steps:
        if steps & 1:
            state = (state * mult + add) & MASK48
        mult, add = (mult * mult) & MASK48, (add * mult + add) & MASK48
        steps >>= 1
    return state
