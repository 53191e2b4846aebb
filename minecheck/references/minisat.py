"""Reference ``minisat``: the board as CNF (cardinality constraints from pysat.card), solved by
MiniSat 2.2 through PySAT, with incremental solving under assumptions for the backbone.

``minisat:NAME`` selects another PySAT solver (``minisat:cadical153``, ``minisat:glucose4``).
In the global mode the off-frontier cells are variables too, and one "exactly R" constraint
spans all covered cells.  They are interchangeable, so their symmetry is broken by ordering
them (cell i+1 a mine only if cell i is): without that, CDCL proofs about the total degrade
into pigeonhole-like searches (seen: 8 s on an Expert board), and the ordering lets most of
them be fixed outright, keeping the cardinality constraint small.
The backbone then asks "can the first be a mine?" and "can the last be safe?".
"""

from __future__ import annotations

from functools import lru_cache

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from minecheck.answers import Answers, Mode, SolverResult
from minecheck.board import Board, label
from minecheck.references.backbone import OFF, Seen, Solution
from minecheck.references.model import Model, models
from minecheck.registry import system_or_refusal

DEFAULT = "minisat22"


def _clauses(model: Model, pool: IDPool) -> list[list[int]]:
    var = {c: pool.id(("cell", c)) for c in model.cells + model.off_cells}
    clauses: list[list[int]] = []
    for eq in model.equations:
        lits = [var[c] for c in eq.cells]
        clauses.extend(CardEnc.equals(lits=lits, bound=eq.mines, vpool=pool, encoding=EncType.seqcounter).clauses)
    off = [var[c] for c in model.off_cells]
    clauses.extend([-later, earlier] for earlier, later in zip(off, off[1:]))
    if model.total is None:
        return clauses
    # ordered off cells: the first `low` must be mines and those from `high` on safe, so the
    # cardinality constraint only spans the frontier and the off cells in between
    low, high = _counter_span(model)
    if low > high:
        return [[]]  # the total cannot be met at all: an empty clause
    clauses.extend([v] for v in off[:low])
    clauses.extend([-v] for v in off[high:])
    lits = [var[c] for c in model.cells] + off[low:high]
    if lits:
        clauses.extend(CardEnc.equals(lits=lits, bound=model.total - low, vpool=pool,
                                      encoding=EncType.seqcounter).clauses)
    elif model.total - low:
        return [[]]
    return clauses


def _counter_span(model: Model) -> tuple[int, int]:
    """The off-frontier cells the total's counter spans: [low, high) of the ordered off cells."""
    return max(0, model.total - len(model.cells)), min(len(model.off_cells), model.total)


def counter_size(model: Model) -> int:
    """About how many auxiliary variables the global total's sequential counter needs (0 in the local mode).

    It grows as cells x mines: on a 300-cell Expert frontier it is ~50,000 variables, and
    encoding and solving it then costs more than CBC's own search (see cbc.WITNESS_LIMIT).
    """
    if model.total is None:
        return 0
    low, high = _counter_span(model)
    return max(0, len(model.cells) + high - low) * max(0, model.total - low)


def _encoded(model: Model) -> tuple[dict[int, int], list[list[int]]]:
    """Each cell's variable, and the clauses (an empty clause when the model is plainly impossible)."""
    pool = IDPool()
    var = {c: pool.id(("cell", c)) for c in model.cells + model.off_cells}
    return var, _clauses(model, pool)


def _solution(model: Model, var: dict[int, int], sat: Solver) -> Solution:
    true = {lit for lit in sat.get_model() if lit > 0}
    return Solution(frozenset(c for c in model.cells if var[c] in true),
                    sum(1 for c in model.off_cells if var[c] in true))


@lru_cache(maxsize=64)
def backbone_solutions(model: Model, solver_name: str = DEFAULT) -> tuple[Solution, ...] | None:
    """The layouts an incremental backbone search finds (under assumptions, one per question no
    earlier layout answered); None if the CNF is unsatisfiable.  Together they show every value a
    cell can take, so a cell none of them flips is in the backbone.

    Cached per model: in a cross-check the ``cbc`` reference takes its layouts from the same
    search (checking each), so a board pays for it once.
    """
    var, clauses = _encoded(model)
    if [] in clauses:
        return None
    with Solver(name=solver_name, bootstrap_with=clauses) as sat:
        if not sat.solve():
            return None
        found = [_solution(model, var, sat)]
        seen = Seen(model)
        seen.add(found[0])
        for cell, mine in seen.open_questions():
            if cell in (seen.mine if mine else seen.safe):
                continue
            if cell == OFF:  # ordered off-frontier cells: the first holds a mine iff any does
                lit = var[model.off_cells[0]] if mine else -var[model.off_cells[-1]]
            else:
                lit = var[cell] if mine else -var[cell]
            if sat.solve(assumptions=[lit]):
                found.append(_solution(model, var, sat))
                seen.add(found[-1])
    return tuple(found)


def backbone(model: Model, solver_name: str = DEFAULT) -> Seen | None:
    """Verdicts by incremental SAT calls under assumptions, reusing every model found; None if UNSAT."""
    found = backbone_solutions(model, solver_name)
    if found is None:
        return None
    seen = Seen(model)
    for sol in found:
        seen.add(sol)
    return seen


class MinisatSolver:
    """SAT verdicts and consistency, in both modes."""

    answers = frozenset({Answers.VERDICTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.solver_name = option or DEFAULT
        known = {n for names in vars(SolverNames).values() if isinstance(names, list | tuple) for n in names}
        known |= {k for k in vars(SolverNames) if not k.startswith("_")}
        if self.solver_name not in known:
            raise ValueError(f"unknown PySAT solver {self.solver_name!r}")
        self.name = "minisat" if option is None else f"minisat:{option}"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        system = system_or_refusal(self.name, board, mode)
        if isinstance(system, SolverResult):
            return system
        cells = []
        for model in models(system, mode):
            seen = backbone(model, self.solver_name)
            if seen is None:
                digits = ", ".join(label(board, eq.source) for eq in model.equations[:6])
                return SolverResult(self.name, mode, consistent=False,
                                    reason=f"SAT: unsatisfiable at the digits {digits}"
                                    + (" with the total mine count" if model.total is not None else ""))
            cells.extend(seen.answers())
        return SolverResult(self.name, mode, consistent=True, cells=tuple(sorted(cells, key=lambda a: a.cell)))


def make(option: str | None = None) -> MinisatSolver:
    return MinisatSolver(option)
