"""The default mix holds the boards real engines' bugs need (issue 37) in six slots of its period of 51, board 9
both a guess position and a board of 8 to 12 cells (the walk's lone flag visited seventh makes room for it); walk
boards keep walking the sweep in order past the first seven."""

from __future__ import annotations

from minecheck.boards.generators import generate_board
from minecheck.boards.sample import must_guess
from minecheck.boards.small import small_recipe, small_walk
from minecheck.campaigns.fuzz import (
    GUESS,
    GUESS_SAMPLE,
    INSTEAD_OF_WALK,
    MIX,
    SAMPLE,
    SMALL,
    WALK,
    Config,
    board_recipe,
    walk_board,
)


def test_six_walk_slots_hold_two_guess_positions_three_samples_and_two_games_without_flags():
    assert len(MIX) == 51 and MIX.count(SMALL) == 28 and len(INSTEAD_OF_WALK) == 6
    assert MIX.count(GUESS) == 1 and MIX.count(GUESS_SAMPLE) == 1 and MIX.count(SAMPLE) == 2
    assert sum(("flags", False) in params for name, params in MIX if name == "play") == 2


def test_board_9_is_a_guess_sample_and_the_drawn_boards_before_it_stay():
    before = tuple(entry for drawn in (MIX[1], MIX[4], MIX[7], MIX[10]) for entry in (SMALL, drawn, SMALL))
    assert MIX[:9] == before[:9] and MIX[10] == before[10]
    assert MIX[9] == GUESS_SAMPLE and min(INSTEAD_OF_WALK) == 9


def test_every_campaign_has_a_guess_position_of_8_to_12_cells_among_its_first_ten_boards():
    for seed in range(1, 21):
        board = generate_board(board_recipe(Config(seed=seed), 9))
        assert 8 <= board.size <= 12 and not board.flags and must_guess(board), seed


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
    assert board_recipe(config, 9).params == (("guess", True),) and board_recipe(config, 12).generator == "sample"
