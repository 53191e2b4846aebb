"""The exact counter is the ground truth: it must equal brute force exactly, in both modes."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shared import FIXTURES, board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine import sweep as sweep_module
from minecheck.engine.boxorder import cuthill_mckee, narrow_order, sweep_order
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board, count_component
from minecheck.engine.enumeration import brute_count
from minecheck.engine.sweep import enumerate_boxes, pack, plan, slot_for, sweep, unpack
from minecheck.model.answers import Mode, Verdict, verdict_of
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import parse_board


def fixture(name):
    return parse_board((FIXTURES / "boards" / name).read_text())


def verdicts(count):
    return {c: verdict_of(p) for c, p in count.probabilities if p is not None}


@st.composite
def small_boards(draw):
    """Generated boards (reveal and stress recipes) with at most 18 covered cells, total known."""
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 5))
    gen = draw(st.sampled_from(["reveal", "stress"]))
    rec = recipe(gen, draw(st.integers(0, 10**9)), width=w, height=h, density=draw(st.floats(0.05, 0.5)),
                 open_prob=draw(st.floats(0.1, 0.9)))
    b = generate_board(rec)
    assume(len(b.covered) <= 18)
    return b


@settings(max_examples=400)
@given(small_boards(), st.sampled_from([Mode.LOCAL, Mode.GLOBAL]))
def test_counter_equals_brute_force(b, mode):
    oracle = brute_count(b, mode, cap=18)
    count = count_board(b, mode)
    assert count.consistent == oracle.consistent
    assert count.layouts == oracle.layouts
    if oracle.consistent:
        assert count.probabilities == oracle.probabilities


@settings(max_examples=100)
@given(st.integers(0, 10**9), st.sampled_from(["beginner"]))
def test_counter_equals_brute_force_on_played_beginner_positions(seed, level):
    b = generate_board(recipe("play", seed, level=level))
    if len(b.covered) <= 18:
        assert count_board(b).layouts == brute_count(b, Mode.GLOBAL, cap=18).layouts
    local = count_board(b, Mode.LOCAL)
    frontier = [c for c, p in local.probabilities if p is not None]
    if len(frontier) <= 18:
        oracle = brute_count(b, Mode.LOCAL, cap=18)
        assert local.layouts == oracle.layouts and local.probabilities == oracle.probabilities


def test_local_mode_components_are_uniform_and_off_frontier_has_no_answer():
    count = count_board(board("4x1x2/H1HH"), Mode.LOCAL)
    probs = dict(count.probabilities)
    assert probs[0] == probs[2] == Fraction(1, 2)
    assert probs[3] is None


def test_global_mode_weights_frontier_totals_by_off_frontier_ways():
    # the 1 owns 5 frontier cells (1 mine); 4 cells lie off the frontier and take the other: 5 * 4
    count = count_board(board("5x2x2/H1HHH/HHHHH"), Mode.GLOBAL)
    probs = dict(count.probabilities)
    assert count.layouts == 20
    assert probs[0] == Fraction(1, 5) and probs[3] == Fraction(1, 4)


def test_empty_frontier_is_binomial():
    count = count_board(board("4x2x3/HHHH/HHHH"), Mode.GLOBAL)
    assert count.layouts == comb(8, 3)
    assert all(p == Fraction(3, 8) for _, p in count.probabilities)


@pytest.mark.parametrize("name, expected", [
    ("one_two_one.mine", "S*S*S"),
    ("one_two_two_one.mine", "SS**SS"),
    ("fifty_fifty.mine", "??"),
    ("h1h1h_total.mine", "S.*.S"),
])
def test_famous_patterns(name, expected):
    b = fixture(name)
    got = verdicts(count_board(b))
    glyph = {Verdict.SAFE: "S", Verdict.MINE: "*", Verdict.UNKNOWN: "?"}
    assert "".join(glyph[got[c]] if c in got else "." for c in range(len(expected))) == expected


def test_h1h1h_only_the_global_count_decides():
    b = fixture("h1h1h_total.mine")
    local = verdicts(count_board(b, Mode.LOCAL))
    assert set(local.values()) == {Verdict.UNKNOWN}
    glob = verdicts(count_board(b, Mode.GLOBAL))
    assert glob[2] is Verdict.MINE and glob[0] is glob[4] is Verdict.SAFE


def test_fifty_fifty_is_one_half():
    assert dict(count_board(fixture("fifty_fifty.mine")).probabilities)[0] == Fraction(1, 2)


@pytest.mark.parametrize("name, reason", [
    ("inconsistent_1h0.mine", "no layout of 1 covered cells satisfies the digits at r0c0, r0c2"),
    ("inconsistent_12100.mine", "satisfies the digits at r1c0"),
    ("flags_contradict.mine", "digit 1 at r0c1: 2 flagged neighbours"),
])
def test_inconsistent_boards_are_a_result_with_a_reason(name, reason):
    count = count_board(fixture(name))
    assert not count.consistent and count.layouts == 0
    assert reason in count.reason


def test_total_that_cannot_be_met_is_inconsistent_with_the_range():
    count = count_board(board("3x2x1/HHH/121"), Mode.GLOBAL)
    assert not count.consistent
    assert "exactly 1 remaining mines: the frontier holds 2 to 2" in count.reason


def test_global_mode_without_total_is_refused():
    with pytest.raises(ValueError, match="needs the total"):
        count_board(board("H1"), Mode.GLOBAL)


def test_endgame_off_frontier_cells_get_verdicts_in_global_mode():
    # the 1 must hold the only mine, so the far cells are safe
    count = count_board(board("5x1x1/H1HHH"), Mode.GLOBAL)
    probs = dict(count.probabilities)
    assert probs[3] == probs[4] == 0 and probs[0] == Fraction(1, 2)


def test_big_component_counts_match_a_second_ordering():
    # a stress board's large component counted against the product of its parts' structure:
    # flipping the board left-right must give the same counts (different sweep, same answer)
    b = generate_board(recipe("stress", 3, width=20, height=10, open_prob=0.3))
    flipped_cells = tuple(b.cells[r * b.width + (b.width - 1 - c)] for r in range(b.height) for c in range(b.width))
    f = Board(b.width, b.height, flipped_cells, b.total_mines)
    assert count_board(b).layouts == count_board(f).layouts


# -- the counter's parts: every way of counting a component gives the same counts -------------

def components_of(gen, seed, **params):
    return build_constraints(generate_board(recipe(gen, seed, **params))).components


@st.composite
def components(draw):
    """Components of generated boards: tight ones from play, loose ones from stress."""
    gen = draw(st.sampled_from(["play", "stress"]))
    seed = draw(st.integers(0, 10**9))
    if gen == "play":
        comps = components_of("play", seed, level=draw(st.sampled_from(["beginner", "intermediate"])))
    else:
        comps = components_of("stress", seed, width=draw(st.integers(3, 12)), height=draw(st.integers(3, 8)),
                              density=draw(st.floats(0.1, 0.4)), open_prob=draw(st.floats(0.1, 0.5)))
    assume(comps)
    return draw(st.sampled_from(comps))


def same_counts(a, b):
    return (a.by_mines, a.cell_by_mines) == (b.by_mines, b.cell_by_mines)


@settings(max_examples=200)
@given(components())
def test_backtracking_over_boxes_equals_the_sweep(comp):
    assume(len(comp.boxes) <= 2 * sweep_module.FEW)  # it only counts small components; keep the test quick
    counted = enumerate_boxes(comp, budget=10**6)
    assert same_counts(counted, sweep(comp))


@settings(max_examples=100)
@given(components())
def test_the_sweep_does_not_depend_on_the_order_of_the_boxes(comp):
    reading = list(range(len(comp.boxes)))
    counted = sweep(comp, reading)
    for order in (reading[::-1], sweep_order(comp), cuthill_mckee(comp), narrow_order(comp, len(reading) - 1)):
        assert sorted(order) == reading
        assert same_counts(sweep(comp, order), counted)


def test_a_crowded_sweep_starts_again_in_the_narrow_order(monkeypatch):
    comp = max(components_of("stress", 3, width=12, height=8, open_prob=0.3), key=lambda c: len(c.boxes))
    counted = sweep(comp)
    monkeypatch.setattr(sweep_module, "CROWDED", 1)
    assert same_counts(sweep(comp), counted)


def test_the_narrow_order_keeps_a_branching_component_narrow():
    # 329 cells whose Cuthill-McKee sweep holds 5400 states at once (two branches advanced together)
    comp = max(components_of("stress", 3, density=0.2, open_prob=0.3), key=lambda c: len(c.cells))
    slot = slot_for(len(comp.cells) + 16)
    assert sweep_module._forward(plan(comp, cuthill_mckee(comp)), slot, crowded=1000) is None
    assert sweep_module._forward(plan(comp, narrow_order(comp, 0)), slot, crowded=100) is not None


def test_backtracking_gives_way_to_the_sweep_past_its_budget():
    comp = max(components_of("stress", 3, width=12, height=8, open_prob=0.3), key=lambda c: len(c.boxes))
    assert enumerate_boxes(comp, budget=1) is None
    assert same_counts(count_component(comp), sweep(comp))


@pytest.mark.parametrize("text, layouts", [
    ("2x2x1/HH/11", 2),  # a 50/50: two cells in the same digits
    ("2x2x2/HH/22", 1),  # both cells are mines
    ("2x2x1/HH/12", 0),  # two digits see the same two cells and disagree: no layout
])
def test_a_component_of_one_box_is_a_binomial(text, layouts):
    comp, = build_constraints(board(text)).components
    assert len(comp.boxes) == 1
    assert count_component(comp).layouts == layouts
    assert same_counts(count_component(comp), sweep(comp))


@settings(max_examples=100)
@given(st.lists(st.integers(0, 2**200), min_size=0, max_size=60), st.sampled_from([8, 64, 208]))
def test_packed_polynomials_unpack_to_their_coefficients(coefficients, slot):
    fitting = [c % (1 << slot) for c in coefficients]
    assert unpack(pack(fitting, slot), slot, len(fitting)) == fitting


def naive_global(system, counts):
    """The global mode's probabilities by the textbook sums (convolve, then weight every total)."""
    off, remaining = len(system.off_frontier), system.mines_remaining

    def convolve(a, b):
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] += x * y
        return out

    def tail(m):
        return comb(off, remaining - m) if 0 <= remaining - m else 0

    probs = {}
    everything = [1]
    for cc in counts:
        everything = convolve(everything, list(cc.by_mines))
    layouts = sum(n * tail(m) for m, n in enumerate(everything))
    for i, cc in enumerate(counts):
        others = [1]
        for other in counts[:i] + counts[i + 1:]:
            others = convolve(others, list(other.by_mines))
        for cell, per_k in zip(cc.component.cells, cc.cell_by_mines):
            probs[cell] = Fraction(sum(n * q * tail(k + j) for k, n in enumerate(per_k) for j, q in enumerate(others)),
                                   layouts)
    off_mines = sum(n * comb(off - 1, remaining - m - 1) for m, n in enumerate(everything) if remaining - m >= 1)
    for cell in system.off_frontier:
        probs[cell] = Fraction(off_mines, layouts)
    return layouts, tuple(sorted(probs.items()))


