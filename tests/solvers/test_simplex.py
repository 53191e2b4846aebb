"""The two simplex variants against brute-force vertex enumeration, and the seed's defects on small LPs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minecheck.solvers.simplex import (
    INFEASIBLE,
    LP,
    OPTIMAL,
    UNBOUNDED,
    IllegalStateException,
    solve_fixed,
    solve_seed,
)

TOL = 1e-7

# Beale (1955): Dantzig's rule with the first-row tie-break cycles on it; optimum -5/4 at x4 = x6 = 1.
BEALE = LP(a=((0.25, -8, -1, 9, 1, 0, 0), (0.5, -12, -0.5, 3, 0, 1, 0), (0, 0, 1, 0, 0, 0, 1)),
           b=(0, 0, 1), c=(-0.75, 20, -0.5, 6, 0, 0, 0))
# Found by a random search over degenerate LPs: the seed's first-row tie-break cycles in Phase II.
SEED_CYCLES = LP(a=((0.25, 0.5, 1.0, -1.0), (0.0, 1.0, -2.0, 1.0), (3.0, 1.0, -1.0, 0.0), (1.0, 1.0, 0.0, 2.0)),
                 b=(0.0, 0.0, 0.0, 0.0), c=(1.0, -0.5, -1.0, 2.0))


# -- the oracle: every basis of every LP, by numpy ---------------------------------------------

def vertices(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """Every basic feasible solution of a x = b, x >= 0 (by all column subsets of size rank a)."""
    m, n = a.shape
    rank = np.linalg.matrix_rank(a) if a.size else 0
    if rank == 0:
        return [np.zeros(n)] if np.allclose(b, 0) else []
    out = []
    for cols in itertools.combinations(range(n), rank):
        sub = a[:, cols]
        if np.linalg.matrix_rank(sub) < rank:
            continue
        xb = np.linalg.lstsq(sub, b, rcond=None)[0]
        x = np.zeros(n)
        x[list(cols)] = xb
        if np.all(x >= -TOL) and np.allclose(a @ x, b, atol=TOL):
            out.append(x)
    return out


def oracle(lp: LP) -> tuple[str, float | None]:
    """(status, optimum) by enumeration; unbounded iff a ray d >= 0, a d = 0, sum d = 1 has c.d < 0."""
    a = np.array(lp.a, dtype=float).reshape(len(lp.b), len(lp.c))
    b, c = np.array(lp.b, dtype=float), np.array(lp.c, dtype=float)
    points = vertices(a, b)
    if not points:
        return INFEASIBLE, None
    rays = vertices(np.vstack([a, np.ones(len(c))]), np.concatenate([np.zeros(len(b)), [1.0]]))
    if any(c @ d < -TOL for d in rays):
        return UNBOUNDED, None
    return OPTIMAL, min(float(c @ x) for x in points)


def is_solution(lp: LP, x: tuple[float, ...]) -> bool:
    a = np.array(lp.a, dtype=float).reshape(len(lp.b), len(lp.c))
    return bool(np.all(np.array(x) >= -TOL) and np.allclose(a @ np.array(x), lp.b, atol=1e-6))


@st.composite
def small_lps(draw, lowest_rhs: int = -3) -> LP:
    """Up to 3 rows and 5 columns of small integers: feasible, infeasible, unbounded, degenerate."""
    m, n = draw(st.integers(1, 3)), draw(st.integers(1, 5))
    coef = st.sampled_from([0, 0, 0, 1, 1, -1, 2, -2, 3])
    a = tuple(tuple(float(draw(coef)) for _ in range(n)) for _ in range(m))
    redundant = m > 1 and draw(st.booleans())
    if redundant:  # the last row repeats the first (two rows) or adds the first two (three rows)
        a = a[:-1] + ((a[0] if m == 2 else tuple(x + y for x, y in zip(a[0], a[1]))),)
    b = tuple(float(draw(st.integers(lowest_rhs, 3))) for _ in range(m))
    if redundant and draw(st.booleans()):  # consistent right-hand side half of the time
        b = b[:-1] + ((b[0] if m == 2 else b[0] + b[1]),)
    c = tuple(float(draw(st.integers(-3, 3))) for _ in range(n))
    return LP(a, b, c)


# -- the fixed variant ---------------------------------------------------------------------------

@settings(max_examples=300)
@given(small_lps())
def test_fixed_simplex_agrees_with_vertex_enumeration(lp):
    status, optimum = oracle(lp)
    result = solve_fixed(lp)
    assert result.status == status
    if status == OPTIMAL:
        assert result.objective == pytest.approx(optimum, abs=1e-6)
        assert is_solution(lp, result.x)
        assert float(np.dot(lp.c, result.x)) == pytest.approx(result.objective, abs=1e-6)


def test_fixed_simplex_terminates_on_beale_with_the_optimum():
    result = solve_fixed(BEALE)
    assert result.status == OPTIMAL
    assert result.objective == pytest.approx(-1.25)
    assert is_solution(BEALE, result.x)


def test_fixed_simplex_terminates_where_the_seed_cycles():
    result = solve_fixed(SEED_CYCLES)
    assert (result.status, result.objective) == (OPTIMAL, pytest.approx(oracle(SEED_CYCLES)[1]))


def test_fixed_simplex_negates_a_row_with_negative_rhs():
    lp = LP(a=((-1.0, 0.0), (1.0, 1.0)), b=(-1.0, 3.0), c=(1.0, 1.0))  # x = 1, x + y = 3
    result = solve_fixed(lp)
    assert result.status == OPTIMAL and result.x == pytest.approx((1.0, 2.0))


def test_fixed_simplex_drops_redundant_rows():
    lp = LP(a=((1.0, 1.0, 0.0), (1.0, 1.0, 0.0), (2.0, 2.0, 0.0)), b=(1.0, 1.0, 2.0), c=(0.0, -1.0, 0.0))
    result = solve_fixed(lp)
    assert (result.status, result.objective) == (OPTIMAL, pytest.approx(-1.0))
    assert is_solution(lp, result.x)


def test_fixed_simplex_calls_inconsistent_copies_infeasible():
    assert solve_fixed(LP(a=((1.0, 1.0), (1.0, 1.0)), b=(1.0, 2.0), c=(0.0, 0.0))).status == INFEASIBLE


def test_fixed_simplex_never_lets_an_artificial_back_in():
    result = solve_fixed(LP(a=((1.0,),), b=(1.0,), c=(1.0,)))  # min x s.t. x = 1
    assert (result.status, result.x) == (OPTIMAL, (1.0,))


def test_fixed_simplex_reports_unbounded_as_a_status():
    assert solve_fixed(LP(a=((1.0, -1.0),), b=(0.0,), c=(-1.0, 0.0))).status == UNBOUNDED


def test_fixed_simplex_handles_a_degenerate_vertex_of_many_bases():
    # x1..x4 >= 0 with three tight rows through the origin: many bases describe the same vertex
    lp = LP(a=((1.0, -1.0, 1.0, 0.0), (1.0, 1.0, 0.0, -1.0), (0.0, 1.0, 1.0, 1.0)), b=(0.0, 0.0, 0.0),
            c=(-1.0, -1.0, 1.0, 0.0))
    status, optimum = oracle(lp)
    result = solve_fixed(lp)
    assert (result.status, result.objective) == (status, pytest.approx(optimum))


# -- the seed's behaviour ------------------------------------------------------------------------

def test_seed_calls_a_negative_rhs_infeasible_although_it_is_feasible():
    lp = LP(a=((-1.0,),), b=(-1.0,), c=(1.0,))  # -x = -1
    assert oracle(lp) == (OPTIMAL, 1.0)
    assert solve_seed(lp).status == INFEASIBLE


def test_seed_lets_an_artificial_reenter_and_answers_a_point_off_the_constraints():
    lp = LP(a=((1.0,),), b=(1.0,), c=(1.0,))  # min x s.t. x = 1: the artificial re-enters in Phase II
    result = solve_seed(lp)
    assert result.status == OPTIMAL
    assert result.objective < oracle(lp)[1]
    assert not is_solution(lp, result.x)


def test_seed_raises_on_an_unbounded_lp():
    with pytest.raises(IllegalStateException, match="LP 无界"):
        solve_seed(LP(a=((1.0, -1.0),), b=(0.0,), c=(-1.0, 0.0)))


def test_seed_solves_beale_because_its_phase_one_starts_elsewhere():
    result = solve_seed(BEALE)  # the article's claim of no cycling holds here, by luck of the path
    assert (result.status, result.objective) == (OPTIMAL, pytest.approx(-1.25))


def test_seed_cycles_into_its_step_limit_on_a_degenerate_lp():
    assert oracle(SEED_CYCLES)[0] == OPTIMAL
    with pytest.raises(IllegalStateException, match="单纯形迭代超限"):
        solve_seed(SEED_CYCLES)


def test_seed_zeroes_a_redundant_row_and_still_solves():
    lp = LP(a=((1.0, 1.0), (1.0, 1.0)), b=(1.0, 1.0), c=(0.0, -1.0))
    result = solve_seed(lp)
    assert (result.status, result.objective) == (OPTIMAL, pytest.approx(-1.0))


@settings(max_examples=200)
@given(small_lps(lowest_rhs=0))
def test_seed_phase_one_decides_feasibility_when_rhs_is_nonnegative(lp):
    status, _ = oracle(lp)
    try:
        result = solve_seed(lp)
    except IllegalStateException:  # unbounded, or cycling in Phase II: both follow a feasible Phase I
        assert status != INFEASIBLE
        return
    assert (result.status == INFEASIBLE) == (status == INFEASIBLE)
