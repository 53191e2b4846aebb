"""A counter planted to be off by one where counts are large: the exact counter's answer, with one layout more in
every component of more than 1,000 layouts (and in the total).  The certificates must prove it wrong at any size."""

from dataclasses import replace

from minecheck.solvers.exact import ExactSolver

LARGE = 1_000


def planted(right):
    """The answer with one layout more in each component past ``LARGE`` layouts, and in the total."""
    parts = right.component_layouts or ()
    if not any(n > LARGE for n in parts):
        return right
    return replace(right, layouts=right.layouts + 1, component_layouts=tuple(n + 1 if n > LARGE else n for n in parts))


class OffByOne:
    name = "off_by_one"
    answers = ExactSolver.answers
    modes = ExactSolver.modes

    def solve(self, board, mode):
        return replace(planted(ExactSolver().solve(board, mode)), solver=self.name)


def make(option=None):
    return OffByOne()
