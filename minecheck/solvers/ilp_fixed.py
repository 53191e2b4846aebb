"""Article 000, fixed: the 0-1 programme, its LP relaxation and a correct feasibility branch and bound.

Every covered frontier cell is a 0-1 variable, every digit an equation "these cells hold k
mines".  A cell is a mine for sure if no integer solution has it 0, safe for sure if none has
it 1; each question is a depth-first branch and bound whose nodes are LP relaxations
(0 <= x <= 1 written as x + s = 1) solved by the two-phase simplex in ``simplex.py``.

The article's algorithm with its defects corrected, in the local and the global mode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from minecheck.engine.constraints import Component, ConstraintSystem, system_or_refusal
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board, label
from minecheck.solvers.ilp_seed import INTEGRAL_TOL
from minecheck.solvers.simplex import LP, OPTIMAL, solve_fixed

SLACK = -1  # the variable standing for the number of mines among the off-frontier cells


@dataclass(frozen=True)
class Model:
    """An integer programme: each row says the variables at those positions sum to rhs; 0 <= x <= upper."""

    variables: tuple[int, ...]  # a cell, or SLACK
    rows: tuple[tuple[int, ...], ...]  # positions into variables, coefficient 1
    rhs: tuple[int, ...]
    upper: tuple[int, ...]
    sources: tuple[int, ...]  # the digit cell behind each row; SLACK for the total-mine row


def component_model(comp: Component) -> Model:
    """One component's 0-1 programme: its cells and its digits' equations."""
    at = {cell: i for i, cell in enumerate(comp.cells)}
    rows = tuple(tuple(at[c] for c in eq.cells) for eq in comp.equations)
    return Model(comp.cells, rows, tuple(eq.mines for eq in comp.equations), (1,) * len(comp.cells),
                 tuple(eq.source for eq in comp.equations))


def global_model(system: ConstraintSystem) -> Model:
    """The whole frontier plus an integer slack for the off-frontier cells, tied by the total mine count."""
    if system.mines_remaining is None:
        raise ValueError("the global mode needs the total mine count (a header WxHxM)")
    variables = system.frontier + (SLACK,)
    at = {cell: i for i, cell in enumerate(system.frontier)}
    rows = tuple(tuple(at[c] for c in eq.cells) for eq in system.equations)
    total = tuple(range(len(variables)))
    return Model(variables, rows + (total,), tuple(eq.mines for eq in system.equations) + (system.mines_remaining,),
                 (1,) * len(system.frontier) + (len(system.off_frontier),),
                 tuple(eq.source for eq in system.equations) + (SLACK,))


def relaxation_lp(model: Model | Component, objective: Sequence[float] | None = None) -> LP:
    """The LP relaxation: columns x then one bound slack per x (x + s = upper); objective on x."""
    model = component_model(model) if isinstance(model, Component) else model
    lp, _ = bounded_relaxation(model, (0,) * len(model.variables), model.upper, objective)
    return lp


def bounded_relaxation(model: Model, lower: Sequence[int], upper: Sequence[int],
                       objective: Sequence[float] | None = None) -> tuple[LP, tuple[int, ...]]:
    """The relaxation with lower <= x <= upper: variables with lower == upper are substituted out
    (no bound row, their value moved to the right-hand side), the others shifted to x - lower."""
    free = tuple(j for j in range(len(model.variables)) if lower[j] < upper[j])
    col = {j: i for i, j in enumerate(free)}
    n = len(free)
    a, b = [], []
    for row, rhs in zip(model.rows, model.rhs):
        coef = [0.0] * (2 * n)
        for j in row:
            if j in col:
                coef[col[j]] = 1.0
        a.append(tuple(coef))
        b.append(float(rhs - sum(lower[j] for j in row)))
    for i, j in enumerate(free):
        coef = [0.0] * (2 * n)
        coef[i] = coef[n + i] = 1.0
        a.append(tuple(coef))
        b.append(float(upper[j] - lower[j]))
    cost = [0.0] * (2 * n)
    if objective is not None:
        cost[:n] = [float(objective[j]) for j in free]
    return LP(tuple(a), tuple(b), tuple(cost)), free


def find_solution(model: Model, lower: Sequence[int], upper: Sequence[int]) -> tuple[int, ...] | None:
    """An integer solution within the bounds, or None: depth-first branch and bound over LP relaxations,
    branching on the first fractional variable, the lower branch first."""
    if any(lo > hi for lo, hi in zip(lower, upper)):
        return None
    stack = [(tuple(lower), tuple(upper))]
    while stack:
        lo, hi = stack.pop()
        lp, free = bounded_relaxation(model, lo, hi)
        result = solve_fixed(lp)
        if result.status != OPTIMAL:
            continue  # an LP that is infeasible has no integer point either
        value = list(map(float, lo))
        for i, j in enumerate(free):
            value[j] += result.x[i]
        frac = next((j for j in free if abs(value[j] - round(value[j])) > INTEGRAL_TOL), None)
        if frac is None:
            solution = tuple(round(v) for v in value)
            assert satisfies(model, solution), "an integral LP vertex must satisfy the rows exactly"
            return solution
        down, up = list(hi), list(lo)
        down[frac], up[frac] = math.floor(value[frac]), math.ceil(value[frac])
        stack.append((tuple(up), hi))  # popped second: x >= ceil
        stack.append((lo, tuple(down)))  # popped first: x <= floor, "safe" before "mine"
    return None


def satisfies(model: Model, solution: Sequence[int]) -> bool:
    """Every row holds and every variable is within 0..upper."""
    return (all(0 <= v <= u for v, u in zip(solution, model.upper))
            and all(sum(solution[j] for j in row) == rhs for row, rhs in zip(model.rows, model.rhs)))


def model_verdicts(model: Model) -> tuple[Verdict, ...] | None:
    """Per variable: MINE if it cannot be below its upper bound, SAFE if it cannot be above 0; None if
    the model has no integer solution.  Solutions found along the way answer later questions."""
    n = len(model.variables)
    zero = (0,) * n
    first = find_solution(model, zero, model.upper)
    if first is None:
        return None
    witnesses = [first]

    def possible(j: int, lo: int, hi: int) -> bool:
        """Has some integer solution lo <= x_j <= hi?"""
        if any(lo <= w[j] <= hi for w in witnesses):
            return True
        lower, upper = list(zero), list(model.upper)
        lower[j], upper[j] = lo, hi
        found = find_solution(model, lower, upper)
        if found is not None:
            witnesses.append(found)
        return found is not None

    verdicts = []
    for j, top in enumerate(model.upper):
        if not possible(j, 1, top):
            verdicts.append(Verdict.SAFE)
        elif not possible(j, 0, top - 1):
            verdicts.append(Verdict.MINE)
        else:
            verdicts.append(Verdict.UNKNOWN)
    return tuple(verdicts)


def lp_vertex(model: Model) -> tuple[tuple[int, float], ...]:
    """The zero-objective relaxation's vertex for every cell variable (an LP vertex, not a probability)."""
    result = solve_fixed(relaxation_lp(model))
    if result.status != OPTIMAL:
        return ()
    return tuple((v, result.x[i]) for i, v in enumerate(model.variables) if v != SLACK)


