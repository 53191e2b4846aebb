"""Seeded boards: reproducible from (generator, parameters, seed); play positions are really stuck."""

from __future__ import annotations

import subprocess
import sys

import pytest

from minecheck.boards.generators import LEVELS, generate, generate_board, recipe
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode, Verdict, verdict_of
from minecheck.model.boardtext import format_board
from minecheck.model.position import render


@pytest.mark.parametrize("rec", [
    recipe("reveal", 7, width=6, height=5),
    recipe("play", 7, level="expert"),
    recipe("stress", 7),
])
def test_same_recipe_same_board_even_in_another_process(rec):
    here = format_board(generate_board(rec))
    assert here == format_board(generate_board(rec))
    code = ("from minecheck.boards.generators import recipe, generate_board\n"
            "from minecheck.model.boardtext import format_board\n"
            f"rec = recipe({rec.generator!r}, {rec.seed}, **{dict(rec.params)!r})\n"
            "print(format_board(generate_board(rec)), end='')")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    assert other == here


def test_different_seeds_give_different_boards():
    boards = {format_board(generate_board(recipe("play", s, level="intermediate"))) for s in range(5)}
    assert len(boards) == 5


@pytest.mark.parametrize("level", list(LEVELS))
def test_play_gives_a_stuck_realistic_position(level):
    for seed in range(3):
        b = generate_board(recipe("play", seed, level=level))
        w, h, m = LEVELS[level]
        assert (b.width, b.height, b.total_mines) == (w, h, m)
        assert b.covered, "a position must leave something to decide"
        verdicts = {verdict_of(p) for _, p in count_board(b).probabilities}
        assert verdicts == {Verdict.UNKNOWN}, "stuck: no cell is provably safe or a mine"
        assert all(c in b.truth for c in b.flags), "flags are placed by sound deduction only"


def test_play_with_guesses_goes_further():
    plain = generate_board(recipe("play", 3, level="expert"))
    guessed = generate_board(recipe("play", 3, level="expert", guesses=5))
    assert len(guessed.digits) >= len(plain.digits)


def test_reveal_opens_only_safe_cells_with_true_digits():
    b = generate_board(recipe("reveal", 1, width=8, height=6, density=0.3, open_prob=0.5))
    assert not set(b.digits) & b.truth
    assert count_board(b).consistent


def test_stress_makes_a_large_component():
    from minecheck.engine.constraints import build_constraints
    b = generate_board(recipe("stress", 0, open_prob=0.3))
    assert max(len(c.cells) for c in build_constraints(b).components) >= 100


def test_play_without_flags_is_the_same_game_with_its_proved_mines_left_covered():
    for seed in range(3):
        flagged = generate(recipe("play", seed, level="beginner"))
        bare = generate(recipe("play", seed, level="beginner", flags=False))
        assert bare.flags == frozenset() and bare.opened == flagged.opened and bare.mines == flagged.mines
        proved = {c for c, p in count_board(render(bare)).probabilities if p == 1}
        assert flagged.flags <= proved


def test_a_guess_board_has_no_safe_cell_a_covered_proved_mine_and_10_to_1000_layouts():
    for seed in range(5):
        board = generate_board(recipe("guess", seed))
        local = count_board(board, Mode.LOCAL)
        assert not board.flags and 10 <= local.layouts <= 1000
        for mode in (Mode.LOCAL, Mode.GLOBAL):
            verdicts = [verdict_of(p) for _, p in count_board(board, mode).probabilities]
            assert Verdict.SAFE not in verdicts and Verdict.MINE in verdicts, (seed, mode)


def test_a_guess_board_is_the_same_from_the_same_seed():
    assert format_board(generate_board(recipe("guess", 4))) == format_board(generate_board(recipe("guess", 4)))
