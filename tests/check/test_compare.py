"""The comparison: each kind of difference is found, and agreement is silent."""

from __future__ import annotations

from fractions import Fraction

from shared import board

from minecheck.boards.generators import recipe
from minecheck.check.compare import compare
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Finding, Kind
from minecheck.check.stats import critical_z
from minecheck.model.answers import Answers, CellAnswer, Failure, FailureKind, Mode, SolverResult, Verdict

ALL = frozenset(Answers)
S, M, U = Verdict.SAFE, Verdict.MINE, Verdict.UNKNOWN


def result(name="x", cells=(), **kw):
    return SolverResult(name, Mode.LOCAL, cells=tuple(cells), **kw)


def exact(*cells, layouts=2):
    return result("exact", cells, consistent=True, layouts=layouts)


def test_agreement_is_silent():
    ref = exact(CellAnswer(0, S, Fraction(0)), CellAnswer(1, U, Fraction(1, 2)))
    assert compare(ref, ALL, ref) == []


def test_verdict_difference_names_cells_and_both_answers():
    ref = exact(CellAnswer(0, S, Fraction(0)), CellAnswer(1, U, Fraction(1, 2)))
    sub = result(cells=[CellAnswer(0, M), CellAnswer(1, U)])
    (d,) = compare(sub, frozenset({Answers.VERDICTS}), ref)
    assert d.kind is Kind.VERDICT and d.cells == (0,) and d.subject_says == "mine" and d.reference_says == "safe"


def test_silence_on_a_decided_cell_is_a_missed_verdict_but_not_on_an_unknown_one():
    ref = exact(CellAnswer(0, S, Fraction(0)), CellAnswer(1, U, Fraction(1, 2)))
    (d,) = compare(result(cells=[]), frozenset({Answers.VERDICTS}), ref)
    assert d.cells == (0,) and d.subject_says == "no answer"


def test_a_failure_is_a_finding_of_its_own_kind_whatever_its_message_says():
    ref = exact()
    crash = Failure(FailureKind.CRASH, "Timeout: a message is never read for its kind")
    timeout = Failure(FailureKind.TIMEOUT, "stopped at its CPU-time budget of 5 s", budget="cpu")
    protocol = Failure(FailureKind.PROTOCOL, "Protocol: cells[0].row: not an integer", stderr="oops")
    assert compare(result(failure=crash), ALL, ref)[0].kind is Kind.CRASH
    assert compare(result(failure=timeout), ALL, ref)[0].kind is Kind.TIMEOUT
    (d,) = compare(result(failure=protocol), ALL, ref)
    assert d.kind is Kind.PROTOCOL and d.subject_says == protocol.message and d.detail.endswith("oops")


def test_answering_an_inconsistent_board_is_a_consistency_finding_for_a_solver_that_judges_consistency():
    ref = SolverResult("exact", Mode.LOCAL, consistent=False, reason="no layout")
    (d,) = compare(result(cells=[CellAnswer(0, M)]), frozenset({Answers.VERDICTS, Answers.CONSISTENCY}), ref)
    assert d.kind is Kind.CONSISTENCY and d.cells == (0,) and d.subject_says == "answered 1 cells as if consistent"
    assert compare(result(consistent=False, reason="r"), ALL, ref) == []


def test_a_solver_that_declares_no_consistency_answer_is_not_judged_on_an_impossible_board():
    from minecheck.check.compare import not_judged

    ref = SolverResult("exact", Mode.LOCAL, consistent=False, reason="no layout")
    answered = result(cells=[CellAnswer(0, M)])
    assert compare(answered, frozenset({Answers.VERDICTS}), ref) == []
    assert "does not judge consistency" in not_judged(answered, frozenset({Answers.VERDICTS}), ref)
    assert not_judged(answered, frozenset({Answers.VERDICTS, Answers.CONSISTENCY}), ref) is None
    assert not_judged(answered, frozenset({Answers.VERDICTS}), exact(CellAnswer(0, M))) is None


