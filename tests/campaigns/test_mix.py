"""The default mix holds the boards real engines' bugs need (issue 37), each kind twice in its period of 51,
after the first ten boards, which stay as they were; walk boards keep walking the sweep in order."""

from __future__ import annotations

from minecheck.boards.small import small_recipe, small_walk
from minecheck.campaigns.fuzz import INSTEAD_OF_WALK, MIX, SMALL, WALK, Config, board_recipe


def test_each_new_kind_is_twice_in_the_period_after_board_10():
    assert len(MIX) == 51 and MIX.count(SMALL) == 28
    assert sum(name == "guess" for name, _ in MIX) == 2 and sum(name == "sample" for name, _ in MIX) == 2
    assert sum(("flags", False) in params for name, params in MIX if name == "play") == 2
    assert min(INSTEAD_OF_WALK) > 10


def test_the_first_eleven_boards_are_those_of_the_mix_before_issue_37():
    before = tuple(entry for drawn in (MIX[1], MIX[4], MIX[7], MIX[10]) for entry in (SMALL, drawn, SMALL))
    assert MIX[:11] == before[:11]


def test_the_walk_goes_on_in_order_past_the_slots_it_gave_way():
    config = Config(seed=3)
    walked = [board_recipe(config, i) for i in range(60) if MIX[i % len(MIX)] == SMALL]
    walk = small_walk(WALK)
    assert walked == [small_recipe(WALK, walk[k]) for k in range(len(walked))]
    assert board_recipe(config, 11).generator == "guess" and board_recipe(config, 12).generator == "sample"
