"""The policy every registry solver plays by: flags, safe cells first, the lowest probability, the tie
rule, blind guesses that replay; and a registry solver named on the command line plays by it."""

from __future__ import annotations

from fractions import Fraction

from shared import board

from minecheck.model.answers import CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.budget import Budget
from minecheck.play.game import Action, FirstClick, Move, Size, deal, game_seed, view
from minecheck.play.players import get_player
from minecheck.play.policy import PolicyPlayer, blind_guess, policy_moves

# 3x3, all covered but r1c1 (a 1): eight candidate cells, indices 0-3 and 5-8
BOARD = board("3x3x1\nHHH\nH1H\nHHH")


def answered(**cells) -> SolverResult:
    """A result from keyword cells: c0=("safe", Fraction(0)), ..."""
    out = []
    for name, (verdict, p) in cells.items():
        out.append(CellAnswer(int(name[1:]), Verdict(verdict) if verdict else None, p))
    return SolverResult("test", Mode.GLOBAL, cells=tuple(out))


def test_every_cell_called_safe_is_opened_and_no_guess_is_made():
    moves = policy_moves(BOARD, answered(c2=("safe", 0), c6=("safe", 0), c0=("unknown", Fraction(1, 9))), 0)
    assert moves == (Move(Action.OPEN, 2, "safe"), Move(Action.OPEN, 6, "safe"))


def test_every_cell_called_a_mine_is_flagged_before_opening():
    moves = policy_moves(BOARD, answered(c3=("mine", 1), c5=("mine", 1), c8=("safe", 0)), 0)
    assert moves == (Move(Action.FLAG, 3, "mine"), Move(Action.FLAG, 5, "mine"), Move(Action.OPEN, 8, "safe"))


def test_without_a_safe_cell_the_lowest_probability_is_opened():
    moves = policy_moves(BOARD, answered(c0=("unknown", 0.5), c7=("unknown", 0.1), c8=("unknown", 0.3)), 0)
    assert moves == (Move(Action.OPEN, 7, "lowest"),)


def test_a_cell_called_a_mine_is_never_the_guess_even_at_a_low_probability():
    moves = policy_moves(BOARD, answered(c0=("mine", 0.0), c1=("unknown", 0.4)), 0)
    assert moves == (Move(Action.FLAG, 0, "mine"), Move(Action.OPEN, 1, "lowest"))


def test_ties_go_to_the_lowest_cell_index():
    moves = policy_moves(BOARD, answered(c8=("unknown", Fraction(1, 8)), c2=("unknown", 0.125),
                                         c5=("unknown", Fraction(1, 8))), 0)
    assert moves == (Move(Action.OPEN, 2, "lowest"),)


def test_cells_it_is_silent_on_and_nan_are_not_candidates_while_it_gives_a_probability():
    moves = policy_moves(BOARD, answered(c6=("unknown", 0.6), c0=("unknown", float("nan"))), 0)
    assert moves == (Move(Action.OPEN, 6, "lowest"),)


def test_a_solver_of_verdicts_only_guesses_blind_from_the_game_seed():
    result = answered(c0=("mine", None), c1=("unknown", None))
    moves = policy_moves(BOARD, result, 42)
    candidates = [1, 2, 3, 5, 6, 7, 8]
    assert moves[0] == Move(Action.FLAG, 0, "mine")
    assert moves[1] == Move(Action.OPEN, blind_guess(candidates, 42), "blind")
    assert policy_moves(BOARD, result, 42) == moves, "the same seed, the same guess"
    assert {policy_moves(BOARD, result, s)[1].cell for s in range(40)} == set(candidates)


def test_a_registry_solver_plays_by_the_policy_in_the_global_mode_when_it_can():
    player = get_player("exact")
    assert isinstance(player, PolicyPlayer) and player.mode is Mode.GLOBAL
    assert get_player("dpll@seed").mode is Mode.LOCAL
    decision = player.decide(board("3x1x1\n1HH"), player.start(0))
    assert decision.moves == (Move(Action.FLAG, 1, "mine"), Move(Action.OPEN, 2, "safe"))


def test_a_raising_solver_loses_with_its_error():
    player = get_player("hanging_solver:RaisingSolver")
    decision = player.decide(BOARD, 0, Budget(cpu=5))
    assert decision.moves == () and "deliberate failure" in decision.error


def test_a_blind_guess_is_not_drawn_from_the_stream_that_dealt_the_mines():
    """The first blind guess of a game hits a mine about as often as the mines' share of the covered cells
    (3 of 8 here), not every time: with the game's own seed it took the first mine dealt, 200 games in 200."""
    player = PolicyPlayer(get_player("exact").solver)
    hits = 0
    for index in range(200):
        game = deal(Size(3, 3, 3), FirstClick.SAFE, 1, index)
        covered = view(game).covered
        hits += blind_guess(list(covered), player.start(game_seed(1, index))) in game.mines
    assert 40 <= hits <= 110, hits  # 3/8 of 200 is 75
