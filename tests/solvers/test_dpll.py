"""The DPLL family (article 004): encodings, the fixed variant against the exact counter, the seed's defects."""

from __future__ import annotations

import inspect
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import build_constraints
from minecheck.engine.counter import count_board
from minecheck.model.answers import Answers, Mode, Verdict, verdict_of
from minecheck.model.board import FLAG, Board
from minecheck.running.registry import run_solver
from minecheck.solvers import dpll_seed
from minecheck.solvers.cnf import (
    NegativeArraySizeException,
    between_by_counter,
    component_cnf,
    exactly_by_combinations,
    satisfies,
    seed_board_cnf,
    seed_exactly_by_combinations,
    variables_of,
)
from minecheck.solvers.dpll_fixed import fixed_solver
from minecheck.solvers.dpll_search import count_models, propagate, satisfier
from minecheck.solvers.dpll_seed import (
    ClauseBits,
    JavaStackOverflow,
    java_hashmap_order,
    seed_analyze,
    seed_solve,
    seed_solver,
)

FIXED, SEED = fixed_solver(), seed_solver()


def models(cnf, variables) -> set[frozenset[int]]:
    """Every model of cnf over variables, by brute force (each variable not listed must not occur)."""
    assert variables_of(cnf) <= set(variables)
    out = set()
    for bits in product((False, True), repeat=len(variables)):
        true = frozenset(v for v, b in zip(variables, bits) if b)
        if satisfies(cnf, true):
            out.add(true)
    return out


def subsets(variables, sizes) -> set[frozenset[int]]:
    return {frozenset(c) for k in sizes if k >= 0 for c in combinations(variables, k)}


# -- encodings ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(0, 7))
def test_the_combination_encoding_has_exactly_the_k_subsets_as_models(n):
    variables = tuple(range(1, n + 1))
    for k in range(-1, n + 2):
        assert models(exactly_by_combinations(variables, k), variables) == subsets(variables, [k])


@pytest.mark.parametrize("n", range(2, 7))
def test_the_seed_encoding_means_at_most_min_of_k_and_n_minus_k(n):
    variables = tuple(range(1, n + 1))
    for k in range(1, n):
        got = models(seed_exactly_by_combinations(variables, k), variables)
        assert got == subsets(variables, range(min(k, n - k) + 1))
        assert frozenset() in got  # no mine at all satisfies "exactly k"
        assert got != subsets(variables, [k])


def test_the_seed_encoding_of_a_digit_needing_one_mine_too_many_is_the_empty_clause():
    assert seed_exactly_by_combinations((1,), 2) == ((),)


def test_the_seed_encoding_of_a_digit_needing_two_too_many_throws_like_new_int_minus_one():
    with pytest.raises(NegativeArraySizeException, match="^-1$"):
        seed_exactly_by_combinations((1,), 3)


@pytest.mark.parametrize("n", range(0, 7))
def test_the_sequential_counter_extends_each_bounded_subset_exactly_once(n):
    """Its models, cut to the n variables, are the subsets within the bounds, and the registers are forced."""
    variables = tuple(range(1, n + 1))
    for low, high in product(range(-1, n + 2), repeat=2):
        cnf, next_id = between_by_counter(variables, low, high, n + 1)
        assert variables_of(cnf) <= set(range(1, next_id))
        allowed = subsets(variables, range(max(low, 0), min(high, n) + 1))
        for bits in product((False, True), repeat=n):
            lits = tuple(v if b else -v for v, b in zip(variables, bits))
            done = propagate(cnf, lits)
            if frozenset(v for v in lits if v > 0) in allowed:
                assert done is not None and done[0] == (), (low, high, lits)  # all registers forced, all satisfied
                assert {abs(lit) for lit in done[1]} == set(range(1, next_id))
            else:
                assert done is None or satisfier(done[0])(()) is None, (low, high, lits)