class FixedIlpSolver:
    """The article's method made right: verdicts equal to the exact counter's, consistency, LP vertices."""

    answers = frozenset({Answers.VERDICTS, Answers.CONSISTENCY, Answers.LP})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "ilp@fixed"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        system = system_or_refusal(self.name, board, mode)
        if isinstance(system, SolverResult):
            return system
        models = [component_model(comp) for comp in system.components]
        if mode is Mode.GLOBAL:  # the total couples the components: one model for the whole frontier,
            unsolvable = (m for m in models if find_solution(m, (0,) * len(m.variables), m.upper) is None)
            models = [next(unsolvable, None) or global_model(system)]  # unless a component alone fails
        verdicts: dict[int, Verdict] = {}
        lp: list[tuple[int, float]] = []
        for model in models:
            found = model_verdicts(model)
            if found is None:
                return SolverResult(self.name, mode, consistent=False, reason=_no_solution(board, model))
            verdicts.update(zip(model.variables, found))
            lp.extend(lp_vertex(model))
        if SLACK in verdicts:  # the slack's verdict is every off-frontier cell's
            off = verdicts.pop(SLACK)
            verdicts.update((cell, off) for cell in system.off_frontier)
        cells = tuple(CellAnswer(cell, v) for cell, v in sorted(verdicts.items()))
        return SolverResult(self.name, mode, consistent=True, cells=cells, lp_values=tuple(sorted(lp)))


def _no_solution(board: Board, model: Model) -> str:
    """Why a model has no 0-1 solution, naming its digits (and the total, if it is in the model)."""
    digits = [label(board, s) for s in model.sources if s != SLACK]
    shown = ", ".join(digits[:6]) + ("" if len(digits) <= 6 else f" and {len(digits) - 6} more")
    if SLACK in model.sources:
        total = model.rhs[model.sources.index(SLACK)]
        return (f"no 0-1 solution puts exactly {total} remaining mines on the {len(model.variables) - 1} "
                f"frontier cells and the {model.upper[-1]} cells off the frontier"
                + (f" while satisfying the digits at {shown}" if digits else ""))
    return f"no 0-1 solution of {len(model.variables)} covered cells satisfies the digits at {shown} together"


def fixed_solver(option: str | None = None) -> FixedIlpSolver:
    return FixedIlpSolver(option)
