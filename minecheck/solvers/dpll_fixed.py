"""Article 004, fixed: the article's questions answered right, by SAT calls and a counting DPLL.

Verdicts by SAT calls ("can this cell be a mine?", "can it be safe?"; a model found by one call
settles every cell it shows both ways), layouts and exact probabilities by a counting DPLL
(``dpll_search``), contradictions reported, and the global mode from the counts of each
component by mine number.  The digits' verdicts and the counts are found independently and
checked against each other.

Glossary: a *variable* v >= 1 stands for a covered cell (true: a mine), a *model* is the set of
variables true in a satisfying assignment, a *tally* counts models by their number of mines.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from minecheck.engine.constraints import Component, ConstraintSystem, system_or_refusal
from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict, verdict_of
from minecheck.model.board import Board, label
from minecheck.solvers.cnf import CNF, component_cnf
from minecheck.solvers.dpll_search import Nodes, Tally, TooHard, count_models, satisfier

SAT_NODES = 40_000  # decisions of all SAT calls on a board together (about 4 s here); more: the board is declined
COUNT_NODES = 4_000  # components counted (cache misses) on a board (about 4 s at most here); the same


class FixedDpll:
    """SAT verdicts and exact counts from a correct encoding, in both modes; contradictions reported."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "dpll@fixed"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        system = system_or_refusal(self.name, board, mode, layouts=0)
        if isinstance(system, SolverResult):
            return system
        try:
            return solve_system(self.name, system, mode)
        except TooHard as err:  # a count past its memory bound: the solver says it cannot answer, not a wrong answer
            return SolverResult(self.name, mode, declined=str(err))


def fixed_solver(option: str | None = None) -> FixedDpll:
    return FixedDpll(option)


def solve_system(name: str, system: ConstraintSystem, mode: Mode) -> SolverResult:
    """One CNF per component (variables numbered along the frontier); counts first, then verdicts."""
    var_of = {cell: v for v, cell in enumerate(system.frontier, start=1)}
    cnfs = tuple(component_cnf(comp, var_of) for comp in system.components)
    counting, deciding = Nodes(COUNT_NODES), Nodes(SAT_NODES)
    tallies = []
    for comp, cnf in zip(system.components, cnfs):
        tally = count_models(cnf, tuple(var_of[c] for c in comp.cells), counting)
        if tally.models == 0:
            assert satisfier(cnf, deciding)(()) is None, "the SAT search found a model the count missed"
            return SolverResult(name, mode, consistent=False, reason=_no_layout(system.board, comp), layouts=0)
        tallies.append(tally)
    verdicts, calls = {}, 0
    for comp, cnf in zip(system.components, cnfs):
        found, asked = sat_verdicts(cnf, tuple(var_of[c] for c in comp.cells), deciding)
        verdicts.update(found)
        calls += asked
    off_answers: list[CellAnswer] = []
    if mode is Mode.LOCAL:
        probabilities, layouts = local_probabilities(tallies)
    else:
        off, remaining = len(system.off_frontier), system.mines_remaining
        assert remaining is not None
        counted = global_probabilities(tallies, off, remaining)
        if counted is None:
            reason = (f"the digits allow no layout with exactly {remaining} mines on the "
                      f"{len(system.board.covered)} covered cells ({off} of them off the frontier)")
            return SolverResult(name, mode, consistent=False, reason=reason, layouts=0)
        probabilities, layouts, p_off = counted
        verdicts = with_the_total(verdicts, probabilities)
        off_answers = [CellAnswer(cell, verdict_of(p_off), p_off) for cell in system.off_frontier]
    answers = [CellAnswer(cell, _checked(verdicts[v], probabilities[v], cell), probabilities[v])
               for cell, v in var_of.items()] + off_answers
    return SolverResult(name, mode, consistent=True, cells=tuple(sorted(answers, key=lambda a: a.cell)),
                        layouts=layouts, component_layouts=tuple(t.models for t in tallies),
                        extra=(("sat_calls", str(calls)), ("sat_nodes", str(deciding.used)),
                               ("count_nodes", str(counting.used))))


def _checked(verdict: Verdict, probability: Fraction, cell: int) -> Verdict:
    """The SAT verdict, once the count is seen to imply the same (if not, this solver is broken)."""
    if verdict is not verdict_of(probability):
        raise AssertionError(f"cell {cell}: the SAT calls say {verdict.value}, the count says p={probability}")
    return verdict


