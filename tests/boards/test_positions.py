"""The positions of boards.positions are what their names say, on every seed tried: a finished game has no cell
left to open, an endgame a dozen covered cells or fewer with a covered proved mine and no safe cell, a flag-free
position no flag, a decided one its cells off the frontier settled by the total alone, an opening 1,000 covered
cells or more; each is a named generator and replays from its recipe."""

from __future__ import annotations

import pytest

from minecheck.boards.generators import GENERATORS, generate, generate_board, recipe
from minecheck.boards.player import stuck_positions
from minecheck.boards.positions import ENDGAME_CELLS, closed, is_endgame
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BadOption
from minecheck.model.position import Position

SEEDS = range(12)
KINDS = ("finished", "endgame", "flagfree", "decided", "opening")


def test_each_kind_is_a_named_generator():
    assert set(KINDS) <= set(GENERATORS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_replays_from_its_recipe_and_differs_by_seed(kind):
    assert generate_board(recipe(kind, 3)) == generate_board(recipe(kind, 3))
    assert len({generate_board(recipe(kind, s)) for s in range(4)}) > 1


@pytest.mark.parametrize("seed", SEEDS)
def test_a_finished_game_has_every_safe_cell_open(seed):
    pos = generate(recipe("finished", seed))
    assert isinstance(pos, Position) and closed(pos) == len(pos.mines)
    all_flagged = generate_board(recipe("finished", seed, flags="all"))
    assert not all_flagged.covered and all_flagged.flags


def test_finished_games_come_with_every_mine_flagged_none_or_some():
    flags = [generate(recipe("finished", s)) for s in range(40)]
    assert {("all" if p.flags == p.mines else "none" if not p.flags else "some") for p in flags} == {"all", "none",
                                                                                                       "some"}
    with pytest.raises(BadOption):
        generate(recipe("finished", 1, flags="most"))


@pytest.mark.parametrize("seed", SEEDS)
def test_an_endgame_has_few_covered_cells_a_proved_mine_covered_and_no_safe_cell(seed):
    board = generate_board(recipe("endgame", seed))
    assert is_endgame(board) and len(board.covered) <= ENDGAME_CELLS and not board.flags
    assert board.total_mines is not None  # a game states its total: no cell is safe with it either


def test_is_endgame_refuses_a_safe_cell_a_flag_and_a_board_without_a_proved_mine():
    endgame = "5x6x5/00000/00111/112m2/Hm2Hm/H212H/m101m"  # the endgame of seed 1: m a covered mine
    assert is_endgame(parse_board(endgame.replace("/", "\n")))
    assert not is_endgame(parse_board("4x1\n0H1H"))  # r0c1 safe
    assert not is_endgame(parse_board("3x1\nHHH"))  # no proved mine
    assert not is_endgame(parse_board("3x1\nF1H"))  # a flag


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flag_free_position_is_a_game_stopped_where_the_player_must_guess(seed):
    board = generate_board(recipe("flagfree", seed))
    assert not board.flags and board.covered and board.digits
    local = count_board(board, Mode.LOCAL)
    assert local.consistent and not any(p == 0 for _, p in local.probabilities)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_decided_position_has_its_cells_off_the_frontier_settled_by_the_total_alone(seed):
    board = generate_board(recipe("decided", seed))
    system = build_constraints(board)
    local = dict(count_board(board, Mode.LOCAL).probabilities)
    total = dict(count_board(board, Mode.GLOBAL).probabilities)
    assert system.off_frontier and {total[c] for c in system.off_frontier} in ({0}, {1})
    assert all(local[c] not in (0, 1) for c in system.frontier)
    assert any(total[c] not in (0, 1) for c in system.frontier)


def test_decided_boards_come_both_ways():
    settled = {dict(count_board(b, Mode.GLOBAL).probabilities)[build_constraints(b).off_frontier[0]]
               for b in (generate_board(recipe("decided", s, mines=m)) for s in range(3) for m in ("safe", "mine"))}
    assert settled == {0, 1}


@pytest.mark.parametrize("seed", SEEDS)
def test_an_opening_leaves_a_thousand_cells_covered_without_a_flag(seed):
    board = generate_board(recipe("opening", seed))
    assert len(board.covered) >= 1000 and not board.flags and board.total_mines is not None and board.digits


def test_a_game_played_on_stops_where_deduction_is_stuck_and_ends_won_or_before_a_losing_guess():
    from minecheck.boards.player import deal
    from minecheck.boards.recipe import rng_for

    positions = list(stuck_positions(*deal(rng_for(recipe("endgame", 5)), 8, 6, 7)))
    for pos in positions[:-1]:
        local = count_board(parse_board(_text(pos)), Mode.LOCAL)
        assert not any(p in (0, 1) and c not in pos.flags for c, p in local.probabilities if p == 0)
    assert [len(p.opened) for p in positions] == sorted(len(p.opened) for p in positions)


def _text(pos: Position) -> str:
    from minecheck.model.boardtext import format_board
    from minecheck.model.position import render

    return format_board(render(pos))
