"""Reference ``minisat``: the board as CNF (cardinality constraints from pysat.card), solved by
MiniSat 2.2 through PySAT, with incremental solving under assumptions for the backbone.

``minisat:NAME`` selects another PySAT solver (``minisat:cadical153``, ``minisat:glucose4``).
In the global mode only the frontier cells are variables.  The covered cells no digit touches
are interchangeable, so the total says only how many mines the frontier holds: K between
``remaining - off`` and ``remaining`` (the rest lie off the frontier).  An incremental
totalizer gives "at least j" literals, which bound K, and under assumptions answer the
off-frontier cells' two questions: can one be a mine (K <= remaining - 1), can one be safe
(K >= remaining - off + 1).  It counts only the frontier cells outside a set of disjoint digits,
whose mines are known, which halves the counter on Expert boards.  Encoding the total over every
covered cell instead cost tens of thousands of auxiliary variables and 10-40x the exact counter
on Expert-size boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import count

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from minecheck.engine.constraints import system_or_refusal
from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board, label
from minecheck.model.errors import UnknownSolver
from minecheck.references.backbone import OFF, Seen, Solution
from minecheck.references.model import Model, models

DEFAULT = "minisat22"


@dataclass(frozen=True)
class Encoding:
    """A model as CNF: each frontier cell's variable, the clauses, and the literals that ask about
    the off-frontier cells (None where the answer needs no question: always yes, or never)."""

    var: dict[int, int]
    clauses: list[list[int]]
    off_can_be_mine: int | None = None
    off_can_be_safe: int | None = None
    impossible: bool = False


def encode(model: Model) -> Encoding:
    """The model's digits as exactly-k constraints, and in the global mode the bounds on K."""
    pool = IDPool()
    var = {c: pool.id(("cell", c)) for c in model.cells}
    clauses: list[list[int]] = []
    for eq in model.equations:
        lits = [var[c] for c in eq.cells]
        clauses.extend(CardEnc.equals(lits=lits, bound=eq.mines, vpool=pool, encoding=EncType.seqcounter).clauses)
    if model.total is None:
        return Encoding(var, clauses)
    n, off, total = len(model.cells), len(model.off_cells), model.total
    low, high = max(0, total - off), min(n, total)
    if low > high:
        return Encoding(var, [[]], impossible=True)
    if not model.cells:
        return Encoding(var, clauses)
    # Digits with no cell in common hold a known number of mines between them: only the frontier
    # cells outside them are counted (K = fixed + their mines), a far smaller totalizer.
    fixed, rest = counted_apart(model)
    lits = [var[c] for c in rest]
    n, low, high = len(rest), low - fixed, high - fixed  # now bounds on the mines among ``rest``
    if high < 0 or low > n:
        return Encoding(var, [[]], impossible=True)
    asks_mine, asks_safe = total - fixed, total - off + 1 - fixed  # K <= total - 1, K >= total - off + 1
    if not lits:
        return Encoding(var, clauses)  # K is fixed: any one layout answers both questions
    # "at most" (high, and the question asks_mine - 1): pysat's incremental totalizer
    upward = ITotalizer(lits=lits, ubound=min(n, asks_mine + 1), top_id=pool.top)
    pool.occupy(pool.top + 1, upward.top_id)
    pool.top = upward.top_id
    clauses.extend(upward.cnf.clauses)
    at_least_if = upward.rhs  # true when at least j + 1 of them are mines (not the converse)
    if high < len(at_least_if):
        clauses.append([-at_least_if[high]])
    can_mine = -at_least_if[asks_mine - 1] if off and 1 <= asks_mine <= len(at_least_if) else None
    # "at least" (low, and the question asks_safe): its converse, only as far as needed
    reach = max(low, asks_safe if off else 0)
    only_if = downward(lits, min(n, reach), pool, clauses) if reach > 0 else []  # true only with j + 1 or more
    if low > 0:
        clauses.append([only_if[low - 1]])
    can_safe = only_if[asks_safe - 1] if off and 1 <= asks_safe <= len(only_if) else None
    upward.delete()
    return Encoding(var, clauses, can_mine, can_safe)


