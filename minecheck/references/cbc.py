"""Reference ``cbc``: the 0-1 model solved by CBC through PuLP; verdicts by backbone.

Each CBC call starts a process (a few ms), so calls are what to save.  The batched backbone
asks every open question in ONE model: an independent copy of the model per question, each
with an indicator that can be 1 only if its copy answers "yes", and the sum of indicators
maximised.  Copies are independent, so at the optimum an indicator is 0 exactly when its
question has no solution; every copy's assignment is a real solution and is kept.
Also here: general LPs and LP relaxations solved by CBC (or HiGHS), for the simplex comparison.
"""

from __future__ import annotations

import warnings

import pulp

from minecheck.answers import Answers, Mode, SolverResult
from minecheck.board import Board, label
from minecheck.references.backbone import OFF, Seen, Solution, satisfies
from minecheck.references.model import Model, models
from minecheck.registry import system_or_refusal

TIME_LIMIT = 60  # seconds per CBC call; a call that hits it is an error, never a verdict


class ReferenceFailure(RuntimeError):
    """An external solver crashed, timed out or answered something unusable."""


def _cbc() -> pulp.LpSolver:
    """PuLP's bundled CBC binary (deprecated for PuLP 4, which the dependency range excludes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(msg=False, timeLimit=TIME_LIMIT, threads=1)


Copy = tuple[dict[int, pulp.LpVariable], pulp.LpVariable | None]


def _add_copy(prob: pulp.LpProblem, model: Model, tag: str) -> Copy:
    """Add one copy of the model's variables and rows to prob; return its variables."""
    x = {c: prob.add_variable(f"x{tag}_{c}", cat=pulp.LpBinary) for c in model.cells}
    for i, eq in enumerate(model.equations):  # LpAffineExpression from pairs: much faster than lpSum
        row = pulp.LpAffineExpression([(x[c], 1) for c in eq.cells])
        prob.addConstraint(pulp.LpConstraint(row, pulp.LpConstraintEQ, f"eq{tag}_{i}", eq.mines))
    off = None
    if model.total is not None:
        off = prob.add_variable(f"off{tag}", lowBound=0, upBound=len(model.off_cells), cat=pulp.LpInteger)
        row = pulp.LpAffineExpression([(v, 1) for v in x.values()] + [(off, 1)])
        prob.addConstraint(pulp.LpConstraint(row, pulp.LpConstraintEQ, f"total{tag}", model.total))
    return x, off


def _solution(x: dict[int, pulp.LpVariable], off: pulp.LpVariable | None) -> Solution:
    mines = frozenset(c for c, v in x.items() if _value(v) > 0.5)
    return Solution(mines, round(_value(off)) if off is not None else 0)


def _value(v: pulp.LpVariable) -> float:
    val = v.varValue
    if val is None:
        raise ReferenceFailure(f"CBC returned no value for {v.name}")
    return float(val)


def _solve(prob: pulp.LpProblem) -> str:
    try:
        prob.solve(_cbc())
    except pulp.PulpSolverError as err:
        raise ReferenceFailure(f"CBC failed: {err}") from err
    status = pulp.LpStatus[prob.status]
    if status not in ("Optimal", "Infeasible"):
        raise ReferenceFailure(f"CBC ended with status {status!r}")
    return status


def _ask(prob: pulp.LpProblem, x: dict, off, model: Model, cell: int, mine: bool, name: str):
    """An indicator that can be 1 only if this copy has ``cell`` (or the off count) as asked."""
    y = prob.add_variable(f"y{name}", cat=pulp.LpBinary)
    if cell == OFF:
        prob += (y <= off) if mine else (y <= len(model.off_cells) - off), f"ask{name}"
    else:
        prob += (y <= x[cell]) if mine else (y <= 1 - x[cell]), f"ask{name}"
    return y


def first_solution(model: Model, fix: tuple[int, bool] | None = None) -> Solution | None:
    """One feasible assignment (optionally with one cell, or the off count, forced), or None."""
    prob = pulp.LpProblem("minecheck", pulp.LpMaximize)
    x, off = _add_copy(prob, model, "")
    if fix is None:
        prob += pulp.lpSum([])  # feasibility only
    else:
        cell, mine = fix
        if cell == OFF:
            prob += (off >= 1) if mine else (off <= len(model.off_cells) - 1), "fix"
        else:
            prob += x[cell] == int(mine), "fix"
        prob += pulp.lpSum([])
    return _solution(x, off) if _solve(prob) == "Optimal" else None


