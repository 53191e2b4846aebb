"""A finding's fingerprint tells root causes apart from the finding alone: the same bug on other boards gives
the same fingerprint, another bug of the same kind, solver and mode another one."""

from __future__ import annotations

from minecheck.check.findings import Finding, Kind
from minecheck.check.fingerprint import arithmetic, bug_id, bug_key, face, fingerprint
from minecheck.model.answers import Mode


def finding(kind: Kind, says: str, truth: str, board: str = "3x1\nH1H\n", cells=(), detail: str = "",
            mode: Mode = Mode.LOCAL, subject: str = "x") -> Finding:
    return Finding(kind, subject, "exact", mode, tuple(cells), says, truth, board, detail)


def crash(message: str, board: str = "3x1\nH1H\n", detail: str = "") -> Finding:
    return finding(Kind.CRASH, message, "an answer", board, detail=detail)


def test_a_crash_is_its_exception_and_where_it_was_raised_without_the_numbers_that_vary():
    a = crash("IndexError: index 3 out of range for length 7 (at seed_components:65)")
    b = crash("IndexError: index 12 out of range for length 40 (at seed_components:65)", "4x1\nH1HH\n")
    c = crash("IndexError: index 3 out of range for length 7 (at read_flags:12)")
    d = crash("KeyError: 3 (at seed_components:65)")
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint(c), "another place"
    assert fingerprint(a) != fingerprint(d), "another exception"
    assert "IndexError" in fingerprint(a).words and "seed_components" in fingerprint(a).words


def test_a_programs_crash_is_read_from_its_last_line_of_standard_error_and_its_last_frame():
    tail = ('its standard error ended with:\nTraceback (most recent call last):\n  File "/tmp/run-81723/engine.py", '
            'line 40, in main\n  File "/tmp/run-81723/engine.py", line {n}, in weights\nZeroDivisionError: '
            'division by zero')
    a = crash("the solver's process exited with status 1 without answering", detail=tail.format(n=7))
    b = crash("the solver's process exited with status 1 without answering", detail=tail.format(n=99))
    assert fingerprint(a) == fingerprint(b)
    assert "ZeroDivisionError" in fingerprint(a).shape and "weights" in fingerprint(a).shape
    assert "81723" not in fingerprint(a).shape


def test_a_programs_last_line_of_standard_error_tells_two_crashes_apart_after_a_long_exit_message():
    # the protocol's own words for a persistent program that died are long: the engine's line must survive them
    says = ("Crash: the program exited with status 1 (in persistent mode it must answer a line per request and "
            "keep running)")
    overflow = crash(says, detail="its standard error ended with:\nthread 28461 panic: integer overflow")
    again = crash(says, detail="its standard error ended with:\nthread 9 panic: integer overflow")
    refused = crash(says, detail="its standard error ended with:\nExpected positive integer number of mines")
    assert fingerprint(overflow) == fingerprint(again)
    assert fingerprint(overflow) != fingerprint(refused)
    assert "integer overflow" in fingerprint(overflow).words


def test_a_crash_on_a_board_impossible_at_a_digit_is_another_bug_than_on_a_possible_board():
    assert fingerprint(crash("ValueError: x", "2x1\nF0\n")) != fingerprint(crash("ValueError: x", "2x1\nH1\n"))
    assert "impossible" in fingerprint(crash("ValueError: x", "1x1\n1\n")).board


def test_the_board_class_names_flags_and_a_board_without_covered_cells():
    assert "no covered cell" in fingerprint(crash("E: e", "1x1x0\n0\n")).board
    assert "flags" in fingerprint(crash("E: e", "2x1\nF1\n")).board.split(", ")
    assert fingerprint(crash("E: e", "1x1\nH\n")) == fingerprint(crash("E: e", "1x1x0\nH\n")), \
        "the total is the mode's: not a class of its own"


def test_a_verdicts_direction_is_the_worst_one_it_shows():
    def verdict(says, truth):
        return fingerprint(finding(Kind.VERDICT, says, truth)).shape

    assert verdict("mine, mine", "safe, safe") == "mine for safe"
    assert verdict("unknown, safe", "mine, mine") == "safe for mine"
    assert verdict("safe", "unknown") == "certain for undetermined"
    assert verdict("unknown, unknown", "mine, safe") == "undetermined for certain"
    assert verdict("no answer", "mine") == "no answer for certain"


def test_a_probabilitys_error_shape():
    def shape(says, truth, cells=(0,), board="3x1\nH1H\n", detail=""):
        return fingerprint(finding(Kind.PROBABILITY, says, truth, board, cells, detail)).shape

    assert shape("nan", "0.5 (= 1/2)") == "NaN or inf: an overflow"
    assert shape("2", "1/2") == "outside [0, 1]"
    assert shape("0.33", "0.333333 (= 1/3)") == "a rounding"
    assert shape("0.333333333333", "1/3") == "a rounding"
    assert shape("1, 1", "0 (= 0), 1/2", (0, 2)) == "0 or 1 where it is not, on the frontier"
    assert shape("1/4, 1/4", "1/2, 1/2", (0, 2)) == "one factor for every wrong cell, on the frontier"
    assert shape("1/4", "1/2", (3,), "4x1\nH1HH\n") == "wrong values, off the frontier"
    assert shape("0.1, 0.2", "0.5, 0.5", (0, 3), "4x1\nH1HH\n", "z = 9.0, 11.2").startswith("a sampler's estimate")


