"""The exact counter is the ground truth: it must equal brute force exactly, in both modes."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from conftest import FIXTURES, board
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minecheck.answers import Mode, Verdict, verdict_of
from minecheck.board import Board
from minecheck.boardtext import parse_board
from minecheck.brute import brute_count
from minecheck.counter import count_board
from minecheck.generators import generate_board, recipe


def fixture(name):
    return parse_board((FIXTURES / "boards" / name).read_text())


def verdicts(count):
    return {c: verdict_of(p) for c, p in count.probabilities if p is not None}


@st.composite
def small_boards(draw):
    """Generated boards (reveal and stress recipes) with at most 18 covered cells, total known."""
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 5))
    gen = draw(st.sampled_from(["reveal", "stress"]))
    rec = recipe(gen, draw(st.integers(0, 10**9)), width=w, height=h, density=draw(st.floats(0.05, 0.5)),
                 open_prob=draw(st.floats(0.1, 0.9)))
    b = generate_board(rec)
    assume(len(b.covered) <= 18)
    return b


@settings(max_examples=400)
@given(small_boards(), st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_counter_equals_brute_force(b, mode):
    oracle = brute_count(b, mode, cap=18)
    count = count_board(b, mode)
    assert count.consistent == oracle.consistent
    assert count.layouts == oracle.layouts
    if oracle.consistent:
        assert count.probabilities == oracle.probabilities


@settings(max_examples=100)
@given(st.integers(0, 10**9), st.sampled_from(["beginner"]))
def test_counter_equals_brute_force_on_played_beginner_positions(seed, level):
    b = generate_board(recipe("play", seed, level=level))
    if len(b.covered) <= 18:
        assert count_board(b).layouts == brute_count(b, Mode.GLOBAL, cap=18).layouts
    local = count_board(b, Mode.LOCAL)
    frontier = [c for c, p in local.probabilities if p is not None]
    if len(frontier) <= 18:
        oracle = brute_count(b, Mode.LOCAL, cap=18)
        assert local.layouts == oracle.layouts and local.probabilities == oracle.probabilities


def test_local_mode_components_are_uniform_and_off_frontier_has_no_answer():
    count = count_board(board("4x1x2/H1HH"), Mode.LOCAL)
    probs = dict(count.probabilities)
    assert probs[0] == probs[2] == Fraction(1, 2)
    assert probs[3] is None


def test_global_mode_weights_frontier_totals_by_off_frontier_ways():
    # the 1 owns 5 frontier cells (1 mine); 4 cells lie off the frontier and take the other: 5 * 4
    count = count_board(board("5x2x2/H1HHH/HHHHH"), Mode.GLOBAL)
    probs = dict(count.probabilities)
    assert count.layouts == 20
    assert probs[0] == Fraction(1, 5) and probs[3] == Fraction(1, 4)


def test_empty_frontier_is_binomial():
    count = count_board(board("4x2x3/HHHH/HHHH"), Mode.GLOBAL)
    assert count.layouts == comb(8, 3)
    assert all(p == Fraction(3, 8) for _, p in count.probabilities)


@pytest.mark.parametrize("name, expected", [
    ("one_two_one.mine", "S*S*S"),
    ("one_two_two_one.mine", "SS**SS"),
    ("fifty_fifty.mine", "??"),
    ("h1h1h_total.mine", "S.*.S"),
])
def test_famous_patterns(name, expected):
    b = fixture(name)
    got = verdicts(count_board(b))
    glyph = {Verdict.SAFE: "S", Verdict.MINE: "*", Verdict.UNKNOWN: "?"}
    assert "".join(glyph[got[c]] if c in got else "." for c in range(len(expected))) == expected


def test_h1h1h_only_the_global_count_decides():
    b = fixture("h1h1h_total.mine")
    local = verdicts(count_board(b, Mode.LOCAL))
    assert set(local.values()) == {Verdict.UNKNOWN}
    glob = verdicts(count_board(b, Mode.GLOBAL))
    assert glob[2] is Verdict.MINE and glob[0] is glob[4] is Verdict.SAFE


def test_fifty_fifty_is_one_half():
    assert dict(count_board(fixture("fifty_fifty.mine")).probabilities)[0] == Fraction(1, 2)


@pytest.mark.parametrize("name, reason", [
    ("inconsistent_1h0.mine", "no layout of 1 covered cells satisfies the digits at r0c0, r0c2"),
    ("inconsistent_12100.mine", "satisfies the digits at r1c0"),
    ("flags_contradict.mine", "digit 1 at r0c1: 2 flagged neighbours"),
])
def test_inconsistent_boards_are_a_result_with_a_reason(name, reason):
    count = count_board(fixture(name))
    assert not count.consistent and count.layouts == 0
    assert reason in count.reason


def test_total_that_cannot_be_met_is_inconsistent_with_the_range():
    count = count_board(board("3x2x1/HHH/121"), Mode.GLOBAL)
    assert not count.consistent
    assert "exactly 1 remaining mines: the frontier holds 2 to 2" in count.reason


def test_global_mode_without_total_is_refused():
    with pytest.raises(ValueError, match="needs the total"):
        count_board(board("H1"), Mode.GLOBAL)


def test_endgame_off_frontier_cells_get_verdicts_in_global_mode():
    # the 1 must hold the only mine, so the far cells are safe
    count = count_board(board("5x1x1/H1HHH"), Mode.GLOBAL)
    probs = dict(count.probabilities)
    assert probs[3] == probs[4] == 0 and probs[0] == Fraction(1, 2)


def test_big_component_counts_match_a_second_ordering():
    # a stress board's large component counted against the product of its parts' structure:
    # flipping the board left-right must give the same counts (different sweep, same answer)
    b = generate_board(recipe("stress", 3, width=20, height=10, open_prob=0.3))
    flipped_cells = tuple(b.cells[r * b.width + (b.width - 1 - c)] for r in range(b.height) for c in range(b.width))
    f = Board(b.width, b.height, flipped_cells, b.total_mines)
    assert count_board(b).layouts == count_board(f).layouts