@pytest.mark.parametrize("n, k", [(n, k) for n in range(0, 7) for k in range(0, n + 1)])
def test_the_exactly_k_counter_has_c_n_k_models_over_all_its_variables(n, k):
    cnf, next_id = between_by_counter(tuple(range(1, n + 1)), k, k, n + 1)
    tally = count_models(cnf, tuple(range(1, next_id)))
    assert tally.models == len(list(combinations(range(n), k)))


def test_the_counter_counts_the_safe_cells_when_that_needs_fewer_registers():
    few, _ = between_by_counter(tuple(range(1, 11)), 0, 8, 11)  # at most 8 of 10 = at least 2 safe
    assert len(variables_of(few)) - 10 <= 2 * 10


# -- the fixed search ----------------------------------------------------------------------------

@st.composite
def small_cnfs(draw):
    n = draw(st.integers(1, 7))
    lit = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    clause = st.lists(lit, min_size=1, max_size=4, unique_by=abs).map(tuple)
    return tuple(range(1, n + 1)), tuple(draw(st.lists(clause, max_size=10)))


@settings(max_examples=200)
@given(small_cnfs())
def test_count_models_counts_every_model_by_mines_and_per_variable(case):
    variables, cnf = case
    truth = models(cnf, variables)
    tally = count_models(cnf, variables)
    assert tally.by_mines == tuple(sum(1 for m in truth if len(m) == k) for k in range(len(variables) + 1))
    for v in variables:
        assert tally.mines_of[v] == tuple(sum(1 for m in truth if len(m) == k and v in m)
                                          for k in range(len(variables) + 1))


@settings(max_examples=200)
@given(small_cnfs(), st.data())
def test_the_sat_check_finds_a_model_exactly_when_one_exists(case, data):
    variables, cnf = case
    assume = tuple(data.draw(st.lists(st.sampled_from([v * s for v in variables for s in (1, -1)]),
                                      max_size=2, unique_by=abs)))
    truth = {m for m in models(cnf, variables) if all((lit > 0) == (abs(lit) in m) for lit in assume)}
    found = satisfier(cnf)(assume)
    assert (found is not None) == bool(truth)
    if found is not None:
        assert found & set(variables) in truth


# -- the fixed variant against the exact counter ------------------------------------------------

@st.composite
def reveal_boards(draw) -> Board:
    """A reveal board up to 6x5; sometimes a digit changed or a covered cell flagged (often impossible)."""
    b = generate_board(recipe("reveal", draw(st.integers(0, 10**6)), width=draw(st.integers(2, 6)),
                              height=draw(st.integers(2, 5)), open_prob=draw(st.sampled_from([0.3, 0.5, 0.7]))))
    edit = draw(st.sampled_from(["none", "none", "digit", "flag"]))
    cells = list(b.cells)
    if edit == "digit" and b.digits:
        cells[draw(st.sampled_from(b.digits))] = draw(st.integers(0, 8))
    elif edit == "flag" and b.covered:
        cells[draw(st.sampled_from(b.covered))] = FLAG
    return replace(b, cells=tuple(cells), truth=None) if edit != "none" else b


def assert_fixed_equals_the_counter(b: Board, mode: Mode) -> None:
    count = count_board(b, mode)
    result = run_solver(FIXED, b, mode)
    assert result.error is None
    assert result.consistent == count.consistent, (result.reason, count.reason)
    if not count.consistent:
        assert result.reason and not result.cells and result.layouts == 0
        return
    assert result.layouts == count.layouts
    assert result.component_layouts == tuple(cc.layouts for cc in count.components)
    expected = {cell: p for cell, p in count.probabilities if p is not None}
    assert {a.cell: a.probability for a in result.cells} == expected
    assert all(isinstance(a.probability, Fraction) for a in result.cells)
    assert {a.cell: a.verdict for a in result.cells} == {cell: verdict_of(p) for cell, p in expected.items()}


@settings(max_examples=300)
@given(reveal_boards())
def test_fixed_equals_the_counter_in_local_mode(b):
    assert_fixed_equals_the_counter(b, Mode.LOCAL)


