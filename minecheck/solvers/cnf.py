"""CNF encodings of Minesweeper constraints, as plain data (article 004).

Glossary:
  literal   a non-zero int: ``v`` says variable v is true (the cell is a mine), ``-v`` false
  clause    a tuple of literals, true when one of them is; the empty clause is never true
  CNF       a tuple of clauses, true when all of them are

"Exactly k of n cells are mines" is written two ways here: by combinations (the article's
way: every (n-k+1)-subset holds a mine, no (k+1)-subset is all mines), once correct and
once with the seed's sign defect, and by a sequential counter (Sinz 2005) for the large
cardinality constraint of the global mode.
"""

from __future__ import annotations

from itertools import combinations

from minecheck.engine.constraints import Component
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.errors import SolverFault
from minecheck.solvers.defects import names_of

Clause = tuple[int, ...]
CNF = tuple[Clause, ...]
UNSATISFIABLE: CNF = ((),)  # one empty clause: no assignment satisfies it
SEED_DEFECTS = names_of("dpll@seed")  # the seed's defects, all on by default (minecheck.solvers.defects)


class NegativeArraySizeException(SolverFault):
    """What the Java throws from ``new int[k]`` with k < 0; the message is k, as in the JDK."""


def variables_of(cnf: CNF) -> frozenset[int]:
    return frozenset(abs(lit) for clause in cnf for lit in clause)


def satisfies(cnf: CNF, true_vars: frozenset[int] | set[int]) -> bool:
    """Whether the assignment (the variables in true_vars true, all others false) satisfies cnf."""
    return all(any((lit > 0) == (abs(lit) in true_vars) for lit in clause) for clause in cnf)


# -- exactly k by combinations -----------------------------------------------------------------

def exactly_by_combinations(variables: tuple[int, ...], k: int) -> CNF:
    """Exactly k of the variables are true: every (n-k+1)-subset has a true one, no (k+1)-subset is all true."""
    n = len(variables)
    if k < 0 or k > n:
        return UNSATISFIABLE
    at_least = tuple(tuple(combo) for combo in combinations(variables, n - k + 1)) if k > 0 else ()
    at_most = tuple(tuple(-v for v in combo) for combo in combinations(variables, k + 1)) if k < n else ()
    return at_least + at_most


def seed_exactly_by_combinations(variables: tuple[int, ...], k: int, defects: frozenset[str] = SEED_DEFECTS) -> CNF:
    """Port of the article's ``CNF.addExactly``: the clauses in its order, with its sign defect."""
    n = len(variables)
    clauses: list[Clause] = []
    if k > 0:
        # DEFECT(seed) dpll-negated-at-least: the "at least k" clauses negate their literals, so they
        # say "no n-k+1 of them are all true" (at most n-k) instead of "n-k+1 of them are not all false".
        # With the at-most clauses the encoding means "at most min(k, n-k)", which all-safe always
        # satisfies. The fixed encoding (exactly_by_combinations) keeps these literals positive.
        sign = -1 if "dpll-negated-at-least" in defects else 1
        clauses += (tuple(sign * v for v in combo) for combo in _java_combinations(variables, n - k + 1, defects))
    if k < n:
        clauses += (tuple(-v for v in combo) for combo in _java_combinations(variables, k + 1, defects))
    return tuple(clauses)


def _java_combinations(variables: tuple[int, ...], k: int, defects: frozenset[str] = SEED_DEFECTS):
    """The Java's ``generateCombinations``: lexicographic, like itertools; ``new int[k]`` throws for k < 0."""
    if k < 0:
        # DEFECT(seed) dpll-negative-k-crash: a digit needing two or more mines beyond its covered
        # neighbours crashes the Java here (one beyond gives k = 0: an empty clause). The fixed variant
        # reports it (here: the empty clause, no layout).
        if "dpll-negative-k-crash" not in defects:
            return [()]
        raise NegativeArraySizeException(str(k))
    return combinations(variables, k)


# -- sequential counter ------------------------------------------------------------------------

