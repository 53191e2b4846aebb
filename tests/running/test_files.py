"""Every file minecheck writes is written without following a link, and every file it reads back on ``--resume``
is a regular file of bounded size (issue 48, cases 5 and 7): a link already at a name minecheck writes is neither
written through nor replaced, ``verify --export`` included; a FIFO, a device or a link read back is exit 2 naming
it, never a hang or exit 3; a number of any size read back is a clear error, not an OverflowError."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minecheck.certify.certification import certify
from minecheck.certify.export import export
from minecheck.cli import main
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BadFile, FolderRefused, RunDisturbed
from minecheck.running.files import read_text, write_whole
from minecheck.solvers.exact import ExactSolver

WORDS = "the user's words\n"


@pytest.fixture
def users_file(tmp_path):
    path = tmp_path / "users_file.txt"
    path.write_text(WORDS)
    return path


def test_a_link_at_a_name_minecheck_writes_is_neither_written_through_nor_replaced(tmp_path, users_file):
    target = tmp_path / "out" / "index.html"
    target.parent.mkdir()
    target.symlink_to(users_file)
    with pytest.raises(RunDisturbed, match="a link to .*users_file.txt where minecheck writes its own file"):
        write_whole(target, "<html>minecheck's page</html>")
    assert users_file.read_text() == WORDS and target.is_symlink()
    assert not (tmp_path / "out" / "index.html.tmp").exists()


def test_verify_export_does_not_follow_a_link_already_in_its_folder(tmp_path, users_file):
    board = parse_board("3x2\nHHH\n121")
    items = [("b0-local", certify(board, ExactSolver().solve(board, Mode.LOCAL)))]
    folder = tmp_path / "exported"
    folder.mkdir()
    (folder / "README.md").symlink_to(users_file)
    with pytest.raises(FolderRefused, match="not an empty folder"):  # an export writes into a new folder only
        export(items, folder)
    assert users_file.read_text() == WORDS, "the user's file was written over through the link"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A campaign of two boards, finished: the folder a test breaks, then resumes."""
    out = tmp_path_factory.mktemp("finished") / "run"
    assert main(["fuzz", "--seed", "1", "--boards", "2", "--solvers", "exact", "--references", "exact",
                 "--out", str(out), "--no-report", "--no-progress", "--jobs", "1"]) == 0
    return out


def resumed(finished: Path, tmp_path: Path, breaking, *report: str) -> tuple[int, str]:
    """Exit code and standard error of ``fuzz --resume`` on a copy of the finished run, broken by ``breaking``,
    in a process of its own (a hang is a failure after 60 s, not a hung test run)."""
    out = tmp_path / "run"
    subprocess.run(["cp", "-a", str(finished), str(out)], check=True)
    breaking(out)
    done = subprocess.run([sys.executable, "-m", "minecheck.cli", "fuzz", "--seed", "1", "--boards", "3", "--solvers",
                           "exact", "--references", "exact", "--out", str(out), "--resume", "--no-progress",
                           "--jobs", "1", *(report or ["--no-report"])], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr


def big_seconds(out: Path) -> None:
    (out / "summary.json").write_text('{"seconds": 1' + "0" * 400 + "}")


def non_json_link(out: Path) -> None:
    (out / "summary.json").unlink()
    (out / "summary.json").symlink_to("/etc/hostname")


def fifo(out: Path) -> None:
    (out / "boards.jsonl").unlink()
    os.mkfifo(out / "boards.jsonl")


def device(out: Path) -> None:
    (out / "findings.jsonl").unlink()
    (out / "findings.jsonl").symlink_to("/dev/zero")


@pytest.mark.parametrize("breaking, said", [
    (non_json_link, "summary.json: a link to /etc/hostname, not a file minecheck wrote"),
    (fifo, "boards.jsonl: a FIFO, not a file minecheck wrote"),
    (device, "findings.jsonl: a link to /dev/zero, not a file minecheck wrote"),
])
def test_a_resumed_folder_holding_what_minecheck_did_not_write_is_exit_2_naming_it(finished, tmp_path, breaking,
                                                                                    said):
    code, err = resumed(finished, tmp_path, breaking)
    assert code == 2 and said in err and "Traceback" not in err, err


def test_a_summary_with_a_400_digit_seconds_is_no_earlier_time_and_the_report_is_drawn(finished, tmp_path):
    # summary.json only says how long the runs took: a number no time can be counts as none (the run's own
    # time is written back), where it was an OverflowError, exit 3, when the report read it
    code, err = resumed(finished, tmp_path, big_seconds, "--shrink-time", "1")
    assert code == 0 and "Traceback" not in err, err
    assert 0 <= json.loads((tmp_path / "run" / "summary.json").read_text())["seconds"] < 1e12
    assert (tmp_path / "run" / "index.html").is_file()


def test_a_fifo_is_refused_when_read_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(BadFile, match="a FIFO"):
        read_text(tmp_path / "pipe")
    (tmp_path / "big").write_bytes(b"x" * 100)
    with pytest.raises(BadFile, match="100 bytes, more than the 10"):
        read_text(tmp_path / "big", limit=10)
    assert json.loads(read_text(tmp_path / "big", limit=100) and "[1]") == [1]
