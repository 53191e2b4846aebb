"""A jailed solver's every resource inside its budget, and nothing of minecheck's in its reach (issue 48, cases 2, 3
and 6): its private /tmp is sized and counted in its memory, its standard output and error are a pipe minecheck
reads under the output budget (never the user's log), and it sees neither minecheck's environment nor root's
files, so neither reaches a report.  For a ``cmd:`` program and a Python solver alike, where bubblewrap runs."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import hostile_jail
import pytest
from shared import PROGRAMS, board

from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running import jail
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver

pytestmark = pytest.mark.skipif(not jail.status().active, reason="no sandbox here (docs/sandbox.md says why)")
HOSTILE = PROGRAMS / "hostile"


SYSTEM_PYTHON = "/usr/bin/python3"  # the hostile programs run with any python3; the system's is open to everyone


def program(name: str, *args: str, python: str = sys.executable) -> str:
    return "cmd:" + shlex.join([python, str(HOSTILE / name), *args])


@pytest.mark.parametrize("solver", [program("fill_tmp.py"), hostile_jail.FILL_TMP])
def test_a_solver_filling_its_tmp_is_stopped_at_its_memory_budget(solver):
    # 4 GiB asked of a /tmp in RAM: the tmpfs holds at most the budget, and what it holds counts in the memory,
    # so the solver that keeps it and computes on is stopped there, not at its CPU budget
    budget = Budget(cpu=30, memory_mib=128, idle=10)
    result = run_solver(get_solver(solver), board("HHH/121"), Mode.LOCAL, budget=budget)
    assert result.error == "MemoryError: stopped at its memory limit of 128 MiB", result.error


def minecheck(*args: str, stderr=subprocess.PIPE, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "minecheck.cli", *args], stdout=subprocess.PIPE, stderr=stderr,
                          text=True, cwd=PROGRAMS, env=env or {"PATH": "/usr/bin:/bin"}, timeout=600)


def test_a_python_solver_flooding_its_stderr_costs_its_own_finding_and_not_the_user_s_log():
    done = minecheck("check", "HHH/121", "--solvers", hostile_jail.FLOOD, "--references", "exact", "--json")
    assert done.returncode == 1 and len(done.stderr) < 10_000, done.stderr[:2000]
    (finding,) = json.loads(done.stdout)["findings"]
    assert finding["subject_says"] == "Crash: it wrote to its standard output and error more than its output " \
                                      "budget of 64 MiB"


def test_a_python_solver_cannot_truncate_the_user_s_log_nor_write_in_it(tmp_path):
    log = tmp_path / "log"
    log.write_text("the user's log\n")
    with open(log, "a") as f:
        done = minecheck("check", "HHH/121", "--solvers", hostile_jail.TRUNCATE_LOG, "--references", "exact",
                         stderr=f)
    assert done.returncode == 0, log.read_text()
    assert log.read_text().startswith("the user's log\n")
    assert hostile_jail.LOG_LINE.decode() not in log.read_text()


def _runs_as(solver: str) -> str:
    """The user the solver runs as, in the words of ``minecheck solvers`` (``discovery.grants``)."""
    from minecheck.running.discovery import grants, lookup

    return grants(lookup(f"snoop={solver}"))["runs_as"]


@pytest.fixture
def secrets():
    """A token in minecheck's environment and a file only root may read, which no solver may see."""
    token = f"token-{os.urandom(8).hex()}"
    fd, path = tempfile.mkstemp(prefix="minecheck-secret-", dir="/var/tmp")
    os.write(fd, f"root's secret {os.urandom(8).hex()}".encode())
    os.close(fd)
    os.chmod(path, 0o600)
    yield token, Path(path).read_text()
    os.unlink(path)


SNOOPS = [program("snoop.py"), hostile_jail.SNOOP]
if os.access(SYSTEM_PYTHON, os.X_OK):
    SNOOPS.append(program("snoop.py", python=SYSTEM_PYTHON))


@pytest.mark.parametrize("solver", SNOOPS)
def test_neither_minecheck_s_environment_nor_root_s_files_reach_a_solver_or_a_report(solver, secrets, tmp_path):
    token, secret = secrets
    env = {"PATH": "/usr/bin:/bin", "CI_TOKEN": token}
    out = tmp_path / "run"
    done = minecheck("fuzz", "--seed", "1", "--boards", "2", "--generator", "small:3", "--solvers", f"snoop={solver}",
                     "--references", "exact", "--out", str(out), "--jobs", "1", "--no-progress", env=env)
    assert done.returncode == 1, done.stderr
    written = {p.name: p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()}
    assert {"findings.jsonl", "answers.jsonl", "junit.xml", "index.html"} <= set(written)
    assert any("PATH=" in text for text in written.values()), "the solver's findings show what it saw"
    leaks = [name for name, text in written.items() if token in text]
    assert not leaks, f"the token reached {leaks}"
    read = [name for name, text in written.items() if secret in text]
    if os.geteuid() != 0:  # minecheck's own user: root's files are closed to it and to its solvers alike
        assert not read and any("Permission denied" in text for text in written.values())
        return
    runs_as = _runs_as(solver)  # as minecheck solvers says it
    if runs_as.startswith("nobody"):  # a real unprivileged user: root's files stay closed
        assert not read, f"root's file reached {read}"
        assert any("Permission denied" in text for text in written.values())
    else:  # a path it needs is closed to nobody (a Python under /root): it reads root's files, and is said to
        assert runs_as.startswith("root's nobody: ") and "can read files only root may read" in runs_as
