"""The Gibbs family: the JDK ports, the seed's known defects, and the fixed sampler against the exact counter."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import FIXTURES, board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.counter import count_board
from minecheck.model.answers import Answers, Mode, Verdict
from minecheck.model.boardtext import parse_board
from minecheck.running.discovery import get_solver
from minecheck.solvers.gibbs_fixed import ChainSettings, FixedGibbs
from minecheck.solvers.gibbs_seed import SeedGibbs, seed_verdict
from minecheck.solvers.javarand import JavaRandom, hash_order, string_hash

WALL = "H" * 23 + "/" + "1" * 23 + "/" + "0" * 23  # a wall of 1s: two layouts, period 3, 1/2 each


def fixture(name):
    return parse_board((FIXTURES / "boards" / name).read_text())


def probabilities(result):
    return {a.cell: a.probability for a in result.cells}


def exact(b, mode):
    return {c: p for c, p in count_board(b, mode).probabilities if p is not None}


# -- javarand: values printed by OpenJDK 17 ------------------------------------------------------

def test_java_random_next_int_matches_the_jdk():
    assert JavaRandom(0).next_int() == -1155484576
    assert JavaRandom(42).next_int() == -1170105035


def test_java_random_bounded_ints_match_the_jdk():
    rnd = JavaRandom(42)
    assert [rnd.next_int(10) for _ in range(10)] == [0, 3, 8, 4, 0, 5, 5, 8, 9, 3]


def test_java_random_doubles_match_the_jdk():
    rnd = JavaRandom(42)
    assert [rnd.next_double() for _ in range(3)] == [
        float.fromhex("0x1.74833a06ff457p-1"), float.fromhex("0x1.5dcf778622e01p-1"),
        float.fromhex("0x1.3c20f3f12bbb4p-2")]


def test_string_hash_code_matches_the_jdk():
    assert string_hash("hello") == 99162322
    assert string_hash("") == 0


def test_hash_set_order_matches_the_jdk():
    assert hash_order(["1,2", "3,4", "0,0", "10,10", "1,2"]) == ["0,0", "10,10", "1,2", "3,4"]


@settings(max_examples=200)
@given(st.integers(-(2**63), 2**63 - 1), st.integers(1, 2**31 - 1))
def test_bounded_ints_stay_in_range(seed, bound):
    rnd = JavaRandom(seed)
    assert all(0 <= rnd.next_int(bound) < bound for _ in range(5))
    assert 0.0 <= rnd.next_double() < 1.0


def test_non_positive_bound_is_the_jdk_exception():
    with pytest.raises(ValueError, match="IllegalArgumentException: bound must be positive"):
        JavaRandom(1).next_int(0)


# -- the seed: the article's sampler and its defects -----------------------------------------------

def test_seed_is_registered_with_its_seed_option():
    solver = get_solver("gibbs@seed:123")
    assert solver.seed == 123 and solver.modes == {Mode.LOCAL}
    assert solver.answers == {Answers.VERDICTS, Answers.PROBABILITIES, Answers.CONSISTENCY}
    assert get_solver("gibbs@seed").seed == 0


def test_seed_verdicts_use_the_article_thresholds():
    assert seed_verdict(0.999) is Verdict.MINE and seed_verdict(0.998) is Verdict.UNKNOWN
    assert seed_verdict(0.001) is Verdict.SAFE and seed_verdict(0.0011) is Verdict.UNKNOWN


def test_seed_combination_weights_bias_a_loose_board():
    # two lone 1s in open ground: the chain spends time in layouts that break the 1s
    b = board("HHHHH/H1H1H/HHHHH")
    truth = sum(exact(b, Mode.LOCAL).values())  # 53/28 expected mines on the frontier
    for seed in range(3):
        sampled = sum(probabilities(SeedGibbs(seed=seed).solve(b, Mode.LOCAL)).values())
        assert sampled < 0.7 * truth
    fixed = sum(probabilities(FixedGibbs().solve(b, Mode.LOCAL)).values())
    assert abs(fixed - truth) < 0.1


def test_seed_underestimates_a_lone_one_over_three_cells():
    b = board("HH/H1")
    estimates = [p for seed in range(3) for p in probabilities(SeedGibbs(seed=seed).solve(b, Mode.LOCAL)).values()]
    assert sum(estimates) / len(estimates) < 0.28  # the truth is 1/3 for each cell


def test_seed_takes_no_constraint_from_a_zero():
    b = board("3x1x1/0HH")
    seeded = SeedGibbs().solve(b, Mode.LOCAL)
    assert probabilities(seeded) == {1: 0.5, 2: 0.5}  # both off its frontier: 1 mine over 2 cells
    assert seeded.answer(1).verdict is Verdict.UNKNOWN
    assert exact(b, Mode.GLOBAL) == {1: 0, 2: 1}


@pytest.mark.parametrize("text", ["2F1/111/HHH", "3x2x2/F1F/HHH"])
def test_seed_answers_boards_whose_digits_cannot_hold(text):
    b = board(text)
    seeded = SeedGibbs().solve(b, Mode.LOCAL)
    assert seeded.consistent is None and seeded.cells
    assert all(a.verdict is Verdict.SAFE for a in seeded.cells)
    assert not count_board(b, Mode.LOCAL).consistent
    assert FixedGibbs().solve(b, Mode.LOCAL).consistent is False


def test_seed_is_silent_off_its_frontier_without_a_total():
    b = board("HHHH/H1HH/HHHH")
    answered = {a.cell for a in SeedGibbs().solve(b, Mode.LOCAL).cells}
    assert answered == {0, 1, 2, 4, 6, 8, 9, 10}


def test_seed_does_not_even_force_a_two_over_two_cells():
    # with the other cell a mine, C(1, 0) = C(1, 1): the "conditional" of a forced mine is 1/2
    result = SeedGibbs().solve(board("3x1x2/H2H"), Mode.LOCAL)
    assert all(0.55 < a.probability < 0.85 and a.verdict is Verdict.UNKNOWN for a in result.cells)
    assert exact(board("3x1x2/H2H"), Mode.LOCAL) == {0: 1, 2: 1}
    assert dict(result.extra)["decide"] == "open r0c2"  # MineAi.decide: the first lowest cell


def test_seed_refuses_the_global_mode():
    with pytest.raises(ValueError, match="local mode only"):
        SeedGibbs().solve(board("3x1x1/1HH"), Mode.GLOBAL)


def test_seed_same_seed_same_estimates():
    b = generate_board(recipe("play", 4, level="beginner"))
    assert SeedGibbs(seed=5).solve(b, Mode.LOCAL) == SeedGibbs(seed=5).solve(b, Mode.LOCAL)
    assert SeedGibbs(seed=5).solve(b, Mode.LOCAL) != SeedGibbs(seed=6).solve(b, Mode.LOCAL)


# -- the fixed sampler ----------------------------------------------------------------------------

def _generated():
    boards = [generate_board(recipe("reveal", s, width=7, height=5)) for s in range(4)]
    boards += [generate_board(recipe("play", s, level="beginner")) for s in range(3, 7)]
    boards += [generate_board(recipe("play", s, level="intermediate", guesses=2)) for s in range(3)]
    return boards


@pytest.mark.parametrize("mode", [Mode.LOCAL, Mode.GLOBAL])
def test_fixed_estimates_are_within_their_errors_of_the_counter(mode):
    for i, b in enumerate(_generated()):
        count = count_board(b, mode)
        result = FixedGibbs(ChainSettings(seed=i)).solve(b, mode)
        assert result.consistent is count.consistent
        if not count.consistent:
            continue
        truth = exact(b, mode)
        assert {a.cell for a in result.cells} == set(truth)
        for a in result.cells:
            assert abs(a.probability - float(truth[a.cell])) <= 4.5 * a.stderr + 0.01, (i, a, truth[a.cell])


@pytest.mark.parametrize("mode", [Mode.LOCAL, Mode.GLOBAL])
def test_fixed_verdicts_are_certain_on_certain_cells_and_open_on_open_ones(mode):
    # the chain only visits consistent layouts: a cell safe (a mine) in all of them stays SAFE (MINE)
    for i, b in enumerate(_generated()):
        truth = exact(b, mode)
        for a in FixedGibbs(ChainSettings(seed=i, samples=100, burn_in=5)).solve(b, mode).cells:
            if truth[a.cell] in (0, 1):
                assert a.verdict is (Verdict.SAFE if truth[a.cell] == 0 else Verdict.MINE)
                assert a.probability == truth[a.cell] and a.stderr == 0
            elif Fraction(1, 5) <= truth[a.cell] <= Fraction(4, 5):
                assert a.verdict is Verdict.UNKNOWN


def test_fixed_standard_errors_are_honest_where_windows_mix_slowly():
    # on the wall no window can change phase: only the chain's full draws do
    b = board(WALL)
    assert exact(b, Mode.LOCAL)[0] == Fraction(1, 2)
    z = []
    for seed in range(30):
        first = FixedGibbs(ChainSettings(seed=seed, samples=500)).solve(b, Mode.LOCAL).answer(0)
        z.append((first.probability - 0.5) / first.stderr)
    assert sum(abs(x) > 3 for x in z) <= 2
    assert 0.4 < sum(x * x for x in z) / len(z) < 2.0


def test_windows_alone_cannot_change_the_walls_phase():
    stuck = FixedGibbs(ChainSettings(full_draw=0.0, samples=200)).solve(board(WALL), Mode.LOCAL)
    assert stuck.answer(0).probability in (0.0, 1.0)


def test_fixed_global_mode_weights_the_frontier_by_off_frontier_layouts():
    b = fixture("h1h1h_total.mine")  # only the total decides: the middle cell is the mine
    result = FixedGibbs().solve(b, Mode.GLOBAL)
    assert result.answer(2).verdict is Verdict.MINE and result.answer(0).verdict is Verdict.SAFE
    local = FixedGibbs().solve(b, Mode.LOCAL)
    assert local.answer(2).verdict is Verdict.UNKNOWN


def test_fixed_off_frontier_cells_share_the_remaining_mines():
    b = board("6x2x3/HHHHHH/H11HHH")  # the frontier holds 1 or 2 of the 3 mines
    truth = exact(b, Mode.GLOBAL)
    assert truth[11] == Fraction(5, 14)
    far = FixedGibbs().solve(b, Mode.GLOBAL).answer(11)
    assert abs(far.probability - float(truth[11])) <= 4.5 * far.stderr + 0.01
    assert far.stderr > 0 and far.verdict is Verdict.UNKNOWN


@pytest.mark.parametrize("name, reason", [
    ("inconsistent_1h0.mine", "no layout of 1 covered cells satisfies the digits at r0c0, r0c2"),
    ("inconsistent_12100.mine", "satisfies the digits at r1c0"),
    ("flags_contradict.mine", "digit 1 at r0c1: 2 flagged neighbours"),
])
def test_fixed_reports_inconsistent_boards(name, reason):
    result = FixedGibbs().solve(fixture(name), Mode.LOCAL)
    assert result.consistent is False and reason in result.reason and not result.cells


def test_fixed_reports_a_total_that_cannot_be_met():
    result = FixedGibbs().solve(board("3x2x1/HHH/121"), Mode.GLOBAL)
    assert result.consistent is False
    assert "exactly 1 remaining mines: the frontier holds 2 to 2" in result.reason
    assert FixedGibbs().solve(board("3x2x1/HHH/121"), Mode.LOCAL).consistent is True


def test_fixed_same_seed_same_estimates():
    b = generate_board(recipe("play", 4, level="beginner"))
    run = FixedGibbs(ChainSettings(seed=3, samples=200)).solve
    assert run(b, Mode.GLOBAL) == run(b, Mode.GLOBAL)
    other = FixedGibbs(ChainSettings(seed=4, samples=200)).solve(b, Mode.GLOBAL)
    assert probabilities(other) != probabilities(run(b, Mode.GLOBAL))


def test_fixed_is_registered_with_its_seed_option():
    solver = get_solver("gibbs@fixed:7")
    assert solver.settings.seed == 7 and solver.modes == {Mode.LOCAL, Mode.GLOBAL}
    assert Answers.CONSISTENCY in solver.answers
    with pytest.raises(ValueError, match="take a seed"):
        get_solver("gibbs@fixed:fast")
