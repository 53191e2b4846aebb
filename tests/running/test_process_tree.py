"""A solver's whole process tree ends with its run, whatever it does - children, grandchildren, new
sessions, an ignored end of input, the death of minecheck itself - and what it does is reported the
same way every time: a spinning child is a CPU timeout, a flood names the limit it crossed, a sleeper
idles.  The hostile programs (tests/programs/hostile/, run as ``cmd:`` solvers) and solvers (hostile_solvers,
run in the sandbox) record the id of every process they start; none may be running afterwards."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import hostile_solvers
import pytest
from shared import PROGRAMS, board, writing

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.findings import read_findings
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running.discovery import build, get_solver, lookup, resolve
from minecheck.running.external import ExternalSolver, Program
from minecheck.running.proctree import members, processes
from minecheck.running.registry import run_solver

TESTS = PROGRAMS
HOSTILE = TESTS / "hostile"
BUDGET = Budget(cpu=1.0, idle=2.0)
GONE_WITHIN = 2.0  # seconds


def hostile(program: str, pids: Path, *options: str) -> str:
    """The command of a hostile program, its processes recorded in ``pids``."""
    return shlex.join([sys.executable, str(HOSTILE / program), "--pids", str(pids), *options])


def recorded(pids: Path) -> list[int]:
    return [int(line) for line in pids.read_text().split()] if pids.exists() else []


def running(pid: int) -> bool:
    """Whether a process runs (a zombie does not: it has ended and only waits to be waited for)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False


