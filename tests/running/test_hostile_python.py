"""The red team's hostile Python solvers (issue 25), beside the process-tree tests: whatever a solver does to
the interpreter or the processes that run it, the findings are those of its answers alone, the same with
one worker and with two."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import hanging_solver
import hostile_python as h
import pytest

from minecheck.boards.generators import generate_board
from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config, board_recipe
from minecheck.check.findings import read_findings
from minecheck.model.answers import Answers
from minecheck.model.budget import Budget
from minecheck.running import jail, namespace, workqueue
from minecheck.running.discovery import get_solver
from minecheck.solvers.exact import ExactSolver

BOARDS = 40
BUDGET = Budget(cpu=2, idle=1)
FEW = 16  # boards, for solvers whose every misdeed costs a process or an idle wait
LIES = {"verdict": 8}  # what saying "mine" everywhere costs on the first 40 boards of small:3


CONFIG = Config(3, (), ("exact",), "small:3", budget=BUDGET)


def campaign(tmp_path, jobs: int, *subjects: str, boards: int = BOARDS):
    run_campaign(replace(CONFIG, subjects=subjects), tmp_path, boards=boards, jobs=jobs)
    return read_findings(tmp_path)


def kinds(findings, subject: str) -> dict[str, int]:
    return dict(Counter(f.kind.value for f in findings if f.subject == subject))


def judged(findings, subject: str) -> set:
    return {(f.index, f.kind, f.mode, f.cells) for f in findings if f.subject == subject}


@pytest.fixture(scope="module")
def lies(tmp_path_factory):
    """The findings of ``Lie`` alone, with one worker."""
    return judged(campaign(tmp_path_factory.mktemp("lie"), 1, h.LIE), h.LIE)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_solver_that_patches_the_exact_counter_is_judged_by_the_unpatched_one(jobs, tmp_path, lies):
    findings = campaign(tmp_path, jobs, h.LIE_AND_PATCH)
    assert kinds(findings, h.LIE_AND_PATCH) == LIES
    assert judged(findings, h.LIE_AND_PATCH) == lies


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_patching_solver_changes_nothing_for_a_solver_checked_beside_it(jobs, tmp_path, lies):
    findings = campaign(tmp_path, jobs, h.LIE_AND_PATCH, h.LIE)
    assert judged(findings, h.LIE) == lies == judged(findings, h.LIE_AND_PATCH)


PATCH_ON_IMPORT = "patch_on_import:Lie"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_module_that_patches_the_exact_counter_on_import_is_judged_by_the_unpatched_one(jobs, tmp_path, lies):
    findings = campaign(tmp_path, jobs, PATCH_ON_IMPORT, h.LIE)
    assert judged(findings, PATCH_ON_IMPORT) == lies == judged(findings, h.LIE)


def test_making_a_solver_runs_none_of_its_module_s_code_in_the_checking_process():
    truth = ExactSolver.solve
    made = get_solver(PATCH_ON_IMPORT)
    assert (made.name, made.answers) == (PATCH_ON_IMPORT, frozenset({Answers.VERDICTS}))
    assert "patch_on_import" not in sys.modules and ExactSolver.solve is truth


def test_the_command_line_checks_a_solver_that_patches_on_import_against_the_unpatched_counter():
    done = subprocess.run([sys.executable, "-m", "minecheck.cli", "check", "3x1/H1H", "--solvers", PATCH_ON_IMPORT,
                           "--references", "exact", "--json"], capture_output=True, text=True,
                          cwd=Path(h.__file__).parent)
    assert done.returncode == 1, done.stderr  # "mine" for both cells of H1H: one of them is wrong
    assert [f["subject"] for f in json.loads(done.stdout)["findings"]] == [PATCH_ON_IMPORT], done.stdout


@pytest.mark.skipif(not jail.status().active, reason="no sandbox for programs here (docs/sandbox.md)")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_program_that_tries_to_kill_its_worker_reaches_only_itself_in_its_sandbox(jobs, tmp_path, lies):
    # in its PID namespace the "worker" it finds is its sandbox's init, whose parent is no one (0): its kill(0)
    # ends its own process group, on its deadly boards, and the worker serves on
    findings = campaign(tmp_path, jobs, hanging_solver.KILL_WORKER, h.LIE, boards=FEW)
    assert judged(findings, h.LIE) == {x for x in lies if x[0] < FEW}
    killed = [f for f in findings if f.subject == hanging_solver.KILL_WORKER]
    deadly = {i for i in range(FEW) if hanging_solver.dies_on(generate_board(board_recipe(CONFIG, i)))}
    assert {f.index for f in killed} == deadly
    assert {f.subject_says for f in killed} == {"Crash: the program was killed by SIGKILL"}, "no worker died"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_program_that_kills_the_worker_costs_its_own_boards_and_the_solver_beside_it_keeps_its_findings(
        jobs, tmp_path, lies, unjailed):
    # without the sandbox (refused by the kernel): the program stands in for an out-of-memory killer
    findings = campaign(tmp_path, jobs, hanging_solver.KILL_WORKER, h.LIE, boards=FEW)
    assert judged(findings, h.LIE) == {x for x in lies if x[0] < FEW}
    killed = [f for f in findings if f.subject == hanging_solver.KILL_WORKER]
    deadly = {i for i in range(FEW) if hanging_solver.dies_on(generate_board(board_recipe(CONFIG, i)))}
    assert {f.index for f in killed} == deadly and len(killed) == len(deadly)
    assert all(f.kind.value == "crash" and "worker process died" in f.subject_says for f in killed)
    assert {f.subject for f in findings} == {hanging_solver.KILL_WORKER, h.LIE}


NO_NAMESPACE = ("this kernel refuses PID namespaces (unprivileged user namespaces off): here a solver can signal "
                "its parent, as docs/campaigns.md says")


@pytest.mark.skipif(not namespace.enter_allowed(), reason=NO_NAMESPACE)
@pytest.mark.parametrize("attack", [h.KILL_PARENT, h.STOP_PARENT])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_solver_that_kills_or_stops_its_parent_costs_the_others_nothing(attack, jobs, tmp_path, lies):
    findings = campaign(tmp_path, jobs, attack, h.LIE)
    assert kinds(findings, h.LIE) == LIES and judged(findings, h.LIE) == lies
    assert kinds(findings, attack) == {}, "its parent is out of its reach: it answers like exact"
    assert {f.subject for f in findings} == {h.LIE}, "no finding is blamed on the two together"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_solver_that_stops_itself_is_stopped_when_idle_once_per_board(jobs, tmp_path):
    findings = campaign(tmp_path, jobs, h.STOP_SELF, boards=FEW)
    config = Config(3, (h.STOP_SELF,), ("exact",), "small:3")
    with_total = {i for i in range(FEW) if generate_board(board_recipe(config, i)).total_mines is not None}
    assert kinds(findings, h.STOP_SELF) == {"timeout": len(with_total)}, "one finding a board, not one a mode"
    assert {f.index for f in findings} == with_total
    assert all("without using the CPU" in f.subject_says for f in findings)


def test_a_program_that_stops_the_worker_running_it_does_not_hang_the_campaign(tmp_path, monkeypatch, unjailed):
    # without the sandbox (where the kernel refuses it) a program can reach its worker: this one SIGSTOPs its
    # guardian's parent, the pool worker, on boards with a total; the coordinator sees the worker stopped, kills
    # it, and the campaign ends, the same with one worker and two (in the sandbox: tests/running/test_jail.py)
    import shlex
    import sys

    from shared import PROGRAMS

    program = "cmd:" + shlex.join([sys.executable, str(PROGRAMS / "hostile" / "stop_grandparent.py")])
    monkeypatch.setattr(workqueue, "STOPPED_FOR", 0.5)  # a stop costs the wait at each of its re-runs: keep it short
    monkeypatch.setattr(workqueue, "LOOK_EVERY", 0.25)
    config = Config(3, (program, h.LIE), ("exact",), "small:3", budget=BUDGET)
    found = {}
    for jobs in (1, 2):
        run_campaign(config, tmp_path / str(jobs), boards=5, jobs=jobs)
        found[jobs] = sorted(f.to_json() for f in read_findings(tmp_path / str(jobs)))
    assert found[1] == found[2]
    crashes = [f for f in read_findings(tmp_path / "1") if f.kind.value == "crash"]
    assert crashes and all(f.subject == program for f in crashes), "the crash is blamed on the program alone"
    assert all(f.subject_says.startswith("the worker process died during this task") for f in crashes)
    assert any(f.subject == h.LIE for f in read_findings(tmp_path / "1")), "the liar beside it keeps its findings"
    assert len((tmp_path / "1" / "boards.jsonl").read_text().splitlines()) == 5  # every board checked: no hang


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_answer_that_would_run_code_when_read_back_is_refused_and_costs_its_solver_alone(
        jobs, tmp_path, lies, monkeypatch):
    marker = tmp_path / "ran"
    monkeypatch.setenv("MINECHECK_PICKLE_MARKER", str(marker))
    bomb = f'bomb={{target = "{h.PICKLE_BOMB}", env = ["MINECHECK_PICKLE_MARKER"]}}'
    findings = campaign(tmp_path / "run", jobs, bomb, h.LIE, boards=FEW)
    assert not marker.exists(), "the payload ran in the worker"
    assert judged(findings, h.LIE) == {x for x in lies if x[0] < FEW}
    bombs = [f for f in findings if f.subject == bomb]
    assert bombs and {f.kind.value for f in bombs} == {"crash"}
    assert all("UnsendableAnswer: TypeError: Object of type _Payload is not JSON serializable" in f.subject_says
               for f in bombs)


@pytest.mark.skipif(not namespace.enter_allowed(), reason=NO_NAMESPACE)
def test_a_python_solver_cannot_reach_a_port_open_on_the_machine_s_loopback(monkeypatch):
    import socket

    from shared import board

    from minecheck.model.answers import Mode
    from minecheck.running.registry import run_solver

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        monkeypatch.setenv("MINECHECK_TEST_PORT", str(listener.getsockname()[1]))
        phone = f'phone={{target = "{h.PHONE_HOME}", env = ["MINECHECK_TEST_PORT"]}}'
        result = run_solver(get_solver(phone), board("HHH/121"), Mode.LOCAL, budget=BUDGET)
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert result.error is None, result.error