def test_a_counts_shape():
    def shape(got, want):
        return fingerprint(finding(Kind.COUNT, f"{got} layouts", f"{want} layouts")).shape

    assert shape(5, 2**64 + 5) == "wraps at 2**64"
    assert shape(0, 3) == "none where some"
    assert shape(4, 3) == "off by one"
    assert shape(8, 4) == "twice"
    assert shape(2, 9) == "too few"


def test_consistency_says_which_side_is_wrong():
    missed = finding(Kind.CONSISTENCY, "consistent", "inconsistent: digit 1 at r0c0: needs 1 more mines", "1x1\n1\n")
    called = finding(Kind.CONSISTENCY, "inconsistent: no layout", "consistent")
    assert fingerprint(missed).shape == "calls an impossible board possible"
    assert fingerprint(called).shape == "calls a possible board impossible"
    assert fingerprint(missed).board.startswith("impossible")


def test_a_bug_is_its_solver_and_fingerprint_whatever_the_reference_and_the_mode():
    a = finding(Kind.VERDICT, "mine", "safe", mode=Mode.LOCAL)
    b = finding(Kind.VERDICT, "mine, mine", "safe, safe", "5x1x2\nH1H1H\n", mode=Mode.GLOBAL)
    assert bug_key(a) == bug_key(b)
    assert bug_key(a) != bug_key(finding(Kind.VERDICT, "mine", "safe", subject="y"))
    assert bug_id(*bug_key(a)) == bug_id(*bug_key(b)) and bug_id(*bug_key(a)).startswith("bug-")


def test_the_fingerprint_reads_the_finding_alone_so_a_json_round_trip_keeps_it():
    f = crash("IndexError: index 3 out of range (at solve:9)", "2x2x1\nF1\nHH\n")
    assert fingerprint(Finding.from_json(f.to_json())) == fingerprint(f)


def test_a_face_leaves_out_the_board_class_and_how_far_a_wrong_answer_is_off():
    assert face("consistency|impossible, flags|calls an impossible board possible") == \
        face("consistency|impossible, no flags, no covered cell|calls an impossible board possible")
    assert face("probability|possible, no flags|wrong values, on the frontier") == \
        face("probability|possible, flags|wrong values, off the frontier") == "probability|wrong values"
    assert face("count|possible, no flags|off by one") == face("count|possible, flags|too many")
    assert face("verdict|possible, flags|no answer for certain") == face("verdict|possible|undetermined for certain")
    assert face("verdict|possible|certain for undetermined") != face("verdict|possible|undetermined for certain")


def test_a_face_keeps_arithmetic_apart_from_a_misreading_and_a_failure_whole():
    rounding = face("probability|possible, no flags|a rounding")
    assert rounding == "probability|a rounding" and arithmetic(rounding)
    assert arithmetic(face("count|possible, no flags|wraps at 2**32"))
    assert not arithmetic(face("probability|possible, no flags|wrong values, off the frontier"))
    crash = "crash|no digit impossible alone, flags|IndexError at solve"
    assert face(crash) == crash, "a crash's board class stays: its origin is its name"


def test_a_fingerprint_is_read_once_and_every_field_it_reads_still_tells_findings_apart(monkeypatch):
    """Fingerprints are kept by a digest (a report rewritten during a campaign reads every finding again): a
    finding read again is not read twice, and one that differs in any field the fingerprint reads is read anew."""
    import minecheck.check.fingerprint as module

    read = []
    real = module._fingerprint
    monkeypatch.setattr(module, "_fingerprint", lambda f: read.append(f) or real(f))
    monkeypatch.setattr(module, "_KNOWN", {})
    base = finding(Kind.PROBABILITY, "1/4, 1/4", "1/2, 1/2", "4x1\nH1HH\n", (0, 2))
    assert fingerprint(base).shape == "one factor for every wrong cell, on the frontier"
    assert fingerprint(Finding.from_json(base.to_json())) == fingerprint(base) and len(read) == 1
    changed = {
        "cells": finding(Kind.PROBABILITY, "1/4, 1/4", "1/2, 1/2", "4x1\nH1HH\n", (0, 3)),
        "subject's answer": finding(Kind.PROBABILITY, "1/4, 1/3", "1/2, 1/2", "4x1\nH1HH\n", (0, 2)),
        "reference's answer": finding(Kind.PROBABILITY, "1/4, 1/4", "1/2, 1/3", "4x1\nH1HH\n", (0, 2)),
        "board": finding(Kind.PROBABILITY, "1/4, 1/4", "1/2, 1/2", "4x1\nHH1H\n", (0, 2)),
        "detail": finding(Kind.PROBABILITY, "1/4, 1/4", "1/2, 1/2", "4x1\nH1HH\n", (0, 2), "z = 9.0, 11.2"),
        "kind": finding(Kind.VERDICT, "1/4, 1/4", "1/2, 1/2", "4x1\nH1HH\n", (0, 2)),
    }
    for field, other in changed.items():
        assert fingerprint(other) != fingerprint(base), field
    assert len(read) == 1 + len(changed)
