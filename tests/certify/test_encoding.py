"""The encoding judged by what it means: a correct CNF written differently is accepted, a wrong one refused
naming the rule, and a fault planted in minecheck's own encoder is caught by ``verify`` (not shared by it)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from minecheck.boards.generators import generate_board
from minecheck.boards.small import small_count, small_recipe
from minecheck.certify import cnf as cnf_module
from minecheck.certify.certificates import Refutation
from minecheck.certify.certification import certify
from minecheck.certify.encoding import Dimacs, meaning_problems, read_dimacs
from minecheck.certify.refute import refute
from minecheck.certify.rules import Reading
from minecheck.certify.verify import check_certification, check_refutation, required_clauses
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.solvers.exact import ExactSolver


def board(text: str):
    return parse_board(text.replace("/", "\n"))


ONE_TWO_ONE = board("3x2/HHH/121")
GROUP = (("digit", 3), ("digit", 4), ("digit", 5))
WIDE = board("7x3x5/HHHHHHH/H1H2H1H/HHHHHHH")  # 18 covered cells: the total is past the exhaustive check


def _claim(rules, some) -> Refutation:
    """A refutation's statement alone (its proof is not what these tests judge)."""
    return Refutation(tuple(rules), tuple(some), "", 0, "none")


def _meaning(b, mode, refutation, clauses, nvars=None):
    nvars = nvars or max((abs(x) for c in clauses for x in c), default=0)
    return meaning_problems(b, mode, refutation.rules, required_clauses(b, refutation), Dimacs(nvars, tuple(clauses)))


def _renumbered(clauses, cells: int, seed: int, keep_order: bool = False):
    """The clauses shuffled, their helper variables (past the cells) numbered otherwise."""
    helpers = sorted({abs(x) for c in clauses for x in c if abs(x) > cells})
    fresh = list(range(cells + 7, cells + 7 + len(helpers)))  # a gap, as other helpers before them would make
    if not keep_order:
        random.Random(seed).shuffle(fresh)
    new = dict(zip(helpers, fresh))
    out = [tuple(x if abs(x) <= cells else (new[abs(x)] if x > 0 else -new[abs(x)]) for x in c) for c in clauses]
    random.Random(seed + 1).shuffle(out)
    return [tuple(reversed(c)) for c in out]


def test_the_stored_cnf_means_its_rules_and_claim():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    assert _meaning(ONE_TWO_ONE, Mode.LOCAL, made, read_dimacs(made.cnf).clauses) == []


@pytest.mark.parametrize("seed", range(5))
def test_a_correct_cnf_written_differently_is_accepted(seed):
    b = board("4x3x3/HHHH/H21H/HHHH")
    reading = Reading(b, Mode.GLOBAL)
    made = _claim(reading.rules, ((0, True),))
    formula = cnf_module.encode(reading, made.rules, made.some, "seqcounter", "seqcounter")
    assert any(abs(x) > len(reading.unknown) for c in formula.clauses for x in c)  # helpers to renumber
    clauses = _renumbered(formula.clauses, len(reading.unknown), seed)
    assert _meaning(b, Mode.GLOBAL, made, clauses) == []


def test_a_total_past_the_exhaustive_check_is_the_sequential_counter_with_helpers_renumbered_in_order():
    reading = Reading(WIDE, Mode.GLOBAL)
    made = _claim(reading.rules, ((0, True),))
    formula = cnf_module.encode(reading, made.rules, made.some)
    cells = len(reading.unknown)
    assert _meaning(WIDE, Mode.GLOBAL, made, _renumbered(formula.clauses, cells, 3, keep_order=True)) == []
    wrong = cnf_module.encode(Reading(replace(WIDE, total_mines=6), Mode.GLOBAL), made.rules, made.some)
    problems = _meaning(WIDE, Mode.GLOBAL, made, wrong.clauses)
    assert problems and all("the total of 5 mines" in p for p in problems), problems


@pytest.mark.parametrize("n", range(0, 11))
def test_pysat_s_sequential_counter_admits_exactly_its_layouts(n):
    """What the total's structure check trusts: every k, every assignment of up to 10 cells."""
    lits = list(range(1, n + 1))
    for k in range(n + 1):
        made = CardEnc.equals(lits=lits, bound=k, top_id=n, encoding=EncType.seqcounter)
        with Solver(name="minisat22", bootstrap_with=made.clauses) as sat:
            for values in product((1, -1), repeat=n):
                assumed = [v * x for v, x in zip(values, lits)]
                assert sat.solve(assumptions=assumed) == (values.count(1) == k), (n, k, values)


def test_a_clause_dropped_from_a_digit_is_refused_naming_the_digit():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    clauses = [c for c in read_dimacs(made.cnf).clauses if c != (-1, -2)]
    problems = _meaning(ONE_TWO_ONE, Mode.LOCAL, made, clauses, nvars=3)
    assert problems == ["the digit 1 at r1c0: its clauses admit a layout it forbids (r0c0, r0c1 mines among its "
                        "cells)"]