def test_a_solver_that_declares_no_consistency_answer_is_not_judged_on_an_impossible_board_whatever_it_does():
    from minecheck.check.compare import not_judged

    ref = SolverResult("exact", Mode.LOCAL, consistent=False, reason="no layout")
    verdicts = frozenset({Answers.VERDICTS})
    crashed = result(failure=Failure(FailureKind.CRASH, "ZeroDivisionError", stderr="Traceback ..."))
    broke = result(failure=Failure(FailureKind.PROTOCOL, "2.0 is not a probability"))
    hung = result(failure=Failure(FailureKind.TIMEOUT, "over its CPU budget", "cpu"))
    said = result(consistent=True, cells=[CellAnswer(0, M)])  # "consistent": an answer it does not declare
    for run in (crashed, broke, hung, said):
        assert compare(run, verdicts, ref) == [] and not_judged(run, verdicts, ref)
        assert compare(run, verdicts | {Answers.CONSISTENCY}, ref) != []  # declared: judged, and wrong
    assert "failed there: crash" in not_judged(crashed, verdicts, ref)
    declined = result(declined="too big")
    assert not_judged(declined, verdicts, ref) is None  # it answered nothing: declined, not "not judged"


def test_judge_undeclared_makes_a_failure_on_a_board_the_solver_does_not_judge_a_finding():
    from minecheck.check.compare import not_judged

    ref = SolverResult("exact", Mode.LOCAL, consistent=False, reason="no layout")
    verdicts = frozenset({Answers.VERDICTS})
    crashed = result(failure=Failure(FailureKind.CRASH, "ZeroDivisionError", stderr="Traceback ..."))
    (d,) = compare(crashed, verdicts, ref, judge_undeclared=True)
    assert d.kind is Kind.CRASH and not_judged(crashed, verdicts, ref, judge_undeclared=True) is None
    said = result(consistent=True, cells=[CellAnswer(0, M)])
    assert [d.kind for d in compare(said, verdicts, ref, judge_undeclared=True)] == [Kind.CONSISTENCY]
    silent = result(cells=[CellAnswer(0, M)])  # answers without a word on consistency: still not judged
    assert compare(silent, verdicts, ref, judge_undeclared=True) == []
    assert not_judged(silent, verdicts, ref, judge_undeclared=True)


def test_answers_a_solver_does_not_declare_are_not_judged():
    ref = exact(CellAnswer(0, S, Fraction(0)), CellAnswer(1, U, Fraction(1, 2)))
    wild = result(consistent=True, cells=[CellAnswer(0, M, Fraction(1)), CellAnswer(1, S, Fraction(0))], layouts=7)
    assert compare(wild, frozenset({Answers.LP}), ref) == []
    assert {d.kind for d in compare(wild, ALL, ref)} == {Kind.VERDICT, Kind.PROBABILITY, Kind.COUNT}


def test_probabilities_are_judged_at_the_precision_the_solver_declares_and_never_by_the_statistical_test():
    from minecheck.running.protocol import precision

    ref = exact(CellAnswer(0, U, Fraction(1, 3)), CellAnswer(1, U, Fraction(1, 2) + Fraction(1, 10**7)))
    five = precision(5, None)
    printed = [CellAnswer(0, U, 0.33333, 0.2), CellAnswer(1, U, 0.5, 0.2)]  # a stderr: a statistical test passes
    assert compare(result(cells=printed), frozenset({Answers.PROBABILITIES}), ref) == []  # judged as an estimate
    assert compare(result(cells=printed, tolerance=five), frozenset({Answers.PROBABILITIES}), ref) == []
    (d,) = compare(result(cells=[CellAnswer(0, U, 0.3333, 0.2)], tolerance=five), frozenset({Answers.PROBABILITIES}),
                   ref)
    assert d.kind is Kind.PROBABILITY and d.cells == (0,)
    tight = [CellAnswer(0, U, 0.33333)]  # the same digits without a declared precision: the one tolerance, 1e-6
    assert compare(result(cells=tight), frozenset({Answers.PROBABILITIES}), ref)[0].kind is Kind.PROBABILITY


