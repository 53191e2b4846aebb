"""Bad input never shows a traceback: every bad command line or file is exit 2 with one line naming
the option or the file, and a run folder keeps one run, whole files and what was found."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared import ROOT, board

from minecheck.cli import main
from minecheck.model.answers import Mode
from minecheck.model.errors import ProtocolError
from minecheck.references.brute import BruteSolver
from minecheck.running.protocol import decode_answer
from minecheck.running.runfolder import RunFolder, holding, write_text

FAST = ["--solvers", "exact", "--references", "exact", "--no-progress", "--no-report"]


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err
    return code, err


def one_clear_line(err: str) -> bool:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return "Traceback" not in err and len(lines) >= 1 and lines[-1].startswith(("minecheck", "usage"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--timeout", "--memory", "--boards", "--jobs", "--shrink-per-signature"]),
       value=st.one_of(st.sampled_from(["-1", "0", "nan", "inf", "-inf", "1e999", "", "x", "--", "1/2"]),
                       st.text(max_size=6)))
def test_a_bad_number_on_the_command_line_is_refused_naming_the_option(option, value, tmp_path_factory, capsys):
    out = tmp_path_factory.mktemp("out")
    argv = ["fuzz", "--seed", "1", "--boards", "1", "--out", str(out), *FAST]
    if option == "--boards":
        argv[argv.index("--boards") + 1] = value
    else:
        argv += [option, value]
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse refuses before any work
        code = stop.code
    err = capsys.readouterr().err
    if code != 2:  # a value argparse reads as a good one (e.g. "1e999" is no int) must still run cleanly
        assert code in (0, 1) and "Traceback" not in err
        return
    assert option in err or "argument" in err or "expected one argument" in err
    assert "Traceback" not in err


def file_of(content: bytes | None, name: str = "f"):
    """A maker of a path in a folder: a file holding ``content``, a folder (None), or nothing (b"-")."""
    def make(folder: Path) -> Path:
        path = folder / name
        if content is None:
            path.mkdir()
        elif content != b"-":
            path.write_bytes(content)
        return path
    return make


@pytest.mark.parametrize("make, says", [
    (file_of(b"-", "missing.mine"), "no such board file"),
    (file_of(None, "folder"), "a folder, not a board file"),
    (file_of(b"\x00\xff\xfe" * 50, "bin.mine"), "not UTF-8 text"),
    (file_of(b"2x2\nHX\nHH\n", "bad.mine"), "line 2, column 2"),
])
def test_a_board_that_cannot_be_read_is_refused_naming_it(make, says, tmp_path, capsys):
    path = make(tmp_path)
    code, err = run(["check", str(path), "--references", "exact"], capsys)
    assert code == 2 and says in err and one_clear_line(err)


def test_an_endless_board_on_standard_input_is_refused_after_a_bounded_read():
    zero = subprocess.run([sys.executable, "-m", "minecheck.cli", "check", "-", "--references", "exact"],
                          stdin=open("/dev/zero", "rb"), capture_output=True, text=True, timeout=60)
    assert zero.returncode == 2 and "standard input: more than" in zero.stderr and "Traceback" not in zero.stderr


def under_a_file(folder: Path) -> Path:
    return file_of(b"x")(folder) / "sub"


def dangling_link(folder: Path) -> Path:
    os.symlink(folder / "nowhere", folder / "link")
    return folder / "link"


@pytest.mark.parametrize("make, says", [
    (file_of(b"x"), "a file, not a folder"),
    (under_a_file, "cannot make this folder"),
    (dangling_link, "which does not exist"),
])
def test_an_out_that_cannot_be_a_folder_is_refused_naming_it(make, says, tmp_path, capsys):
    out = make(tmp_path)
    code, err = run(["fuzz", "--seed", "1", "--boards", "1", "--out", str(out), *FAST], capsys)
    assert code == 2 and says in err and str(out) in err and one_clear_line(err)


@pytest.mark.parametrize("name, content, says", [
    ("campaign.json", "[]", "must be object"),
    ("campaign.json", "garbage{", "not JSON"),
    ("campaign.json", "\udcff", "not"),
])
def test_a_broken_campaign_file_is_refused_on_resume_naming_it(name, content, says, tmp_path, capsys):
    (tmp_path / name).write_bytes(content.encode("utf-8", "surrogateescape"))
    code, err = run(["fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path), "--resume", *FAST], capsys)
    assert code == 2 and says in err and name in err and one_clear_line(err)


def test_a_baseline_that_is_no_baseline_is_refused_naming_it(tmp_path, capsys):
    (tmp_path / "base.json").write_text("[]")
    code, err = run(["fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path / "o"),
                     "--baseline", str(tmp_path / "base.json"), *FAST], capsys)
    assert code == 2 and "base.json" in err and one_clear_line(err)


def test_resume_skips_garbage_lines_saying_which_and_keeps_what_was_found(tmp_path, capsys):
    out = tmp_path / "c"
    assert run(["fuzz", "--seed", "1", "--boards", "3", "--out", str(out), *FAST], capsys)[0] == 0
    with open(out / "boards.jsonl", "a") as f:
        f.write("garbage\n[1]\n{\"no\": \"index\"}\n")
    (out / "summary.json").write_text("{}")
    code, err = run(["fuzz", "--seed", "1", "--boards", "5", "--out", str(out), "--resume", *FAST], capsys)
    assert code == 0 and "boards.jsonl line 4" in err and "Traceback" not in err
    indices = [json.loads(line)["index"] for line in (out / "boards.jsonl").read_text().splitlines()]
    assert indices == [0, 1, 2, 3, 4]


def test_an_earlier_run_in_out_is_refused_without_resume_or_overwrite(tmp_path, capsys):
    out = tmp_path / "c"
    assert run(["fuzz", "--seed", "1", "--boards", "2", "--out", str(out), *FAST], capsys)[0] == 0
    write_text(out / "finding-00099.html", "stale")  # a page of the earlier run (in its manifest)
    code, err = run(["fuzz", "--seed", "2", "--boards", "2", "--out", str(out), *FAST], capsys)
    assert code == 2 and "--overwrite" in err and "--resume" in err
    code, _ = run(["fuzz", "--seed", "2", "--boards", "2", "--out", str(out), "--overwrite", *FAST], capsys)
    assert code == 0 and not (out / "finding-00099.html").exists()
    assert json.loads((out / "campaign.json").read_text())["seed"] == 2


def test_a_second_run_on_a_folder_in_use_is_refused_naming_the_process_that_holds_it(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
                               "from minecheck.running.runfolder import holding\n"
                               f"with holding(Path({str(tmp_path)!r})):\n    print('held', flush=True)\n"
                               "    time.sleep(30)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ValueError, match=rf"in use by another minecheck run \(process {holder.pid}\)"):
            with holding(tmp_path):
                pass
    finally:
        holder.kill()
        holder.wait()
    with holding(tmp_path):  # the kernel dropped the lock with the process
        pass


def test_a_write_that_fails_leaves_the_last_good_file_and_no_temporary_one(tmp_path, monkeypatch):
    path = tmp_path / "summary.json"
    write_text(path, "good\n")

    def full(*_):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        write_text(path, "half")
    assert path.read_text() == "good\n" and not list(tmp_path.glob("*.tmp"))


def test_a_full_disk_is_exit_2_naming_the_file_and_keeps_the_findings(tmp_path, capsys, monkeypatch):
    out = tmp_path / "c"
    assert run(["fuzz", "--seed", "1", "--boards", "2", "--out", str(out), *FAST], capsys)[0] == 0
    found = (out / "findings.jsonl").read_text()
    real = os.replace

    def full(src, dst, **where):  # the run folder's files are replaced relative to its descriptor (dir_fd)
        if str(dst).endswith("summary.json"):
            raise OSError(28, "No space left on device", str(dst))
        return real(src, dst, **where)
    monkeypatch.setattr(os, "replace", full)
    code, err = run(["fuzz", "--seed", "1", "--boards", "4", "--out", str(out), "--resume", *FAST], capsys)
    assert code == 2 and "summary.json: No space left on device" in err and "Traceback" not in err
    assert (out / "findings.jsonl").read_text().startswith(found)
    assert json.loads((out / "summary.json").read_text())["seconds"] > 0  # the last good one


FOUND = json.dumps({"index": 0, "kind": "verdict", "subject": "s", "reference": "exact", "mode": "local", "cells": [0],
                    "subject_says": "mine", "reference_says": "safe", "board": "1x1\nH\n", "detail": "",
                    "recipe": None, "extra": {}})  # a whole finding: findings.jsonl is read through its schema


def test_a_folder_holding_the_results_of_a_run_reads_back_only_whole_lines(tmp_path):
    folder = RunFolder(tmp_path, "x.json", "r.jsonl", lambda r: r["index"], lambda f: f["index"])
    with holding(tmp_path):
        folder.prepare({"a": 1}, resume=False)
        folder.record({"index": 0}, [FOUND])
        with open(tmp_path / "r.jsonl", "a") as f:
            f.write('{"index": 1')  # torn by a kill
        warned = []
        assert folder.prepare({"a": 1}, resume=True, warn=warned.append) == {0}
    assert warned and "line 2" in warned[0]


@pytest.mark.parametrize("text, says", [
    ('{"schema":1,"cells":' + "[" * 100000 + "]" * 100000 + "}", "nests"),
    ('{"schema":1,"cells":[{"row":' + "9" * 4000 + ',"col":0}]}', "off the 3x2 board"),
    ('{"schema":1,"cells":[{"row":0,"col":0,"probability":NaN}]}', "NaN, which is not JSON"),
])
def test_any_json_a_program_prints_is_a_protocol_error_naming_the_limit(text, says):
    with pytest.raises(ProtocolError, match=says):
        decode_answer(text, board("HHH/121"), Mode.LOCAL, "p")


def test_brute_declines_a_board_whose_groups_take_too_long_to_combine():
    blocks = board("100x1x50/" + "H1HF" * 25)  # 25 groups of two cells: a few nodes each, many products
    result = BruteSolver("500").solve(blocks, Mode.GLOBAL)
    assert result.declined and "steps" in result.declined


def test_brute_still_answers_what_it_answered():
    result = BruteSolver().solve(board("4x2x2/HHHH/1221"), Mode.GLOBAL)
    assert result.declined is None and result.layouts == 1


def test_the_sandbox_limits_are_documented():
    readme = (ROOT / "docs" / "checking.md").read_text()
    for limit in ("CPU", "memory", "64 MiB", "process tree", "idle", "network", "bubblewrap"):
        assert limit in readme, limit