def first_solutions(all_models: tuple[Model, ...]) -> list[Solution] | int:
    """One solution per model from a single call; if there is none, the index of a model without one."""
    prob = pulp.LpProblem("minecheck", pulp.LpMinimize)
    copies = [_add_copy(prob, m, f"m{i}") for i, m in enumerate(all_models)]
    prob += pulp.lpSum([])
    if _solve(prob) == "Optimal":
        return [_solution(x, off) for x, off in copies]
    return next(i for i, m in enumerate(all_models) if first_solution(m) is None)


def backbone_per_cell(all_models: tuple[Model, ...]) -> list[Seen] | int:
    """One call per open question, reusing every solution found (the baseline)."""
    seens = []
    for i, model in enumerate(all_models):
        first = first_solution(model)
        if first is None:
            return i
        seen = Seen(model)
        seen.add(first)
        for cell, mine in seen.open_questions():
            if cell in (seen.mine if mine else seen.safe):
                continue  # answered by a solution found meanwhile
            sol = first_solution(model, (cell, mine))
            if sol is not None:
                seen.add(sol)
        seens.append(seen)
    return seens


def witnesses(all_models: tuple[Model, ...]) -> list[Solution] | None:
    """A first solution per model found in-process by a SAT solver and checked row by row, or None.

    A layout that satisfies every row is a certificate whoever found it, so this saves a CBC
    process without trusting the SAT solver: every "no" below still comes from CBC alone.
    """
    from minecheck.references.minisat import find_solution

    found = []
    for model in all_models:
        sol = find_solution(model)
        if sol is None or not satisfies(model, sol):
            return None  # let CBC decide (and explain) consistency itself
        found.append(sol)
    return found


def backbone_batched(all_models: tuple[Model, ...]) -> list[Seen] | int:
    """One CBC call for the whole board: every open question at once, after a checked first solution.

    The first solution per model is a verified witness (``witnesses``), or else one CBC call.
    The batched model holds, per open question, an independent copy of that question's model
    (its component only, in the local mode) with an indicator; maximising the indicators
    answers every question of the board in one CBC run.
    """
    firsts = witnesses(all_models) or first_solutions(all_models)
    if isinstance(firsts, int):
        return firsts
    seens = []
    for model, first in zip(all_models, firsts):
        seen = Seen(model)
        seen.add(first)
        seens.append(seen)
    prob = pulp.LpProblem("backbone", pulp.LpMaximize)
    copies, indicators = [], []
    for i, seen in enumerate(seens):
        for q, (cell, mine) in enumerate(seen.open_questions()):
            x, off = _add_copy(prob, seen.model, f"m{i}q{q}")
            indicators.append(_ask(prob, x, off, seen.model, cell, mine, f"m{i}q{q}"))
            copies.append((seen, x, off))
    if not copies:
        return seens
    prob += pulp.lpSum(indicators)
    if _solve(prob) != "Optimal":
        raise ReferenceFailure("CBC called a model with a known solution infeasible")
    for seen, x, off in copies:
        seen.add(_solution(x, off))
    return seens


class CbcSolver:
    """CBC verdicts (batched backbone) and consistency, in both modes; ``cbc:per-cell`` for the baseline."""

    answers = frozenset({Answers.VERDICTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "cbc"
        self.backbone = backbone_per_cell if option == "per-cell" else backbone_batched

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        system = system_or_refusal(self.name, board, mode)
        if isinstance(system, SolverResult):
            return system
        all_models = models(system, mode)
        seens = self.backbone(all_models)
        if isinstance(seens, int):
            model = all_models[seens]
            digits = ", ".join(label(board, eq.source) for eq in model.equations[:6])
            return SolverResult(self.name, mode, consistent=False,
                                reason=f"CBC: no 0-1 solution for the digits at {digits}"
                                + (" with the total mine count" if model.total is not None else ""))
        cells = sorted((a for seen in seens for a in seen.answers()), key=lambda a: a.cell)
        return SolverResult(self.name, mode, consistent=True, cells=tuple(cells))


def make(option: str | None = None) -> CbcSolver:
    return CbcSolver(option)
