"""A run folder is known by its manifest: --overwrite removes what minecheck wrote there and nothing else,
a folder holding a user's files is refused naming them, and a linked --out is refused naming its target."""

from __future__ import annotations

import os
import subprocess
import sys

from minecheck.cli import main

FAST = ["--solvers", "exact", "--references", "exact", "--no-progress", "--no-report"]
USERS = {"package.json": "{}", "tsconfig.json": "{}", "index.html": "<p>mine</p>", "notes.txt": "notes"}


def run(argv, capsys) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def fuzz(out, capsys, *extra: str) -> tuple[int, str]:
    return run(["fuzz", "--seed", "1", "--boards", "2", "--out", str(out), *FAST, *extra], capsys)


def users_folder(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    for name, text in USERS.items():
        (out / name).write_text(text)
    return out


def test_overwrite_refuses_a_folder_of_the_users_files_naming_them_and_removes_none(tmp_path, capsys):
    out = users_folder(tmp_path)
    code, err = fuzz(out, capsys, "--overwrite")
    assert code == 2
    assert "did not write" in err and all(name in err for name in USERS)
    assert {p.name: p.read_text() for p in out.iterdir() if p.name in USERS} == USERS


def test_a_fresh_run_refuses_a_folder_holding_a_file_it_would_write_over_naming_it(tmp_path, capsys):
    out = users_folder(tmp_path)
    code, err = fuzz(out, capsys)
    assert code == 2 and "would write over" in err and "index.html" in err and "earlier run" not in err
    assert {p.name: p.read_text() for p in out.iterdir() if p.name in USERS} == USERS


def test_a_users_file_beside_a_run_is_left_alone_and_named_when_overwriting(tmp_path, capsys):
    out = tmp_path / "c"
    assert fuzz(out, capsys)[0] == 0
    (out / "notes.txt").write_text("mine")
    code, err = fuzz(out, capsys, "--overwrite")
    assert code == 2 and "notes.txt" in err
    (out / "notes.txt").unlink()
    assert fuzz(out, capsys, "--overwrite")[0] == 0


def test_overwrite_removes_exactly_the_files_of_the_earlier_run(tmp_path, capsys):
    out = tmp_path / "c"
    assert fuzz(out, capsys)[0] == 0
    written = sorted(p.name for p in out.iterdir())
    listed = (out / ".minecheck-files").read_text().split()
    assert set(listed) <= set(written) and "findings.jsonl" in listed and "campaign.json" in listed
    assert fuzz(out, capsys, "--overwrite")[0] == 0
    assert sorted(p.name for p in out.iterdir()) == written


def test_a_linked_out_is_refused_naming_where_it_points(tmp_path, capsys):
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.symlink(target, tmp_path / "link")
    code, err = fuzz(tmp_path / "link", capsys)
    assert code == 2 and str(target) in err
    assert list(target.iterdir()) == []


def test_baseline_write_refuses_to_replace_a_file_that_is_not_a_baseline_unless_forced(tmp_path, capsys):
    out = tmp_path / "c"
    assert fuzz(out, capsys)[0] == 0
    precious = tmp_path / "hosts"
    precious.write_text("127.0.0.1 localhost\n")
    code, err = run(["baseline", str(out), "--write", str(precious)], capsys)
    assert code == 2 and str(precious) in err and "--force" in err
    assert precious.read_text() == "127.0.0.1 localhost\n"
    written = tmp_path / "baseline.json"
    assert run(["baseline", str(out), "--write", str(written)], capsys)[0] == 0
    assert run(["baseline", str(out), "--write", str(written)], capsys)[0] == 0, "its own file it replaces"
    assert run(["baseline", str(out), "--write", str(precious), "--force"], capsys)[0] == 0
    assert precious.read_text() != "127.0.0.1 localhost\n"


def test_save_regression_refuses_to_replace_a_file_that_is_not_a_finding(tmp_path):
    from shared import board

    from minecheck.campaigns.regressions import file_name, save
    from minecheck.check.findings import Finding, Kind
    from minecheck.model.answers import Mode
    from minecheck.model.boardtext import format_board
    from minecheck.model.errors import FolderRefused

    finding = Finding(Kind.VERDICT, "x", "exact", Mode.LOCAL, (0,), "mine", "safe", format_board(board("HHH/121")),
                      "", None, 0)
    mine = tmp_path / file_name(finding)
    mine.write_text("my notes")
    try:
        save(finding, tmp_path)
    except FolderRefused as err:
        assert str(mine) in str(err)
    else:
        raise AssertionError("a file that is not a finding was replaced")
    assert mine.read_text() == "my notes"
    assert save(finding, tmp_path, force=True) == mine and save(finding, tmp_path) == mine


def test_a_run_refused_for_a_folder_in_use_leaves_its_summary_alone(tmp_path, capsys):
    out = tmp_path / "c"
    assert fuzz(out, capsys)[0] == 0
    before = (out / "summary.json").read_text()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
                               "from minecheck.running.runfolder import holding\n"
                               f"with holding(Path({str(out)!r})):\n    print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code, err = fuzz(out, capsys, "--resume")
        assert code == 2 and "in use" in err
        assert (out / "summary.json").read_text() == before
    finally:
        holder.kill()
        holder.wait()


def _disturbing(out, change, *extra: str):
    """A campaign whose folder ``change(out)`` alters after its first board: its exit code and message."""
    from minecheck.campaigns import campaign as fuzzing

    real = fuzzing._record
    seen = []

    def record(folder, outcome):
        if seen:
            change(out)
        seen.append(outcome.index)
        real(folder, outcome)

    fuzzing._record = record
    try:
        return main(["fuzz", "--seed", "1", "--boards", "4", "--out", str(out), "--jobs", "1", *FAST, *extra])
    finally:
        fuzzing._record = real


def test_a_findings_file_overwritten_under_the_run_stops_it_with_exit_4_naming_the_file(tmp_path, capsys):
    out = tmp_path / "c"
    code = _disturbing(out, lambda out: (out / "findings.jsonl").write_text("garbage\n"))
    err = capsys.readouterr().err
    assert code == 4 and err.count("\n") == 1
    assert str(out / "findings.jsonl") in err and "another program" in err


def test_a_lock_removed_under_the_run_stops_it_with_exit_4_naming_the_lock(tmp_path, capsys):
    out = tmp_path / "c"
    code = _disturbing(out, lambda out: (out / ".lock").unlink(missing_ok=True))
    err = capsys.readouterr().err
    assert code == 4 and str(out / ".lock") in err


def test_a_full_disk_names_the_file_exits_4_and_leaves_no_torn_line(tmp_path, capsys, monkeypatch):
    import errno

    from minecheck.running import runfolder

    out = tmp_path / "c"
    real = os.write
    calls = []

    def write(fd, data):
        name = os.readlink(f"/proc/self/fd/{fd}")
        if not name.startswith(str(out)) or not name.endswith(("findings.jsonl", "boards.jsonl")):  # not pipes, nor
            return real(fd, data)  # answers.jsonl (appended first): the disk fills between the board's two lines
        calls.append(fd)
        if len(calls) > 2:  # the first board's lines go in; then the disk is full halfway through a line
            real(fd, bytes(data[: max(1, len(data) // 2)]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(runfolder.os, "write", write)
    code = main(["fuzz", "--seed", "1", "--boards", "4", "--out", str(out), "--jobs", "1", *FAST,
                 "--solvers", "hostile_python:Lie"])
    monkeypatch.setattr(runfolder.os, "write", real)
    err = capsys.readouterr().err
    assert code == 4 and "No space left on device" in err and str(out) in err, err
    for name in ("findings.jsonl", "boards.jsonl"):
        text = (out / name).read_text()
        assert text == "" or text.endswith("\n"), f"{name} ends in a torn line"


def _blank(path) -> None:
    """What the hostile program of issue 38 did: every byte but the newlines a space, the same size and times."""
    st = os.stat(path)
    data = path.read_bytes()
    path.write_bytes(bytes(b if b == 10 else 32 for b in data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_findings_blanked_to_the_same_size_mid_run_stop_it_with_exit_4_naming_the_file(tmp_path, capsys):
    out = tmp_path / "c"
    code = main(["fuzz", "--seed", "1", "--boards", "4", "--out", str(out), "--jobs", "1", *FAST,
                 "--solvers", "hostile_python:Lie"])
    assert code == 1 and (out / "findings.jsonl").stat().st_size > 0
    capsys.readouterr()
    out = tmp_path / "d"
    code = _disturbing(out, lambda out: _blank(out / "findings.jsonl"), "--solvers", "hostile_python:Lie")
    err = capsys.readouterr().err
    assert code == 4 and err.count("\n") == 1, err
    assert str(out / "findings.jsonl") in err and "another program" in err


def test_findings_blanked_between_runs_are_refused_on_resume_with_exit_4_naming_the_file(tmp_path, capsys):
    out = tmp_path / "c"
    argv = ["fuzz", "--seed", "1", "--boards", "3", "--out", str(out), "--jobs", "1", *FAST,
            "--solvers", "hostile_python:Lie"]
    assert main(argv) == 1
    capsys.readouterr()
    _blank(out / "findings.jsonl")
    code = main([*argv[:4], "4", *argv[5:], "--resume"])
    err = capsys.readouterr().err
    assert code == 4 and str(out / "findings.jsonl") in err and "not what the run wrote" in err, err


def test_the_digests_follow_a_resumed_run_so_a_clean_resume_passes(tmp_path, capsys):
    out = tmp_path / "c"
    argv = ["fuzz", "--seed", "1", "--boards", "2", "--out", str(out), "--jobs", "1", *FAST,
            "--solvers", "hostile_python:Lie"]
    assert main(argv) == 1
    assert main([*argv[:4], "4", *argv[5:], "--resume"]) == 1
    assert main([*argv[:4], "5", *argv[5:], "--resume"]) == 1, capsys.readouterr().err


def test_a_link_planted_at_a_temporary_name_is_refused_and_its_target_left_untouched(tmp_path, capsys):
    out, users = tmp_path / "c", tmp_path / "users_file.txt"
    users.write_text("the user's own words\n")
    code = _disturbing(out, lambda out: (out / "summary.json.tmp").symlink_to(users))
    err = capsys.readouterr().err
    assert code == 4 and str(out / "summary.json.tmp") in err and str(users) in err, err
    assert users.read_text() == "the user's own words\n"
    assert (out / "summary.json.tmp").is_symlink()


def test_a_link_planted_at_an_appended_file_is_refused_and_its_target_left_untouched(tmp_path, capsys):
    out, users = tmp_path / "c", tmp_path / "users_file.txt"
    users.write_text("the user's own words\n")

    def plant(out):
        (out / "answers.jsonl").unlink(missing_ok=True)
        (out / "answers.jsonl").symlink_to(users)

    code = _disturbing(out, plant, "--solvers", "hostile_python:Lie")
    err = capsys.readouterr().err
    assert code == 4 and str(out / "answers.jsonl") in err, err
    assert users.read_text() == "the user's own words\n"


def test_a_summary_edited_to_1e999_seconds_gives_a_summary_that_stays_json_on_resume(tmp_path, capsys):
    import json

    out = tmp_path / "c"
    assert fuzz(out, capsys)[0] == 0
    (out / "summary.json").write_text('{"seconds": 1e999}\n')
    assert run(["fuzz", "--seed", "1", "--boards", "3", "--out", str(out), *FAST, "--resume"], capsys)[0] == 0

    def no_constant(name):
        raise AssertionError(f"summary.json holds {name}, which is not JSON")

    summary = json.loads((out / "summary.json").read_text(), parse_constant=no_constant)
    assert 0 <= summary["seconds"] < 1e12
