"""External solvers: a program speaking the protocol is checked like any solver, and whatever it does
wrong - crash, garbage, a broken schema, a hang, children left spinning, never starting - is a finding
carrying its standard error, never a crash of minecheck."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import PROGRAMS, board, writing

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind, read_findings
from minecheck.cli import main
from minecheck.model.answers import Answers, Mode, Verdict
from minecheck.model.budget import Budget
from minecheck.model.errors import ProtocolError
from minecheck.running.discovery import build, get_solver, lookup, resolve
from minecheck.running.protocol import board_text, decode_answer
from minecheck.running.registry import run_solver

PROGRAM = PROGRAMS / "protocol_program.py"
BUDGET = Budget(cpu=2.0, idle=1.0)


def command(*options: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(PROGRAM), *options])


def one(name: str, text: str = "HHH/121", mode: Mode = Mode.LOCAL, budget: Budget = BUDGET):
    return run_solver(get_solver(name), board(text), mode, budget=budget)


def test_a_right_program_answers_like_exact_in_both_modes():
    b = board("4x2x2/HHHH/1221")
    for mode in Mode:
        (checked,) = check_board(b, [command()], [mode], ["exact"], budget=BUDGET)
        assert checked.findings == ()
        result = checked.result(command())
        assert result.layouts == 1 and {a.verdict for a in result.cells} == {Verdict.SAFE, Verdict.MINE}


def test_the_program_is_given_the_board_without_its_hidden_truth():
    b = board("3x2x2/mHm/121")
    assert b.truth is not None and "m" not in board_text(b)
    assert one(command(), "3x2x2/mHm/121").error is None  # the program exits 1 if it sees an m


@pytest.mark.parametrize("how, kind, says", [
    ("crash", Kind.CRASH, "Crash: the program exited with status 3"),
    ("garbage", Kind.PROTOCOL, "Protocol: the answer is not JSON"),
    ("bad-verdict", Kind.PROTOCOL, "cells[0].verdict: 'probably' is not a verdict"),
    ("off-board", Kind.PROTOCOL, "row 2, col 0 is off the 3x2 board"),
    ("probability-2", Kind.PROTOCOL, "cells[0].probability"),
    ("schema-2", Kind.PROTOCOL, "schema: 2 is not understood; minecheck speaks schema 1"),
    ("hang", Kind.TIMEOUT, "without using the CPU"),
    ("spin", Kind.TIMEOUT, "CPU-time budget of 2 s"),
])
def test_each_misbehaviour_is_a_finding_of_its_kind(how, kind, says):
    name = command("--misbehave", how)
    (checked,) = check_board(board("HHH/121"), [name], [Mode.LOCAL], ["exact"], budget=BUDGET)
    (finding,) = checked.findings
    assert finding.kind is kind and says in finding.subject_says


def test_a_crash_carries_the_last_lines_of_the_programs_standard_error():
    (checked,) = check_board(board("HHH/121"), [command("--misbehave", "crash")], [Mode.LOCAL], ["exact"],
                             budget=BUDGET)
    assert 'java.lang.IllegalStateException: deliberate' in checked.findings[0].detail


def test_a_program_that_never_starts_is_a_crash_finding_naming_it():
    (checked,) = check_board(board("HHH/121"), ["cmd:/no/such/solver --fast"], [Mode.LOCAL], ["exact"],
                             budget=BUDGET)
    (finding,) = checked.findings
    assert finding.kind is Kind.CRASH
    assert finding.subject_says.startswith("Crash: the program could not start: /no/such/solver --fast")


def _named(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker``, by the numbers this process sees (a program's
    own, in its sandbox's PID namespace, mean nothing here)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(entry))
        except OSError:
            pass
    return found


def test_a_stopped_program_is_killed_with_its_children():
    result = one(command("--misbehave", "spawn-spinner"), budget=Budget(cpu=1.0, idle=5.0))
    assert result.error.startswith("Timeout: stopped at its CPU-time budget of 1 s")  # the child's CPU counts
    marker = result.failure.stderr.split("spinner ")[1].split()[0]  # a word on the spinner's command line
    deadline = time.monotonic() + 5
    while _named(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _named(marker)


@pytest.mark.parametrize("persistent", [False, True])
def test_a_programs_cpu_time_is_its_own_not_minecheck_s(persistent):
    name = command("--spin", "0.4", *(["--persistent"] if persistent else []))
    solver = build(lookup(name, persistent=True)) if persistent else get_solver(name)
    try:
        results = [run_solver(solver, board("HHH/121"), Mode.LOCAL, budget=BUDGET) for _ in range(2)]
    finally:
        getattr(solver, "close", lambda: None)()
    assert all(r.error is None for r in results)
    assert all(0.35 <= r.cpu <= 1.5 for r in results), [r.cpu for r in results]


def test_persistent_mode_starts_the_program_once_per_worker(tmp_path):
    starts = tmp_path / "starts"
    name = writing("p", command("--persistent", "--starts", str(starts))[len("cmd:"):], tmp_path)
    (shown,), definitions = resolve([name], persistent=True)
    config = Config(4, (shown,), ("exact",), "reveal", Budget(cpu=5.0), definitions=definitions)
    run_campaign(config, tmp_path / "out", boards=6, jobs=1)
    assert read_findings(tmp_path / "out") == []
    assert len(starts.read_text().split()) == 1


@pytest.mark.parametrize("how, says", [
    ("silent-exit", "in persistent mode it must answer a line per request and keep running"),
    ("two-lines", "more than one line for one request"),
    ("garbage", "Protocol: the answer is not JSON"),
])
def test_a_persistent_program_out_of_step_is_a_finding_and_is_started_afresh(how, says, tmp_path):
    starts = tmp_path / "starts"
    program = command("--persistent", "--misbehave", how, "--starts", str(starts))[len("cmd:"):]
    solver = build(lookup(writing("p", program, tmp_path), persistent=True))
    first = run_solver(solver, board("HHH/121"), Mode.LOCAL, budget=BUDGET)
    second = run_solver(solver, board("HHH/121"), Mode.LOCAL, budget=BUDGET)
    assert says in first.error and says in second.error
    assert len(starts.read_text().split()) == 2


def test_fuzz_with_a_right_program_in_both_ways_finds_nothing(tmp_path):
    ways = [(command(), []), ("java-like=" + command("--persistent"), ["--persistent"])]
    for i, (name, persistent) in enumerate(ways):
        code = main(["fuzz", "--seed", "3", "--boards", "6", "--out", str(tmp_path / str(i)), "--solvers", name,
                     "--references", "exact,brute", "--jobs", "2", "--no-report", "--no-progress", "--timeout", "5",
                     *persistent])
        assert code == 0, read_findings(tmp_path / str(i))


def test_answers_are_parsed_exactly_and_partially():
    b = board("HHH/121")
    result = decode_answer(json.dumps({"schema": 1, "cells": [{"row": 0, "col": 1, "probability": "0/1"}]}),
                           b, Mode.LOCAL, "p")
    assert result.cells[0].probability == Fraction(0) and result.partial
    assert result.claims == frozenset({Answers.PROBABILITIES})


@pytest.mark.parametrize("answer, message", [
    ('{"schema": 1}', "the answer: 'cells' is a required property"),
    ('{"schema": 1, "cells": [], "verdicts": []}', "unknown field(s)"),
    ('{"schema": 1, "cells": [{"row": 1, "col": 0}]}', "cells[0]: r1c0 is an opened 1, not a covered cell"),
    ('{"schema": 1, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 0}]}', "r0c0 is answered twice"),
    ('[1, 2]', "not a JSON object"),
    ('', "the answer is empty"),
])
def test_schema_breaks_are_named_by_their_place(answer, message):
    with pytest.raises(ProtocolError, match=re.escape(message)):
        decode_answer(answer, board("HHH/121"), Mode.LOCAL, "p")


def test_a_plain_python_function_speaks_the_protocol_too():
    def only_safe_cells(text: str, mode: str) -> dict:
        return {"schema": 1, "cells": [{"row": 0, "col": 1, "verdict": "safe"}]}

    from minecheck.running.discovery import FunctionSolver

    (checked,) = check_board(board("HHH/121"), [FunctionSolver("f", only_safe_cells)], [Mode.LOCAL], ["exact"])
    assert checked.findings == ()  # the cells left out claim nothing


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.floats(-0.5, 1.5, allow_nan=False),
                    st.sampled_from(["1/3", "0.25", "safe", "mine", "unknown", "maybe", "2/1x", ""]))


@st.composite
def answers(draw):
    """Answers near the schema: right ones, and ones with one field wrong, missing or unknown."""
    cell_keys = st.sampled_from(["row", "col", "verdict", "probability", "stderr", "colour"])
    cells = draw(st.lists(st.dictionaries(cell_keys, _VALUES, max_size=5), max_size=3))
    for cell in cells:
        if draw(st.booleans()):
            cell.update(row=draw(st.integers(0, 2)), col=draw(st.integers(0, 2)))
    top = draw(st.dictionaries(st.sampled_from(["consistent", "reason", "layouts", "samples", "verdicts"]), _VALUES,
                               max_size=3))
    answer = {"schema": draw(st.sampled_from([1, 1, 1, 2])), **top}
    if draw(st.integers(0, 9)):
        answer["cells"] = cells
    return answer


@settings(max_examples=400)
@given(answer=answers())
def test_the_fast_schema_check_agrees_with_the_published_json_schema(answer):
    from jsonschema import Draft7Validator

    from minecheck.running.protocol import answer_schema, follows_schema

    assert follows_schema(answer) == Draft7Validator(answer_schema()).is_valid(answer)


def test_whole_numbers_written_with_a_point_are_whole_numbers_as_in_json_schema():
    answer = '{"schema": 1, "layouts": 2.0, "cells": [{"row": 0.0, "col": 1, "verdict": "unknown"}]}'
    result = decode_answer(answer, board("HHH/H1H"), Mode.LOCAL, "p")
    assert result.layouts == 2 and isinstance(result.layouts, int) and result.cells[0].cell == 1


def test_a_wrong_program_is_found_shrunk_and_reported_like_any_solver(tmp_path):
    """Campaign, shrinking and the report work for a cmd: solver (persistent, two workers) as for a built-in one."""
    out = tmp_path / "campaign"
    code = main(["fuzz", "--seed", "5", "--boards", "4", "--generator", "reveal", "--out", str(out), "--solvers",
                 "liar=" + command("--persistent", "--misbehave", "mines-are-safe"), "--persistent",
                 "--references", "exact", "--jobs", "2", "--no-progress", "--timeout", "5",
                 "--shrink-per-signature", "1"])
    assert code == 1
    findings = read_findings(out)
    assert findings and {f.subject for f in findings} == {"liar"}
    assert {f.kind for f in findings} == {Kind.VERDICT, Kind.PROBABILITY}
    shrunk = [json.loads(line) for line in (out / "shrunk.jsonl").read_text().splitlines()]
    assert shrunk and all(entry["stats"]["cells_after"] <= 4 for entry in shrunk)
    page = (out / "finding-00000.html").read_text()
    assert "liar" in page and "Smallest board that still shows it" in page


def test_a_persistent_program_runs_on_a_dask_cluster(tmp_path):
    import distributed  # in the test extra: a missing dask fails here rather than skipping

    (name,), definitions = resolve(["persist=" + command("--persistent")], persistent=True)
    config = Config(6, (name,), ("exact",), "reveal", Budget(cpu=5.0), definitions=definitions)
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=2, dashboard_address=None) as cluster:
        run_campaign(config, tmp_path, boards=4, jobs=2, scheduler=cluster.scheduler_address)
    assert read_findings(tmp_path) == []
    assert len((tmp_path / "boards.jsonl").read_text().splitlines()) == 4


def test_a_persistent_program_that_dies_leaves_its_stderr_tail_on_every_crash_finding():
    # the end of the program (its stdout closed) used to be seen before the traceback in its stderr pipe was
    # read: 2 of 30 such crashes had an empty tail
    program = "cmd:" + shlex.join([sys.executable, str(PROGRAMS / "dying_engine.py")])
    solver = build(lookup(program, persistent=True))
    for _ in range(30):
        (c,) = check_board(board("H1H"), [solver], [Mode.LOCAL], ["exact"], budget=BUDGET)
        (f,) = c.findings
        assert f.kind is Kind.CRASH and f.detail.endswith("ZeroDivisionError: division by zero"), f.detail[-200:]
