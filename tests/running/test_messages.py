"""What crosses back from a sandbox is data (minecheck.running.messages, issue 48 case 1): a solver that makes its
sandbox's messages carry pickle opcodes setting class attributes (``Verdict.__eq__ = slice``...) through its
answers, its description or its errors changes no finding and no exit code of ``check``, ``fuzz`` and a
``--baseline`` run, jailed or forked; and every value an answer holds crosses exact, of any size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import hostile_jail
import hostile_pickle
import hostile_python as h
import pytest
from shared import PROGRAMS, board

from minecheck.model.answers import Answers, CellAnswer, Failure, FailureKind, Mode, SolverResult, Verdict
from minecheck.model.budget import Budget
from minecheck.running.discovery import get_solver
from minecheck.running.messages import (
    Declared,
    Oversized,
    Refused,
    Stalled,
    Unreadable,
    channel_pair,
    decode_outcome,
    encode_outcome,
)
from minecheck.running.registry import run_solver
from minecheck.running.stops import Outcome, Stop

SANDBOXES = ["on", "off"]  # jailed (bubblewrap, where it can be had) and forked


def minecheck(*args: str, sandbox: str = "on") -> subprocess.CompletedProcess:
    """minecheck in a process of its own, run where the hostile modules are importable: a patch that got through
    would change only that process."""
    env = {"PATH": "/usr/bin:/bin", "MINECHECK_SANDBOX": sandbox}
    return subprocess.run([sys.executable, "-m", "minecheck.cli", *args], capture_output=True, text=True,
                          cwd=PROGRAMS, env=env, timeout=600)


def liars_findings(done: subprocess.CompletedProcess) -> list[dict]:
    return [f for f in json.loads(done.stdout)["findings"] if f["subject"] == h.LIE]


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("attack", hostile_pickle.ATTACKS)
def test_a_patch_through_what_crosses_back_changes_nothing_in_check(attack, sandbox):
    without = minecheck("check", "3x1/H1H", "--solvers", h.LIE, "--references", "exact", "--json", sandbox=sandbox)
    with_it = minecheck("check", "3x1/H1H", "--solvers", f"{h.LIE},{attack}", "--references", "exact", "--json",
                        sandbox=sandbox)
    assert without.returncode == 1 and liars_findings(without), without.stderr
    assert with_it.returncode == without.returncode, with_it.stderr
    assert liars_findings(with_it) == liars_findings(without)
    attacker = [f for f in json.loads(with_it.stdout)["findings"] if f["subject"] == attack]
    if attack == hostile_pickle.BY_ERROR:  # it raises on every board: its own crash, nothing more
        assert {f["kind"] for f in attacker} == {"crash"}
    else:
        assert attacker == [], "it answers like exact"


def campaign(tmp_path: Path, name: str, solvers: str, *more: str, sandbox: str = "on") -> tuple[int, list[str]]:
    """Exit code and the liar's findings of a campaign (small boards, two workers)."""
    out = tmp_path / name
    done = minecheck("fuzz", "--seed", "3", "--boards", "12", "--generator", "small:3", "--solvers", solvers,
                     "--references", "exact", "--out", str(out), "--jobs", "2", "--no-report", "--no-progress",
                     "--timeout", "5", *more, sandbox=sandbox)
    assert done.returncode in (0, 1), done.stderr
    lines = (out / "findings.jsonl").read_text().splitlines()
    return done.returncode, sorted(line for line in lines if json.loads(line)["subject"] == h.LIE)


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("attack", [hostile_pickle.BY_ANSWER, hostile_pickle.BY_DESCRIPTION, hostile_pickle.BY_ERROR,
                                    hostile_pickle.FRACTION_BY_ANSWER])
def test_a_patch_through_what_crosses_back_changes_nothing_in_a_campaign_nor_against_a_baseline(
        attack, sandbox, tmp_path):
    empty = tmp_path / "baseline.json"
    empty.write_text(json.dumps({"schema": 2, "bugs": []}))
    without = campaign(tmp_path, "without", h.LIE, sandbox=sandbox)
    with_it = campaign(tmp_path, "with", f"{h.LIE},{attack}", sandbox=sandbox)
    assert without[0] == 1 and without[1], "the liar is found"
    assert with_it == without
    assert campaign(tmp_path, "known", f"{h.LIE},{attack}", "--baseline", str(empty), sandbox=sandbox) == \
        campaign(tmp_path, "known-without", h.LIE, "--baseline", str(empty), sandbox=sandbox)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_an_answer_longer_than_the_output_budget_is_the_solver_s_own_finding(sandbox, monkeypatch):
    monkeypatch.setenv("MINECHECK_SANDBOX", sandbox)
    result = run_solver(get_solver(hostile_jail.VERBOSE), board("HHH/121"), Mode.LOCAL,
                        budget=Budget(cpu=10, idle=5, output_mib=1))
    assert result.error == "Crash: its answer held more than its output budget of 1 MiB"
    assert result.failure.budget == "output"
    fine = run_solver(get_solver(hostile_jail.VERBOSE), board("HHH/121"), Mode.LOCAL, budget=Budget(cpu=10, idle=5))
    assert fine.error is None and len(fine.reason) == 3 * 2**20


