"""The search's changes (boards/mutation.py): each keeps a position true to its mines, a search recipe replays from
itself alone, its rounds build on one another, and a board with no position behind it gets a digit or its total
moved."""

from __future__ import annotations

import pytest

from minecheck.boards.generators import GENERATORS, generate, generate_board, recipe
from minecheck.boards.mutation import CHANGES, change, recipe_from_json, recipe_json, step_rng
from minecheck.boards.recipe import Recipe
from minecheck.model.board import Board
from minecheck.model.position import Position, render


def searched(seed: int, **params) -> Recipe:
    """A search recipe, as campaigns.search makes it (no --generator makes one)."""
    return Recipe("search", tuple(sorted(params.items())), seed)


PARENTS = [recipe("reveal", 3), recipe("endgame", 1), recipe("finished", 2), recipe("play", 4, level="beginner"),
           recipe("small", 33, n=5, index=33)]


@pytest.mark.parametrize("change_", CHANGES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("parent", PARENTS[:4], ids=lambda r: r.generator)
def test_each_change_keeps_the_position_true_to_its_mines(change_, parent):
    pos = generate(parent)
    for seed in range(5):
        changed = change_(step_rng(seed, 0), pos)
        assert isinstance(changed, Position)  # its checks: no mine opened, every flag on a mine
        board = render(changed)
        assert all(board.cells[c] == sum(n in changed.mines for n in board.neighbours(c)) for c in board.digits)


@pytest.mark.parametrize("parent", PARENTS, ids=lambda r: r.generator)
def test_a_search_recipe_replays_and_its_rounds_build_on_one_another(parent):
    one = searched(5, parent=recipe_json(parent), steps="11", target="gap of s", of=3)
    two = searched(6, parent=recipe_json(parent), steps="11,12", target="gap of s", of=3)
    assert generate_board(one) == generate_board(one)
    assert generate(two) == change(step_rng(12, 1), generate(one))
    assert recipe_from_json(recipe_json(parent)) == parent


def test_the_changes_reach_other_boards_than_the_parent():
    parent = recipe("reveal", 3)
    boards = {generate_board(searched(s, parent=recipe_json(parent), steps=str(s))) for s in range(20)}
    assert len(boards - {generate_board(parent)}) > 10


def test_a_board_that_cannot_be_gets_a_digit_or_its_total_moved():
    parent = recipe("contradict", 4)
    board = generate_board(parent)
    changed = [generate_board(searched(s, parent=recipe_json(parent), steps=str(s))) for s in range(10)]
    assert all(isinstance(b, Board) and (b.width, b.height) == (board.width, board.height) for b in changed)
    assert all(sum(x != y for x, y in zip(b.cells, board.cells)) + (b.total_mines != board.total_mines) == 1
               for b in changed)


def test_search_is_no_generator_a_user_names():
    assert "search" not in GENERATORS
