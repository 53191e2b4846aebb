"""The progress player and the endgame search behind it: perfect play once few layouts remain (the same values
as the oracle's on small boards, and as a plain brute force on tiny ones), else a guess that makes progress."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from shared import board

from minecheck.cli import main
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, Board
from minecheck.play.decisions import judge
from minecheck.play.endgame import ENDGAME_LAYOUTS, _search, endgame_move, position_layouts
from minecheck.play.game import Action, FirstClick, Size, deal, open_cell, view
from minecheck.play.oracle import OracleLimit, board_move_values
from minecheck.play.players import get_player
from minecheck.play.players.progress import outlook, progress_guess
from minecheck.play.run import PlayConfig, play_game

CENTRE_LOSES = "3x3x3/HH1/HHH/1HH"  # the centre: p=1/9, wins 1/3; an edge: p=4/9, wins 4/9


def positions(size: Size, games: int, seed: int = 7) -> list[Board]:
    """Views from random play on ``size``: each game dealt (safe first click), then safe cells opened at
    random, one view kept after each opening while the game is not won."""
    out = []
    rng = random.Random(seed)
    for index in range(games):
        game = deal(size, FirstClick.SAFE, seed, index)
        while not game.over:
            out.append(view(game))
            covered_safe = [c for c in range(size.width * size.height)
                            if c not in game.opened and c not in game.mines]
            game = open_cell(game, rng.choice(covered_safe))
    return out


# -- the endgame search --------------------------------------------------------------------------------

def test_the_endgame_opens_the_oracles_best_cell_an_edge_not_the_safest_centre():
    b = board(CENTRE_LOSES)
    cell, value = endgame_move(b)
    assert value == Fraction(4, 9) and cell in (1, 3, 5, 7)
    assert cell == 1, "ties go to the lower index"
    (move,) = get_player("progress").decide(b, 0).moves
    assert (move.action, move.cell, move.reason) == (Action.OPEN, 1, "endgame")


def test_with_the_margin_option_the_endgame_keeps_to_cells_the_decision_check_accepts():
    b = board(CENTRE_LOSES)
    moves = get_player("progress:margin").decide(b, 0).moves
    assert [(m.cell, m.reason) for m in moves] == [(4, "endgame")], "the centre is the only cell within 1/20"
    assert judge(b, moves) == ()
    assert judge(b, get_player("progress").decide(b, 0).moves) == (), "the edge is riskier, and the judge's own " \
        "endgame search shows it wins the most"


def test_endgame_values_equal_the_oracles_on_small_boards():
    views = positions(Size(4, 4, 4), 6) + positions(Size(5, 3, 3), 6) + positions(Size(3, 3, 3), 4)
    assert len(views) > 30
    for v in views:
        assert position_move_values(v) == board_move_values(v), v.text()


def test_the_best_endgame_move_has_the_best_value_and_is_the_safest_of_the_best():
    for v in positions(Size(4, 4, 4), 6, seed=11):
        values = position_move_values(v)
        cell, value = endgame_move(v)
        p = dict(count_board(v, Mode.GLOBAL).probabilities)
        best = max(values.values())
        assert value == values[cell] == best
        assert (p[cell], cell) == min((p[c], c) for c, w in values.items() if w == best)


def _brute_values(b: Board) -> dict[int, Fraction]:
    """Each covered cell's chance of winning under perfect play by plain recursion over layout sets: one
    layout is a win; else the best cell to open, its safe layouts split by the digit it shows."""
    covered = [c for c in range(b.size) if not b.is_digit(c)]
    lays = [frozenset(m) for k in [b.total_mines] for m in _subsets(covered, k)
            if all(sum(n in m for n in b.neighbours(d)) == b.cells[d] for d in b.digits)]

    @cache
    def wins(group: frozenset[frozenset[int]], shut: frozenset[int]) -> int:
        if len(group) == 1:
            return 1
        return max(opened(group, shut, c) for c in shut)

    def opened(group: frozenset[frozenset[int]], shut: frozenset[int], c: int) -> int:
        split: dict[int, set[frozenset[int]]] = {}
        for lay in group:
            if c not in lay:
                split.setdefault(sum(n in lay for n in b.neighbours(c)), set()).add(lay)
        return sum(wins(frozenset(part), shut - {c}) for part in split.values())

    everything, shut = frozenset(lays), frozenset(covered)
    return {c: Fraction(opened(everything, shut, c), len(lays)) for c in covered if not b.is_flag(c)}


def _subsets(cells: list[int], k: int):
    if k == 0:
        yield ()
        return
    for i, c in enumerate(cells):
        for rest in _subsets(cells[i + 1:], k - 1):
            yield (c, *rest)


def test_endgame_values_equal_a_plain_brute_force_on_tiny_boards():
    views = positions(Size(3, 2, 2), 8) + positions(Size(4, 2, 3), 6) + positions(Size(3, 3, 2), 6)
    assert len(views) > 20
    for v in views:
        assert position_move_values(v) == _brute_values(v), v.text()


def test_the_endgame_declines_a_board_past_its_limit():
    expert = view(deal(Size(30, 16, 99), FirstClick.SAFE_3X3, 1, 0, "3,3"))
    assert position_layouts(expert) is None
    assert position_move_values(expert) is None and endgame_move(expert) is None
    small = board("4x4x4/HHHH/HHHH/HHHH/HHHH")  # C(16, 4) = 1820 layouts
    assert position_move_values(small, limit=1_000) is None
    assert position_move_values(small, limit=2_000) is not None


def test_the_endgame_gives_up_past_its_state_budget():
    b = view(deal(Size(4, 4, 4), FirstClick.SAFE, 1, 0))
    assert endgame_move(b, states=None) is not None
    assert endgame_move(b, states=1) is None


# -- the guess by progress -----------------------------------------------------------------------------

# r0c0 and r0c4 are both at 3/11: the corner r0c0 is far from every digit, r0c4 sits by the 2
TIED = board("5x4x7/HHHHH/HHHHH/HHH42/HHHHH")


def _brute_outlook(b: Board, cell: int) -> Fraction:
    """P(cell safe and its digit proves safe a cell its safety alone does not), from the layouts one by one."""
    lays = position_layouts(b, 10**6)
    safe_at = [lay for lay in lays if not lay >> cell & 1]
    others = [c for c in b.covered if c != cell]
    free = {c for c in others if all(not lay >> c & 1 for lay in safe_at)}
    by_digit: dict[int, list[int]] = {}
    for lay in safe_at:
        by_digit.setdefault(sum(lay >> n & 1 for n in b.neighbours(cell)), []).append(lay)
    progress = sum(len(group) for group in by_digit.values()
                   if any(c not in free and all(not lay >> c & 1 for lay in group) for c in others))
    return Fraction(progress, len(lays))


def test_the_chance_of_progress_is_that_of_a_brute_force_over_the_layouts():
    count = count_board(TIED, Mode.GLOBAL)
    for cell in (0, 4, 9, 12, 18):
        assert outlook(TIED, cell, count.layouts)[0] == _brute_outlook(TIED, cell)


def test_the_guess_is_the_candidate_most_likely_to_be_safe_and_make_progress():
    count = count_board(TIED, Mode.GLOBAL)
    p = {c: q for c, q in count.probabilities}
    assert p[0] == p[4] == min(p.values())
    assert outlook(TIED, 0, count.layouts) == (Fraction(12, 55), False), "the corner may show a 0"
    assert outlook(TIED, 4, count.layouts) == (Fraction(4, 33), False)
    guess = progress_guess(TIED, p, count.layouts)
    assert guess == 0
    assert all(outlook(TIED, c, count.layouts)[0] <= outlook(TIED, guess, count.layouts)[0]
               for c in p if p[c] - p[0] <= Fraction(1, 20))


def test_a_dead_cell_is_passed_over_for_a_living_one():
    # from a Beginner game: r2c1 (cell 9), exact's choice at p=1/3, can only show a 4; r3c0 (12) at 1/3 lives
    b = board("4x4x5/0111/12F2/HH4F/HHHF")
    count = count_board(b, Mode.GLOBAL)
    p = {c: q for c, q in count.probabilities if q < 1}
    assert p[9] == p[12] == min(p.values())
    assert outlook(b, 9, count.layouts) == (0, True)
    assert outlook(b, 12, count.layouts) == (Fraction(2, 3), False)
    assert [m.cell for m in get_player("exact").decide(b, 0).moves] == [9]
    assert progress_guess(b, p, count.layouts) == 12


def test_sure_moves_come_first():
    decision = get_player("progress").decide(board("3x1x1/1HH"), 0)
    assert [(m.action, m.cell) for m in decision.moves] == [(Action.FLAG, 1), (Action.OPEN, 2)]


# -- whole games ---------------------------------------------------------------------------------------

def test_judged_optimally_on_4x4x4_progress_makes_no_suboptimal_move_where_exact_makes_some():
    config = PlayConfig(seed=2026, players=("exact", "progress"), size="4x4x4", first_click="safe", judge="optimal")
    found = {name: sum(f.detail == "suboptimal" for i in range(40) for f in play_game(config, name, i).findings)
             for name in config.players}
    assert found["progress"] == 0
    assert found["exact"] > 0


def test_progress_makes_no_bad_decision_on_beginner():
    config = PlayConfig(seed=1, players=("progress",), size="beginner", first_cell="3,3")
    records = [play_game(config, "progress", i) for i in range(30)]
    assert sum(len(r.findings) for r in records) == 0
    reasons = {m.reason for r in records for turn in r.turns for m in turn}
    assert "endgame" in reasons, "no guess was ever made: the test would show nothing"


def test_progress_plays_the_same_game_twice():
    config = PlayConfig(seed=3, players=("progress",), size="intermediate")
    first = [play_game(config, "progress", i) for i in range(3)]
    again = [play_game(config, "progress", i) for i in range(3)]
    assert [(r.won, r.turns) for r in first] == [(r.won, r.turns) for r in again]


def test_decide_says_why_progress_moved(capsys):
    """minecheck decide names the endgame search and the chance of winning behind progress's move."""
    assert main(["decide", CENTRE_LOSES, "--player", "progress"]) == 0
    out = capsys.readouterr().out
    assert "its endgame search (few layouts left) chose r0c1, which wins 4/9 under perfect play" in out


def position_move_values(board: Board, limit: int = ENDGAME_LAYOUTS,
                         states: int | None = None) -> dict[int, Fraction] | None:
    """Each covered cell's chance of winning when opened now and the game is played perfectly after (0 for a
    certain mine), by the endgame's search, every value exact: the oracle the tests hold ``endgame_move`` and
    ``board_move_values`` to; None past ``limit`` layouts or ``states`` memoised states."""
    found = position_layouts(board, limit)
    if found is None:
        return None
    search = _search(board, states)
    known = sum(1 << c for c in board.digits)
    try:
        wins = {c: search.move(found, c, known, 0) for c in range(board.size) if board.cells[c] == COVERED}
    except OracleLimit:
        return None
    return {c: Fraction(w, len(found)) for c, w in wins.items()}
