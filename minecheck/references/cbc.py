"""Reference ``cbc``: the 0-1 model solved by CBC through PuLP; verdicts by backbone.

Each CBC call starts a process (a few ms), so calls are what to save.  A "yes" ("can this
cell be a mine?") needs only a layout, which anyone may find and anyone can check; a "no"
needs a proof, which here only CBC gives.  So the batched backbone takes layouts from an
in-process SAT search, checks each against every row, and asks CBC the questions they leave
in ONE model: a copy of each model with an indicator per question and the number of "yes"
indicators maximised; an optimum of 0 proves every one of them "no".  ``cbc:per-cell`` is the
baseline: one CBC call per question, reusing every layout CBC found.
Also here: general LPs and LP relaxations solved by CBC (or HiGHS), for the simplex comparison.
"""

from __future__ import annotations

import warnings

import pulp

from minecheck.engine.constraints import system_or_refusal
from minecheck.engine.scan import frontier_size
from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board, label
from minecheck.model.errors import ReferenceFailure
from minecheck.references import minisat
from minecheck.references.backbone import OFF, Seen, Solution, satisfies
from minecheck.references.model import Model, models

TIME_LIMIT = 60  # seconds per CBC call; a call that hits it is an error, never a verdict
REACH = 5000  # frontier cells: past this the backbone's models take CBC minutes (200x200, 1,200 openings: 7,000
# cells, 19 s), so such a board is declined at once, before any model is built


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


def _solution(model: Model, copy: Copy) -> Solution:
    """The layout CBC gave for one copy, checked against every row: garbage is an error, not a verdict."""
    x, off = copy
    sol = Solution(frozenset(c for c, v in x.items() if _value(v) > 0.5), round(_value(off)) if off is not None else 0)
    if not satisfies(model, sol):
        raise ReferenceFailure("CBC returned a layout that breaks a row of its own model")
    return sol


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
    copy = x, off = _add_copy(prob, model, "")
    if fix is None:
        prob += pulp.lpSum([])  # feasibility only
    else:
        cell, mine = fix
        if cell == OFF:
            prob += (off >= 1) if mine else (off <= len(model.off_cells) - 1), "fix"
        else:
            prob += x[cell] == int(mine), "fix"
        prob += pulp.lpSum([])
    return _solution(model, copy) if _solve(prob) == "Optimal" else None


def first_solutions(all_models: tuple[Model, ...]) -> list[Solution] | int:
    """One solution per model from a single call; if there is none, the index of a model without one."""
    prob = pulp.LpProblem("minecheck", pulp.LpMinimize)
    copies = [_add_copy(prob, m, f"m{i}") for i, m in enumerate(all_models)]
    prob += pulp.lpSum([])
    if _solve(prob) == "Optimal":
        return [_solution(m, copy) for m, copy in zip(all_models, copies)]
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


# SAT's totalizer for a global total (minisat.counter_size) above which CBC would find the layouts
# faster.  Since the total is encoded over the frontier only, SAT is the faster way on every board
# measured: on 16 Expert-size boards with 8-30% of the safe cells open (counter sizes 18,000-
# 100,000), cbc with SAT layouts took median 0.16 s (max 0.25) and CBC alone 0.44 s (max 10.4).
# The limit stays, far above those, for frontiers SAT has not been measured on.
WITNESS_LIMIT = 1_000_000


def witnesses(model: Model) -> tuple[Solution, ...] | None:
    """The layouts an in-process SAT backbone search finds, each checked row by row; None if there
    are none to trust (unsatisfiable, a layout breaks a row, or the model is too big for SAT).

    A layout that satisfies every row is a certificate whoever found it: it answers "yes" to
    every question it flips without trusting the SAT solver.  Every "no" still comes from CBC.
    """
    if minisat.counter_size(model) > WITNESS_LIMIT:
        return None
    sols = minisat.backbone_solutions(model, minisat.DEFAULT)  # as the minisat reference asks: one search, cached
    return sols if sols and all(satisfies(model, sol) for sol in sols) else None


def _flip_call(seens: list[Seen]) -> bool:
    """ONE CBC call asking, for every model with open questions, for a layout that flips as many
    of them as possible; keeps the layouts; True if any question was answered "yes".

    At an optimum of 0 no layout of any model flips any open question: CBC has proved them all
    "no" at once (the models are independent copies, so their optima add up).
    """
    prob = pulp.LpProblem("backbone", pulp.LpMaximize)
    copies, indicators = [], []
    for i, seen in enumerate(seens):
        questions = seen.open_questions()
        if questions:
            copy = _add_copy(prob, seen.model, f"m{i}")
            indicators += [_ask(prob, *copy, seen.model, cell, mine, f"m{i}q{q}")
                           for q, (cell, mine) in enumerate(questions)]
            copies.append((seen, copy))
    prob += pulp.lpSum(indicators)
    if _solve(prob) != "Optimal":
        raise ReferenceFailure("CBC called a model with a known solution infeasible")
    before = sum(len(seen.open_questions()) for seen, _ in copies)
    for seen, copy in copies:
        seen.add(_solution(seen.model, copy))
    return sum(len(seen.open_questions()) for seen, _ in copies) < before


def backbone_batched(all_models: tuple[Model, ...]) -> list[Seen] | int:
    """Every open question of the board in one CBC call, after checked witnesses answered the "yes"es.

    Witnesses come from an in-process SAT search (``witnesses``); a model without them gets its
    first layout from CBC (one call for all such models), and CBC alone then decides whether it
    is consistent.  The questions left are the backbone candidates: one CBC model, holding a
    copy of each model with a candidate and maximising the number of candidates flipped, proves
    them all "no" at once.  Should it flip some (the witnesses missed a layout), those are
    answered and the call repeats with the rest.
    """
    found = [witnesses(model) for model in all_models]
    missing = [i for i, sols in enumerate(found) if sols is None]
    if missing:
        firsts = first_solutions(tuple(all_models[i] for i in missing))
        if isinstance(firsts, int):
            return missing[firsts]
        for i, first in zip(missing, firsts):
            found[i] = (first,)
    seens = []
    for model, sols in zip(all_models, found):
        seen = Seen(model)
        for sol in sols:
            seen.add(sol)
        seens.append(seen)
    while any(seen.open_questions() for seen in seens) and _flip_call(seens):
        pass
    return seens


class CbcSolver:
    """CBC verdicts (batched backbone) and consistency, in both modes; ``cbc:per-cell`` for the baseline."""

    answers = frozenset({Answers.VERDICTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "cbc"
        self.backbone = backbone_per_cell if option == "per-cell" else backbone_batched

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        frontier = frontier_size(board)
        if frontier > REACH and (mode is Mode.LOCAL or board.total_mines is not None):
            return SolverResult(self.name, mode, declined=f"{frontier} frontier cells, past CBC's reach of {REACH}")
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
