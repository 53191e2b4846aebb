"""The exact game-value oracle: the published 4x4x4 value, a naive game tree on tiny boards, first-click
rules, the board entry point, the limits, and a position where the lowest mine probability is the worse move."""

from __future__ import annotations

import time
from collections import defaultdict
from fractions import Fraction
from itertools import combinations

import pytest

from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import neighbours
from minecheck.model.boardtext import parse_board
from minecheck.model.position import flood
from minecheck.play import oracle
from minecheck.play.oracle import (
    OracleLimit,
    board_move_values,
    first_click_value,
    fits,
    game_value,
    layouts,
    mine_probabilities,
    move_values,
    suboptimal,
)

# -- a deliberately naive second implementation ---------------------------------------------------
# No memo, no reductions, no symmetry, no bounds: every covered cell is a move at every step (cells known
# to be safe included, one by one), each outcome is the exact set of (cell, digit) the player then sees,
# floods included, and the game is won when every safe cell is open.


def naive_layouts(width, height, mines, seen=None, clear=()):
    seen = seen or {}
    found = []
    for combo in combinations([c for c in range(width * height) if c not in clear and c not in seen], mines):
        lay = frozenset(combo)
        if all(sum(n in lay for n in neighbours(width, height, c)) == d for c, d in seen.items()):
            found.append(lay)
    return found


def naive_value(width, height, mines, opened, candidates):
    if len(opened) == width * height - mines:
        return Fraction(1)
    return max(naive_move(width, height, mines, opened, candidates, c)
               for c in range(width * height) if c not in opened)


def naive_move(width, height, mines, opened, candidates, cell):
    outcomes = defaultdict(list)
    for lay in candidates:
        if cell not in lay:
            now_open = flood(width, height, lay, frozenset(), opened, cell)
            shown = frozenset((c, sum(n in lay for n in neighbours(width, height, c))) for c in now_open)
            outcomes[shown].append(lay)
    total = Fraction(0)
    for shown, group in outcomes.items():
        now_open = frozenset(c for c, _ in shown)
        total += Fraction(len(group), len(candidates)) * naive_value(width, height, mines, now_open, group)
    return total


def naive_move_values(width, height, mines, seen=None, clear=()):
    seen = seen or {}
    candidates = naive_layouts(width, height, mines, seen, clear)
    return {c: naive_move(width, height, mines, frozenset(seen), candidates, c)
            for c in range(width * height) if c not in seen}


def read(text):
    """A board from one line of board text, rows joined by '/'."""
    return parse_board(text.replace("/", "\n"))


# -- the published value and known small values ---------------------------------------------------

def test_4x4_with_4_mines_first_click_anywhere_is_961_over_1820():
    """The published value; about 0.2 s of CPU."""
    start = time.process_time()
    assert first_click_value(4, 4, 4) == game_value(4, 4, 4) == Fraction(961, 1820)
    assert time.process_time() - start < 20


def test_known_small_values():
    assert game_value(1, 1, 0) == 1
    assert first_click_value(2, 1, 1) == Fraction(1, 2)
    assert game_value(3, 3, 0) == 1
    for width, height in ((3, 3), (4, 1), (2, 3)):
        cells = width * height  # one safe cell: the first click must find it, and then the game is won
        assert first_click_value(width, height, cells - 1) == Fraction(1, cells)
        assert first_click_value(width, height, cells - 1, "safe", 0) == 1
    assert first_click_value(2, 2, 1) == Fraction(1, 4)  # every digit is 1: safe 3/4, then 2/3, then 1/2


def test_a_won_position_is_worth_one_and_a_certain_mine_nothing():
    assert game_value(3, 1, 1, {0: 0, 1: 1}) == 1  # the 1 has one covered neighbour: the mine
    assert move_values(3, 1, 1, {0: 0})[2] == 0  # 0 shows 0: 1 opens by flood, the mine is 2


# -- the naive game tree --------------------------------------------------------------------------

@pytest.mark.parametrize("width,height,mines", [(2, 2, 1), (3, 1, 1), (3, 2, 2), (3, 3, 2), (4, 2, 2)])
def test_every_first_move_agrees_with_the_naive_game_tree(width, height, mines):
    naive = naive_move_values(width, height, mines)
    assert move_values(width, height, mines) == naive
    assert game_value(width, height, mines) == max(naive.values())


