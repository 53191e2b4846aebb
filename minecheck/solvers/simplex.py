"""Two-phase tableau simplex for  min c.x  s.t.  Ax = b, x >= 0,  in two variants.

* ``solve_seed`` ports the ``Simplex`` class of article 000 operation by operation (the same
  floating-point steps, so the same pivots and the same vertex as the Java), defects included;
* ``solve_fixed`` is the same method made correct on every LP: rows with a negative right-hand
  side are negated, artificials never come back after Phase I, Bland's rule picks both the
  entering and the leaving variable (so it cannot cycle), and unboundedness is a status.

Both read and return plain data: an ``LP`` in, an ``LPResult`` out.  NumPy is imported by the functions
that pivot, not at the top: every listing of the solvers imports this module (``ilp`` solves its relaxations
here), and NumPy's import is most of ``minecheck solvers``' time when nothing is solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from minecheck.model.errors import SolverFault
from minecheck.solvers.defects import chosen, names_of

if TYPE_CHECKING:
    import numpy as np

OPTIMAL, INFEASIBLE, UNBOUNDED = "optimal", "infeasible", "unbounded"


@dataclass(frozen=True)
class LP:
    """min c.x subject to a x = b and x >= 0; ``a`` is a tuple of rows."""

    a: tuple[tuple[float, ...], ...]
    b: tuple[float, ...]
    c: tuple[float, ...]


@dataclass(frozen=True)
class LPResult:
    """status is "optimal", "infeasible" or "unbounded"; objective and x only when optimal."""

    status: str
    objective: float | None = None
    x: tuple[float, ...] | None = None


class IllegalStateException(SolverFault, RuntimeError):
    """The Java exception the article's code throws, under its Java name."""


# -- the seed: the article's Simplex ---------------------------------------------------------

SEED_EPS = 1e-9
SEED_INF = 1e100
SEED_STEPS = 20000
SEED_ARTIFICIAL_TOL = 1e-7  # the Java's threshold on the Phase I sum and on drive-out pivots
SEED_DEFECTS = names_of("simplex@seed")


def solve_seed(lp: LP, defects: frozenset[str] = SEED_DEFECTS) -> LPResult:
    """The article's Simplex.solve(): Result(feasible, objective, x) as a status; unbounded raises.

    ``defects``: the ones kept (``minecheck.solvers.defects``); each one left out is fixed at its site.
    """
    import numpy as np

    defects = chosen(defects, "simplex@seed")
    m, n = len(lp.b), len(lp.c)
    sign = [1.0] * m
    cols = n + m + 1
    t = np.zeros((m, cols))
    for i in range(m):
        # DEFECT(seed) simplex-negative-rhs: a negative right-hand side is called infeasible instead
        # of negating the row (-x = -1 is feasible); solve_fixed negates such rows.
        if lp.b[i] < -SEED_EPS:
            if "simplex-negative-rhs" in defects:
                return LPResult(INFEASIBLE)
            sign[i] = -1.0
        t[i, :n] = [sign[i] * v for v in lp.a[i][:n]]
        t[i, n + i] = 1.0
        t[i, cols - 1] = sign[i] * lp.b[i]
    basis = list(range(n, n + m))

    phase1 = np.zeros(cols - 1)
    phase1[n:] = 1.0
    _seed_iterate(t, basis, phase1, allow_unbounded=True, defects=defects)
    artificial_sum = 0.0
    for i in range(m):
        artificial_sum += float(t[i, cols - 1]) * float(phase1[basis[i]])
    if artificial_sum > SEED_ARTIFICIAL_TOL:
        return LPResult(INFEASIBLE)

    for i in range(m):  # drive artificials still in the basis out; a row with no way out is zeroed
        if basis[i] >= n:
            nonzero = np.flatnonzero(np.abs(t[i, :n]) > SEED_ARTIFICIAL_TOL)
            if nonzero.size == 0:
                t[i, :] = 0.0
            else:
                _seed_pivot(t, basis, i, int(nonzero[0]))

    # DEFECT(seed) simplex-artificials-kept: the artificial columns stay in the tableau with cost 0,
    # so Phase II may pivot an artificial back in and leave Ax = b violated (min x s.t. x = 1 answers
    # x = 0); solve_fixed deletes the artificial columns after Phase I (zeroed, they never enter).
    if "simplex-artificials-kept" not in defects:
        t[:, n:cols - 1] = 0.0
    phase2 = np.zeros(cols - 1)
    phase2[:n] = lp.c
    result = _seed_iterate(t, basis, phase2, allow_unbounded=False, defects=defects)
    if result is not None:
        return result

    x = [0.0] * n
    for i in range(m):
        if basis[i] < n:
            x[basis[i]] = float(t[i, cols - 1])
    objective = 0.0
    for j in range(n):
        objective += float(lp.c[j]) * x[j]
    return LPResult(OPTIMAL, objective, tuple(x))


