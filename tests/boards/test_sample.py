"""Samples of the boards of 8 to 12 cells: past the sweep, every shape both ways round, reproducible, consistent."""

from __future__ import annotations

from minecheck.boards.generators import generate, generate_board, recipe
from minecheck.boards.sample import must_guess, sample_shapes
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.position import render


def test_the_shapes_hold_8_to_12_cells_both_ways_round_one_wide_included():
    shapes = sample_shapes()
    assert {w * h for w, h in shapes} == set(range(8, 13))
    assert (1, 12) in shapes and (12, 1) in shapes and (3, 4) in shapes and (4, 3) in shapes and (3, 3) in shapes


def test_samples_are_consistent_boards_of_8_to_12_cells_with_flags_on_some_and_totals_on_some():
    positions = [generate(recipe("sample", seed)) for seed in range(200)]
    assert all(8 <= p.width * p.height <= 12 for p in positions)
    assert all(count_board(render(p), Mode.LOCAL).consistent for p in positions)
    assert len({(p.width, p.height) for p in positions}) >= 10
    assert any(p.flags for p in positions) and any(not p.flags and p.mines for p in positions)
    assert any(p.show_total for p in positions) and any(not p.show_total for p in positions)


def test_a_sample_is_the_same_from_the_same_seed_and_another_from_another():
    assert format_board(generate_board(recipe("sample", 3))) == format_board(generate_board(recipe("sample", 3)))
    assert len({format_board(generate_board(recipe("sample", s))) for s in range(20)}) == 20


def test_a_guess_sample_is_a_position_where_the_player_must_guess_on_8_to_12_cells():
    for seed in range(30):
        board = generate_board(recipe("sample", seed, guess=True))
        local = count_board(board, Mode.LOCAL)
        assert 8 <= board.size <= 12 and not board.flags and 10 <= local.layouts <= 1000, seed
        counts = [local] + ([count_board(board, Mode.GLOBAL)] if board.total_mines is not None else [])
        assert all(p != 0 for count in counts for _, p in count.probabilities), seed
        assert any(p == 1 for _, p in local.probabilities), seed


def test_must_guess_wants_no_safe_cell_a_proved_mine_and_10_to_1000_layouts():
    assert must_guess(parse_board("HHHH3H\nH3HHH2"))  # 20 layouts, cells 5 and 10 proved mines
    assert not must_guess(parse_board("HHHH2H\nH3HHH2"))  # cells 3 and 9 safe
    assert not must_guess(parse_board("HHHHHH\nH2HH2H"))  # 100 layouts, no proved mine
    assert not must_guess(parse_board("HHHH3H\nHHHHH2"))  # 2 layouts
