"""Solvers are isolated: whatever one does - hang, spin, allocate, smash its stack, die - it is stopped
within its limits and reported, and the caller goes on; budgets are CPU time, not wall-clock."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import hanging_solver
import pytest
from shared import PROGRAMS, board

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind, read_findings
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running import sandbox as isolation
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver
from minecheck.running.sandbox import sandbox, thread_cpu
from minecheck.running.stops import Stop, stop_message

BOARD = board("HHH/121")
FAST = Budget(cpu=0.5, memory_mib=256, idle=3.0)  # idle well above the budget: a loaded machine is not idle
TESTS = PROGRAMS


def run(name: str, budget: Budget = FAST):
    return run_solver(get_solver(name), BOARD, Mode.LOCAL, budget=budget)


def still_answers_like_exact() -> None:
    """After a stop the thread's next call gets a fresh sandbox and a right answer."""
    again = run("exact")
    assert again.error is None and again.consistent is True and again.layouts == 1


def test_a_solver_computing_forever_in_python_stops_at_its_cpu_budget():
    result = run(hanging_solver.SPIN)
    assert result.error == "Timeout: stopped at its CPU-time budget of 0.5 s"
    assert 0.4 < result.cpu < 2.0
    still_answers_like_exact()


def test_a_solver_stuck_inside_one_c_call_is_stopped_from_outside():
    start = time.perf_counter()
    result = run(hanging_solver.STUCK_IN_C)
    assert result.error == "Timeout: stopped at its CPU-time budget of 0.5 s"
    assert time.perf_counter() - start < 10
    still_answers_like_exact()


def test_a_solver_that_sleeps_is_stopped_for_idling_and_says_so():
    result = run(hanging_solver.HANG, Budget(cpu=0.5, idle=0.5))
    assert result.error.startswith("Timeout: stopped after 0.5 s without using the CPU")
    still_answers_like_exact()


def test_the_budget_is_cpu_time_so_sleeping_within_the_idle_limit_is_not_a_timeout(tmp_path):
    sleepy = tmp_path / "sleepy.py"
    sleepy.write_text("import json, sys, time\ntime.sleep(1.2)\nprint(json.dumps({'schema': 1, 'cells': []}))\n")
    result = run_solver(get_solver(f"cmd:{sys.executable} {sleepy}"), BOARD, Mode.LOCAL,
                        budget=Budget(cpu=0.5, idle=3.0))
    assert result.error is None and result.consistent is None


def test_a_solver_that_allocates_without_bound_stops_at_its_memory_limit():
    result = run(hanging_solver.HUNGRY)
    assert result.error.startswith("MemoryError: stopped at its memory limit of 256 MiB")
    still_answers_like_exact()


def test_a_c_stack_overflow_is_a_crash_naming_the_signal():
    result = run(hanging_solver.STACK, Budget(cpu=20, memory_mib=None))
    assert result.error.startswith("Died: the solver's process was killed by SIGSEGV")
    still_answers_like_exact()


def test_a_solver_that_ends_its_process_is_a_crash_and_the_caller_goes_on():
    odd = board("3x1x1/1HH")
    result = run_solver(get_solver(hanging_solver.DIE), odd, Mode.LOCAL, budget=FAST)
    assert result.error == "Died: the solver's process exited with status 3 without answering"
    still_answers_like_exact()


def test_stop_messages_name_the_budget_and_no_measured_time():
    """Findings must be the same on a busy machine and a quiet one: no seconds measured in the text."""
    limits = Budget(cpu=3, memory_mib=2048)
    assert {stop_message(s, limits) for s in Stop} == {
        "Timeout: stopped at its CPU-time budget of 3 s",
        "Timeout: stopped after 5 s without using the CPU (blocked or asleep; the CPU-time budget is 3 s)",
        "MemoryError: stopped at its memory limit of 2048 MiB",
        "Crash: it wrote more than its output budget of 64 MiB",
        "Died: the solver's process ended without answering",
    }


