"""Making the proof of a count, at the level of boxes: each component of linked digits has its covered cells
grouped in boxes (cells with the same digits around them, interchangeable as far as its rules can tell), every
solution of its box system (mines per box) listed by a SAT search over the component's CNF with each box's
cells held in order (a blocking clause after each), then refuted whole: its rules, the order and a clause
blocking each solution listed are unsatisfiable, a DRUP proof says so.  A component of 9,241 layouts has 31 box
solutions; ``LISTED`` bounds the solutions listed per component: past it the component is left unlisted and the
count is not proved (a campaign then asks the second counter, ganak, and says so).  The count and probabilities
follow from the solutions (``minecheck.certify.tally``)."""

from __future__ import annotations

from fractions import Fraction

from pysat.solvers import Solver

from minecheck.certify import certificates
from minecheck.certify.certificates import Component, Count, Refutation
from minecheck.certify.cnf import blocking, encode
from minecheck.certify.refute import PROOF_SOLVER, refute
from minecheck.certify.rules import Key, Reading
from minecheck.model.answers import SolverResult
from minecheck.model.board import COVERED

LIST_SOLVER = "cadical195"


def count_certificate(reading: Reading, result: SolverResult, solver: str = PROOF_SOLVER, digits: str = "direct",
                      total: str = "seqcounter", with_cnf: bool = True, listed: int | None = None) -> Count:
    """Every component of the board in boxes, its box solutions listed and refuted whole, with the count, the
    components' counts and the probabilities ``result`` claims."""
    listed = certificates.LISTED if listed is None else listed
    components = []
    for group in reading.groups:
        boxes = boxes_of(reading, group)
        solutions = _solutions(reading, group, boxes, digits, listed)
        if solutions is None:
            components.append(Component(group, boxes, (), None))
            continue
        made = refute(reading, group, (), solver, digits, total, with_cnf, blocked=solutions, boxes=boxes)
        if not isinstance(made, Refutation):
            raise RuntimeError("a box solution the SAT search did not list keeps a component's rules")
        components.append(Component(group, boxes, solutions, made))
    probabilities = tuple((a.cell, a.probability) for a in result.cells if isinstance(a.probability, Fraction))
    return Count(result.layouts, probabilities, tuple(components), result.component_layouts)


def boxes_of(reading: Reading, group: tuple[Key, ...]) -> tuple[tuple[int, ...], ...]:
    """The group's covered cells by the digits around them, each box's cells in order, the boxes by first cell."""
    board = reading.board
    by_digits: dict[tuple[Key, ...], list[int]] = {}
    digits = [k for k in group if k[0] == "digit"]
    cells = sorted({c for k in digits for c in reading.rules[k].cells if board.cells[c] == COVERED})
    for c in cells:
        by_digits.setdefault(tuple(k for k in digits if c in reading.rules[k].cells), []).append(c)
    return tuple(sorted(tuple(box) for box in by_digits.values()))


def _solutions(reading: Reading, group, boxes, digits: str, most: int) -> tuple | None:
    """Every solution of the box system (mines per box, sorted), or None past ``most`` of them."""
    formula = encode(reading, group, digits=digits, boxes=boxes)
    var = {c: i + 1 for i, c in enumerate(reading.unknown)}
    found = []
    with Solver(name=LIST_SOLVER, bootstrap_with=[list(c) for c in formula.clauses]) as sat:
        while sat.solve():
            model = sat.get_model()
            solution = tuple(sum(model[var[c] - 1] > 0 for c in box) for box in boxes)
            if len(found) == most:
                return None
            found.append(solution)
            sat.add_clause(list(blocking(var, boxes, solution)))
    return tuple(sorted(found))
