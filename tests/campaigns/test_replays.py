"""Every replay line a campaign's pages show runs as printed, from the folder the campaign ran in, and shows the
finding again: for a program named on the command line (NAME=cmd:... or NAME={...}) as for a built-in solver."""

from __future__ import annotations

import html
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from shared import PROGRAMS

from minecheck.cli import main

PROGRAM = PROGRAMS / "protocol_program.py"


def replays(out: Path) -> list[str]:
    lines = []
    for page in sorted(out.glob("finding-*.html")):
        text = page.read_text()
        found = re.findall(r"One command replays it:</p>\s*<pre[^>]*>(.*?)</pre>", text, re.S)
        lines += [html.unescape(m) for m in found]
    return lines


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(line, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_every_replay_line_of_a_campaign_with_a_program_named_inline_runs_and_shows_its_finding(tmp_path):
    program = shlex.join([sys.executable, str(PROGRAM), "--misbehave", "mines-are-safe"])
    persistent = program + " --persistent"  # one process for the run: shrinking calls it often
    named = (f'liar={{command = {persistent!r}, persistent = true, answers = ["verdicts", "probabilities"]}}'
             .replace("'", '"'))
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        code = main(["fuzz", "--seed", "3", "--boards", "1", "--generator", "reveal", "--out", "run", "--solvers",
                     f"{named},quick=cmd:{program}", "--references", "exact", "--jobs", "1", "--no-progress",
                     "--shrink-per-signature", "1"])
    finally:
        os.chdir(cwd)
    assert code == 1
    lines = replays(tmp_path / "run")
    assert len(lines) >= 4 and any("liar={" in line for line in lines) and any("quick={" in line for line in lines)
    for line in lines:
        assert "--references exact" in line, line
        done = run_line(line, tmp_path)
        assert done.returncode == 1 and "Traceback" not in done.stderr, (line, done.stdout[-500:], done.stderr[-500:])


def test_every_replay_line_of_a_campaign_with_lp_findings_runs_and_shows_its_finding_again(tmp_path):
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        code = main(["fuzz", "--seed", "1", "--boards", "8", "--out", "run", "--solvers", "simplex@seed",
                     "--references", "exact", "--jobs", "1", "--no-progress"])
    finally:
        os.chdir(cwd)
    assert code == 1
    pages = sorted((tmp_path / "run").glob("finding-*.html"))
    lines = replays(tmp_path / "run")
    general = [line for line in lines if " --lp " in line]
    assert len(lines) == len(pages) and general and len(general) < len(lines)  # LPs, and boards' relaxations
    for page in pages:
        text = page.read_text()
        if "random LP" in text:  # an LP page says where its LP came from, and calls it no board
            assert "a board given by hand" not in text and "board index" not in text and "The LP, as text" in text
    for line in lines:
        done = run_line(line, tmp_path)
        assert done.returncode == 1 and "simplex@seed says:" in done.stdout, (line, done.stdout[-500:],
                                                                             done.stderr[-500:])
