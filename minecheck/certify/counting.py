"""Making the proof of a count: each component of linked digits has its layouts listed by a SAT search (a
blocking clause after each), then refuted whole: its rules and a clause blocking each layout listed are
unsatisfiable, a DRUP proof says so.  ``LISTED`` bounds the layouts listed per component: past it the component
is left unlisted, and the count is not proved (a campaign then asks the second counter, ganak, and says so).
The probabilities follow from the listed layouts (``minecheck.certify.certificates.tally``)."""

from __future__ import annotations

from fractions import Fraction

from pysat.solvers import Solver

from minecheck.certify.certificates import Component, Count, Refutation
from minecheck.certify.cnf import blocking, encode
from minecheck.certify.refute import PROOF_SOLVER, refute
from minecheck.certify.rules import Reading
from minecheck.model.answers import SolverResult
from minecheck.model.board import COVERED

LISTED = 1_000  # layouts listed per component at most: a page lists them, a checker replays them in seconds
LIST_SOLVER = "cadical195"


def count_certificate(reading: Reading, result: SolverResult, solver: str = PROOF_SOLVER, digits: str = "direct",
                      total: str = "seqcounter", with_cnf: bool = True, listed: int = LISTED) -> Count:
    """Every component of the board listed and refuted whole, with the count and probabilities ``result`` claims."""
    board = reading.board
    components = []
    for group in reading.groups:
        cells = tuple(sorted({c for k in group if k[0] == "digit" for c in reading.rules[k].cells
                              if board.cells[c] == COVERED}))
        layouts = _layouts(reading, group, cells, digits, listed)
        if layouts is None:
            components.append(Component(group, cells, (), None))
            continue
        made = refute(reading, group, (), solver, digits, total, with_cnf, blocked=layouts, over=cells)
        if not isinstance(made, Refutation):
            raise RuntimeError("a layout the SAT search did not list keeps a component's rules")
        components.append(Component(group, cells, layouts, made))
    probabilities = tuple((a.cell, a.probability) for a in result.cells if isinstance(a.probability, Fraction))
    return Count(result.layouts, probabilities, tuple(components))


def _layouts(reading: Reading, group, cells: tuple[int, ...], digits: str, most: int) -> tuple | None:
    """Every layout of the component's cells (the mines of each, sorted), or None past ``most`` of them."""
    formula = encode(reading, group, digits=digits)
    var = {c: i + 1 for i, c in enumerate(reading.unknown)}
    found = []
    with Solver(name=LIST_SOLVER, bootstrap_with=[list(c) for c in formula.clauses]) as sat:
        while sat.solve():
            model = sat.get_model()
            mines = tuple(c for c in cells if model[var[c] - 1] > 0)
            if len(found) == most:
                return None
            found.append(mines)
            sat.add_clause(list(blocking(var, cells, mines)))
    return tuple(sorted(found))