@pytest.mark.parametrize("jail", ["on", "off"])
def test_what_a_solver_prints_reaches_neither_the_json_on_stdout_nor_minecheck_s_stderr(tmp_path, jail):
    """A Python solver not minecheck's own writes on a pipe minecheck reads, as a program does: its prints are
    kept with a failure of its own (the last lines), never written into minecheck's output."""
    chatty = tmp_path / "chatty.py"
    chatty.write_text("from minecheck.solvers.exact import ExactSolver\n\n"
                      "class Chatty(ExactSolver):\n"
                      "    def solve(self, board, mode):\n"
                      "        print('debugging output on stdout')\n"
                      "        return super().solve(board, mode)\n\n"
                      "class Failing(ExactSolver):\n"
                      "    def solve(self, board, mode):\n"
                      "        print('the last words before it raised')\n"
                      "        raise ValueError('a bug')\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "", "MINECHECK_SANDBOX": jail}
    done = subprocess.run([sys.executable, "-m", "minecheck.cli", "check", "HHH/121", "--solvers", "chatty:Chatty",
                           "--references", "exact", "--json"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "chatty:Chatty" in json.loads(done.stdout)
    assert "debugging output" not in done.stderr + done.stdout
    done = subprocess.run([sys.executable, "-m", "minecheck.cli", "check", "HHH/121", "--solvers", "chatty:Failing",
                           "--references", "exact", "--json"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    (finding,) = json.loads(done.stdout)["findings"]
    assert "ValueError: a bug" in finding["subject_says"] and "the last words before it raised" in json.dumps(finding)
    assert "the last words" not in done.stderr


def _campaign(tmp_path: Path, scheduler: str | None) -> list:
    config = Config(5, (hanging_solver.HANG, hanging_solver.HUNGRY, "ilp@seed"), ("exact",), "reveal",
                    Budget(cpu=1.0, memory_mib=256, idle=1.0))
    run_campaign(config, tmp_path, boards=2, jobs=2, scheduler=scheduler)
    return read_findings(tmp_path)


def _assert_stopped_and_the_rest_kept(findings: list) -> None:
    by = {(f.subject, f.kind, f.index, f.mode) for f in findings}
    for index in (0, 1):
        assert (hanging_solver.HANG, Kind.TIMEOUT, index, Mode.LOCAL) in by
        assert (hanging_solver.HUNGRY, Kind.CRASH, index, Mode.LOCAL) in by
    assert any(f.subject == "ilp@seed" for f in findings), "the worker's other work is kept"
    hungry = [f for f in findings if f.subject == hanging_solver.HUNGRY]
    assert hungry and all("memory limit of 256 MiB" in f.subject_says for f in hungry)


def test_hanging_and_hungry_solvers_are_stopped_in_local_processes(tmp_path):
    _assert_stopped_and_the_rest_kept(_campaign(tmp_path, None))


def test_hanging_and_hungry_solvers_are_stopped_the_same_on_a_loaded_machine(tmp_path):
    """Two CPU-burning processes per core: a computing solver that gets little CPU is still computing (its
    process is runnable), never idle, so the hungry solver reaches its memory limit as on a quiet machine."""
    import os

    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        _assert_stopped_and_the_rest_kept(_campaign(tmp_path, None))
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_hanging_and_hungry_solvers_are_stopped_on_a_dask_cluster(tmp_path):
    import distributed  # in the test extra: a missing dask fails here rather than skipping

    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=2, dashboard_address=None) as cluster:
        findings = _campaign(tmp_path, cluster.scheduler_address)
    _assert_stopped_and_the_rest_kept(findings)


def _off_by_one(real):
    """A faulty reading of the digits: each equation that could take one more mine is told it has one."""
    from minecheck.engine import constraints

    def read(*args):
        system = real(*args)
        bumped = tuple(constraints.Equation(eq.cells, eq.mines + (len(eq.cells) > eq.mines > 0), eq.source)
                       for eq in system.equations)
        return constraints.ConstraintSystem(system.board, system.frontier, bumped,
                                            constraints.split_components(bumped), system.off_frontier,
                                            system.mines_remaining)
    return read


def _flagged_after_fault(monkeypatch, module, name) -> set[str]:
    from minecheck.engine import constraints

    cached = constraints.build_constraints  # the real one, whose cache the fault must not leave stale
    monkeypatch.setattr(module, name, _off_by_one(getattr(module, name)))
    cached.cache_clear()
    try:
        (checked,) = check_board(board("HHHH/1221"), [], [Mode.LOCAL])  # in-process: the patch is seen
    finally:
        cached.cache_clear()
    return {f.subject for f in checked.findings if f.kind is Kind.REFERENCE}


def test_a_fault_where_the_exact_counter_reads_the_board_is_seen_by_every_other_reference(monkeypatch):
    from minecheck.engine import counter

    assert _flagged_after_fault(monkeypatch, counter, "read_constraints") == {"cbc", "minisat", "brute"}


def test_a_fault_where_cbc_and_minisat_read_the_board_is_seen_by_the_independent_readers(monkeypatch):
    """cbc and minisat read the board through minecheck.engine.constraints (system_or_refusal); exact reads it
    with its own scan (minecheck.engine.scan) and brute on its own: a fault in the shared reading cannot go unseen."""
    from minecheck.engine import constraints

    flagged = _flagged_after_fault(monkeypatch, constraints, "build_constraints")
    assert flagged == {"cbc", "minisat"}


def test_brute_runs_by_default_beside_every_check():
    (checked,) = check_board(board("HHH/121"), [], [Mode.LOCAL], budget=Budget(cpu=30))
    assert checked.result("brute") is not None and checked.result("brute").declined is None


def test_a_stop_sooner_than_the_cores_could_spend_the_budget_is_run_again_not_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(hanging_solver.SpuriousStopSolver, "marker", str(tmp_path / "marker"))
    result = run_solver(hanging_solver.SpuriousStopSolver(), BOARD, Mode.LOCAL, budget=Budget(cpu=5.0))
    assert (tmp_path / "marker").exists(), "the first run was stopped"
    assert result.error is None and result.layouts == 1


class _Probe:
    """Reports from inside the sandbox."""

    def cpu_limit(self):
        import resource

        return resource.getrlimit(resource.RLIMIT_CPU)

    def pid(self):
        import os

        return os.getpid()

    def hang(self):
        time.sleep(600)


def test_the_sandbox_sets_no_kernel_cpu_limit():
    """Raised call after call in a long-lived sandbox, RLIMIT_CPU made Linux send SIGXCPU seconds early
    (an innocent run 'ran out' after 0.7 s of wall): the budget is the sandbox's own timer and the watchdog."""
    import resource

    from minecheck.running import sandbox as isolation

    run("exact")  # a sandbox that has served a call
    outcome = isolation.run(_Probe(), "cpu_limit", (), FAST)
    assert outcome.value[0] == resource.RLIM_INFINITY


def test_a_sandbox_busy_in_a_call_does_not_outlive_its_caller():
    import os
    import signal

    from minecheck.running.reaper import descendants

    code = (f"import sys; sys.path[:0] = [{str(Path(__file__).parent)!r}, {str(PROGRAMS.parent)!r}]\n"
            "from minecheck.running import sandbox as isolation\n"
            "from minecheck.model.budget import Budget\n"
            "import test_isolation as t\n"
            "probe = t._Probe()\n"
            "isolation.run(probe, 'pid', (), Budget(cpu=5))\n"
            "print(isolation.sandbox(probe).pid, flush=True)\n"
            "isolation.run(probe, 'hang', (), Budget(cpu=5, idle=600))\n")
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=TESTS)
    sandbox = int(caller.stdout.readline())
    time.sleep(0.5)  # the sandbox is asleep in its call now
    tree = [sandbox, *descendants(sandbox)]  # with its namespace's init and the process serving the call
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if all(_gone(pid) for pid in tree):
            return
        time.sleep(0.05)
    for pid in tree:
        os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"sandbox {tree} still ran its call after its caller was killed")


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_watchdog_that_was_itself_stopped_does_not_call_the_solver_idle(monkeypatch):
    """A job stopped with SIGSTOP (or starved) and resumed: the wall clock ran, nothing ran; no idle stop."""
    import time

    from minecheck.running import watchdog
    from minecheck.running.proctree import Usage

    monkeypatch.setattr(watchdog, "group_usage", lambda pgid: Usage(1.0, 10.0))  # no CPU progress
    limits = Budget(cpu=None, memory_mib=None, idle=0.5)
    polls = []

    def answered(wait: float) -> bool:
        polls.append(wait)
        if len(polls) == 3:
            time.sleep(1.5)  # the watchdog stopped for longer than the idle limit
        return len(polls) == 5  # the answer comes right after

    assert watchdog.watch(0, limits, answered) is None
    polls.clear()
    monkeypatch.setattr(watchdog, "WATCHDOG_STALL", 10.0)  # a stall this long would not count as one: idle
    assert watchdog.watch(0, limits, answered) is Stop.IDLE


class Spinner:
    """Burns CPU in the sandbox, as a solver computing would."""

    def spin(self, seconds: float) -> float:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass
        return seconds


def test_thread_cpu_counts_a_live_sandbox_once_and_not_again_when_it_is_reaped():
    # os.times() counts a sandbox's CPU only when it is waited for, so a shrink that replaced a
    # sandbox made by an earlier task in the same worker was charged that task's CPU (a mineai@fixed
    # shrink stopped after 26 calls and 8 s, where a fresh process ran 314 calls)
    before = thread_cpu()
    spinner = Spinner()
    assert isolation.run(spinner, "spin", (0.3,), Budget(cpu=5)).value == 0.3
    assert thread_cpu() - before >= 0.25, "the live sandbox's CPU counts while it lives"
    mark = sandbox(spinner).cpu()
    sandbox(spinner).close()  # the child is waited for here (the caller's own CPU for that is its own)
    assert abs(sandbox(spinner).cpu() - mark) < 0.1, "and is not counted a second time when it ends"
