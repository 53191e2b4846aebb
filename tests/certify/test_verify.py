"""The checks of certificates: sound ones pass, and every kind of tampering is refused - a layout moved,
a proof cut, changed or made for another formula, a CNF that is not the board's, a core that is not minimal."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dratify import CNF, check_proof
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from minecheck.certify.certificates import Core, Refutation, Witness
from minecheck.certify.refute import PROOF_SOLVERS, core, refute
from minecheck.certify.rules import Reading
from minecheck.certify.verify import check_core, check_refutation, check_witness
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board


def board(text: str):
    return parse_board(text.replace("/", "\n"))


ONE_TWO_ONE = board("3x2/HHH/121")  # r0c0 and r0c2 are mines, r0c1 is safe
GROUP = (("digit", 3), ("digit", 4), ("digit", 5))


# -- the DRUP checker itself, on proofs of a known formula ---------------------------------------

def _php(holes: int, solver: str) -> tuple[CNF, list[str]]:
    formula = PHP(holes)
    cnf = CNF()
    for clause in formula.clauses:
        cnf.add_dimacs(clause)
    with Solver(name=solver, bootstrap_with=formula.clauses, with_proof=True) as sat:
        assert not sat.solve()
        return cnf, sat.get_proof()


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_the_checker_accepts_a_pigeonhole_proof_from_every_proof_solver(solver):
    cnf, proof = _php(4, solver)
    result = check_proof(cnf, "\n".join(proof), check_rat=False, engine="python")
    assert result.ok and result.reached_empty


def test_the_checker_refuses_a_pigeonhole_proof_cut_short_or_with_a_step_changed():
    cnf, proof = _php(4, "glucose4")
    additions = [i for i, line in enumerate(proof) if not line.startswith("d") and line != "0"]
    assert not check_proof(cnf, "\n".join(proof[:-1]), check_rat=False, engine="python").ok  # no empty clause
    assert not check_proof(cnf, "0", check_rat=False, engine="python").ok
    changed = list(proof)
    first = additions[0]
    changed[first] = " ".join(str(-int(x)) if x != "0" else x for x in changed[first].split())
    assert not check_proof(cnf, "\n".join(changed), check_rat=False, engine="python").ok


def test_the_checker_refuses_any_proof_of_a_satisfiable_formula():
    cnf = CNF()
    for clause in ([1, 2], [-1, 2], [1, -2]):
        cnf.add_dimacs(clause)
    assert not check_proof(cnf, "-2 0\n0\n", check_rat=False, engine="python").ok


# -- witnesses ---------------------------------------------------------------------------------

def test_a_layout_keeping_every_rule_is_a_witness():
    assert check_witness(ONE_TWO_ONE, Witness(Mode.LOCAL, (0, 2))) == []
    assert check_witness(board("3x1x1/F1H"), Witness(Mode.GLOBAL, (0,))) == []


@pytest.mark.parametrize("text, mode, mines, problem", [
    ("3x2/HHH/121", Mode.LOCAL, (0, 1), "the digit 1 at r1c0 has 2 mines"),
    ("3x2/HHH/121", Mode.LOCAL, (0, 2, 3), "not covered or flagged"),
    ("3x1x1/F1H", Mode.GLOBAL, (2,), "the flag at r0c0 is not a mine"),
    ("3x1x2/H1H", Mode.GLOBAL, (0,), "not the total of 2"),
])
def test_a_tampered_layout_is_refused_with_the_rule_it_breaks(text, mode, mines, problem):
    problems = check_witness(board(text), Witness(mode, mines))
    assert any(problem in p for p in problems), problems


# -- refutations -------------------------------------------------------------------------------

def test_a_refutation_of_a_cell_s_value_checks():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    assert isinstance(made, Refutation) and made.cnf is not None
    assert check_refutation(ONE_TWO_ONE, Mode.LOCAL, made)[0] == []


def test_a_value_a_cell_can_take_gets_a_layout_not_a_refutation():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((0, True),))
    assert made == frozenset({0, 2})


def test_a_tampered_proof_is_refused():
    b = board("5x3/01H1H/02H4H/01HHH")  # r2c3 is a mine, and unit propagation alone does not show it
    reading = Reading(b, Mode.LOCAL)
    for solver in PROOF_SOLVERS:
        made = refute(reading, reading.group_of(13), ((13, False),), solver=solver)
        assert check_refutation(b, Mode.LOCAL, made)[0] == [], solver
        assert "does not check" in check_refutation(b, Mode.LOCAL, replace(made, proof="0\n"))[0][0]
        cut = replace(made, proof="".join(line + "\n" for line in made.proof.splitlines() if line != "0"))
        assert "does not check" in check_refutation(b, Mode.LOCAL, cut)[0][0], solver
    assert "cannot be read" in check_refutation(b, Mode.LOCAL, replace(made, proof="1 x 0\n"))[0][0]


def test_a_cnf_that_is_not_the_board_s_encoding_is_refused():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    wrong = made.cnf.replace("-1 -2 0", "-1 0", 1)
    problems, _ = check_refutation(ONE_TWO_ONE, Mode.LOCAL, replace(made, cnf=wrong))
    assert problems[0] == ("its CNF is not its rules and claim: the clause (-1) is implied by no rule: it forbids "
                           "layouts of the digit 1 at r1c0, the digit 2 at r1c1")


def test_a_proof_made_for_another_board_is_refused_on_this_one():
    other = board("3x2/HHH/111")  # one mine, r0c1: so r0c0 cannot be a mine there, but can here
    made = refute(Reading(other, Mode.LOCAL), GROUP, ((0, True),), with_cnf=False)
    assert isinstance(made, Refutation) and check_refutation(other, Mode.LOCAL, made)[0] == []
    assert "does not check" in check_refutation(ONE_TWO_ONE, Mode.LOCAL, made)[0][0]


def test_a_refutation_naming_a_rule_the_board_has_not_is_refused():
    made = refute(Reading(ONE_TWO_ONE, Mode.LOCAL), GROUP, ((1, True),))
    problems, _ = check_refutation(ONE_TWO_ONE, Mode.LOCAL, replace(made, rules=GROUP + (("total",),)))
    assert "names a rule the board has not: a total in the local mode" in problems[0]


def test_a_claim_refuted_on_fewer_rules_holds_on_the_whole_board_and_the_total():
    b = board("3x2x2/HHH/121")
    made = refute(Reading(b, Mode.GLOBAL), GROUP, ((1, True),))
    assert check_refutation(b, Mode.GLOBAL, made)[0] == []


# -- cores -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, mode", [
    ("1H0", Mode.LOCAL), ("HH/1F/F2", Mode.LOCAL), ("3x3x2/HHH/H1H/HHH", Mode.GLOBAL),
    ("5x2/HHHHH/13131", Mode.LOCAL), ("4x2/HHHH/1331", Mode.LOCAL), ("4x1x2/H1H0", Mode.GLOBAL),
    ("5x3x6/HHHHH/H111H/HHHHH", Mode.GLOBAL), ("5x3x9/HHHHH/H1H1H/HHHHH", Mode.GLOBAL),
])
def test_a_core_is_minimal_removing_any_rule_lets_the_rest_hold(text, mode):
    b = board(text)
    reading = Reading(b, mode)
    made = core(reading)
    assert isinstance(made, Core)
    assert check_core(b, mode, made)[0] == []
    assert not isinstance(refute(reading, made.rules), frozenset)
    for key in made.rules:  # independently of the core's own layouts: a SAT search on the rest
        assert isinstance(refute(reading, tuple(k for k in made.rules if k != key)), frozenset), key


def test_a_core_with_a_rule_too_many_is_refused_as_not_minimal():
    b = board("4x1/1H0H")  # the 1 and the 0 cannot both hold; the last cell has nothing to do with it
    reading = Reading(b, Mode.LOCAL)
    made = core(reading)
    assert made.rules == (("digit", 0), ("digit", 2))
    padded = (("digit", 0), ("digit", 2))
    bigger = Core(padded, made.refutation, (made.layouts[0], ()))
    problems, _ = check_core(b, Mode.LOCAL, bigger)
    assert any("not minimal" in p for p in problems)


def test_a_consistent_board_has_no_core_but_a_layout():
    assert core(Reading(ONE_TWO_ONE, Mode.LOCAL)) == frozenset({0, 2})
