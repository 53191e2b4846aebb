"""The boards that people forget: the edge generator makes each shape by name, reproducibly, consistent."""

from __future__ import annotations

import pytest

from minecheck.boards.generators import EDGE_SHAPES, edge_shape, generate_board, recipe
from minecheck.boards.layouts import extreme_mines
from minecheck.campaigns.fuzz import MIX
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board
from minecheck.model.position import Position, render

SEEDS = range(40)


def boards_of(shape: str) -> list[Board]:
    return [generate_board(recipe("edge", seed, shape=shape)) for seed in SEEDS]


def with_total(board: Board, total: int) -> Board:
    return Board(board.width, board.height, board.cells, total)


# what makes each shape that shape, on every board of it
SHAPE_HOLDS = {
    "1xN": lambda b: b.width == 1 and b.height > 1,
    "Nx1": lambda b: b.height == 1 and b.width > 1,
    "1x1": lambda b: b.size == 1,
    "no-digit": lambda b: not b.digits,
    "all-opened": lambda b: all(c in b.truth for c in b.covered),
    "all-flagged": lambda b: set(b.flags) == b.truth,
    "fewest-mines": lambda b: b.total_mines is not None,
    "most-mines": lambda b: b.total_mines is not None,
    "dense": lambda b: len(b.truth) >= int(0.5 * b.size + 0.5),
    "wide": lambda b: b.width > 1000 and all(c % b.width < 6 or c % b.width >= b.width - 6 for c in b.digits),
}


def test_every_forgotten_shape_has_a_check():
    assert set(SHAPE_HOLDS) == set(EDGE_SHAPES)


@pytest.mark.parametrize("shape", EDGE_SHAPES)
def test_each_shape_is_made_by_name_and_is_consistent(shape):
    for board in boards_of(shape):
        assert SHAPE_HOLDS[shape](board), format_board(board)
        assert count_board(board, Mode.LOCAL).consistent, format_board(board)
        if board.total_mines is not None:
            assert count_board(board, Mode.GLOBAL).consistent, format_board(board)


@pytest.mark.parametrize("shape", EDGE_SHAPES)
def test_each_shape_is_reproducible_from_its_recipe(shape):
    rec = recipe("edge", 12345, shape=shape)
    assert format_board(generate_board(rec)) == format_board(generate_board(rec))


def test_without_a_shape_the_seed_picks_one_and_covers_them_all():
    recipes = [recipe("edge", seed) for seed in range(150)]
    assert {edge_shape(rec) for rec in recipes} == set(EDGE_SHAPES)
    for rec in recipes:
        assert SHAPE_HOLDS[edge_shape(rec)](generate_board(rec)), rec.describe()


def test_the_shapes_reach_their_extremes_somewhere():
    assert any(not b.covered for b in boards_of("all-opened")), "every cell opened: no mine at all"
    assert any(b.covered for b in boards_of("all-opened")), "every safe cell opened, mines left covered"
    assert {format_board(b).splitlines()[1] for b in boards_of("1x1")} == {"H", "m", "F", "0"}
    assert any(b.flags and set(b.flags) == b.truth and b.covered for b in boards_of("all-flagged"))
    assert any(8 in b.cells or 7 in b.cells for b in boards_of("dense"))


@pytest.mark.parametrize("shape, step", [("fewest-mines", -1), ("most-mines", +1)])
def test_the_stated_total_is_the_fewest_or_most_that_the_digits_allow(shape, step):
    tight = 0
    for board in boards_of(shape):
        beyond = board.total_mines + step
        if len(board.flags) <= beyond <= board.size:
            assert not count_board(with_total(board, beyond), Mode.GLOBAL).consistent, format_board(board)
            tight += 1
    assert tight >= len(SEEDS) // 2, "most boards must have a total one step beyond that fails"


def test_extreme_mines_moves_hidden_mines_but_keeps_what_the_player_sees():
    pos = Position(5, 1, frozenset({0, 4}), frozenset({1}), frozenset({4}))  # m1HHF: the 1 sees r0c0 or r0c2
    fewest, most = extreme_mines(pos, fewest=True), extreme_mines(pos, fewest=False)
    for moved in (fewest, most):
        assert render(moved).cells == render(pos).cells and moved.flags == pos.flags and moved.show_total
    assert len(fewest.mines) == 2  # the flag and the 1's mine
    assert len(most.mines) == 3 and 3 in most.mines  # and r0c3, which no digit sees


def test_the_default_campaign_mix_holds_the_edge_boards():
    assert ("edge", ()) in MIX
