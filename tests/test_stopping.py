"""The command line answers at once: Ctrl-C ends a command saying what it was doing and only what is true,
``shrink`` shows its progress, a refused run draws none (issue 40).  The times are measured in
bench/interrupt.py; here the words and the exit codes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from minecheck.cli import _fuzz_stopped, main

PROGRAM = [sys.executable, "-m", "minecheck.launch"]
RING = "9x9x10/" + "/".join(["HHHHHHHHH"] * 2 + ["HHH111HHH", "HHH101HHH", "HHH111HHH"] + ["HHHHHHHHH"] * 4)


def interrupt_when(argv: list[str], said: str, folder: Path) -> tuple[int, str]:
    """Run minecheck, press Ctrl-C (SIGINT to its process group) once ``said`` is on its stderr; its exit code
    and stderr."""
    err = folder / "stderr.txt"
    with err.open("w") as sink:
        proc = subprocess.Popen(PROGRAM + argv, stdout=subprocess.DEVNULL, stderr=sink, cwd=folder,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            deadline = time.monotonic() + 120
            while said not in err.read_text() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert proc.poll() is None, f"ended before Ctrl-C: {err.read_text()}"
            os.killpg(proc.pid, signal.SIGINT)
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return code, err.read_text()


def test_ctrl_c_during_fuzz_says_what_is_kept_and_how_to_go_on(tmp_path):
    code, err = interrupt_when(["fuzz", "--seed", "1", "--boards", "400", "--out", "run", "--jobs", "2",
                                "--no-report"], "fuzz: boards", tmp_path)
    assert code == 130, err
    assert "minecheck: stopped while checking boards" in err and "fuzz --resume goes on" in err
    assert "Traceback" not in err and "internal error" not in err
    assert (tmp_path / "run" / "campaign.json").exists()  # what it says is kept is there


def test_ctrl_c_during_shrink_says_which_pages_it_wrote(tmp_path):
    code, err = interrupt_when(["shrink", RING, "--solvers", "dpll@seed", "--mode", "local"], "shrink: shrinking",
                               tmp_path)
    assert code == 130, err
    assert "minecheck: stopped while shrinking: no page written" in err and "Traceback" not in err


def test_a_fuzz_stopped_before_its_folder_was_taken_claims_nothing_on_disk(tmp_path):
    said = _fuzz_stopped(tmp_path / "never", None, "boards")
    assert "nothing written" in said and "resume" not in said


def test_shrink_shows_its_progress_on_stderr(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["shrink", RING, "--solvers", "dpll@seed", "--mode", "local", "--pages", str(tmp_path)])
    out, err = capsys.readouterr()
    shrunk = re.findall(r"^shrink: shrinking (\d+)/(\d+)", err, re.M)
    assert code == 1 and re.search(r"^shrink: checking the board 1/1, \d+ findings", err, re.M)
    assert shrunk and shrunk[-1][0] == shrunk[-1][1]  # the last line: every finding shrunk
    assert "shrink:" not in out and "finding 1 of" in out


def test_a_refused_run_draws_no_progress(tmp_path, capsys):
    out = tmp_path / "c"
    out.mkdir()
    (out / "findings.jsonl").write_text("not ours\n")  # a file minecheck would write over
    code = main(["fuzz", "--seed", "1", "--boards", "3", "--out", str(out), "--solvers", "exact",
                 "--references", "exact", "--no-report"])
    err = capsys.readouterr().err
    assert code == 2 and "choose another --out" in err and "fuzz:" not in err