def _no_layout(board: Board, comp: Component) -> str:
    digits = ", ".join(label(board, eq.source) for eq in comp.equations)
    return f"no layout of {len(comp.cells)} covered cells satisfies the digits at {digits} together"


# -- verdicts by SAT calls ------------------------------------------------------------------------------


def sat_verdicts(cnf: CNF, variables: tuple[int, ...], nodes: Nodes | None = None) -> tuple[dict[int, Verdict], int]:
    """Each variable's verdict from "can it be true?" and "can it be false?", reusing every model found."""
    check = satisfier(cnf, nodes)
    seen_true: set[int] = set()
    seen_false: set[int] = set()
    calls = 0
    for v in variables:
        for lit, seen in ((v, seen_true), (-v, seen_false)):
            if v not in seen:
                calls += 1
                model = check((lit,))
                if model is not None:
                    seen_true.update(u for u in variables if u in model)
                    seen_false.update(u for u in variables if u not in model)
    return {v: _verdict(v in seen_true, v in seen_false) for v in variables}, calls


def with_the_total(local: dict[int, Verdict], probabilities: dict[int, Fraction]) -> dict[int, Verdict]:
    """The verdicts once the total is counted in, from the exact global counts.

    The total can settle a cell the digits leave open, never unsettle one (a layout with the total
    is a layout): a cell the SAT calls settled must keep its verdict, or this solver is broken.
    Asking SAT again with a counter for the total was exact too, but this DPLL has no clause
    learning, and proving "no" through a counter is a pigeonhole proof for it: 24 s on a dense
    7x7 board with the total at its largest (``7x7x23/FHHHHHH/H33HHHH/...``).
    """
    out = {}
    for v, verdict in local.items():
        counted = verdict_of(probabilities[v])
        if verdict is not Verdict.UNKNOWN and counted is not verdict:
            raise AssertionError(f"variable {v}: the digits settle it {verdict.value}, the total makes it "
                                 f"{counted.value}")
        out[v] = counted
    return out


def _verdict(can_be_mine: bool, can_be_safe: bool) -> Verdict:
    assert can_be_mine or can_be_safe, "a variable of a satisfiable formula takes some value"
    if can_be_mine and can_be_safe:
        return Verdict.UNKNOWN
    return Verdict.MINE if can_be_mine else Verdict.SAFE


# -- probabilities from counts --------------------------------------------------------------------------


def local_probabilities(tallies: list[Tally]) -> tuple[dict[int, Fraction], int]:
    """Each component uniform over its own models; the board's layouts are their product."""
    probabilities: dict[int, Fraction] = {}
    layouts = 1
    for t in tallies:
        layouts *= t.models
        probabilities.update({v: Fraction(sum(per_k), t.models) for v, per_k in t.mines_of.items()})
    return probabilities, layouts


def global_probabilities(tallies: list[Tally], off: int,
                         remaining: int) -> tuple[dict[int, Fraction], int, Fraction] | None:
    """Uniform over the layouts of all covered cells: the frontier probabilities, the layouts, the off-cell probability.

    A frontier layout with K mines stands for C(off, remaining - K) layouts; None if there are none.
    """
    polys = [list(t.by_mines) for t in tallies]
    frontier = _product(polys)
    layouts = sum(n * comb(off, remaining - k) for k, n in enumerate(frontier) if remaining >= k)
    if layouts == 0:
        return None
    probabilities: dict[int, Fraction] = {}
    for i, t in enumerate(tallies):
        others = _product(polys[:i] + polys[i + 1:])
        weight = [sum(n * comb(off, remaining - k - j) for j, n in enumerate(others) if remaining >= k + j)
                  for k in range(len(t.by_mines))]
        for v, per_k in t.mines_of.items():
            probabilities[v] = Fraction(sum(n * w for n, w in zip(per_k, weight)), layouts)
    off_mines = sum(n * comb(off - 1, remaining - k - 1) for k, n in enumerate(frontier) if remaining > k) if off else 0
    return probabilities, layouts, Fraction(off_mines, layouts)


def _product(polys: list[list[int]]) -> list[int]:
    out = [1]
    for p in polys:
        nxt = [0] * (len(out) + len(p) - 1)
        for i, x in enumerate(out):
            for j, y in enumerate(p):
                nxt[i + j] += x * y
        out = nxt
    return out
