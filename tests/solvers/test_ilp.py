"""The ILP solver family: the fixed variant equals the exact counter; the seed keeps the article's defects."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board, count_component
from minecheck.model.answers import Mode, Verdict, verdict_of
from minecheck.model.board import Board
from minecheck.solvers.ilp_fixed import component_model, fixed_solver, global_model, relaxation_lp
from minecheck.solvers.ilp_seed import (
    INTEGRAL_TOL,
    ArrayIndexOutOfBoundsException,
    SeedComponent,
    java_hashmap_order,
    seed_feasible,
    seed_relax,
    seed_solver,
)
from minecheck.solvers.simplex import OPTIMAL, IllegalStateException, solve_fixed

FIXED, SEED = fixed_solver(), seed_solver()


@st.composite
def reveal_boards(draw) -> Board:
    """A reveal board up to 6x5; half of the time one digit is changed, which often makes it impossible."""
    b = generate_board(recipe("reveal", draw(st.integers(0, 10**6)), width=draw(st.integers(2, 6)),
                              height=draw(st.integers(2, 5)), open_prob=draw(st.sampled_from([0.3, 0.5, 0.7]))))
    if b.digits and draw(st.booleans()):
        cells = list(b.cells)
        cells[draw(st.sampled_from(b.digits))] = draw(st.integers(0, 8))
        b = replace(b, cells=tuple(cells), truth=None)
    return b


def assert_matches_counter(b: Board, mode: Mode) -> None:
    count = count_board(b, mode)
    result = FIXED.solve(b, mode)
    assert result.consistent == count.consistent, (result.reason, count.reason)
    if count.consistent:
        expected = {cell: verdict_of(p) for cell, p in count.probabilities if p is not None}
        assert {a.cell: a.verdict for a in result.cells} == expected
    else:
        assert result.reason and not result.cells


# -- the fixed variant -------------------------------------------------------------------------

@settings(max_examples=150)
@given(reveal_boards())
def test_fixed_verdicts_equal_the_counter_in_local_mode(b):
    assert_matches_counter(b, Mode.LOCAL)


@settings(max_examples=150)
@given(reveal_boards())
def test_fixed_verdicts_equal_the_counter_in_global_mode(b):
    assert_matches_counter(b, Mode.GLOBAL)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mode", [Mode.LOCAL, Mode.GLOBAL])
def test_fixed_verdicts_equal_the_counter_on_played_beginner_boards(seed, mode):
    assert_matches_counter(generate_board(recipe("play", seed, level="beginner")), mode)


@pytest.mark.parametrize("total, expected", [(1, Verdict.SAFE), (2, Verdict.UNKNOWN), (3, Verdict.MINE)])
def test_fixed_global_mode_decides_off_frontier_cells_by_the_slack(total, expected):
    b = board(f"4x1x{total}/1HHH")  # r0c1 is the digit's mine; r0c2 and r0c3 share total - 1 mines
    answers = {a.cell: a.verdict for a in FIXED.solve(b, Mode.GLOBAL).cells}
    assert answers == {1: Verdict.MINE, 2: expected, 3: expected}


def test_fixed_global_mode_finds_a_total_no_layout_can_hold():
    result = FIXED.solve(board("4x1x4/1HHH"), Mode.GLOBAL)
    assert result.consistent is False and "4 remaining mines" in result.reason


@pytest.mark.parametrize("text", ["2H", "1F/FF", "HHHHH/12100/HHHHH"])
def test_fixed_reports_an_impossible_board_instead_of_raising(text):
    result = FIXED.solve(board(text), Mode.LOCAL)
    assert result.consistent is False and result.error is None
    assert "r0c0" in result.reason or "r1c0" in result.reason  # names a digit involved


def test_fixed_handles_boards_wider_than_a_thousand_columns():
    b = board("0" * 1000 + "H1H")  # r0c1000 is safe (the 0 next to it), r0c1002 a mine
    assert_matches_counter(b, Mode.LOCAL)
    assert {a.cell: a.verdict for a in FIXED.solve(b, Mode.LOCAL).cells} == {1000: Verdict.SAFE, 1002: Verdict.MINE}


@settings(max_examples=100)
@given(reveal_boards())
def test_fixed_lp_values_are_a_point_of_the_relaxation(b):
    result = FIXED.solve(b, Mode.LOCAL)
    if not result.consistent:
        return
    value = dict(result.lp_values)
    for eq in build_constraints(b).equations:  # the LP vertex satisfies every digit, within [0, 1]
        assert sum(value[c] for c in eq.cells) == pytest.approx(eq.mines, abs=1e-6)
    assert all(-1e-9 <= v <= 1 + 1e-9 for v in value.values())


@settings(max_examples=60)
@given(reveal_boards())
def test_relaxation_lp_bounds_the_fewest_mines_of_a_component(b):
    try:
        system = build_constraints(b)
    except ValueError:
        return
    for comp in system.components:
        counts = count_component(comp).by_mines
        lp = relaxation_lp(comp, [1.0] * len(comp.cells))  # minimise the mines in the component
        result = solve_fixed(lp)
        if not any(counts):
            continue
        fewest = next(k for k, n in enumerate(counts) if n)
        assert result.status == OPTIMAL and result.objective <= fewest + 1e-6


def test_global_model_has_one_row_per_digit_plus_the_total():
    system = build_constraints(board("5x2x3/1HHHH/HHHHH"))
    model = global_model(system)
    assert len(model.rows) == len(system.equations) + 1
    assert model.upper[-1] == len(system.off_frontier)
    assert len(relaxation_lp(model).b) == len(model.rows) + len(model.variables)


# -- the seed ----------------------------------------------------------------------------------

def seed_answers(text: str) -> dict[int, tuple[Verdict, float]]:
    result = SEED.solve(board(text), Mode.LOCAL)
    return {a.cell: (a.verdict, a.probability) for a in result.cells}


def test_seed_calls_the_cell_next_to_a_zero_a_mine():
    # fixing x = 0 leaves the bound row 0 = 1 - 0: infeasible, so "cannot be safe"
    assert seed_answers("0H") == {1: (Verdict.MINE, 1.0)}
    assert count_board(board("0H"), Mode.LOCAL).probabilities == ((1, Fraction(0)),)


@pytest.mark.parametrize("text", ["H1H", "HHH/121", "0H1H", "2H", "H1H1H1H2H"])
def test_seed_calls_every_modelled_cell_a_mine(text):
    answers = seed_answers(text)
    assert answers and set(answers.values()) == {(Verdict.MINE, 1.0)}


def test_seed_misses_a_digit_with_too_few_covered_cells():
    assert count_board(board("2H"), Mode.LOCAL).consistent is False
    result = SEED.solve(board("2H"), Mode.LOCAL)
    assert result.consistent is None and result.cells


def test_seed_raises_on_a_flag_contradiction():
    with pytest.raises(IllegalStateException, match=r"标记矛盾 @ \(0,0\)"):
        SEED.solve(board("1F/FF"), Mode.LOCAL)


def test_seed_raises_where_its_union_find_splits_a_digit_from_its_cells():
    with pytest.raises(ArrayIndexOutOfBoundsException, match="Index -1 out of bounds for length 2"):
        SEED.solve(board("1H/HH"), Mode.LOCAL)


def test_seed_raises_on_the_article_demo_which_has_no_layout():
    demo = board("HHHHH/12100/HHHHH")  # the article's 3x5 demo: row 1 opened as 1 2 1 0 0
    assert count_board(demo, Mode.LOCAL).consistent is False
    with pytest.raises(ArrayIndexOutOfBoundsException, match="Index -1 out of bounds for length 3"):
        SEED.solve(demo, Mode.LOCAL)


def test_seed_loses_cells_beyond_column_999_to_its_coordinate_key():
    assert len(seed_answers("0" * 990 + "H1H")) == 2  # below 1000 columns the same pattern runs
    wide = board("0" * 1000 + "H1H")  # key(0, 1000) = 1000 decodes to (1, 0): the digit cannot find its cell
    with pytest.raises(ArrayIndexOutOfBoundsException, match="Index -1"):
        SEED.solve(wide, Mode.LOCAL)


def test_seed_reports_an_lp_vertex_where_the_probability_is_a_half():
    result = SEED.solve(board("H1H"), Mode.LOCAL)
    exact = dict(count_board(board("H1H"), Mode.LOCAL).probabilities)
    assert exact == {0: Fraction(1, 2), 2: Fraction(1, 2)}
    lp = dict(result.lp_values)
    assert sum(lp.values()) == pytest.approx(1.0)  # a point of the relaxation ...
    assert any(abs(lp[c] - float(exact[c])) > 0.25 for c in exact)  # ... but a vertex, not the probability


def test_seed_answers_the_local_mode_only():
    assert SEED.modes == {Mode.LOCAL}
    with pytest.raises(ValueError):
        SEED.solve(board("4x1x1/1HHH"), Mode.GLOBAL)


def java_dfs_feasible(comp: SeedComponent, fixed: list, depth: int = 0, deepest: list | None = None) -> bool:
    """BranchAndBound.dfsFeasible as the Java recurses, for the explicit stack of seed_feasible to match."""
    if deepest is not None:
        deepest[0] = max(deepest[0], depth)
    x = seed_relax(comp, fixed)
    if x is None:
        return False
    col = next((j for j in range(len(comp.cells)) if fixed[j] is None and INTEGRAL_TOL < x[j] < 1 - INTEGRAL_TOL), -1)
    if col < 0:
        return True
    for value in (0.0, 1.0):
        fixed[col] = value
        if java_dfs_feasible(comp, fixed, depth + 1, deepest):
            fixed[col] = None
            return True
    fixed[col] = None
    return False


def test_seed_branch_and_bound_branches_as_the_java_recursion_does():
    """Two levels deep: x3 = 1 leaves a fractional vertex twice, and every branch ends infeasible."""
    comp = SeedComponent(tuple((0, j) for j in range(5)),
                         ((1.0, 1.0, 1.0, 1.0, 0.0), (1.0, 0.0, 1.0, 0.0, 1.0), (0.0, 1.0, 0.0, 0.0, 1.0)),
                         (3.0, 2.0, 1.0))
    fixed, deepest = [None, None, None, 1.0, None], [0]
    assert java_dfs_feasible(comp, list(fixed), 0, deepest) is False and deepest[0] == 2
    assert seed_feasible(comp, fixed) is False and fixed == [None, None, None, 1.0, None]


@settings(max_examples=300)
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(*[st.sampled_from([0.0, 1.0])] * n), min_size=1, max_size=6),
    st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=6, max_size=6),
    st.integers(0, n - 1), st.sampled_from([0.0, 1.0]))))
def test_seed_branch_and_bound_answers_what_the_java_recursion_answers(case):
    rows, rhs, k, value = case
    comp = SeedComponent(tuple((0, j) for j in range(len(rows[0]))), tuple(rows), tuple(rhs[:len(rows)]))
    fixed = [None] * len(comp.cells)
    fixed[k] = value
    assert seed_feasible(comp, list(fixed)) == java_dfs_feasible(comp, list(fixed))


def test_java_hashmap_iterates_by_bucket_and_puts_new_keys_first():
    # 16 buckets: 1 -> 1, 1000 -> 8, 1001 -> 9; 17 shares bucket 1 and, added later, comes first
    assert java_hashmap_order([1000, 1, 1001]) == [1, 1000, 1001]
    assert java_hashmap_order([1, 17]) == [17, 1]


def test_java_hashmap_resizes_before_the_call_after_the_threshold():
    # with 12 keys the table still has 16 buckets and 16 lands in bucket 0; with 13 it has 32
    assert java_hashmap_order(list(range(12)) + [16]) == [16] + list(range(12))
    assert java_hashmap_order(list(range(13)) + [16]) == list(range(13)) + [16]


def test_java_hashmap_resizes_a_small_table_when_a_bucket_gets_crowded():
    # the 8th key in bucket 0 of 16 would treeify the bin; below 64 buckets the table doubles instead
    assert java_hashmap_order([16 * i for i in range(8)]) == [96, 64, 32, 0, 112, 80, 48, 16]


def test_component_model_keeps_the_counter_cells_and_equations():
    comp = build_constraints(board("HHH/121")).components[0]
    model = component_model(comp)
    assert model.variables == comp.cells and model.rhs == tuple(eq.mines for eq in comp.equations)