def test_count_difference():
    (d,) = compare(result(consistent=True, layouts=3), frozenset({Answers.COUNTS}), exact(layouts=2))
    assert d.kind is Kind.COUNT and "3 layouts" in d.subject_says


def test_exact_probability_difference_and_float_within_tolerance():
    ref = exact(CellAnswer(0, U, Fraction(1, 3)))
    assert compare(result(cells=[CellAnswer(0, U, 1 / 3)]), frozenset({Answers.PROBABILITIES}), ref) == []
    (d,) = compare(result(cells=[CellAnswer(0, U, Fraction(1, 2))]), frozenset({Answers.PROBABILITIES}), ref)
    assert d.kind is Kind.PROBABILITY and d.subject_says == "1/2"


def test_estimates_are_judged_by_z_and_honest_noise_passes():
    ref = exact(CellAnswer(0, U, Fraction(1, 2)))
    near = result(cells=[CellAnswer(0, U, 0.52, stderr=0.01)], samples=2000)
    assert compare(near, frozenset({Answers.PROBABILITIES}), ref) == []
    far = result(cells=[CellAnswer(0, U, 0.60, stderr=0.01)], samples=2000)
    (d,) = compare(far, frozenset({Answers.PROBABILITIES}), ref)
    assert d.kind is Kind.PROBABILITY and "z = 8.9" in d.detail


def test_zero_stderr_is_floored_by_independent_draws():
    ref = exact(CellAnswer(0, U, Fraction(1, 100)))
    # never saw it as a mine in 400 draws: plausible at p = 1/100, must not be flagged
    sub = result(cells=[CellAnswer(0, S, 0.0, stderr=0.0)], samples=400)
    assert compare(sub, frozenset({Answers.PROBABILITIES, Answers.VERDICTS}), ref) == []


def test_critical_z_grows_with_the_number_of_cells():
    assert 5 < critical_z(1) < critical_z(50) < critical_z(500) < 12


def test_crosscheck_of_a_board_with_references_only_is_clean():
    checks = check_board(board("5x1x1/H1H1H"), [], recipe=recipe("reveal", 1))
    assert [c.mode for c in checks] == [Mode.LOCAL, Mode.GLOBAL]
    assert all(c.findings == () for c in checks)


def test_finding_survives_json():
    f = Finding(Kind.VERDICT, "ilp@seed", "exact", Mode.LOCAL, (1, 2), "mine", "safe", "2x1\nH0\n",
                "d", recipe("reveal", 3, width=2, height=1), 7)
    assert Finding.from_json(f.to_json()) == f


def test_in_local_mode_a_certain_verdict_on_a_cell_no_digit_touches_is_a_verdict_finding():
    from minecheck.check.compare import not_comparable

    ref = exact(CellAnswer(0, U, Fraction(1, 2)), CellAnswer(2, U, Fraction(1, 2)))  # H1HHH: cells 3, 4 loose
    loose = frozenset({3, 4})
    said = frozenset({Answers.VERDICTS, Answers.PROBABILITIES})
    liar = result(cells=[CellAnswer(0, U, Fraction(1, 2)), CellAnswer(2, U, Fraction(1, 2)),
                         CellAnswer(3, S, Fraction(0)), CellAnswer(4, U, Fraction(1, 2))])
    (d,) = compare(liar, said, ref, loose=loose)
    assert d.kind is Kind.VERDICT and d.cells == (3,) and d.subject_says == "safe" and d.reference_says == "unknown"
    assert "nothing can make them certain" in d.detail
    assert not_comparable(liar, said, ref, loose) == [((3, 4), "no digit touches it, and the local mode has no "
                                                      "total: it has no probability to compare with")]
    assert compare(liar, said, ref) == []  # without the loose cells (the global mode) nothing is said of them
    assert not_comparable(liar, said, ref)[0][1] == "the reference gives no answer there"
