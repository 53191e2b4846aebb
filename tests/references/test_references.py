"""The references (CBC, MiniSat, brute force) agree with the exact counter, and fail loudly."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, Board
from minecheck.references import cbc
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver


def verdicts(result):
    return [(a.cell, a.verdict) for a in result.cells]


@st.composite
def boards(draw):
    gen = draw(st.sampled_from(["reveal", "reveal", "play"]))
    seed = draw(st.integers(0, 10**9))
    if gen == "play":
        return generate_board(recipe("play", seed, level=draw(st.sampled_from(["beginner", "intermediate"]))))
    return generate_board(recipe("reveal", seed, width=draw(st.integers(2, 7)), height=draw(st.integers(2, 6)),
                                 density=draw(st.floats(0.1, 0.4)), open_prob=draw(st.floats(0.2, 0.8))))


@pytest.mark.parametrize("name", ["minisat", "minisat:cadical153", "brute"])
@settings(max_examples=120)
@given(b=boards(), mode=st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_sat_and_brute_references_equal_exact(name, b, mode):
    exact = run_solver(get_solver("exact"), b, mode)
    other = run_solver(get_solver(name), b, mode)
    assert other.error is None
    if other.declined:
        return
    assert other.consistent == exact.consistent
    assert verdicts(other) == verdicts(exact)


@settings(max_examples=30)
@given(b=boards(), mode=st.sampled_from([Mode.LOCAL, Mode.GLOBAL]), sat_limit=st.sampled_from([-1, cbc.WITNESS_LIMIT]))
def test_cbc_batched_and_per_cell_equal_exact(b, mode, sat_limit):
    saved, cbc.WITNESS_LIMIT = cbc.WITNESS_LIMIT, sat_limit  # -1: CBC searches alone, no SAT layouts
    try:
        for name in ("cbc", "cbc:per-cell"):
            same_as_exact(name, b, mode)
    finally:
        cbc.WITNESS_LIMIT = saved


def test_brute_declines_politely_above_its_cap():
    result = run_solver(get_solver("brute:4"), board("HHHHHH/H1111H"), Mode.LOCAL)
    assert result.declined and "more than 4 search nodes" in result.declined and result.error is None


def test_references_report_inconsistency_with_the_digits():
    for name in ("cbc", "minisat"):
        result = run_solver(get_solver(name), board("1H0"), Mode.LOCAL)
        assert result.consistent is False and "r0c0" in result.reason


def test_global_total_that_cannot_be_met_is_inconsistent_for_references():
    for name in ("cbc", "minisat", "brute"):
        assert run_solver(get_solver(name), board("3x2x1/HHH/121"), Mode.GLOBAL).consistent is False


def test_a_crashing_cbc_is_a_clear_error_not_a_crash(monkeypatch):
    def broken(*args, **kwargs):
        raise cbc.pulp.PulpSolverError("Pulp: Error while executing /bin/cbc")

    monkeypatch.setattr(cbc.pulp.LpProblem, "solve", broken)
    result = run_solver(get_solver("cbc"), board("HHH/121"), Mode.LOCAL)
    assert result.error.startswith("ReferenceFailure: CBC failed: Pulp: Error while executing")


def test_cbc_garbage_status_is_refused(monkeypatch):
    def undefined(self, *args, **kwargs):
        self.status = cbc.pulp.LpStatusUndefined
        return self.status

    monkeypatch.setattr(cbc.pulp.LpProblem, "solve", undefined)
    result = run_solver(get_solver("cbc"), board("HHH/121"), Mode.LOCAL)
    assert "CBC ended with status 'Undefined'" in result.error


def test_a_solver_that_returns_no_result_is_a_crash_not_an_answer(monkeypatch):
    exact = get_solver("exact")
    monkeypatch.setattr(exact, "solve", lambda b, m: None)
    result = run_solver(exact, board("H1"), Mode.LOCAL)
    assert result.error == "BadAnswer: solve() returned NoneType, not a SolverResult"


def calls_to(monkeypatch, owner, name: str) -> list:
    """Record the calls to owner.name (still calling it)."""
    seen, original = [], getattr(owner, name)

    def spy(*args, **kwargs):
        seen.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen


def same_as_exact(name: str, b, mode: Mode) -> None:
    result = run_solver(get_solver(name), b, mode)
    exact = run_solver(get_solver("exact"), b, mode)
    assert result.error is None and result.consistent == exact.consistent
    assert verdicts(result) == verdicts(exact)


def test_a_wrong_witness_is_rejected_and_cbc_decides_alone(monkeypatch):
    from minecheck.references import minisat
    from minecheck.references.backbone import Solution

    monkeypatch.setattr(minisat, "backbone_solutions", lambda model, *a: (Solution(frozenset(model.cells)),))
    firsts = calls_to(monkeypatch, cbc, "first_solutions")
    same_as_exact("cbc", board("HHH/121"), Mode.LOCAL)
    assert len(firsts) == 1  # CBC found the first layout itself


def test_a_sat_solver_that_wrongly_says_unsat_is_overruled_by_cbc(monkeypatch):
    from minecheck.references import minisat

    monkeypatch.setattr(minisat, "backbone_solutions", lambda model, *a: None)
    same_as_exact("cbc", board("HHHH/1221"), Mode.LOCAL)


def test_witnesses_that_miss_layouts_leave_the_yes_answers_to_cbc(monkeypatch):
    from minecheck.references import minisat

    original = minisat.backbone_solutions
    monkeypatch.setattr(minisat, "backbone_solutions", lambda model, *a: original(model)[:1])
    flips = calls_to(monkeypatch, cbc, "_flip_call")
    b = board("HHHHHH/H1221H/HHHHHH")
    same_as_exact("cbc", b, Mode.LOCAL)
    assert len(flips) >= 2  # a call that flipped something, then the one that proved the rest "no"


def test_a_model_too_big_for_sat_is_searched_by_cbc_alone(monkeypatch):
    from minecheck.references import minisat

    monkeypatch.setattr(cbc, "WITNESS_LIMIT", 0)
    asked = calls_to(monkeypatch, minisat, "backbone_solutions")
    same_as_exact("cbc", board("6x2x3/HHHHHH/121HHH"), Mode.GLOBAL)
    assert not asked


def test_cbc_garbage_layout_is_an_error_not_a_verdict(monkeypatch):
    monkeypatch.setattr(cbc, "_value", lambda v: 1.0)  # every cell a mine: breaks the rows
    monkeypatch.setattr(cbc, "witnesses", lambda model: None)
    result = run_solver(get_solver("cbc"), board("HHH/121"), Mode.LOCAL)
    assert "CBC returned a layout that breaks a row" in result.error and not result.cells


def test_satisfies_checks_every_row_and_the_total():
    from minecheck.engine.constraints import build_constraints
    from minecheck.references.backbone import Solution, satisfies
    from minecheck.references.model import models

    (model,) = models(build_constraints(board("5x1x1/H1H1H")), Mode.GLOBAL)
    assert satisfies(model, Solution(frozenset({2})))
    assert not satisfies(model, Solution(frozenset({0})))  # the second 1 is unsatisfied
    assert not satisfies(model, Solution(frozenset({0, 4})))  # two mines, the total is one


def test_a_cross_check_pays_for_the_sat_search_once_per_model():
    from minecheck.check.crosscheck import check_board
    from minecheck.references import minisat

    minisat.backbone_solutions.cache_clear()
    check_board(generate_board(recipe("play", 1, level="expert")), [])
    info = minisat.backbone_solutions.cache_info()
    assert info.misses > 0 and info.hits == info.misses  # cbc took the minisat reference's layouts


@settings(max_examples=150)
@given(b=boards(), mode=st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_backtracking_enumeration_equals_the_2_to_the_n_enumeration(b, mode):
    from minecheck.engine.enumeration import TooBig, brute_count, enumerate_count

    try:
        every = brute_count(b, mode, cap=16)
    except TooBig:
        return
    visited = enumerate_count(b, mode)
    assert (visited.consistent, visited.layouts) == (every.consistent, every.layouts)
    assert visited.probabilities == every.probabilities


def test_the_independent_reference_reaches_expert_play_positions():
    from minecheck.engine.enumeration import enumerate_count

    for seed in range(5):
        b = generate_board(recipe("play", seed, level="expert"))
        assert enumerate_count(b, Mode.GLOBAL).consistent


@settings(max_examples=12)
@given(seed=st.integers(0, 10**9), open_prob=st.floats(0.08, 0.30), mode=st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_minisat_and_cbc_equal_exact_on_expert_size_boards_with_a_few_cells_open(seed, open_prob, mode):
    """Where the total spans hundreds of covered cells: the frontier-only totalizer must not change a verdict."""
    b = generate_board(recipe("reveal", seed, width=30, height=16, density=99 / 480, open_prob=open_prob))
    exact = verdicts(run_solver(get_solver("exact"), b, mode))
    assert verdicts(run_solver(get_solver("minisat"), b, mode)) == exact
    assert verdicts(run_solver(get_solver("cbc"), b, mode)) == exact


def test_the_total_is_encoded_over_the_frontier_only():
    from minecheck.engine.constraints import build_constraints
    from minecheck.references.minisat import encode
    from minecheck.references.model import models

    b = generate_board(recipe("reveal", 3, width=30, height=16, density=99 / 480, open_prob=0.1))
    (model,) = models(build_constraints(b), Mode.GLOBAL)
    assert len(model.off_cells) > 50
    assert set(encode(model).var) == set(model.cells)


def test_the_total_counts_only_the_cells_outside_disjoint_digits():
    from minecheck.engine.constraints import Equation
    from minecheck.references.minisat import counted_apart, encode
    from minecheck.references.model import Model

    eqs = (Equation((1, 2), 1, 0), Equation((2, 3), 1, 0), Equation((4, 5, 6), 2, 0))
    model = Model((1, 2, 3, 4, 5, 6), eqs, off_cells=(7, 8), total=4)
    assert counted_apart(model) == (3, (3,))  # (4,5,6) first, the largest; then (1,2); (2,3) overlaps it
    whole = Model(model.cells, eqs[2:], off_cells=(7, 8), total=4)  # (1,2,3) in no digit: all counted
    assert counted_apart(whole) == (2, (1, 2, 3))
    one_of_two = (Equation((1, 2), 1, 0),)
    assert not encode(Model((1, 2), one_of_two, off_cells=(3,), total=2)).impossible
    assert encode(Model((1, 2), one_of_two, off_cells=(3,), total=3)).impossible  # 1 + the off cell < 3
    assert encode(Model((1, 2), one_of_two, off_cells=(3,), total=0)).impossible  # the digit holds 1 > 0


@settings(max_examples=60)
@given(n=st.integers(1, 7), bound=st.integers(1, 8))
def test_the_downward_half_totalizer_says_at_least_j(n, bound):
    """Assuming output j is possible exactly when j + 1 inputs or more are true, whatever the inputs."""
    from itertools import product

    from pysat.formula import IDPool
    from pysat.solvers import Solver

    from minecheck.references.minisat import downward

    pool = IDPool()
    lits = [pool.id(("x", i)) for i in range(n)]
    clauses: list[list[int]] = []
    out = downward(lits, min(n, bound), pool, clauses)
    assert len(out) == min(n, bound)
    with Solver(name="minisat22", bootstrap_with=clauses + [[lits[0], -lits[0]]]) as sat:
        for values in product([False, True], repeat=n):
            fixed = [v if on else -v for v, on in zip(lits, values)]
            for j, o in enumerate(out):
                assert sat.solve(assumptions=fixed + [o]) == (sum(values) >= j + 1)
                if o not in lits:  # a lone input is its own output
                    assert sat.solve(assumptions=fixed + [-o])  # the half says nothing the other way


def _striped(width: int, height: int) -> Board:
    """A huge board made at once: every third row opened (1s), the rest covered; hundreds of
    thousands of digits and frontier cells, past brute's budget and CBC's reach."""
    rows = [((1,) if r % 3 == 1 else (COVERED,)) * width for r in range(height)]
    return Board(width, height, sum(rows, ()), total_mines=width * height // 3)


@pytest.mark.parametrize("name", ["brute", "cbc"])
@pytest.mark.parametrize("mode", [Mode.LOCAL, Mode.GLOBAL])
def test_brute_and_cbc_decline_a_million_cell_board_before_reading_it(name, mode):
    huge = _striped(1000, 1000)
    start = time.perf_counter()
    result = run_solver(get_solver(name), huge, mode)
    took = time.perf_counter() - start
    assert result.declined
    assert took < 2.0, f"{name} took {took:.2f} s to decline"  # reading the board alone takes several seconds


def test_cbc_declines_by_its_frontier_and_answers_within_its_reach():
    assert cbc.CbcSolver().solve(_striped(3 * cbc.REACH, 3), Mode.LOCAL).declined  # 2 rows of 3 * REACH covered
    small = cbc.CbcSolver().solve(_striped(20, 3), Mode.LOCAL)
    assert not small.declined and small.consistent
