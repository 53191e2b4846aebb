"""What a solver's table grants its sandbox, checked when the table is read and when the run starts (issue 48,
case 4): ``writable`` is resolved, and ``/``, the home folder, a run folder, ``--out``, the baseline and any
folder holding them are refused with exit 2 naming the table; ``minecheck solvers`` lists what was granted."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from shared import PROGRAMS

from minecheck.cli import main
from minecheck.running import discovery, tables

PROGRAM = shlex.join([sys.executable, str(PROGRAMS / "protocol_program.py")])


def pyproject(folder: Path, entry: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(f"[tool.minecheck.solvers]\n{entry}\n")
    discovery._pyproject_near.cache_clear()
    tables.read_table.cache_clear()


@pytest.mark.parametrize("kind", ["command", "target"])
@pytest.mark.parametrize("granted", ['"/"', '"/home/.."', '"~HOME~"', '"~HOME~/.."'])
def test_writable_that_is_or_holds_the_root_or_home_is_refused_naming_the_table(kind, granted, tmp_path, monkeypatch,
                                                                                 capsys):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    what = PROGRAM if kind == "command" else "minecheck.solvers.exact:ExactSolver"
    pyproject(tmp_path / "proj", f'w = {{{kind} = "{what}", writable = [{granted.replace("~HOME~", str(home))}]}}')
    monkeypatch.chdir(tmp_path / "proj")
    assert main(["check", "HHH/121", "--solvers", "w", "--references", "exact"]) == 2
    said = capsys.readouterr().err
    assert f"[tool.minecheck.solvers] w in {tmp_path / 'proj' / 'pyproject.toml'}: writable = [" in said
    assert "the root of every file" in said or "the home folder" in said, said


def test_dot_dot_is_resolved_and_refused_where_it_holds_the_run_s_out(tmp_path, monkeypatch, capsys):
    pyproject(tmp_path / "proj", f'w = {{command = "{PROGRAM}", writable = [".."]}}')
    monkeypatch.chdir(tmp_path / "proj")
    code = main(["fuzz", "--seed", "1", "--boards", "1", "--solvers", "w", "--references", "exact",
                 "--out", str(tmp_path / "run"), "--no-report", "--no-progress"])
    said = capsys.readouterr().err
    assert code == 2 and f"writable = ['{tmp_path}'], a folder holding --out ({tmp_path / 'run'})" in said, said
    assert not (tmp_path / "run").exists(), "refused before anything was written"


def test_a_writable_holding_the_baseline_is_refused(tmp_path, monkeypatch, capsys):
    known = tmp_path / "known" / "baseline.json"
    known.parent.mkdir()
    known.write_text(json.dumps({"schema": 2, "bugs": []}))
    solver = f'w={{command = "{PROGRAM}", writable = ["{known.parent}"]}}'
    code = main(["fuzz", "--seed", "1", "--boards", "1", "--solvers", solver, "--references", "exact",
                 "--out", str(tmp_path / "run"), "--baseline", str(known), "--no-report", "--no-progress"])
    said = capsys.readouterr().err
    assert code == 2 and "--solvers w={...}: writable = [" in said and "--baseline" in said, said


def test_a_writable_in_another_run_folder_is_refused(tmp_path, monkeypatch, capsys):
    finished = tmp_path / "finished"
    assert main(["fuzz", "--seed", "1", "--boards", "1", "--solvers", "exact", "--references", "exact",
                 "--out", str(finished), "--no-report", "--no-progress"]) == 0
    capsys.readouterr()
    solver = f'w={{command = "{PROGRAM}", writable = ["{finished}"]}}'
    assert main(["check", "HHH/121", "--solvers", solver, "--references", "exact"]) == 2
    assert f"in the run folder {finished}" in capsys.readouterr().err


def test_minecheck_solvers_lists_what_each_solver_is_granted(tmp_path, monkeypatch, capsys):
    (tmp_path / "cache").mkdir()
    pyproject(tmp_path, f'w = {{command = "{PROGRAM}", writable = ["cache"], env = ["JAVA_HOME"]}}')
    monkeypatch.chdir(tmp_path)
    assert main(["solvers", "--json"]) == 0
    (row,) = [r for r in json.loads(capsys.readouterr().out) if r["name"] == "w"]
    assert row["writable"] == [str(tmp_path / "cache")]
    assert row["env"] == ["PATH", "LANG", "LC_ALL", "HOME", "JAVA_HOME"]
    assert row["runs_as"]
    assert main(["solvers"]) == 0
    text = capsys.readouterr().out
    assert f"writes {tmp_path / 'cache'}; sees PATH, LANG, LC_ALL, HOME, JAVA_HOME of the environment" in text


def test_env_names_only_variable_names(tmp_path, monkeypatch, capsys):
    pyproject(tmp_path, f'w = {{command = "{PROGRAM}", env = ["A=B"]}}')
    monkeypatch.chdir(tmp_path)
    assert main(["check", "HHH/121", "--solvers", "w", "--references", "exact"]) == 2
    assert "env = ['A=B']: expected the name of an environment variable" in capsys.readouterr().err