def test_a_claim_that_is_not_the_one_stated_is_refused():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    clauses = [c if c != (2,) else (2, 1) for c in read_dimacs(made.cnf).clauses]
    problems = _meaning(ONE_TWO_ONE, Mode.LOCAL, made, clauses, nvars=3)
    assert problems[0] == "no clause says (2): the claim is not the one stated"


def test_helpers_shared_between_two_rules_are_refused():
    b = board("5x2/HHHHH/01010")  # two digits 1 over cells 1-3 ... disjoint: r0c0-r0c2 and r0c2-r0c4
    reading = Reading(b, Mode.LOCAL)
    keys = (("digit", 6), ("digit", 8))
    made = _claim(keys, ((2, True),))
    formula = cnf_module.encode(reading, keys, made.some, "seqcounter")
    clauses = list(formula.clauses) + [(-6, -formula.nvars)]  # ties a helper of each digit together
    problems = _meaning(b, Mode.LOCAL, made, clauses, nvars=formula.nvars)
    assert any("tie cells that no one rule holds" in p for p in problems), problems


def test_an_empty_proof_of_a_satisfiable_cnf_is_refused():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    possible = cnf_module.encode(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((0, True),))  # r0c0 can be a mine
    fake = replace(made, some=((0, True),), cnf=possible.dimacs, proof="")
    problems, _ = check_refutation(ONE_TWO_ONE, Mode.LOCAL, fake)
    assert problems and "does not check" in problems[0]


def test_a_refutation_a_layout_of_its_own_certification_contradicts_is_refused():
    cert = certify(ONE_TWO_ONE, ExactSolver().solve(ONE_TWO_ONE, Mode.LOCAL))
    assert check_certification(cert).ok and cert.refutations
    lying = replace(cert.refutations[0], some=((0, False),))  # "r0c0 cannot be safe": true, but layout 0 ...
    moved = replace(cert, witnesses=(replace(cert.witnesses[0], mines=(1,)),) + cert.witnesses[1:])
    problems = check_certification(replace(moved, refutations=(lying,) + cert.refutations[1:])).problems
    assert any("says no layout has what layout 0 has" in p for p in problems), problems


# -- faults planted in minecheck's own encoder: verify must not share them -----------------------------

def _faulty(monkeypatch, change):
    real = cnf_module.exactly

    def exactly(lits, k, way, top):
        made, top = real(lits, k, way, top)
        return change(lits, k, made), top

    monkeypatch.setattr(cnf_module, "exactly", exactly)


BOARDS = ["5x3/01H1H/02H4H/01HHH", "3x2/HHH/121", "4x3/HHHH/1221/HHHH", "5x3x4/HHHHH/H121H/HHHHH"]


def _verify_all(monkeypatch, change) -> list[str]:
    made = []
    for text in BOARDS:
        b = board(text)
        for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
            made.append(certify(b, ExactSolver().solve(b, mode)))
    _faulty(monkeypatch, change)
    faulty = []
    for cert in made:
        try:
            faulty.append(certify(parse_board(cert.board), ExactSolver().solve(parse_board(cert.board), cert.mode)))
        except RuntimeError:  # certify's own guard: a SAT model of the faulty CNF did not keep the rules
            pass
    monkeypatch.undo()
    assert faulty  # some certifications were made with the fault, and look fine to their maker
    return [p for cert in faulty for p in check_certification(cert).problems]


def test_an_encoder_that_drops_a_clause_of_a_digit_is_caught_naming_the_digit(monkeypatch):
    problems = _verify_all(monkeypatch, lambda lits, k, made: made[1:] if len(lits) > 1 and 0 < k < len(lits)
                           else made)
    assert problems and any("the digit" in p and "admit a layout it forbids" in p for p in problems), problems


def test_an_encoder_that_drops_a_literal_is_caught_naming_the_rule(monkeypatch):
    def drop(lits, k, made):
        return [made[0][1:]] + made[1:] if made and len(made[0]) > 1 else made

    problems = _verify_all(monkeypatch, drop)
    assert problems and any("is implied by no rule: it forbids layouts of the digit" in p for p in problems), problems


def test_an_encoder_that_weakens_every_digit_1_is_caught_wherever_a_proof_leans_on_one(monkeypatch):
    """Each digit 1 loses its "at most one" clauses: every certification with a refutation over a digit 1 of two
    cells or more is refused naming that digit."""
    leaning = 0
    for i in range(0, small_count(7), small_count(7) // 300):
        b = generate_board(small_recipe(7, i))
        result = ExactSolver().solve(b, Mode.LOCAL)
        _faulty(monkeypatch, lambda lits, k, made: [c for c in made if not (k == 1 and len(c) == 2
                                                                           and all(x < 0 for x in c))])
        try:
            cert = certify(b, result)
        except RuntimeError:
            continue
        finally:
            monkeypatch.undo()
        reading = Reading(b, Mode.LOCAL)
        ones = {k for r in cert.refutations for k in r.rules
                if k[0] == "digit" and b.cells[k[1]] == 1 and len(reading.rules[k].cells) >= 2}
        problems = check_certification(cert).problems
        if ones:
            leaning += 1
            assert any("the digit 1 at" in p and "admit a layout it forbids" in p for p in problems), problems
    assert leaning >= 3
