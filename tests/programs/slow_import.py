"""A solver whose module takes a second of CPU to import (as numpy, OR-Tools or a JIT's warm-up can): making
it is not one of its calls, so a board's CPU budget of half a second is the board's alone."""

from __future__ import annotations

import time

from minecheck.solvers.exact import ExactSolver

_until = time.process_time() + 1.0
while time.process_time() < _until:
    pass


class Slow(ExactSolver):
    """Answers like ``exact``, once imported."""
