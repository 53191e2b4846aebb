"""LP values: the hand-written simplex against CBC, on board relaxations and on general random LPs.

Status (optimal / infeasible / unbounded) must match, and optimal values agree within the
one named tolerance (relative above 1).  General LPs come from a seeded generator that
mixes feasible, infeasible, unbounded and degenerate problems.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import re
import warnings
from collections.abc import Callable, Sequence
from functools import cache

import pulp

from minecheck.check.findings import Finding, Kind
from minecheck.engine.constraints import Component, Contradiction, build_constraints
from minecheck.model.answers import TOLERANCE, Mode
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board
from minecheck.model.errors import BadOption, ReferenceFailure
from minecheck.running.catalogue import BY_NAME, LP_REFERENCE, LP_SOLVERS
from minecheck.solvers.simplex import INFEASIBLE, LP, OPTIMAL, UNBOUNDED, LPResult

REFERENCE = LP_REFERENCE  # CBC, through PuLP


@cache
def lp_solver(name: str) -> Callable[[LP], LPResult]:
    """The LP solver a catalogue name stands for (its target: ``module:function``)."""
    module, _, attribute = BY_NAME[name].target.partition(":")
    return getattr(importlib.import_module(module), attribute)


# Degenerate LPs on which the leaving rule decides whether the simplex ends.  With b = 0 (or nearly) every
# ratio of the ratio test ties, and an entering rule alone does not keep the simplex from cycling: the first
# four cycle for ever under Bland's entering rule when ties leave by the first row (the seed simplex's
# ratio test), in Phase II (the first three: unbounded, unbounded, optimal) or in Phase I (the fourth:
# infeasible); they were found by a search over random degenerate LPs (1 in about 50,000 cycles).  The last
# is Beale's example (1955), which cycles under Dantzig's most-negative entering rule with the same ties.
DEGENERATE: tuple[LP, ...] = (
    LP(((-2.0, -3.0, -1.0, 2.0, 2.0, -1.0), (0.0, 2.0, -3.0, 3.0, 1.0, -2.0)), (0.0, 0.0),
       (1.0, -2.0, 3.0, 2.0, -1.0, 0.0)),
    LP(((0.25, -0.5, 0.0, 2.0, -2.0, 3.0), (1.0, 0.0, 1.0, 0.25, -2.0, -3.0), (-2.0, 2.0, 1.0, -3.0, 3.0, 0.25)),
       (0.0, 0.0, 0.0), (-2.0, 3.0, -1.0, 3.0, 0.25, -3.0)),
    LP(((-0.5, 2.0, -0.5, 0.0, 0.0, 3.0, -3.0), (0.5, 0.5, -3.0, -1.0, 0.0, 2.0, 2.0),
        (2.0, 0.5, 0.0, 2.0, -1.0, 0.0, -3.0)), (0.0, 0.0, 0.0), (-0.5, 1.0, 2.0, 0.0, 0.25, -0.5, -0.5)),
    LP(((0.25, -1.0, 0.5, -2.0, 0.25, 0.0, 0.0), (-0.5, 0.25, 3.0, 1.0, 0.25, -2.0, -3.0),
        (-3.0, -3.0, 0.0, 2.0, -2.0, 1.0, -0.5), (0.25, 0.25, 0.0, -3.0, 3.0, -3.0, 0.0)), (0.0, 0.0, 1.0, 0.0),
       (-2.0, 0.0, -3.0, 0.5, 3.0, -0.5, -3.0)),
    LP(((1.0, 0.0, 0.0, 0.25, -8.0, -1.0, 9.0), (0.0, 1.0, 0.0, 0.5, -12.0, -0.5, 3.0),
        (0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0)), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0, -0.75, 20.0, -0.5, 6.0)),
)
DEGENERATE_SHARE = 1 / 8  # of the random LPs: one of DEGENERATE, scaled
SCALES = (0.5, 1.0, 2.0, 4.0)  # powers of two: exact in floating point, so the pivots are those of the original


def degenerate_lp(rng: random.Random, base: LP | None = None) -> LP:
    """One of DEGENERATE (or ``base``) with its columns scaled by powers of two, and its rows by one more:
    another LP with the same pivots (a column scaled by s > 0 scales its reduced costs, in both phases, and
    its ratios alike; all rows scaled together keep every ratio and every sign), so the ones that cycle
    still cycle.  (Rows scaled apart would not do: Phase I weighs its artificials, one a row, alike.)"""
    base = base or rng.choice(DEGENERATE)
    row = rng.choice(SCALES)
    cols = [rng.choice(SCALES) for _ in base.c]
    return LP(tuple(tuple(row * s * v for s, v in zip(cols, r)) for r in base.a), tuple(row * v for v in base.b),
              tuple(s * v for s, v in zip(cols, base.c)))


def degenerate_pick(seed: int) -> random.Random | None:
    """The stream that makes random LP ``seed`` degenerate, or None for the others (a stream of its own, so
    the others are drawn as before)."""
    pick = random.Random(int.from_bytes(hashlib.sha256(f"degenerate lp|{seed}".encode()).digest()[:8], "big"))
    return pick if pick.random() < DEGENERATE_SHARE else None


def random_lp(seed: int) -> LP:
    """A small LP min c.x, Ax = b, x >= 0 with integer data; about a third each optimal/infeasible/unbounded;
    one in eight instead a degenerate LP of DEGENERATE, scaled (so the others are those of earlier versions)."""
    pick = degenerate_pick(seed)
    if pick is not None:
        return degenerate_lp(pick)
    rng = random.Random(int.from_bytes(hashlib.sha256(f"lp|{seed}".encode()).digest()[:8], "big"))
    m, n = rng.randint(1, 4), rng.randint(2, 6)
    a = tuple(tuple(float(rng.randint(-3, 3)) for _ in range(n)) for _ in range(m))
    degenerate = rng.random() < 0.3
    b = tuple(0.0 if degenerate and rng.random() < 0.6 else float(rng.randint(-5, 5)) for _ in range(m))
    c = tuple(float(rng.randint(-3, 3)) for _ in range(n))
    return LP(a, b, c)


def describe_lp(lp: LP) -> str:
    """An LP as text a person can read and paste."""
    def term(k: float, j: int) -> str:
        return f"{k:+g} x{j}"

    lines = ["min " + " ".join(term(k, j) for j, k in enumerate(lp.c) if k) or "min 0"]
    for row, rhs in zip(lp.a, lp.b):
        lines.append("  " + (" ".join(term(k, j) for j, k in enumerate(row) if k) or "0") + f" = {rhs:g}")
    lines.append("  x >= 0")
    return "\n".join(lines)


_TERM = re.compile(r"([+-]\d+(?:\.\d*)?(?:e[+-]?\d+)?) x(\d+)")


def read_lp(text: str) -> LP:
    """An LP as ``describe_lp`` writes it (lines, or lines joined by ``/`` as a replay line gives them): BadOption
    naming the line that does not read."""
    lines = [ln.strip() for ln in text.replace("/", "\n").splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("min ") or lines[-1] != "x >= 0":
        raise BadOption(f"--lp {text!r}: an LP reads 'min +3 x0 -2 x1 / +1 x0 +1 x1 = 4 / x >= 0' (the objective, "
                        "one equation a line, then x >= 0)")

    def terms(part: str, where: str) -> dict[int, float]:
        part = part.strip()
        found = _TERM.findall(part)
        if part != "0" and " ".join(f"{k} x{j}" for k, j in found) != part:
            raise BadOption(f"--lp: {where} {part!r}: expected terms such as +3 x0 -2 x1")
        return {int(j): float(k) for k, j in found}

    objective = terms(lines[0][4:], "the objective")
    rows = []
    for number, line in enumerate(lines[1:-1], 2):
        left, eq, right = line.partition("=")
        try:
            rows.append((terms(left, f"line {number}"), float(right)))
        except ValueError:
            raise BadOption(f"--lp: line {number} {line!r}: expected terms = a number") from None
        if not eq:
            raise BadOption(f"--lp: line {number} {line!r}: expected terms = a number")
    width = 1 + max([*objective, *(j for r, _ in rows for j in r)], default=0)
    return LP(tuple(tuple(r.get(j, 0.0) for j in range(width)) for r, _ in rows), tuple(b for _, b in rows),
              tuple(objective.get(j, 0.0) for j in range(width)))


def cbc_lp(lp: LP) -> LPResult:
    """The LP's status and value by CBC, decided in steps CBC answers reliably.

    CBC's own status on an unbounded LP is unreliable (seen: "Infeasible" for a feasible LP
    with a free improving direction), so: feasibility first (zero objective), then a ray
    (min c.d, A d = 0, d >= 0, sum d = 1: a negative optimum means unbounded), then the LP.
    """
    zero = (0.0,) * len(lp.c)
    if _cbc_solve(lp, zero)[0] == INFEASIBLE:
        return LPResult(INFEASIBLE)
    ray = LP(tuple(lp.a) + ((1.0,) * len(lp.c),), (0.0,) * len(lp.a) + (1.0,), lp.c)
    status, value = _cbc_solve(ray, lp.c)
    if status == OPTIMAL and value is not None and value < -TOLERANCE:
        return LPResult(UNBOUNDED)
    status, value = _cbc_solve(lp, lp.c)
    if status != OPTIMAL:
        raise ReferenceFailure(f"CBC called a feasible LP without an improving ray {status}")
    return LPResult(OPTIMAL, value)


def _cbc_solve(lp: LP, cost: Sequence[float]) -> tuple[str, float | None]:
    prob = pulp.LpProblem("lp", pulp.LpMinimize)
    x = [prob.add_variable(f"x{j}", lowBound=0) for j in range(len(cost))]
    prob += pulp.LpAffineExpression([(v, k) for v, k in zip(x, cost) if k])
    for i, (row, rhs) in enumerate(zip(lp.a, lp.b)):
        prob.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression([(v, k) for v, k in zip(x, row) if k]),
                                             pulp.LpConstraintEQ, f"r{i}", rhs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        solver = pulp.PULP_CBC_CMD(msg=False, threads=1, timeLimit=60)
    try:
        prob.solve(solver)
    except pulp.PulpSolverError as err:
        raise ReferenceFailure(f"CBC failed: {err}") from err
    status = {"Optimal": OPTIMAL, "Infeasible": INFEASIBLE, "Unbounded": UNBOUNDED}.get(pulp.LpStatus[prob.status])
    if status is None:
        raise ReferenceFailure(f"CBC ended with status {pulp.LpStatus[prob.status]!r}")
    return status, (float(pulp.value(prob.objective) or 0.0) if status == OPTIMAL else None)


def lp_difference(got: LPResult, want: LPResult) -> tuple[str, str] | None:
    """(subject says, reference says) when status or optimal value differ, else None."""
    if got.status != want.status:
        return got.status, want.status
    if got.status == OPTIMAL:
        assert got.objective is not None and want.objective is not None
        if abs(got.objective - want.objective) > TOLERANCE * max(1.0, abs(want.objective)):
            return f"optimal {got.objective:.9g}", f"optimal {want.objective:.9g}"
    return None


def check_lp(lp: LP, subjects: Sequence[str], text: str, mode: Mode = Mode.LOCAL, detail: str = "",
             index: int | None = None, cells: tuple[int, ...] = ()) -> list[Finding]:
    """Solve one LP with each simplex variant and CBC; a finding per disagreement or exception, naming
    ``cells`` (a board's component whose relaxation the LP is; none for a general LP)."""
    want = cbc_lp(lp)
    found = []
    for name in subjects:
        try:
            diff = lp_difference(lp_solver(name)(lp), want)
            kind = Kind.LP
        except Exception as err:  # the simplex under test raised: that is its answer
            diff, kind = (f"{type(err).__name__}: {err}", want.status), Kind.CRASH
        if diff is not None:
            found.append(Finding(kind, name, REFERENCE, mode, cells, diff[0], diff[1], text, detail, None, index))
    return found


def component_objective(comp: Component, salt: int = 0) -> list[int]:
    """A component's random objective, seeded by the component itself (its equations, its cells numbered in
    order) and not by the board around it: a crop that keeps the component keeps its LP, so an LP finding
    shrinks to the component's cells, and its small board replays it."""
    at = {cell: i for i, cell in enumerate(comp.cells)}
    shape = repr((salt, len(comp.cells), [(sorted(at[c] for c in eq.cells), eq.mines) for eq in comp.equations]))
    rng = random.Random(int.from_bytes(hashlib.sha256(shape.encode()).digest()[:8], "big"))
    return [rng.randint(-3, 3) for _ in comp.cells]


def relaxations(board: Board, salt: int = 0) -> list[tuple[LP, str, tuple[int, ...]]]:
    """Each component's LP relaxation with its random objective (``component_objective``), a line that says
    which, and the component's cells (a finding names them: its page outlines them on the board)."""
    try:
        components = build_constraints(board).components
    except Contradiction:
        return []
    out = []
    for k, comp in enumerate(components):
        objective = component_objective(comp, salt)
        out.append((component_relaxation(comp, objective),
                    f"relaxation of component {k} ({len(comp.cells)} cells), objective {objective}",
                    tuple(comp.cells)))
    return out


def component_relaxation(comp: Component, objective: Sequence[float]) -> LP:
    """A component's LP relaxation, written here from its equations (not by the solvers under test): columns
    x (one per cell) then one bound slack s per cell, rows "these cells hold k mines" then x + s = 1."""
    n = len(comp.cells)
    at = {cell: i for i, cell in enumerate(comp.cells)}
    rows, rhs = [], []
    for eq in comp.equations:
        row = [0.0] * (2 * n)
        for cell in eq.cells:
            row[at[cell]] = 1.0
        rows.append(tuple(row))
        rhs.append(float(eq.mines))
    for i in range(n):
        row = [0.0] * (2 * n)
        row[i] = row[n + i] = 1.0
        rows.append(tuple(row))
        rhs.append(1.0)
    cost = tuple(float(k) for k in objective) + (0.0,) * n
    return LP(tuple(rows), tuple(rhs), cost)


def check_relaxations(board: Board, subjects: Sequence[str], salt: int = 0, index: int | None = None) -> list[Finding]:
    """Each component's LP relaxation with its random objective, through every simplex variant."""
    subjects = [s for s in subjects if s in LP_SOLVERS]
    if not subjects:
        return []
    text = format_board(board)
    found = []
    for lp, detail, cells in relaxations(board, salt):
        found += check_lp(lp, subjects, text, Mode.LOCAL, detail, index, cells)
    return found