@settings(max_examples=300)
@given(reveal_boards())
def test_fixed_equals_the_counter_in_global_mode(b):
    assert_fixed_equals_the_counter(b, Mode.GLOBAL)


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.sampled_from([0, 0, 3]))
def test_fixed_equals_the_counter_on_played_beginner_boards(seed, guesses):
    b = generate_board(recipe("play", seed, level="beginner", guesses=guesses))
    assert_fixed_equals_the_counter(b, Mode.LOCAL)
    assert_fixed_equals_the_counter(b, Mode.GLOBAL)


@pytest.mark.parametrize("seed", range(3))
def test_fixed_solves_a_stuck_expert_position_in_about_a_second(seed):
    b = generate_board(recipe("play", seed, level="expert", guesses=20))
    for mode in (Mode.LOCAL, Mode.GLOBAL):
        start = time.perf_counter()
        assert_fixed_equals_the_counter(b, mode)
        assert time.perf_counter() - start < 5.0  # about 0.1 s here; generous for a shared machine


@pytest.mark.parametrize("text, where", [("1H0", "r0c0"), ("10H", "r0c0"), ("F0H", "r0c1"), ("2H", "r0c0")])
def test_fixed_reports_an_impossible_digit_with_its_place(text, where):
    result = FIXED.solve(board(text), Mode.LOCAL)
    assert result.consistent is False and where in result.reason and not result.cells


def test_fixed_reports_a_total_no_layout_can_hold():
    result = FIXED.solve(board("3x1x0/H1H"), Mode.GLOBAL)
    assert result.consistent is False and "exactly 0 mines" in result.reason
    assert FIXED.solve(board("3x1x0/H1H"), Mode.LOCAL).consistent is True


@pytest.mark.parametrize("total, expected", [(1, Verdict.SAFE), (2, Verdict.UNKNOWN), (3, Verdict.MINE)])
def test_fixed_global_mode_decides_off_frontier_cells(total, expected):
    answers = {a.cell: a.verdict for a in FIXED.solve(board(f"4x1x{total}/1HHH"), Mode.GLOBAL).cells}
    assert answers == {1: Verdict.MINE, 2: expected, 3: expected}


@pytest.mark.parametrize("seed", range(40))
def test_the_global_count_equals_the_models_of_exactly_r_over_all_covered_cells(seed):
    """The counting argument for off-frontier cells, checked against the plain encoding with them as variables."""
    b = generate_board(recipe("reveal", seed, width=4, height=3))
    system = build_constraints(b)
    var_of = {cell: v for v, cell in enumerate(system.frontier + system.off_frontier, start=1)}
    digits = tuple(clause for comp in system.components for clause in component_cnf(comp, var_of))
    cells = tuple(var_of.values())
    cnf, next_id = between_by_counter(cells, system.mines_remaining, system.mines_remaining, len(cells) + 1)
    full = count_models(digits + cnf, tuple(range(1, next_id)))
    result = FIXED.solve(b, Mode.GLOBAL)
    assert full.models == result.layouts
    assert result.consistent is (full.models > 0)
    for cell, v in var_of.items() if full.models else ():
        assert result.answer(cell).probability == Fraction(sum(full.mines_of[v]), full.models)


def test_fixed_counts_are_not_cut_short_by_pure_literals():
    result = FIXED.solve(board("H1H"), Mode.LOCAL)
    assert result.layouts == 2 and {a.probability for a in result.cells} == {Fraction(1, 2)}


# -- the seed's defects -------------------------------------------------------------------------

def seed_verdicts(text: str) -> dict[int, Verdict | None]:
    return {a.cell: a.verdict for a in SEED.solve(board(text), Mode.LOCAL).cells}


def test_the_variants_declare_what_they_answer():
    assert SEED.answers == FIXED.answers == {Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS,
                                             Answers.CONSISTENCY}  # the seed says "no layout" too, if not always


