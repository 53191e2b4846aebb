"""The game: sizes, the first-click rules, dealing game i from (seed, i) alone, moves, win and loss."""

from __future__ import annotations

import pytest

from minecheck.model.board import FLAG, neighbours
from minecheck.play import game as rules
from minecheck.play.game import Action, FirstClick, Game, Move, Size, deal, first_cell, parse_size, view

EXPERT = Size(30, 16, 99)


def test_sizes_by_name_and_by_dimensions():
    assert parse_size("beginner") == Size(9, 9, 10)
    assert parse_size("intermediate") == Size(16, 16, 40)
    assert parse_size("expert") == EXPERT
    assert parse_size("8x5x7") == Size(8, 5, 7)
    with pytest.raises(ValueError, match="is not beginner"):
        parse_size("huge")


def test_the_first_click_is_the_centre_unless_told():
    assert first_cell(EXPERT) == 8 * 30 + 15
    assert first_cell(EXPERT, "3,3") == 3 * 30 + 3
    with pytest.raises(ValueError, match="off the"):
        first_cell(EXPERT, "16,0")


def test_safe_3x3_keeps_the_first_cell_and_its_neighbours_clear_and_opens_an_area():
    first = first_cell(EXPERT)
    for i in range(30):
        game = deal(EXPERT, FirstClick.SAFE_3X3, 1, i)
        assert not (game.mines & {first, *neighbours(30, 16, first)})
        assert view(game).cells[first] == 0 and len(game.opened) > 9


def test_safe_keeps_only_the_first_cell_clear():
    games = [deal(EXPERT, FirstClick.SAFE, 1, i) for i in range(40)]
    first = first_cell(EXPERT)
    assert all(first not in g.mines and not g.lost for g in games)
    assert any(g.mines & set(neighbours(30, 16, first)) for g in games), "a neighbour of the first cell can be a mine"


def test_any_lets_the_first_click_lose():
    games = [deal(Size(9, 9, 40), FirstClick.ANY, 1, i) for i in range(40)]
    lost = [g for g in games if g.lost]
    assert lost and all(g.exploded == first_cell(Size(9, 9, 40)) for g in lost)
    assert any(not g.lost for g in games)


def test_mines_that_do_not_fit_the_rule_are_refused():
    with pytest.raises(ValueError, match="do not fit"):
        deal(Size(4, 4, 8), FirstClick.SAFE_3X3, 1, 0)
    assert len(deal(Size(4, 4, 15), FirstClick.SAFE, 1, 0).mines) == 15


def test_game_i_is_made_from_seed_and_i_alone():
    alone = deal(EXPERT, FirstClick.SAFE_3X3, 5, 17)
    after_others = [deal(EXPERT, FirstClick.SAFE_3X3, 5, i) for i in range(20)][17]
    assert alone == after_others
    assert deal(EXPERT, FirstClick.SAFE_3X3, 6, 17).mines != alone.mines
    assert deal(EXPERT, FirstClick.SAFE_3X3, 5, 18).mines != alone.mines


# a 4x1 strip: mine at 3; opening 0 floods 0 (a zero), 1 (a zero), 2 (a 1)
STRIP = Game(4, 1, frozenset({3}))


def test_opening_a_zero_floods_but_never_through_a_flag():
    assert rules.open_cell(STRIP, 0).opened == {0, 1, 2}
    flagged = rules.flag_cell(STRIP, 1)  # a wrong flag: kept as the player placed it
    assert rules.open_cell(flagged, 0).opened == {0}
    assert view(flagged).cells[1] == FLAG


def test_won_when_every_safe_cell_is_open_whatever_the_flags():
    game = rules.open_cell(STRIP, 0)
    assert game.won and not game.lost
    assert not rules.flag_cell(STRIP, 3).won


def test_opening_a_mine_loses_and_nothing_moves_after():
    lost = rules.play_move(STRIP, Move(Action.OPEN, 3))
    assert lost.lost and lost.exploded == 3 and not lost.won
    assert rules.play_move(lost, Move(Action.OPEN, 0)) == lost


def test_the_view_states_the_total_and_never_the_hidden_mines():
    board = view(rules.open_cell(STRIP, 0))
    assert board.truth is None and board.total_mines == 1
    assert board.cells[:3] == (0, 0, 1)
