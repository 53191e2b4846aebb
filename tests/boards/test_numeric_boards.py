"""The numeric generator: each edge's boards land on that edge, by the exact counter's own count and
probabilities; the recipe names the edge; the default mix holds numeric boards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from minecheck.boards.generators import features, generate_board, recipe
from minecheck.boards.numeric import BOUNDS, EDGE_KEYS, EDGES, lands, rare_weights
from minecheck.campaigns.fuzz import MIX
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode

SEEDS = range(4)


def global_count(board):
    return count_board(board, Mode.GLOBAL)


def probabilities(board):
    return [p for _, p in global_count(board).probabilities if p is not None]


def board_of(edge: str, seed: int):
    return generate_board(recipe("numeric", seed, edge=edge))


@pytest.mark.parametrize("eps", ["0.1", "0.001", "1e-06"])
def test_near_edges_have_a_cell_within_eps_of_0_and_one_within_eps_of_1(eps):
    bound = Fraction(eps)
    for seed in SEEDS:
        ps = probabilities(board_of(f"near-{eps}", seed))
        assert any(0 < p <= bound for p in ps) and any(1 - bound <= p < 1 for p in ps)


def test_the_half_edge_has_a_probability_off_one_half_in_the_seventh_decimal():
    for seed in range(2):
        gaps = [abs(p - Fraction(1, 2)) for p in probabilities(board_of("half-7th-decimal", seed))]
        assert any(Fraction(1, 10**7) <= g < Fraction(1, 10**6) for g in gaps)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_count_edges_land_just_below_and_just_above_their_bound(name):
    bound = BOUNDS[name]
    for seed in SEEDS:
        assert bound // 4 <= global_count(board_of(f"below-{name}", seed)).layouts < bound
        assert bound < global_count(board_of(f"above-{name}", seed)).layouts <= 4 * bound


@pytest.mark.parametrize("size", [31, 32, 33, 63, 64, 65])
def test_component_edges_hold_one_component_of_exactly_that_many_cells(size):
    for seed in SEEDS:
        board = board_of(f"component-{size}", seed)
        assert [len(c.cells) for c in build_constraints(board).components] == [size]


def test_off_frontier_boards_have_more_than_1030_cells_off_the_frontier_and_binomials_past_doubles():
    for seed in SEEDS:
        board = board_of("off-frontier-1030", seed)
        assert len(build_constraints(board).off_frontier) > 1030
        assert global_count(board).layouts > 2**1024


def test_no_mine_left_and_all_covered_mines_boards():
    for seed in SEEDS:
        empty, full = board_of("no-mine-left", seed), board_of("all-covered-mines", seed)
        assert empty.total_mines == len(empty.flags) and set(probabilities(empty)) == {0}
        assert full.total_mines - len(full.flags) == len(full.covered) and set(probabilities(full)) == {1}


def test_the_wide_board_is_every_edge_at_once_past_1000_columns():
    for seed in SEEDS:
        board = board_of("wide", seed)
        count = global_count(board)
        assert board.width > 1000 and count.layouts > 2**1024
        assert max(len(c.cells) for c in build_constraints(board).components) > 32
        ps = probabilities(board)
        assert any(0 < p < Fraction(1, 10**4) for p in ps) and any(1 - Fraction(1, 10**4) < p < 1 for p in ps)


def test_every_edge_lands_and_is_named_by_the_recipe():
    for edge in EDGE_KEYS:
        rec = recipe("numeric", 7, edge=edge)
        assert lands(edge, generate_board(rec)), edge
        assert features(rec) == (f"numeric edge {edge}: {EDGES[edge]}",)


def test_the_seed_picks_the_edge_when_none_is_named_and_the_same_recipe_makes_the_same_board():
    recs = [recipe("numeric", seed) for seed in range(30)]
    assert len({features(r) for r in recs}) > 10
    assert generate_board(recs[3]) == generate_board(recs[3])


def test_the_gadget_weights_are_the_counters_count_on_a_small_gadget():
    from random import Random

    from minecheck.boards.numeric import gadget
    from minecheck.model.position import render

    pos = gadget(8, 5, (1, 2, 3), 9, 4, Random(1))
    board = render(pos)
    mine, safe = rare_weights((1, 2, 3), 9, 4)
    assert global_count(board).layouts == mine + safe
    assert dict(global_count(board).probabilities)[2 * 8 + 2] == Fraction(mine, mine + safe)  # a, at r2c2


def test_the_default_mix_holds_numeric_boards_two_in_fifty_one():
    assert len(MIX) == 51
    assert sum(name == "numeric" for name, _ in MIX) == 2
    assert ("numeric", (("edge", "wide"),)) in MIX and ("numeric", ()) in MIX
