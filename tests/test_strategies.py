"""Hypothesis strategies: consistent by construction, no truth shown, forgotten shapes reached, small shrinks."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from minecheck import strategies
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode, Verdict, verdict_of
from minecheck.model.board import Board

FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOOK = settings(max_examples=2000, deadline=None, database=None, phases=[Phase.generate])  # how far find() looks
SHRINK = settings(LOOK, phases=[Phase.generate, Phase.shrink])


def reached(strategy, condition) -> Board:
    """A board the strategy draws that meets the condition (find() fails the test if none is drawn)."""
    return find(strategy, condition, settings=LOOK)


def shrunk(strategy, condition) -> Board:
    """The board hypothesis shrinks to among those that meet the condition."""
    return find(strategy, condition, settings=SHRINK)


def covered_are_all_mines(board: Board) -> bool:
    return len(board.covered) + len(board.flags) == board.size


@FEW
@given(strategies.boards())
def test_every_drawn_board_is_consistent_in_every_mode_it_allows(board):
    assert count_board(board, Mode.LOCAL).consistent
    if board.total_mines is not None:
        assert count_board(board, Mode.GLOBAL).consistent


@FEW
@given(strategies.boards())
def test_drawn_boards_hide_their_truth_from_solvers(board):
    assert board.truth is None


@FEW
@given(strategies.boards(width=3, height=(2, 4), density=0.5, total=True, truth=True))
def test_fixed_values_and_ranges_are_kept_and_the_truth_is_kept_when_asked(board):
    assert board.width == 3 and 2 <= board.height <= 4
    assert board.total_mines is not None and board.truth is not None
    assert set(board.flags) <= board.truth


@FEW
@given(strategies.boards(width=st.just(2), height=st.sampled_from([1, 5]), total=False, flags=0.0))
def test_parameters_may_be_strategies(board):
    assert board.width == 2 and board.height in (1, 5)
    assert board.total_mines is None and not board.flags


@pytest.mark.parametrize("what, condition", [
    ("one cell wide", lambda b: b.width == 1 and b.height > 1),
    ("one cell tall", lambda b: b.height == 1 and b.width > 1),
    ("1x1", lambda b: b.size == 1),
    ("no digit", lambda b: not b.digits and b.size > 1),
    ("every cell opened", lambda b: not b.covered and not b.flags and b.size > 1),
    ("every mine flagged", lambda b: b.flags and not b.covered and b.digits),
    ("density 1.0", lambda b: covered_are_all_mines(b) and b.size > 1 and not b.digits),
    ("a digit 8", lambda b: 8 in b.cells),
])
def test_the_forgotten_shapes_are_reached(what, condition):
    reached(strategies.boards(), condition)


def test_the_stated_total_reaches_the_fewest_and_the_most_the_digits_allow():
    def beyond_fails(step):
        def condition(b: Board) -> bool:
            m = b.total_mines + step
            if not b.digits or not b.covered or not len(b.flags) <= m <= b.size:
                return False
            return not count_board(Board(b.width, b.height, b.cells, m), Mode.GLOBAL).consistent
        return condition

    strategy = strategies.boards(total=True, flags=0.0, density=(0.1, 0.5))
    fewest = reached(strategy, beyond_fails(-1))
    most = reached(strategy, beyond_fails(+1))
    assert count_board(fewest, Mode.GLOBAL).consistent and count_board(most, Mode.GLOBAL).consistent


def test_failures_shrink_to_small_sparse_boards():
    board = shrunk(strategies.boards(), lambda b: 3 in b.cells)
    assert board.size == 4 and len(board.digits) == 1, "a 3 needs three mines around it: 2x2"
    board = shrunk(strategies.boards(), lambda b: any(b.cells[c] > 0 for c in b.digits))
    assert board.size == 2 and board.total_mines is None, "a 1 beside its mine"
    board = shrunk(strategies.boards(), lambda b: len(b.flags) >= 2)
    assert board.size == 2 and not board.digits


@FEW
@given(strategies.inconsistent_boards())
def test_an_inconsistent_board_has_no_layout_in_any_mode(board):
    assert not count_board(board, Mode.LOCAL).consistent
    assert board.truth is None


@FEW
@given(strategies.inconsistent_boards(change="total"))
def test_an_inconsistent_total_fits_the_digits_but_not_the_count(board):
    assert count_board(board, Mode.LOCAL).consistent
    assert not count_board(board, Mode.GLOBAL).consistent


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategies.positions(level="beginner"))
def test_positions_from_play_are_stuck_and_sound(board):
    assert (board.width, board.height, board.total_mines) == (9, 9, 10) and board.truth is None
    assert board.covered
    assert {verdict_of(p) for _, p in count_board(board).probabilities} == {Verdict.UNKNOWN}


def test_bad_arguments_are_refused_when_the_strategy_is_made():
    with pytest.raises(InvalidArgument):
        strategies.boards(width=0)
    with pytest.raises(InvalidArgument):
        strategies.boards(density=1.5)
    with pytest.raises(InvalidArgument):
        strategies.positions(level="grandmaster")
    with pytest.raises(InvalidArgument):
        strategies.inconsistent_boards(total=False, change="total")
