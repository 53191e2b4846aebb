"""Every decision checked against the exact counter: the four bad moves on hand-made boards, the moves
that are fine, and a decision finding that shrinks to a smaller board still showing the bad move."""

from __future__ import annotations

import shlex
from dataclasses import replace
from fractions import Fraction

import pytest
from shared import board

from minecheck.check.findings import Kind
from minecheck.check.shrink import shrink
from minecheck.cli import main
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.play.decisions import DECISION_MARGIN, Flaw, cropped_cell, judge, still_decides_badly
from minecheck.play.game import Action, Move
from minecheck.play.player import relocated
from minecheck.play.players import get_player
from minecheck.play.run import PlayConfig, play_game
from minecheck.report.pages import replay_command


def flaws(text: str, *moves: Move) -> list[Flaw]:
    return [b.flaw for b in judge(board(text), moves)]


def opens(cell: int, reason: str = "lowest") -> Move:
    return Move(Action.OPEN, cell, reason)


def test_opening_a_cell_that_is_certainly_a_mine():
    assert flaws("2x1x1\n1H", opens(1, "safe")) == [Flaw.OPENED_MINE]


def test_flagging_a_cell_that_is_not_certainly_a_mine():
    assert flaws("3x1x1\nH1H", Move(Action.FLAG, 0, "mine")) == [Flaw.FLAGGED_UNCERTAIN]


def test_guessing_while_a_certainly_safe_cell_exists():
    # the 1 holds the only mine, so the cell off the frontier (c3) is safe; c0 is a coin toss
    assert flaws("4x1x1\nH1HH", opens(0)) == [Flaw.GUESSED_BESIDE_SAFE]
    assert flaws("4x1x1\nH1HH", opens(0, "blind")) == [Flaw.GUESSED_BESIDE_SAFE], "a blind guess is no excuse here"


def test_guessing_a_cell_riskier_than_the_best_by_more_than_the_margin():
    # c0 and c2 share the 1's mine (1/2 each); the other mine is one of c3-c5 (1/3 each)
    assert Fraction(1, 2) - Fraction(1, 3) > DECISION_MARGIN
    assert flaws("6x1x2\nH1HHHH", opens(0)) == [Flaw.RISKIER_GUESS]
    assert flaws("6x1x2\nH1HHHH", opens(3)) == []


def test_a_guess_within_the_margin_is_fine():
    # 1/2 for c0 and c2, 10/21 for each of the 21 cells off the frontier: 1/42 apart, under the margin
    text = "24x1x11\nH1" + "H" * 22
    probabilities = dict(count_board(board(text), Mode.GLOBAL).probabilities)
    assert 0 < probabilities[0] - probabilities[3] <= DECISION_MARGIN
    assert flaws(text, opens(0)) == []


def test_a_blind_guess_is_not_judged_against_the_lowest_probability():
    assert flaws("6x1x2\nH1HHHH", opens(0, "blind")) == []


def test_safe_opens_and_certain_flags_are_fine():
    assert flaws("3x1x1\n1HH", Move(Action.FLAG, 1, "mine"), opens(2, "safe")) == []


def test_a_board_made_inconsistent_by_a_wrong_flag_is_not_judged():
    assert flaws("3x1x1\nF0H", opens(2)) == []


@pytest.fixture(scope="module")
def finding():
    """The first bad decision of gibbs@seed (whose 0-digits say nothing) in a few Beginner games."""
    config = PlayConfig(1, ("gibbs@seed",), "beginner", budget=Budget(cpu=10))
    for index in range(10):
        found = play_game(config, "gibbs@seed", index).findings
        if found:
            return found[0]
    pytest.fail("gibbs@seed made no bad decision in ten games")


def shrunk(finding):
    """A decision finding shrunk as the play report shrinks it: its player must still make the move."""
    predicate = still_decides_badly(finding, get_player(finding.subject), Budget(cpu=10))
    return shrink(finding, Budget(cpu=10), seconds=60, predicate=predicate)


def test_a_decision_finding_carries_the_view_with_its_mines_and_the_state_to_replay_it(finding):
    assert finding.kind is Kind.DECISION and finding.subject == "gibbs@seed"
    assert parse_board(finding.board).truth is not None
    assert still_decides_badly(finding, get_player(finding.subject))(parse_board(finding.board)) is not None


def test_a_shrunk_decision_finding_still_shows_the_bad_move(finding, capsys):
    small = shrunk(finding)
    shrunk_board = parse_board(small.finding.board)
    assert shrunk_board.size < parse_board(finding.board).size
    again = still_decides_badly(small.finding, get_player(small.finding.subject))(shrunk_board)
    assert again is not None and again.detail == finding.detail
    command = shlex.split(replay_command(small.finding, small.finding.board))
    assert command[:2] == ["minecheck", "decide"]
    assert main(command[1:]) == 1
    assert f"BAD ({finding.detail})" in capsys.readouterr().out


def test_the_shrink_predicate_refuses_a_board_without_its_total(finding):
    plain = replace(parse_board(finding.board), total_mines=None)
    assert still_decides_badly(finding, get_player(finding.subject))(plain) is None


def test_a_crop_moves_each_cell_or_drops_it():
    big = board("4x3\nHHHH\nHHHH\nHHHH")
    small = board("2x2\nHH\nHH")  # rows 1-2, columns 1-2 of big
    where = cropped_cell(big.width, small, (1, 1))
    assert [where(c) for c in (5, 6, 9, 10)] == [0, 1, 2, 3]
    assert [where(c) for c in (0, 3, 4, 7, 8, 11)] == [None] * 6


def test_the_demo_carries_its_variable_map_onto_a_cropped_board():
    demo = get_player("satdemo@seed")
    state = (123, (9, 5, 0, 10), 7)  # the map's order is kept, cells cut away are gone
    assert relocated(demo, state, cropped_cell(4, board("2x2\nHH\nHH"), (1, 1))) == (123, (2, 0, 3), 7)
    assert relocated(get_player("mineai@seed"), 42, lambda c: None) == 42, "a state without cells is kept"


@pytest.fixture(scope="module")
def demo_finding():
    """satdemo@seed's blind guess onto a certain mine in Beginner game 11 of seed 1, with 17 cells in
    its variable map; a crop keeps the guess on a mine here (its random draw depends on the covered
    cells, so most of the demo's blind findings do not survive a crop)."""
    config = PlayConfig(1, ("satdemo@seed",), "beginner", budget=Budget(cpu=10))
    found = [f for f in play_game(config, "satdemo@seed", 11).findings if f.detail == Flaw.OPENED_MINE]
    assert found and len(found[0].extra["state"][1]) == 17
    return found[0]


def test_a_shrunk_demo_finding_carries_its_variable_map_cropped_with_the_board(demo_finding):
    small = shrunk(demo_finding)
    before, after = parse_board(demo_finding.board), parse_board(small.finding.board)
    assert not small.stats.cut_short and after.size < before.size
    assert any(name.startswith("crop") for name in small.stats.successes), small.stats
    variables = small.finding.extra["state"][1]
    assert all(0 <= c < after.size for c in variables)
    assert len(variables) < len(demo_finding.extra["state"][1]), "cells cropped away left the map"
    again = still_decides_badly(small.finding, get_player(small.finding.subject))(after)
    assert again is not None and again.detail == Flaw.OPENED_MINE, "the shrunk finding replays alone"