# -- the codec itself -------------------------------------------------------------------------------------

HUGE = 7 ** 9000  # 7,606 digits: past Python's 4,300-digit limit on int <-> str


def test_a_result_crosses_exact_whatever_its_numbers():
    result = SolverResult("s", Mode.GLOBAL, consistent=True, reason="why",
                          cells=(CellAnswer(0, Verdict.MINE, Fraction(HUGE, HUGE + 2)), CellAnswer(3, None, 0.25, 0.01),
                                 CellAnswer(4, Verdict.SAFE, 0), CellAnswer(5, None, float("nan"))),
                          layouts=HUGE, component_layouts=(HUGE, 1), lp_values=((0, 0.5),), seconds=1.5, cpu=0.25,
                          failure=Failure(FailureKind.CRASH, "m", "memory", "tail"), declined=None, samples=7,
                          claims=frozenset({Answers.COUNTS}), partial=True, tolerance=1e-3, extra=(("k", "v"),))
    back = decode_outcome(encode_outcome(Outcome(value=result, cpu=1.0, wall=2.0))).value
    assert back.cells[3:] and back.cells[3].probability != back.cells[3].probability  # NaN, as it was
    assert back.cells[:3] == result.cells[:3] and type(back.cells[2].probability) is int
    assert [type(a.probability) for a in back.cells] == [Fraction, float, int, float]
    assert back == SolverResult(**{**result.__dict__, "cells": back.cells})


def test_a_batch_a_description_a_refusal_and_plain_data_cross_as_what_they_are():
    declared = Declared("n", frozenset({Answers.VERDICTS}), frozenset({Mode.LOCAL}), "marks")
    inner = [Outcome(value=SolverResult("s", Mode.LOCAL)), Outcome(error="E", stop=Stop.CPU, how="h")]
    for value in (declared, Refused(True, "no", None), inner, ["a", 1, {"b": None}], None):
        assert decode_outcome(encode_outcome(Outcome(value=value))).value == value


@pytest.mark.parametrize("data, says", [
    (b"\x80\x04K\x01.", "not JSON"),
    (b'{"value": {"code": "os.system"}, "error": null, "stop": null, "cpu": 0, "wall": 0, "how": ""}',
     "the message.value"),
    (b'{"value": {"result": {"solver": "s"}}, "error": null, "stop": null, "cpu": 0, "wall": 0, "how": ""}',
     "the message.value"),
    (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
    (b'{"value": null, "error": null, "stop": "none", "cpu": 0, "wall": 0, "how": ""}', "the message.stop"),
    (b'{"value": {"data": 1' + b"0" * 5000 + b'}, "error": null, "stop": null, "cpu": 0, "wall": 0, "how": ""}',
     "an integer of 5001 digits"),  # read, it would cost time growing with its square: counts are strings
])
def test_what_is_no_outcome_is_refused_saying_why(data, says):
    with pytest.raises(Unreadable, match=says):
        decode_outcome(data)


def test_a_count_too_long_for_python_and_a_zero_denominator_are_refused():
    message = {"value": {"result": None}, "error": None, "stop": None, "cpu": 0, "wall": 0, "how": ""}
    with pytest.raises(Unreadable):
        decode_outcome(json.dumps(message).encode())
    assert decode_outcome(json.dumps({**message, "value": {"data": "x" * 10}}).encode()).value == "x" * 10
    half = SolverResult("s", Mode.LOCAL, cells=(CellAnswer(0, None, Fraction(1, 2)),))
    result = json.loads(encode_outcome(Outcome(value=half)))
    result["value"]["result"]["cells"][0][2] = "1/0"
    with pytest.raises(Unreadable, match="not one"):
        decode_outcome(json.dumps(result).encode())


def test_a_message_longer_than_the_caller_reads_is_refused_before_it_is_read_and_a_torn_one_is_a_stall():
    for message, error in ((b"x" * 5000, Oversized), (None, Stalled)):
        caller, server = channel_pair()
        try:
            if message is None:  # a header saying 100 bytes, and 10 of them
                os.write(server.write_fd, (100).to_bytes(8, "little") + b"only a few")
            else:
                server.send(message)
            with pytest.raises(error):
                caller.recv(limit=4096, patience=0.2)
        finally:
            caller.close()
            server.close()