@pytest.mark.parametrize("width,height,mines,seen", [
    (3, 3, 3, {2: 1, 6: 1}),
    (3, 3, 2, {0: 1}),
    (4, 2, 2, {0: 1, 1: 2}),
    (4, 2, 3, {3: 2}),
    (4, 3, 2, {0: 0, 1: 1, 4: 1, 5: 2}),
])
def test_positions_agree_with_the_naive_game_tree(width, height, mines, seen):
    naive = naive_move_values(width, height, mines, seen)
    assert move_values(width, height, mines, seen) == naive
    assert game_value(width, height, mines, seen) == max(naive.values())


@pytest.mark.parametrize("width,height,mines,rule,cell", [
    (3, 3, 2, "safe", 4), (3, 3, 2, "safe-3x3", 0), (4, 2, 2, "any", 1), (4, 2, 2, "safe", 1),
    (4, 2, 2, "safe-3x3", 0), (3, 2, 2, "safe", 0),
])
def test_first_click_rules_agree_with_the_naive_game_tree(width, height, mines, rule, cell):
    clear = {"any": (), "safe": (cell,), "safe-3x3": (cell, *neighbours(width, height, cell))}[rule]
    assert first_click_value(width, height, mines, rule, cell) == naive_move_values(width, height, mines,
                                                                                  clear=clear)[cell]


def test_the_players_first_cell_under_a_safe_rule_is_the_best_fixed_cell():
    best = max(first_click_value(3, 3, 2, "safe", c) for c in range(9))
    assert first_click_value(3, 3, 2, "safe") == best
    assert first_click_value(3, 3, 2, "safe") > first_click_value(3, 3, 2, "any")


def test_a_first_click_anywhere_is_a_safe_first_click_that_had_to_survive():
    """Given a safe first cell, the deal is uniform over the layouts avoiding it: 'any' = P(safe) x 'safe'."""
    for cell in (0, 1, 5):
        assert first_click_value(4, 4, 4, "any", cell) == Fraction(12, 16) * first_click_value(4, 4, 4, "safe", cell)
    assert first_click_value(4, 4, 4, "safe") == Fraction(961, 1365)


def test_layouts_are_the_naive_ones():
    for width, height, mines, seen, clear in [(4, 3, 3, {0: 1, 5: 2}, ()), (3, 3, 2, {}, (4,)), (4, 4, 4, {15: 0}, ()),
                                              (4, 3, 2, {1: 1}, (0, 2))]:
        want = {sum(1 << c for c in lay) for lay in naive_layouts(width, height, mines, seen, clear)}
        got = layouts(width, height, mines, seen, clear)
        assert set(got) == want and len(got) == len(want) and list(got) == sorted(got)


@pytest.mark.parametrize("text", ["4x4x4/HHHH/23HH/1H21/1H10", "5x5x5/1HHHH/HHHHH/HH2HH/HHHHH/HHHH0",
                                  "6x6x5/0HHHH0/HHHHHH/HHHHHH/HHHHHH/HHHHHH/0HHHH0", "4x3x3/H2HH/HHH1/HH1H"])
def test_layouts_count_as_minecheck_counts_them(text):
    """The oracle enumerates what minecheck's exact counter counts (by components, never one by one)."""
    board = read(text)
    seen = {c: board.cells[c] for c in board.digits}
    assert len(layouts(board.width, board.height, board.total_mines, seen)) == count_board(board, Mode.GLOBAL).layouts
    assert mine_probabilities(board.width, board.height, board.total_mines, seen) == dict(
        count_board(board, Mode.GLOBAL).probabilities)


# -- move values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seen", [{0: 0}, {0: 1}, {0: 2}, {0: 3}, {5: 1}, {5: 2, 0: 1}])
def test_the_best_move_value_is_the_game_value(seen):
    values = move_values(4, 4, 4, seen)
    assert max(values.values()) == game_value(4, 4, 4, seen)
    assert set(values) == set(range(16)) - set(seen)


def test_first_moves_on_the_empty_board_follow_its_symmetry():
    values = move_values(4, 4, 4)
    assert values[0] == values[3] == values[12] == values[15] == Fraction(73, 140)
    assert values[5] == values[6] == values[9] == values[10] == Fraction(457, 910)
    assert {values[c] for c in (1, 2, 4, 7, 8, 11, 13, 14)} == {Fraction(961, 1820)}


# -- the lowest-probability rule against perfect play ---------------------------------------------