def test_seed_finds_nothing_in_1_2_1():
    exact = {cell: verdict_of(p) for cell, p in count_board(board("HHH/121"), Mode.LOCAL).probabilities}
    assert exact == {0: Verdict.MINE, 1: Verdict.SAFE, 2: Verdict.MINE}
    assert seed_verdicts("HHH/121") == {0: Verdict.UNKNOWN, 1: Verdict.UNKNOWN, 2: Verdict.UNKNOWN}


def test_seed_calls_a_mine_safe():
    b = board("12m/1mH")  # r0c2 is a mine in the hidden truth
    assert b.truth is not None and 2 in b.truth
    assert dict(count_board(b, Mode.LOCAL).probabilities)[2] == Fraction(1, 2)
    assert seed_verdicts("12m/1mH")[2] is Verdict.SAFE


@pytest.mark.parametrize("text, answers, models", [
    ("1H0", {1: (None, 0.5)}, 0),  # no model: no verdict, 0.5 for everything
    ("10H", {2: (Verdict.SAFE, 0.0)}, 1),  # the 1 has no covered neighbour: skipped
    ("F0H", {2: (None, 0.0)}, 1),  # the 0 next to a flag: skipped, and nothing left to analyse
    ("2H", {1: (None, 0.5)}, 0),  # needs 2 of 1 cell: the empty clause
])
def test_seed_answers_impossible_boards_without_a_word(text, answers, models):
    assert count_board(board(text), Mode.LOCAL).consistent is False
    result = SEED.solve(board(text), Mode.LOCAL)
    assert result.consistent is None and result.reason is None
    assert {a.cell: (a.verdict, a.probability) for a in result.cells} == answers
    assert result.layouts == models


def test_seed_throws_for_a_digit_needing_two_mines_more_than_it_has_cells():
    result = run_solver(SEED, board("3H"), Mode.LOCAL)
    assert result.error is not None and result.error.startswith("NegativeArraySizeException: -1")


def test_seed_ignores_the_total_mine_count():
    b = board("5x1x1/H1H1H")
    assert dict(count_board(b, Mode.GLOBAL).probabilities)[2] == 1  # with one mine in all, it sits in the middle
    assert SEED.modes == {Mode.LOCAL}
    assert seed_verdicts("5x1x1/H1H1H")[2] is Verdict.UNKNOWN
    with pytest.raises(ValueError, match="local"):
        SEED.solve(b, Mode.GLOBAL)


@pytest.mark.parametrize("text", ["H1H", "HHH/121", "H1H1H", "H1HH1HH1H"])
def test_seed_loses_models_of_its_own_formula_to_pure_literals(text):
    """Count the seed's own CNF by brute force: the enumeration by blocking partial models finds fewer."""
    cnf, cells = seed_board_cnf(board(text))
    own = models(cnf, tuple(range(1, len(cells) + 1)))
    assert SEED.solve(board(text), Mode.LOCAL).layouts < len(own)


def test_seed_gives_a_cell_that_can_be_a_mine_probability_zero():
    answers = {a.cell: a.probability for a in SEED.solve(board("H1H"), Mode.LOCAL).cells}
    assert answers == {0: 0.5, 2: 0.0}  # r0c2 was left unassigned by a pure literal in every model


