"""Finding layouts: an incremental SAT search for a layout with a given cell at a given value.

Nothing here needs to be trusted: every layout it finds becomes a Witness, checked by reading the
board.  So the search may take a short cut the certificates' CNF may not: the covered cells no digit
touches are interchangeable, so in the global mode only the frontier is searched, with its mines
bounded by the total (between remaining - off and remaining), and the mines left over are then laid
on the cells off the frontier, where a question asks for them.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from minecheck.certify.cnf import CLAUSES, TooBig, counter_clauses, encode
from minecheck.certify.rules import Reading
from minecheck.model.answers import Mode

SEARCH_SOLVER = "cadical195"


class Search:
    """Layouts of one board in one mode, one question at a time (a context manager: it holds a solver)."""

    def __init__(self, reading: Reading, solver: str = SEARCH_SOLVER):
        self.reading = reading
        self.off = reading.off_frontier
        keys = tuple(k for k in reading.rules if k[0] != "total")
        formula = encode(reading, keys)
        self.var = {c: i + 1 for i, c in enumerate(reading.unknown)}
        clauses = [list(c) for c in formula.clauses]
        self.remaining = None
        if reading.mode is Mode.GLOBAL:
            self.remaining = reading.rules["total",].mines
            self.searched = [self.var[c] for c in reading.unknown if c not in reading.off_set]
            self.low, self.high = self.remaining - len(self.off), self.remaining  # mines the frontier and flags hold
            made, self.top = between(self.searched, self.low, self.high, formula.nvars)
            clauses += made
        self.clauses = clauses
        self.solver_name = solver
        self.sat = Solver(name=solver, bootstrap_with=clauses)

    def __enter__(self) -> Search:
        return self

    def __exit__(self, *exc) -> None:
        self.sat.delete()

    def layout(self, cell: int | None = None, mine: bool = True) -> frozenset[int] | None:
        """A layout keeping every rule, with ``cell`` (if given) a mine or safe as asked; None if the search
        finds none (which proves nothing: a refutation must)."""
        if cell is not None and cell in self.off and self.remaining is not None:
            return self._off_layout(cell, mine)
        assumptions = [] if cell is None else [self.var[cell] if mine else -self.var[cell]]
        if not self.sat.solve(assumptions=assumptions):
            return None
        return self._filled(self.sat.get_model(), cell, mine)

    def _filled(self, model: list[int], cell: int | None, mine: bool) -> frozenset[int]:
        """The model's mines, and in the global mode the mines it leaves laid off the frontier (on ``cell``
        first when it is asked to be a mine, never on it when asked to be safe)."""
        mines = {c for c in self.reading.unknown if c not in self.reading.off_set and model[self.var[c] - 1] > 0}
        if self.remaining is None:
            return frozenset(mines)
        left = self.remaining - len(mines)
        order = list(self.off)
        if cell in order:
            order.remove(cell)
            order = [cell] + order if mine else order + [cell]
        return frozenset(mines | set(order[:left]))

    def _off_layout(self, cell: int, mine: bool) -> frozenset[int] | None:
        """An off-frontier cell as asked: a frontier holding at most remaining - 1 mines (one is left for it),
        or at least remaining - off + 1 (it can be left safe)."""
        low, high = (self.low, self.high - 1) if mine else (self.low + 1, self.high)
        extra, _ = between(self.searched, low, high, self.top)
        with Solver(name=self.solver_name, bootstrap_with=self.clauses + extra) as sat:
            if not sat.solve():
                return None
            return self._filled(sat.get_model(), cell, mine)


def between(lits: list[int], low: int, high: int, top: int) -> tuple[list[list[int]], int]:
    """Clauses keeping the number of true lits from low to high (pysat's sequential counter), and the top variable."""
    n = len(lits)
    if high < max(low, 0) or low > n or high < 0:
        return [[]], top
    if counter_clauses(n, low, high) > CLAUSES:
        raise TooBig(f"{low} to {high} mines among {n} cells would take about {counter_clauses(n, low, high):,} "
                     "clauses")
    clauses: list[list[int]] = []
    if high == 0:
        clauses += [[-x] for x in lits]
    elif high < n:
        made = CardEnc.atmost(lits=lits, bound=high, top_id=top, encoding=EncType.seqcounter)
        clauses, top = clauses + made.clauses, max(top, made.nv)
    if low == n:
        clauses += [[x] for x in lits]
    elif low > 0:
        made = CardEnc.atleast(lits=lits, bound=low, top_id=top, encoding=EncType.seqcounter)
        clauses, top = clauses + made.clauses, max(top, made.nv)
    return clauses, top