def _seed_iterate(t: np.ndarray, basis: list[int], cost: np.ndarray, allow_unbounded: bool,
                  defects: frozenset[str] = SEED_DEFECTS) -> LPResult | None:
    """The Java iterate(): Bland's entering rule, the first row among equal ratios leaves.

    None when optimal (or Phase I ends); an unbounded result only with simplex-unbounded-raises off.
    """
    import numpy as np

    m = len(basis)
    last = t.shape[1] - 1
    for _ in range(SEED_STEPS):
        reduced = cost.copy()
        for i in range(m):  # the Java's order of subtraction; a zero cost subtracts only a signed zero
            cb = cost[basis[i]]
            if cb != 0.0:
                reduced -= cb * t[i, :last]
        negative = np.flatnonzero(reduced < -SEED_EPS)
        if negative.size == 0:
            return None
        enter = int(negative[0])
        # DEFECT(seed) simplex-first-row-ties: ties in the ratio test go to the first row, not to the
        # smallest basis index, so Bland's anti-cycling guarantee is lost; solve_fixed breaks ties by Bland.
        bland = "simplex-first-row-ties" not in defects
        leave, best = -1, SEED_INF
        for i in np.flatnonzero(t[:, enter] > SEED_EPS):
            ratio = float(t[i, last] / t[i, enter])
            if ratio < best - SEED_EPS or (bland and ratio <= best + SEED_EPS and basis[i] < basis[leave]):
                best, leave = min(ratio, best), int(i)
        if leave == -1:
            if allow_unbounded:
                return None
            # DEFECT(seed) simplex-unbounded-raises: an unbounded LP is an exception; solve_fixed reports
            # status "unbounded".
            if "simplex-unbounded-raises" not in defects:
                return LPResult(UNBOUNDED)
            raise IllegalStateException("LP 无界")
        _seed_pivot(t, basis, leave, enter)
    raise IllegalStateException("单纯形迭代超限，可能存在退化")


def _seed_pivot(t: np.ndarray, basis: list[int], row: int, col: int) -> None:
    """The Java pivot(): rows whose entry in the pivot column is below EPS are left alone."""
    import numpy as np

    t[row] /= t[row, col]
    factors = t[:, col].copy()
    rows = ~(np.abs(factors) < SEED_EPS)
    rows[row] = False
    t[rows] -= np.outer(factors[rows], t[row])
    basis[row] = col


# -- the fixed simplex -----------------------------------------------------------------------

EPS = 1e-9  # pivot elements and reduced costs smaller than this count as zero
FEASIBILITY_TOL = 1e-7  # a Phase I optimum above this means no feasible point
MAX_PIVOTS = 100_000  # Bland's rule terminates; this only guards against a numerical runaway


