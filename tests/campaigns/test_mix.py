"""The default mix holds the boards real engines' bugs need (issue 37), each kind twice in its period of 51, a
guess board among the first ten (the walk's lone flag visited seventh makes room); walk boards keep walking the
sweep in order past the first seven."""

from __future__ import annotations

from minecheck.boards.small import small_recipe, small_walk
from minecheck.campaigns.fuzz import INSTEAD_OF_WALK, MIX, SMALL, WALK, Config, board_recipe, walk_board


def test_each_new_kind_is_twice_in_the_period():
    assert len(MIX) == 51 and MIX.count(SMALL) == 28
    assert sum(name == "guess" for name, _ in MIX) == 2 and sum(name == "sample" for name, _ in MIX) == 2
    assert sum(("flags", False) in params for name, params in MIX if name == "play") == 2


def test_a_guess_board_is_among_the_first_ten_and_the_drawn_boards_before_it_stay():
    before = tuple(entry for drawn in (MIX[1], MIX[4], MIX[7], MIX[10]) for entry in (SMALL, drawn, SMALL))
    assert MIX[:9] == before[:9] and MIX[10] == before[10]
    assert MIX[9][0] == "guess" and min(INSTEAD_OF_WALK) == 9


def test_the_lone_flag_comes_seventh_and_the_six_after_it_one_slot_sooner():
    walk = small_walk(WALK)
    assert [walk_board(step) for step in range(9)] == [1, 2, 3, 4, 5, 6, 0, 7, 8]
    config = Config(seed=3)
    assert board_recipe(config, 0) == small_recipe(WALK, walk[1])
    assert board_recipe(config, 11) == small_recipe(WALK, walk[0])


def test_the_walk_goes_on_in_order_past_the_slots_it_gave_way():
    config = Config(seed=3)
    walked = [board_recipe(config, i) for i in range(60) if MIX[i % len(MIX)] == SMALL]
    walk = small_walk(WALK)
    assert walked == [small_recipe(WALK, walk[walk_board(k)]) for k in range(len(walked))]
    assert walked[7:] == [small_recipe(WALK, walk[k]) for k in range(7, len(walked))]
    assert board_recipe(config, 9).generator == "guess" and board_recipe(config, 12).generator == "sample"
