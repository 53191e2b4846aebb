"""A recipe: how to make one board again (generator, parameters, seed), and its seeded randomness.

Randomness comes from ``random.Random`` seeded with an integer derived by SHA-256 from the
recipe, so the stream does not depend on the platform or on PYTHONHASHSEED.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass


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