@contextmanager
def python_stack_of(frames: int):
    """Room for only this many more Python frames than the caller uses."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def test_seed_counts_more_models_than_pythons_stack_has_frames():
    b = board("H1H" * 8)  # 2^8 = 256 models for the seed, one Java collectModels call each
    with python_stack_of(100):
        assert run_solver(SEED, b, Mode.LOCAL).layouts == 256


def test_seed_overflows_where_the_javas_default_stack_does(monkeypatch):
    monkeypatch.setattr(dpll_seed, "JAVA_NESTED_COLLECT_MODELS", 255)
    with pytest.raises(JavaStackOverflow, match=r"^StackOverflowError: .* default thread stack .*\(256 nested "):
        SEED.solve(board("H1H" * 8), Mode.LOCAL)  # 256 models, the 256th counted one frame too deep
    monkeypatch.setattr(dpll_seed, "JAVA_NESTED_COLLECT_MODELS", 257)  # 256 models, then the call that finds none
    assert SEED.solve(board("H1H" * 8), Mode.LOCAL).layouts == 256


def test_seed_overflows_on_a_board_with_more_models_than_the_java_holds():
    b = board("H1H" * 13)  # 2^13 = 8192 models; the Java overflowed after 4371 to 4750 of them
    result = run_solver(SEED, b, Mode.LOCAL)
    assert result.error is not None and result.error.startswith("JavaStackOverflow: StackOverflowError: ")
    assert f"({dpll_seed.JAVA_NESTED_COLLECT_MODELS + 1} nested collectModels calls)" in result.error


# -- the fast DPLL against the reference ----------------------------------------------------------------

@st.composite
def seed_cnfs(draw):
    """CNFs over up to 40 variables with ids up to 160, so findPureLiteral's HashMap shares buckets."""
    ids = draw(st.lists(st.integers(1, 160), min_size=1, max_size=40, unique=True))
    lit = st.sampled_from(ids).flatmap(lambda v: st.sampled_from([v, -v]))
    clause = st.lists(lit, min_size=0 if draw(st.booleans()) else 1, max_size=6, unique_by=abs).map(tuple)
    return max(ids), tuple(draw(st.lists(clause, max_size=25)))


def enumeration(cnf, num_vars: int, solve, limit: int = 60) -> list[dict[int, bool]]:
    """The models collectModels finds, each blocked before the next solve (at most limit)."""
    found = []
    while len(found) < limit:
        satisfiable, assignment = solve(cnf)
        if not satisfiable:
            break
        found.append(assignment)
        blocking = tuple(-v if assignment[v] else v for v in range(1, num_vars + 1) if v in assignment)
        if not blocking:
            break
        cnf = cnf + (blocking,)
    return found


def clause_bits_solve(num_vars: int):
    def solve(cnf):
        formula = ClauseBits(cnf, num_vars)
        try:
            return formula.solve()
        finally:
            formula.close()
    return solve


@settings(max_examples=300)
@given(seed_cnfs())
def test_the_fast_dpll_finds_the_models_the_reference_finds_in_its_order(case):
    num_vars, cnf = case
    assert enumeration(cnf, num_vars, clause_bits_solve(num_vars)) == enumeration(cnf, num_vars, seed_solve)


@pytest.mark.parametrize("seed", range(30))
def test_the_fast_seed_answers_what_the_reference_answers_on_boards(seed):
    b = generate_board(recipe("reveal", seed, width=3 + seed % 7, height=3 + seed % 3, open_prob=0.4))
    cnf, cells = seed_board_cnf(b)
    n = len(cells)
    assert enumeration(cnf, n, clause_bits_solve(n), 100) == enumeration(cnf, n, seed_solve, 100)
    if cnf:  # analyze answers nothing for no clauses
        assert seed_analyze(cnf, n) == {v: _reference_verdict(cnf, v) for v in range(1, n + 1)}


def _reference_verdict(cnf, v: int) -> Verdict | None:
    can_be_true, can_be_false = seed_solve(cnf + ((v,),))[0], seed_solve(cnf + ((-v,),))[0]
    return {(True, True): Verdict.UNKNOWN, (False, True): Verdict.SAFE,
            (True, False): Verdict.MINE, (False, False): None}[can_be_true, can_be_false]


def test_pure_literals_follow_a_hashmap_that_treeify_resized():
    """Ten ids in bucket 3 of 16 make the Java's table grow to 32 early, which reorders its buckets."""
    ids = [3 + 16 * i for i in range(10)] + [4, 20]
    cnf = tuple((-v, w) for v, w in zip(ids, ids[1:])) + ((ids[0], -ids[-1]),)
    assert enumeration(cnf, max(ids), clause_bits_solve(max(ids))) == enumeration(cnf, max(ids), seed_solve)


# -- the HashMap order of findPureLiteral ------------------------------------------------------------