@pytest.mark.parametrize("seed, density, open_prob", [(0, 0.2, 0.1), (2, 0.2, 0.2), (5, 0.35, 0.3), (7, 0.1, 0.2),
                                                     (3, 0.1, 0.2), (5, 0.2, 0.2), (7, 0.25, 0.4)])
def test_the_global_combination_equals_the_textbook_sums(seed, density, open_prob):
    # several components on a 16x10 board; in the last three the frontier could hold more mines than
    # remain, so the totals past the remaining mines are cut off
    b = generate_board(recipe("stress", seed, width=16, height=10, density=density, open_prob=open_prob))
    system = build_constraints(b)
    count = count_board(b, Mode.GLOBAL)
    assert len(system.components) >= 3
    assert (count.layouts, count.probabilities) == naive_global(system, count.components)


@pytest.mark.parametrize("cells, components", [
    ((COVERED, 1, FLAG, FLAG, 1, COVERED, 1, COVERED, FLAG), 2),
    ((FLAG, FLAG, FLAG, COVERED, COVERED, COVERED, COVERED, COVERED, COVERED), 0),
])
def test_more_flags_than_mines_is_inconsistent_with_the_range(cells, components):
    # three flags, a total of two: the remaining mines are -1
    b = Board(9, 1, cells, 2)
    assert len(build_constraints(b).components) == components
    count = count_board(b, Mode.GLOBAL)
    assert not count.consistent and count.layouts == 0
    assert "no layout holds exactly -1 remaining mines" in count.reason


def test_counting_a_large_board_leaves_the_cycle_collector_as_it_was():
    import gc

    from minecheck.engine.counter import LARGE
    side = int(LARGE ** 0.5) + 1
    big = Board(side, side, (0,) * (side * side - 1) + (COVERED,), total_mines=0)
    assert gc.isenabled()
    assert count_board(big).layouts == 1  # the 0s around the covered cell make it safe
    assert gc.isenabled()
