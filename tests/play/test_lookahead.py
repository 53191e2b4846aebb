"""The lookahead player: among equally safe cells it opens the one most likely to leave a safe next move."""

from __future__ import annotations

from fractions import Fraction

from shared import board

from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.play.game import Action, Move
from minecheck.play.players import get_player
from minecheck.play.players.lookahead import survival

# the corners r0c0 and r0c4 are both at 3/11; r0c4 sits by the 2 and can prove cells safe
TIED = board("5x4x7\nHHHHH\nHHHHH\nHHH42\nHHHHH")


def test_the_lookahead_breaks_a_tie_by_the_chance_of_a_safe_next_move():
    count = count_board(TIED, Mode.GLOBAL)
    p = dict(count.probabilities)
    assert p[0] == p[4] == Fraction(3, 11) == min(p.values())
    assert survival(TIED, 4, count.layouts) > survival(TIED, 0, count.layouts)
    assert get_player("exact").decide(TIED, 0).moves == (Move(Action.OPEN, 0, "lowest"),)
    assert get_player("lookahead").decide(TIED, 0).moves == (Move(Action.OPEN, 4, "lookahead"),)


def test_sure_moves_come_first_and_no_guess_is_made_beside_them():
    decision = get_player("lookahead").decide(board("3x1x1\n1HH"), 0)
    assert decision.moves == (Move(Action.FLAG, 1, "mine"), Move(Action.OPEN, 2, "safe"))