def between_by_counter(variables: tuple[int, ...], low: int, high: int, first_aux: int) -> tuple[CNF, int]:
    """low <= (true variables) <= high by a sequential counter (Sinz 2005); returns the CNF and the next free id.

    Register r(i, j) means "at least j of the first i variables are true" (any literals will do).  Sinz writes only the
    implications a SAT check needs; here each register is also bounded from above, so it is
    *defined* by the variables: every assignment of the variables extends to exactly one
    assignment of the registers, and model counts over all variables equal counts of subsets.
    Only registers up to the largest bound that matters are made (a vacuous bound costs nothing),
    and the false variables are counted instead when that needs fewer.
    """
    n = len(variables)
    if low > n or high < 0 or low > high:
        return UNSATISFIABLE, first_aux
    low, high = max(low, 0), min(high, n)
    if low == 0 and high == n:
        return (), first_aux
    if _registers(n, n - high, n - low) < _registers(n, low, high):
        # fewer registers counting the false ones: between low and high true = between n-high and n-low false
        variables, low, high = tuple(-v for v in variables), n - high, n - low
    top = _registers(n, low, high)
    reg: dict[tuple[int, int], int] = {}
    next_id = first_aux
    clauses: list[Clause] = []
    for i, x in enumerate(variables, start=1):
        for j in range(1, min(i, top) + 1):
            reg[i, j] = next_id
            next_id += 1
            clauses += _register_definition(reg, i, j, x)
    if low > 0:
        clauses.append((reg[n, low],))
    if high < n:
        clauses.append((-reg[n, high + 1],))
    return tuple(clauses), next_id


def _registers(n: int, low: int, high: int) -> int:
    """Registers per variable that the bounds need: up to "at least low" and "at least high + 1"."""
    return max(low, high + 1 if high < n else 0)


def _register_definition(reg: dict[tuple[int, int], int], i: int, j: int, x: int) -> list[Clause]:
    """r(i, j) <-> r(i-1, j) or (x_i and r(i-1, j-1)), with r(i-1, 0) true and r(i-1, j) false for j > i-1."""
    r = reg[i, j]
    before = reg.get((i - 1, j))  # None: at least j of i-1 variables is false (j > i-1)
    below = reg.get((i - 1, j - 1)) if j > 1 else None  # None with j == 1: "at least 0" is true
    out: list[Clause] = []
    if before is not None:
        out += [(-before, r), (-r, before, x)]
    else:
        out.append((-r, x))
    if j == 1:
        out.append((-x, r))
    else:
        assert below is not None
        out.append((-x, -below, r))
        out.append((-r, below) if before is None else (-r, before, below))
    return out


# -- boards --------------------------------------------------------------------------------------

def component_cnf(component: Component, var_of: dict[int, int]) -> CNF:
    """The digit equations of one component, each by the correct combination encoding."""
    return tuple(clause for eq in component.equations
                 for clause in exactly_by_combinations(tuple(var_of[c] for c in eq.cells), eq.mines))


def seed_board_cnf(board: Board, defects: frozenset[str] = SEED_DEFECTS) -> tuple[CNF, tuple[int, ...]]:
    """Port of ``MinesweeperSolver.buildCNF``: the CNF, and the cell of each variable (variable v is cells[v-1]).

    Variables (the Java's VariableMap) are numbered in the order the boundary is collected: the
    opened cells row by row, and around each its covered neighbours in row-major order.
    """
    covered_around = {d: tuple(n for n in board.neighbours(d) if board.cells[n] == COVERED) for d in board.digits}
    cells = tuple(dict.fromkeys(n for d in board.digits for n in covered_around[d]))
    var_of = {c: v for v, c in enumerate(cells, start=1)}
    clauses: list[Clause] = []
    for d in board.digits:
        variables = tuple(var_of[n] for n in covered_around[d])
        remaining = board.cells[d] - sum(1 for n in board.neighbours(d) if board.cells[n] == FLAG)
        if remaining < 0:
            # DEFECT(seed) dpll-overflagged-digit-skipped: a digit with more flags around it than it
            # shows is impossible, but the Java skips it ("a normal game never shows one"). The fixed
            # variant reports the board inconsistent (here: the empty clause, no layout).
            if "dpll-overflagged-digit-skipped" not in defects:
                clauses += UNSATISFIABLE
            continue
        if not variables:
            # DEFECT(seed) dpll-isolated-digit-skipped: a digit with no covered neighbours is skipped
            # even when it still needs mines (remaining > 0), which no layout can give. The fixed
            # variant reports it (here: the empty clause, no layout).
            if remaining > 0 and "dpll-isolated-digit-skipped" not in defects:
                clauses += UNSATISFIABLE
            continue
        if remaining == 0:
            clauses += ((-v,) for v in variables)
        elif remaining == len(variables):
            clauses += ((v,) for v in variables)
        else:
            clauses += seed_exactly_by_combinations(variables, remaining, defects)
    return tuple(clauses), cells