def solve_fixed(lp: LP) -> LPResult:
    """A correct two-phase simplex: optimal with a vertex, infeasible, or unbounded."""
    import numpy as np

    m, n = len(lp.b), len(lp.c)
    a = np.array(lp.a, dtype=float).reshape(m, n)
    b = np.array(lp.b, dtype=float)
    sign = np.where(b < 0, -1.0, 1.0)
    a, b = a * sign[:, None], b * sign
    basis = _unit_columns(a)
    needy = [i for i in range(m) if basis[i] < 0]  # rows that need an artificial to start
    artificial = np.zeros((m, len(needy)))
    for k, i in enumerate(needy):
        artificial[i, k], basis[i] = 1.0, n + k
    t = np.hstack([a, artificial, b[:, None]])

    if needy:  # Phase I: minimise the artificials (bounded below by 0, so never unbounded)
        _bland(t, basis, np.concatenate([np.zeros(n), np.ones(len(needy))]))
        if sum(t[i, -1] for i in range(m) if basis[i] >= n) > FEASIBILITY_TOL:
            return LPResult(INFEASIBLE)
    keep = []
    for i in range(m):  # drive out artificials at level zero; a row that cannot is redundant
        if basis[i] >= n:
            row = np.abs(t[i, :n])
            j = int(np.argmax(row)) if n else -1
            if j < 0 or row[j] <= EPS:
                continue
            _pivot(t, basis, i, j)
        keep.append(i)
    t = np.hstack([t[keep, :n], t[keep, -1:]])  # artificials leave the tableau for good
    basis = [basis[i] for i in keep]

    if not _bland(t, basis, np.array(lp.c, dtype=float).reshape(n)):
        return LPResult(UNBOUNDED)
    x = np.zeros(n)
    for i, j in enumerate(basis):
        x[j] = max(t[i, -1], 0.0)
    return LPResult(OPTIMAL, float(np.dot(lp.c, x)) if n else 0.0, tuple(float(v) for v in x))


def _unit_columns(a: np.ndarray) -> list[int]:
    """Per row, a column that is the unit vector of that row (a ready basic variable), or -1."""
    import numpy as np

    basis = [-1] * a.shape[0]
    if a.size == 0:
        return basis
    ones, zeros = a == 1.0, a == 0.0
    unit = ones.sum(axis=0) == 1
    unit &= (ones | zeros).all(axis=0)
    for j in np.flatnonzero(unit):
        i = int(np.flatnonzero(ones[:, j])[0])
        if basis[i] < 0:
            basis[i] = int(j)
    return basis


def _bland(t: np.ndarray, basis: list[int], cost: np.ndarray) -> bool:
    """Pivot to optimality by Bland's rule; False if the objective is unbounded below."""
    import numpy as np

    last = t.shape[1] - 1
    for _ in range(MAX_PIVOTS):
        reduced = cost - cost[basis] @ t[:, :last] if basis else cost
        negative = reduced < -EPS
        enter = int(negative.argmax()) if last else 0
        if not last or not negative[enter]:
            return True
        column = t[:, enter]
        rows = np.flatnonzero(column > EPS)
        if rows.size == 0:
            return False
        ratios = t[rows, last] / column[rows]
        ties = rows[ratios <= ratios.min() + EPS]
        leave = int(ties[np.argmin(np.take(basis, ties))])  # Bland: the smallest basic variable leaves
        _pivot(t, basis, leave, enter)
    raise RuntimeError(f"simplex made {MAX_PIVOTS} pivots without finishing: numerical trouble")


def _pivot(t: np.ndarray, basis: list[int], row: int, col: int) -> None:
    """Make column ``col`` basic in ``row``; tiny negative right-hand sides are rounding, set to 0."""
    import numpy as np

    t[row] /= t[row, col]
    factors = t[:, col].copy()
    factors[row] = 0.0
    t -= np.outer(factors, t[row])
    rhs = t[:, -1]
    rhs[(rhs < 0) & (rhs > -FEASIBILITY_TOL)] = 0.0
    basis[row] = col