@pytest.mark.parametrize("keys, order", [
    ([1, 2, 3], [1, 2, 3]),
    ([5, 20], [20, 5]),  # 16 buckets: 20 lands in bucket 4
    ([200, 1, 17], [1, 17, 200]),  # 1 and 17 share bucket 1, in insertion order
    ([17, 1], [17, 1]),
    (list(range(13, 0, -1)), list(range(1, 14))),  # 13 keys: 32 buckets
    ([3 + 16 * i for i in range(10)], [3, 35, 67, 99, 131, 19, 51, 83, 115, 147]),  # a 9th in one bucket: 32
])
def test_java_hashmap_order(keys, order):
    assert java_hashmap_order(keys) == order


def test_the_fixed_solver_counts_the_total_in_rather_than_asking_sat_through_a_counter():
    """The total settles every covered cell here; asked through a counter, this DPLL (no clause learning)
    took 24 s to prove it.  The verdicts with the total now come from the counts: no SAT call beyond
    the digits' own two per cell."""
    from minecheck.model.boardtext import parse_board
    from minecheck.running.discovery import get_solver

    b = parse_board("7x7x23/FHHmmmm/m33mmmH/HFH2H2H/mmHHHHH/m4mm2mF/HHHHHHm/mm1Hmmm".replace("/", "\n"))
    result = fixed_solver().solve(b, Mode.GLOBAL)
    local = fixed_solver().solve(b, Mode.LOCAL)
    assert dict(result.extra)["sat_calls"] == dict(local.extra)["sat_calls"]
    exact = run_solver(get_solver("exact"), b, Mode.GLOBAL)
    assert [(a.cell, a.verdict) for a in result.cells] == [(a.cell, a.verdict) for a in exact.cells]


def test_a_count_past_its_memory_bound_is_declined_not_a_crash(monkeypatch):
    """The counting DPLL gives up past COUNT_BUDGET cached clauses; the fixed solver then declines the board
    (a 12x10 reveal board of the default mix needs about a million: its bound was 500,000)."""
    monkeypatch.setattr("minecheck.solvers.dpll_search.COUNT_BUDGET", 10)
    result = fixed_solver().solve(board("5x3x4\nHHHHH\n12321\nHHHHH"), Mode.LOCAL)
    assert result.declined and "would cache over 10 clauses" in result.declined
    assert result.error is None and not result.cells


HARD = ("12x10x29/HmHHHm3HHHHH/1Hmm3mmH1Hm2/0HmHHH4mH1Hm/HHHHHm2H2HHH/HHHH2HH2m2HH/HH2m212HmH2H/12mH3mHm44mm/"
        "m3Hm3H3mmHmH/Hm3Hm1133Hm2/H2m211HHmHHH")  # board 8020 of the mix, seed 1: 158,839 SAT decisions, 18 s


@pytest.mark.parametrize(("bound", "limit", "search"), [("SAT_NODES", 2000, "the SAT search"),
                                                        ("COUNT_NODES", 20, "the count")])
def test_a_search_past_its_nodes_is_declined_the_same_every_time(monkeypatch, bound, limit, search):
    """The fixed DPLL timed out on 2 of 10,000 boards of the mix (its CPU budget, which a busy machine meets
    sooner); a bound on its nodes declines such a board instead, at the same node on every machine."""
    monkeypatch.setattr(f"minecheck.solvers.dpll_fixed.{bound}", limit)
    hard = board(HARD.replace("/", "\n"))
    results = [fixed_solver().solve(hard, Mode.LOCAL) for _ in range(2)]
    assert all(r.declined == f"{search} passed {limit:,} nodes" and not r.cells for r in results)


def test_the_nodes_a_solve_visits_are_said_and_within_the_bounds():
    from minecheck.solvers import dpll_fixed

    result = fixed_solver().solve(board("5x3x4\nHHHHH\n12321\nHHHHH"), Mode.LOCAL)
    extra = dict(result.extra)
    assert 0 < int(extra["sat_nodes"]) <= dpll_fixed.SAT_NODES
    assert 0 < int(extra["count_nodes"]) <= dpll_fixed.COUNT_NODES