def naming(pids: Path) -> list[int]:
    """The running processes whose command line names ``pids``: the hostile programs and children recording
    there, by the numbers this process sees (a sandbox's own, in its PID namespace, mean nothing here)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and running(int(entry)):
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if str(pids).encode() in f.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def assert_none_left(pids: Path, started: int) -> None:
    """At least ``started`` processes were recorded, and within GONE_WITHIN seconds none of them runs."""
    found = recorded(pids)
    assert len(found) >= started, f"the hostile program did not get as far as starting {started} processes"
    deadline = time.monotonic() + GONE_WITHIN
    while naming(pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    left = naming(pids)
    for pid in left:  # not to leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running: {left}"


def run_cmd(command: str, budget: Budget = BUDGET, writable: Path | None = None):
    """One board for the program; ``writable``: the folder of its pids file (all else is read-only to it)."""
    program = Program.parse(command, writable=(str(writable),) if writable else ())
    return run_solver(ExternalSolver("hostile", program), board("HHH/121"), Mode.LOCAL, budget=budget)


def zombies_below() -> list[int]:
    """The processes below this one that have ended and wait to be waited for."""
    return [p.pid for p in members(processes(), os.getpid()) if p.pid != os.getpid() and not running(p.pid)]


# -- programs run through cmd: ---------------------------------------------------------------------------

@pytest.mark.parametrize("program, started", [("fork_and_exit.py", 2), ("double_fork.py", 3)])
def test_what_a_program_leaves_behind_ends_with_its_run(program, started, tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile(program, pids), writable=tmp_path)
    assert result.error is None
    assert_none_left(pids, started)


def test_children_and_orphans_of_a_program_are_waited_for_not_left_as_zombies(tmp_path):
    pids = tmp_path / "pids"
    before = set(zombies_below())  # an earlier test's in this pytest worker are not this program's
    assert run_cmd(hostile("double_fork.py", pids), writable=tmp_path).error is None
    time.sleep(0.2)
    assert len(recorded(pids)) == 3 and not naming(pids)
    assert not set(zombies_below()) - before, \
        "the ids the program's processes had are in its own PID namespace: looked at from here"


@pytest.mark.parametrize("own_session", [False, True])
def test_a_spinning_child_is_a_cpu_timeout_even_in_a_session_of_its_own(own_session, tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile("spinning_child.py", pids, *(["--setsid"] if own_session else [])), writable=tmp_path)
    assert result.error == "Timeout: stopped at its CPU-time budget of 1 s"
    assert_none_left(pids, 2)


def test_a_program_that_never_reads_its_input_and_sleeps_is_stopped_as_idle(tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile("never_reads.py", pids), Budget(cpu=1.0, idle=1.0), tmp_path)
    assert result.error.startswith("Timeout: stopped after 1 s without using the CPU")
    assert_none_left(pids, 1)


def test_a_flood_on_standard_output_is_a_crash_naming_the_limit(tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile("flood.py", pids, "--mib", "8"), Budget(cpu=1.0, idle=2.0, output_mib=1), tmp_path)
    assert result.error == "Crash: the program wrote more than 1 MiB to its standard output"
    assert_none_left(pids, 1)


def test_the_default_limit_on_standard_output_is_64_mib_and_is_named(tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile("flood.py", pids, "--mib", "70"), Budget(cpu=5.0, idle=2.0), tmp_path)
    assert result.error == "Crash: the program wrote more than 64 MiB to its standard output"
    assert result.failure.kind.value == "crash" and result.failure.budget == "output"
    assert_none_left(pids, 1)


def test_a_flood_on_standard_error_is_drained_and_dropped_and_the_answer_after_it_counts(tmp_path):
    pids = tmp_path / "pids"
    result = run_cmd(hostile("flood.py", pids, "--mib", "40", "--stderr"), Budget(cpu=5.0, idle=1.0), tmp_path)
    assert result.error is None and result.claims == frozenset()
    assert_none_left(pids, 1)


def test_what_a_crash_keeps_of_a_flood_on_standard_error_is_its_last_lines(tmp_path):
    script = tmp_path / "noisy.py"
    script.write_text("import sys\nfor i in range(200000):\n    print('line', i, file=sys.stderr)\nsys.exit(3)\n")
    result = run_cmd(shlex.join([sys.executable, str(script)]))
    assert result.error == "Crash: the program exited with status 3"
    tail = result.failure.stderr.splitlines()
    assert tail == [f"line {i}" for i in range(199980, 200000)]


def test_a_persistent_program_that_ignores_the_end_of_its_input_ends_when_closed(tmp_path):
    pids = tmp_path / "pids"
    solver = build(lookup(writing("p", hostile("ignores_eof.py", pids), tmp_path), persistent=True))
    for _ in range(2):
        assert run_solver(solver, board("HHH/121"), Mode.LOCAL, budget=BUDGET).error is None
    assert len(recorded(pids)) == 2, "one program (and its child) answered both requests"
    solver.close()
    assert_none_left(pids, 2)


@pytest.mark.parametrize("how", ["exits", "is killed"])
def test_a_persistent_program_ends_when_the_process_that_started_it_does(how, tmp_path):
    pids = tmp_path / "pids"
    code = ("import os, sys, time\n"
            f"sys.path[:0] = [{str(PROGRAMS.parent)!r}]\n"
            "from shared import board\n"
            "from minecheck.model.answers import Mode\n"
            "from minecheck.running.discovery import lookup\n"
            "from minecheck.running.discovery import build\n"
            "from minecheck.running.registry import run_solver\n"
            "from minecheck.model.budget import Budget\n"
            f"solver = build(lookup({writing('p', hostile('ignores_eof.py', pids), tmp_path)!r}, persistent=True))\n"
            "print(run_solver(solver, board('HHH/121'), Mode.LOCAL, Budget(cpu=5)).error, flush=True)\n"
            "if sys.argv[1] == 'is killed':\n"
            "    time.sleep(600)\n"
            "os._exit(0)  # no close(), no finalizer: as a pool worker ends\n")
    owner = subprocess.Popen([sys.executable, "-c", code, how], stdout=subprocess.PIPE, text=True, cwd=TESTS)
    assert owner.stdout.readline().strip() == "None"
    if how == "is killed":
        owner.send_signal(signal.SIGKILL)
    owner.wait()
    assert_none_left(pids, 2)


def test_a_program_that_cannot_start_is_still_a_crash_naming_it_and_why():
    result = run_cmd("/no/such/solver --fast")
    assert result.error == "Crash: the program could not start: /no/such/solver --fast: No such file or directory"
    result = run_cmd(str(HOSTILE / "_hostile.py"))  # not executable
    assert result.error.endswith(": Permission denied")


def test_a_child_forked_meanwhile_by_another_thread_does_not_keep_a_programs_input_open(tmp_path):
    """A sandbox forked by another thread (of a dask worker) while a program reads its board gets a copy of
    this process's end of the program's standard input; kept, the program would never see the end of the
    board, and would be stopped as idle."""
    script = tmp_path / "slow_reader.py"
    script.write_text("import sys, time\ntime.sleep(0.5)\nsys.stdin.read()\nprint('{\"schema\": 1, \"cells\": []}')\n")
    solver = ExternalSolver("slow", Program.parse(shlex.join([sys.executable, str(script)])))
    big = board("/".join(["H" * 300] * 300))  # 90 kB: more than a pipe holds, so the input is open for 0.5 s
    results = []
    reader = threading.Thread(target=lambda: results.append(
        run_solver(solver, big, Mode.LOCAL, budget=Budget(cpu=2.0, idle=1.5))))
    reader.start()
    time.sleep(0.25)
    child = os.fork()
    if child == 0:  # as a sandbox would: it lives on
        time.sleep(5)
        os._exit(0)
    reader.join()
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    assert results[0].error is None


# -- Python solvers run in the sandbox ------------------------------------------------------------------

@pytest.fixture
def solver_pids(tmp_path, monkeypatch) -> Path:
    """Where the hostile solvers record their processes (``recording`` lets them write there)."""
    pids = tmp_path / "pids"
    monkeypatch.setenv(hostile_solvers.PIDS, str(pids))
    return pids


def hostile_solver(name: str, pids: Path):
    return get_solver(hostile_solvers.recording(name, pids.parent))


@pytest.mark.parametrize("name, started", [(hostile_solvers.FORK, 1), (hostile_solvers.DOUBLE, 2)])
def test_what_a_solver_starts_ends_with_its_call(name, started, solver_pids):
    result = run_solver(hostile_solver(name, solver_pids), board("HHH/121"), Mode.LOCAL, budget=BUDGET)
    assert result.error is None and result.layouts == 1
    assert_none_left(solver_pids, started)


def test_a_solver_whose_child_spins_in_its_own_session_is_a_cpu_timeout(solver_pids):
    result = run_solver(hostile_solver(hostile_solvers.SPIN_CHILD, solver_pids), board("HHH/121"), Mode.LOCAL,
                        budget=BUDGET)
    assert result.error == "Timeout: stopped at its CPU-time budget of 1 s"
    assert_none_left(solver_pids, 1)


def test_a_solver_that_dies_leaving_a_child_in_its_own_session_takes_it_along(solver_pids):
    result = run_solver(hostile_solver(hostile_solvers.FORK_AND_DIE, solver_pids), board("HHH/121"), Mode.LOCAL,
                        budget=BUDGET)
    assert result.error == "Died: the solver's process exited with status 3 without answering"
    assert_none_left(solver_pids, 1)


# -- campaigns -----------------------------------------------------------------------------------------

def _campaign(subjects: list[str], out: Path, jobs: int, persistent: bool = False, boards: int = 2,
              timeout: float = 2.0) -> list:
    names, definitions = resolve(subjects, persistent=persistent)
    config = Config(7, tuple(names), ("exact",), "reveal", Budget(cpu=timeout, idle=2.0), definitions=definitions)
    run_campaign(config, out, boards=boards, jobs=jobs)
    return read_findings(out)


@pytest.mark.parametrize("options, says", [
    (("--mib", "70"), "Crash: the program wrote more than 64 MiB to its standard output"),
    (("--mib", "40", "--stderr"), None),
])
def test_a_flood_gives_the_same_findings_on_one_or_two_processes(options, says, tmp_path):
    pids = tmp_path / "pids"
    found = [sorted(f.subject_says for f in _campaign([writing("flood", hostile("flood.py", pids, *options), tmp_path)],
                                                      tmp_path / str(jobs), jobs, boards=1, timeout=5.0))
             for jobs in (1, 2)]
    assert found[0] == found[1]
    assert set(found[0]) == ({says} if says else set())
    assert_none_left(pids, 2)


def test_a_campaign_leaves_no_process_of_its_solvers_behind(tmp_path, monkeypatch):
    pids = tmp_path / "pids"
    monkeypatch.setenv(hostile_solvers.PIDS, str(pids))
    _campaign([writing("fork", hostile("fork_and_exit.py", pids), tmp_path),
               writing("double", hostile("double_fork.py", pids), tmp_path),
               hostile_solvers.recording(hostile_solvers.DOUBLE, tmp_path)], tmp_path / "out", jobs=2)
    assert_none_left(pids, 2 * 2 * 2 * 3)  # boards x modes x (program and child, two of each for the doubles)


def test_a_persistent_program_ignoring_the_end_of_its_input_ends_with_the_campaign(tmp_path):
    pids = tmp_path / "pids"
    program = writing("p", hostile("ignores_eof.py", pids), tmp_path)
    findings = _campaign([program], tmp_path / "out", jobs=2, persistent=True)
    assert findings == []
    assert_none_left(pids, 2)


def test_killing_a_campaign_with_sigkill_ends_its_workers_sandboxes_and_programs(tmp_path):
    """A campaign's pool (workqueue.run_tasks, two workers) runs a sandboxed solver whose child spins in its
    own session, and a program whose child does the same; kill -9 of the campaign's process ends them all."""
    pids = tmp_path / "pids"
    code = ("import sys\n"
            "import hostile_solvers\n"
            "from minecheck.running.workqueue import run_tasks\n"
            "run_tasks(iter([hostile_solvers.recording(hostile_solvers.SPIN_CHILD, sys.argv[3]), sys.argv[2]]),\n"
            "          lambda pool, name: pool.submit(hostile_solvers.run_one, name), print,\n"
            "          lambda name, why: why, jobs=2)\n")
    program = writing("p", hostile("spinning_child.py", pids, "--setsid"), tmp_path)
    campaign = subprocess.Popen([sys.executable, "-c", code, str(pids), program, str(tmp_path)], cwd=TESTS,
                                env={**os.environ, hostile_solvers.PIDS: str(pids)})
    try:
        deadline = time.monotonic() + 30
        while len(recorded(pids)) < 3 and time.monotonic() < deadline:  # the solver's child, the program, its child
            time.sleep(0.05)
        below = [p.pid for p in members(processes(), campaign.pid) if p.pid != campaign.pid]
    finally:
        campaign.send_signal(signal.SIGKILL)
        campaign.wait()
    assert len(below) >= 2 + 1 + 1 + 3, "two workers, a sandbox, a guardian, and the hostile processes"
    pids.write_text("".join(f"{pid}\n" for pid in below) + pids.read_text())
    assert_none_left(pids, 7)
