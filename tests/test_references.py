"""The references (CBC, MiniSat, brute force) agree with the exact counter, and fail loudly."""

from __future__ import annotations

import pytest
from conftest import board
from hypothesis import given, settings
from hypothesis import strategies as st

from minecheck.answers import Mode
from minecheck.generators import generate_board, recipe
from minecheck.references import cbc
from minecheck.registry import get_solver, run_solver


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
@given(b=boards(), mode=st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_cbc_batched_and_per_cell_equal_exact(b, mode):
    exact = run_solver(get_solver("exact"), b, mode)
    for name in ("cbc", "cbc:per-cell"):
        other = run_solver(get_solver(name), b, mode)
        assert other.error is None and other.consistent == exact.consistent
        assert verdicts(other) == verdicts(exact)


def test_brute_declines_politely_above_its_cap():
    result = run_solver(get_solver("brute:4"), board("HHHHHH/H1111H"), Mode.LOCAL)
    assert result.declined and "above the cap of 4" in result.declined and result.error is None


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


def test_a_hanging_solver_is_stopped_by_the_timeout(monkeypatch):
    import time

    exact = get_solver("exact")
    monkeypatch.setattr(exact, "solve", lambda b, m: time.sleep(5))
    result = run_solver(exact, board("H1"), Mode.LOCAL, timeout=0.2)
    assert result.error.startswith("Timeout") and result.seconds < 2


def test_a_wrong_witness_is_rejected_and_cbc_decides_alone(monkeypatch):
    from minecheck.references import minisat
    from minecheck.references.backbone import Solution

    monkeypatch.setattr(minisat, "find_solution", lambda model, *a: Solution(frozenset(model.cells)))
    b = board("HHH/121")
    result = run_solver(get_solver("cbc"), b, Mode.LOCAL)
    assert verdicts(result) == verdicts(run_solver(get_solver("exact"), b, Mode.LOCAL))


def test_satisfies_checks_every_row_and_the_total():
    from minecheck.constraints import build_constraints
    from minecheck.references.backbone import Solution, satisfies
    from minecheck.references.model import models

    (model,) = models(build_constraints(board("5x1x1/H1H1H")), Mode.GLOBAL)
    assert satisfies(model, Solution(frozenset({2})))
    assert not satisfies(model, Solution(frozenset({0})))  # the second 1 is unsatisfied
    assert not satisfies(model, Solution(frozenset({0, 4})))  # two mines, the total is one