def counted_apart(model: Model) -> tuple[int, tuple[int, ...]]:
    """Mines the model's pairwise disjoint digits hold (chosen greedily, largest first), and the
    frontier cells none of them covers: the frontier holds that many mines plus those cells' mines."""
    taken: set[int] = set()
    fixed = 0
    for eq in sorted(model.equations, key=lambda e: (-len(e.cells), e.cells)):
        if taken.isdisjoint(eq.cells):
            taken.update(eq.cells)
            fixed += eq.mines
    return fixed, tuple(c for c in model.cells if c not in taken)


def downward(lits: list[int], bound: int, pool: IDPool, clauses: list[list[int]]) -> list[int]:
    """Outputs o with o[j] true only if at least j + 1 of lits are, for j < bound: the half of a totalizer
    (Bailleux and Boufkhad) that pysat's ITotalizer leaves out, as it needs only the other half for
    "at most".  Assuming o[j] then asks "at least j + 1".  Adds its clauses."""
    fresh = count()

    def node(part: list[int]) -> list[int]:
        if len(part) == 1:
            return part
        a, b = node(part[: len(part) // 2]), node(part[len(part) // 2:])
        out = [pool.id(("at least", next(fresh))) for _ in range(min(len(a) + len(b), bound))]
        for i in range(min(len(a), len(out)) + 1):
            for j in range(min(len(b), len(out) - i) + 1):
                if i + j < len(out):  # a holds <= i and b holds <= j: the node holds <= i + j
                    clauses.append([-out[i + j]] + ([a[i]] if i < len(a) else []) + ([b[j]] if j < len(b) else []))
        return out

    return node(list(lits))


def counter_size(model: Model) -> int:
    """About how many clauses the global total's totalizer needs (0 in the local mode): frontier x bound."""
    if model.total is None:
        return 0
    return len(model.cells) * min(len(model.cells), model.total + 1)


def _solution(model: Model, encoding: Encoding, sat: Solver) -> Solution:
    values = sat.get_model()  # values[v - 1] is v or -v: every variable in order, the counters' too
    mines = frozenset(c for c in model.cells if values[encoding.var[c] - 1] > 0)
    return Solution(mines, 0 if model.total is None else model.total - len(mines))


@lru_cache(maxsize=64)
def backbone_solutions(model: Model, solver_name: str = DEFAULT) -> tuple[Solution, ...] | None:
    """The layouts an incremental backbone search finds (under assumptions, one per question no
    earlier layout answered); None if the CNF is unsatisfiable.  Together they show every value a
    cell can take, so a cell none of them flips is in the backbone.

    Cached per model: in a cross-check the ``cbc`` reference takes its layouts from the same
    search (checking each), so a board pays for it once.
    """
    encoding = encode(model)
    if encoding.impossible:
        return None
    with Solver(name=solver_name, bootstrap_with=encoding.clauses) as sat:
        if not sat.solve():
            return None
        found = [_solution(model, encoding, sat)]
        seen = Seen(model)
        seen.add(found[0])
        for cell, mine in seen.open_questions():
            if cell in (seen.mine if mine else seen.safe):
                continue
            if cell == OFF:  # interchangeable cells: one question about how many mines the frontier holds
                lit = encoding.off_can_be_mine if mine else encoding.off_can_be_safe
                if lit is None:
                    continue  # an answer no layout can change: the first layout already showed "yes" if it is
            else:
                lit = encoding.var[cell] if mine else -encoding.var[cell]
            if sat.solve(assumptions=[lit]):
                found.append(_solution(model, encoding, sat))
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
            raise UnknownSolver(f"unknown PySAT solver {self.solver_name!r}")
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
