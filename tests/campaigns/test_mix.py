"""The default mix (campaigns/mix.py): a period of 51 boards, twenty walking the small sweep, four searching, the
positions real engines are asked among the others (issue 51), the boards each first showing a row of the reach
table among the first ten (issue 37's guess sample among them), and the walk in its own order past its first
boards."""

from __future__ import annotations

import pytest

from minecheck.boards.generators import generate_board
from minecheck.boards.positions import is_endgame
from minecheck.boards.sample import must_guess
from minecheck.boards.small import small_recipe, small_walk
from minecheck.campaigns.fuzz import Config, board_recipe
from minecheck.campaigns.mix import (
    DECIDED,
    DEEP,
    DIGIT_CHANGED,
    ENDGAME,
    FINISHED,
    GUESS,
    GUESS_SAMPLE,
    MIX,
    NO_FLAGS,
    NUMERIC_WIDE,
    OPENING,
    SAMPLE,
    SEARCH,
    SEARCH_SLOTS,
    SMALL,
    WALK,
    WALK_FIRST,
    walk_board,
    walk_step,
)
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode


def test_the_period_holds_twenty_walk_boards_four_search_slots_and_the_drawn_kinds():
    assert len(MIX) == 51 and MIX.count(SMALL) == 20 and MIX.count(SEARCH) == 4 == len(SEARCH_SLOTS)
    assert MIX.count(GUESS) == 1 and MIX.count(GUESS_SAMPLE) == 1 and MIX.count(SAMPLE) == 2
    assert MIX.count(DIGIT_CHANGED) == 3 and MIX.count(NO_FLAGS) == 1
    assert sum(("flags", False) in params for name, params in MIX if name == "play") == 2
    assert all(MIX.count(kind) == 1 for kind in (FINISHED, ENDGAME, DECIDED, OPENING))


def test_the_boards_that_first_show_a_row_come_among_the_first_ten():
    assert MIX[:10].index(DEEP) == 1 and MIX.index(NUMERIC_WIDE) == 3 and MIX.index(GUESS_SAMPLE) == 4
    assert MIX.index(DIGIT_CHANGED) == 5 and min(SEARCH_SLOTS) >= 20  # a search reads boards done before it


def test_the_large_opening_comes_after_the_readmes_forty_boards_and_within_every_seeds_first_200():
    assert MIX.index(OPENING) >= 40
    for seed in (1, 2, 3):
        sizes = [len(generate_board(board_recipe(Config(seed=seed), i)).covered) for i in (MIX.index(OPENING),)]
        assert min(sizes) >= 1000


@pytest.mark.parametrize("seed", range(1, 6))
def test_every_campaign_asks_a_finished_game_an_endgame_and_a_position_the_total_decides(seed):
    config = Config(seed=seed)
    endgame = generate_board(board_recipe(config, MIX.index(ENDGAME)))
    assert is_endgame(endgame)
    finished = generate_board(board_recipe(config, MIX.index(FINISHED)))
    assert len(finished.covered) == len(finished.truth - set(finished.flags))  # every safe cell open
    decided = generate_board(board_recipe(config, MIX.index(DECIDED)))
    system = build_constraints(decided)
    total = dict(count_board(decided, Mode.GLOBAL).probabilities)
    assert {total[c] for c in system.off_frontier} in ({0}, {1})


def test_every_campaign_has_a_guess_position_of_8_to_12_cells_among_its_first_five_boards():
    for seed in range(1, 21):
        board = generate_board(board_recipe(Config(seed=seed), 4))
        assert 8 <= board.size <= 12 and not board.flags and must_guess(board), seed


def test_the_walk_visits_its_first_boards_then_goes_on_in_its_own_order():
    walk = small_walk(WALK)
    rest = [k for k in range(len(walk)) if k not in WALK_FIRST]
    assert [walk_board(step) for step in range(len(WALK_FIRST) + 200)] == list(WALK_FIRST) + rest[:200]
    config = Config(seed=3)
    assert board_recipe(config, 0) == small_recipe(WALK, walk[1]) and board_recipe(config, 2) == small_recipe(
        WALK, walk[74])


def test_walk_and_search_slots_step_through_the_walk_once_each():
    config = Config(seed=3)
    slots = [i for i in range(160) if MIX[i % len(MIX)] in (SMALL, SEARCH)]
    assert [walk_step(i) for i in slots] == list(range(len(slots)))
    walk = small_walk(WALK)
    assert [board_recipe(config, i) for i in slots] == [small_recipe(WALK, walk[walk_board(k)])
                                                        for k in range(len(slots))]