LOWEST_LOSES = "3x3x3/HH1/HHH/1HH"  # found by a search over random games on boards up to 5x3 and 4x4
LOWEST_LOSES_4X4 = "4x4x4/HHHH/23HH/1H21/1H10"


def test_the_lowest_mine_probability_is_not_the_best_move():
    """The centre is the safest cell (1/9) but wins 1/3: it always shows 3, which tells nothing; an edge cell
    is four times as likely to be a mine (4/9) and wins 4/9, as the naive game tree agrees."""
    board = read(LOWEST_LOSES)
    centre, edge = board.cell(1, 1), board.cell(0, 1)
    probabilities = dict(count_board(board, Mode.GLOBAL).probabilities)
    assert probabilities == mine_probabilities(3, 3, 3, {2: 1, 6: 1})
    assert min(probabilities, key=probabilities.get) == centre
    assert sorted(probabilities.values()).count(probabilities[centre]) == 1
    assert (probabilities[centre], probabilities[edge]) == (Fraction(1, 9), Fraction(4, 9))
    values = board_move_values(board)
    assert (values[centre], values[edge]) == (Fraction(1, 3), Fraction(4, 9))
    assert board_value(board) == Fraction(4, 9)
    assert values == naive_move_values(3, 3, 3, {2: 1, 6: 1})
    assert suboptimal(values, centre, Fraction(1, 20)) and not suboptimal(values, edge, Fraction(1, 20))


def test_the_lowest_mine_probability_loses_a_fifth_on_a_4x4_board():
    board = read(LOWEST_LOSES_4X4)
    lowest, best = board.cell(3, 1), board.cell(0, 2)
    probabilities = dict(count_board(board, Mode.GLOBAL).probabilities)
    assert min(probabilities, key=probabilities.get) == lowest
    assert sorted(probabilities.values()).count(probabilities[lowest]) == 1
    assert (probabilities[lowest], probabilities[best]) == (Fraction(1, 5), Fraction(2, 5))
    values = board_move_values(board)
    assert (values[lowest], values[best]) == (Fraction(2, 5), Fraction(3, 5)) and max(values.values()) == values[best]


# -- the board entry point ------------------------------------------------------------------------

def test_flags_are_covered_cells_right_or_wrong():
    plain = board_move_values(read(LOWEST_LOSES))
    for text, flag in (("3x3x3/HH1/HHF/1HH", 5), ("3x3x3/HH1/HFH/1HH", 4)):  # an edge, and the centre (1/9)
        values = board_move_values(read(text))
        assert flag not in values
        assert values == {c: v for c, v in plain.items() if c != flag}
        assert board_value(read(text)) == Fraction(4, 9)


def test_a_board_without_its_total_is_refused():
    with pytest.raises(ValueError, match="total mines"):
        board_move_values(read("3x3/HH1/HHH/1HH"))


def test_a_board_no_layout_fits_is_refused():
    with pytest.raises(ValueError, match="no layout"):
        board_value(read("3x3x1/2HH/HHH/HHH"))  # the 2 needs two mines


# -- limits ---------------------------------------------------------------------------------------

def test_limits_are_stated_and_enforced():
    assert fits(5, 5, 5) and fits(6, 6, 3)
    assert not fits(6, 6, 5)  # 376 992 layouts
    assert not fits(7, 6, 1)  # 42 cells
    assert fits(6, 6, 5, {0: 0, 5: 0, 30: 0, 35: 0})  # four open corners leave 20 cells: 15 504 layouts
    with pytest.raises(OracleLimit, match="layouts"):
        game_value(6, 6, 5)
    with pytest.raises(OracleLimit, match="cells"):
        move_values(7, 6, 1)


def test_the_state_limit_stops_a_search(monkeypatch):
    monkeypatch.setattr(oracle, "MAX_STATES", 50)
    with pytest.raises(OracleLimit, match="states"):
        game_value(4, 4, 4)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="rule"):
        first_click_value(3, 3, 1, "lucky")
    with pytest.raises(ValueError, match="not on"):
        game_value(3, 3, 1, {9: 1})
    with pytest.raises(ValueError, match="no layout"):
        first_click_value(3, 3, 9, "safe", 4)


def board_value(board) -> Fraction:
    """The chance of winning from what the board shows under perfect play (flags taken as covered cells)."""
    return game_value(board.width, board.height, board.total_mines, {c: board.cells[c] for c in board.digits})
