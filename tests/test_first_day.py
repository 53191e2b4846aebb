"""A solver author's first day (issue 19): the command line says what it can do, refuses a solver that
cannot run before any work, suggests the name meant, and shrinks a board of one's own."""

from __future__ import annotations

import json
import re
import sys

import pytest
from planted_source import SOURCE

from minecheck.cli import _parser, main
from minecheck.running import discovery

PLANTED = SOURCE
RING = "9x9x10/" + "/".join(["HHHHHHHHH"] * 2 + ["HHH111HHH", "HHH101HHH", "HHH111HHH"] + ["HHHHHHHHH"] * 4)


@pytest.fixture
def author(tmp_path, monkeypatch):
    """A solver author's folder: a module with a planted bug, the working directory."""
    (tmp_path / "planted.py").write_text(PLANTED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv("MINECHECK_PAGES", raising=False)
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the command line says what it can do ------------------------------------------------------------

def test_a_bare_minecheck_shows_the_commands_and_exits_2(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == ""  # no command is not a run: a script calling it so must not think it passed
    for command in ("check", "shrink", "fuzz", "play", "decide", "solvers"):
        assert re.search(rf"^\s+{command}\s", err, re.M), command


def test_the_help_lists_every_exit_code(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    said = " ".join(capsys.readouterr().out.split())
    for code, words in ((0, "everything agrees"), (1, "findings"), (2, "bad input"), (3, "minecheck.s own fault"),
                        (4, "the run was disturbed"), (130, "stopped by Ctrl-C")):
        assert re.search(rf"\b{code} {words}", said), code


def test_version(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["--version"])
    assert ended.value.code == 0 and re.match(r"minecheck \d+\.\d+", capsys.readouterr().out)


def test_no_help_text_shows_raw_markup():
    parser = _parser()
    subparsers = next(a for a in parser._actions if a.choices and "check" in a.choices).choices
    texts = [parser.format_help()] + [p.format_help() for p in subparsers.values()]
    assert len(texts) > 8 and not [t for t in texts if "``" in t]


def test_fuzz_help_and_the_unknown_generator_error_list_the_same_generators(capsys, tmp_path):
    subparsers = next(a for a in _parser()._actions if a.choices and "fuzz" in a.choices).choices
    helped = " ".join(subparsers["fuzz"].format_help().split())
    code, _, err = run(capsys, "fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path / "o"),
                       "--solvers", "exact", "--generator", "edgy")
    assert code == 2 and "did you mean 'edge'?" in err and not (tmp_path / "o").exists()
    for name in ("mix", "edge", "contradict", "reveal", "stress", "play:expert"):
        assert name in helped and name in err, name


@pytest.mark.parametrize("given, meant", [("exat", "exact"), ("dpll@fixd", "dpll@fixed"),
                                          ("simplex@sed", "simplex@seed")])
def test_a_mistyped_solver_name_suggests_the_one_meant(capsys, given, meant):
    code, _, err = run(capsys, "check", "H1H", "--solvers", given)
    assert code == 2 and f"did you mean '{meant}'" in err


def test_an_unknown_solver_lists_every_name_the_tool_accepts(capsys):
    code, _, err = run(capsys, "check", "H1H", "--solvers", "nosuchsolver")
    known = err.split("known: ", 1)[1]
    assert code == 2 and "simplex@seed" in known and "simplex@fixed" in known and "exact" in known


def test_a_mistyped_function_of_an_import_path_suggests_the_one_meant(author, capsys):
    code, _, err = run(capsys, "check", "H1H", "--solvers", "planted:solv")
    assert code == 2 and "did you mean 'solve'?" in err


# -- a solver that cannot run is refused before any work ---------------------------------------------

@pytest.mark.parametrize("argv", [
    ["check", "HHH/121"],
    ["shrink", "HHH/121"],
    ["fuzz", "--seed", "1", "--boards", "3", "--out", "OUT", "--references", "exact"],
    ["play", "--games", "2", "--seed", "1", "--out", "OUT"],
])
def test_a_program_that_is_not_there_exits_2_before_any_work(author, capsys, argv):
    argv = [a.replace("OUT", str(author / "out")) for a in argv] + ["--solvers", "cmd:./nonexist --fast"]
    code, out, err = run(capsys, *argv)
    assert code == 2, out
    assert "cmd:./nonexist --fast cannot run here: no such program: ./nonexist" in err and "to fix:" in err
    assert not (author / "out" / "findings.jsonl").exists()


def test_a_program_not_on_the_path_or_not_executable_says_so(author, capsys):
    code, _, err = run(capsys, "check", "H1H", "--solvers", "cmd:no-such-solver-program")
    assert code == 2 and "no program named 'no-such-solver-program' on PATH" in err
    (author / "solver.sh").write_text("#!/bin/sh\n")
    code, _, err = run(capsys, "check", "H1H", "--solvers", "cmd:./solver.sh")
    assert code == 2 and "./solver.sh is not an executable file" in err and "chmod +x" in err


def test_a_library_not_installed_exits_2_with_the_install_line_and_is_listed_unavailable(monkeypatch, capsys):
    from minecheck.check import crosscheck

    monkeypatch.setitem(sys.modules, "ms_toollib", None)  # import ms_toollib now raises ImportError
    crosscheck._named.cache_clear()  # a solver made by an earlier test in this process would be reused
    code, out, err = run(capsys, "check", "3x1x1/H1H", "--solvers", "ms_toollib")
    assert code == 2 and out == ""
    assert "ms_toollib is not installed" in err and 'to fix: pip install "minecheck[toollib]"' in err
    code, out, _ = run(capsys, "solvers", "--json")
    (row,) = [r for r in json.loads(out) if r["name"] == "ms_toollib"]
    assert code == 0 and row["available"] is False and "minecheck[toollib]" in row["fix"]
    code, out, _ = run(capsys, "solvers")
    assert re.search(r"^ms_toollib\s+UNAVAILABLE: ms_toollib cannot run here", out, re.M)


def test_a_mistyped_import_path_says_where_it_looked(author, capsys):
    code, _, err = run(capsys, "check", "H1H", "--solvers", "plantd:solve")
    assert code == 2 and "No module named 'plantd'" in err and f"looked in {author}" in err


def test_the_solver_list_keeps_its_columns_with_a_long_source_path(tmp_path, monkeypatch, capsys):
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 6)
    deep.mkdir(parents=True)
    (deep / "pyproject.toml").write_text('[tool.minecheck.solvers]\nmine = "minecheck.solvers.exact:ExactSolver"\n')
    monkeypatch.chdir(deep)
    discovery._pyproject_near.cache_clear()
    code, out, _ = run(capsys, "solvers")
    trailer = ("Also", "cmd: programs and Python", "sandbox:")  # below the table: other forms, the sandbox
    lines = [ln for ln in out.splitlines() if ln and not ln.startswith(trailer)]
    column = lines[0].index("consistency")
    assert code == 0 and all(ln[column - 2:column] == "  " and ln[column] != " " for ln in lines)
    assert any(str(deep) in ln for ln in lines)


# -- shrinking a board of one's own -------------------------------------------------------------------

def test_shrink_takes_a_big_board_of_ones_own_to_a_small_one_and_writes_its_page(author, capsys):
    code, out, _ = run(capsys, "shrink", RING, "--solvers", "planted:solve", "--mode", "global")
    assert code == 1
    assert "[verdict] planted:solve vs exact (global)" in out and "81 cells shrunk to" in out
    replay = re.search(r"replay: (minecheck check \S+ .*)", out).group(1)
    page = author / re.search(r"page:   (\S+)", out).group(1)
    html = page.read_text()
    assert "campaign index" not in html and "index.html" not in html  # no link to an index that is not there
    code, again, _ = run(capsys, *replay.split()[1:])
    assert code == 1 and "[verdict] planted:solve" in again  # the replay line shows it again


def test_shrink_json_gives_one_object_per_finding_with_its_shrunk_board(author, capsys):
    code, out, _ = run(capsys, "shrink", RING, "--solvers", "planted:solve", "--json")
    found = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and found and all(f["subject"] == "planted:solve" for f in found)
    for f in found:
        width, height = (int(v) for v in f["board"].split("\n")[0].split("x")[:2])
        assert width * height == f["shrink"]["cells_after"] < f["shrink"]["cells_before"] == 81
        assert f["original_board"].startswith("9x9x10\n")


def test_shrink_on_a_board_where_all_agree_exits_0(author, capsys):
    code, out, _ = run(capsys, "shrink", "3x2/HHH/121", "--solvers", "planted:solve")
    assert code == 0 and "nothing to shrink" in out


def test_shrink_help_names_its_options():
    subparsers = next(a for a in _parser()._actions if a.choices and "shrink" in a.choices).choices
    text = subparsers["shrink"].format_help()
    options = ("--solvers", "--references", "--mode", "--json", "--shrink-time", "--timeout", "--memory", "--idle")
    assert all(option in text for option in options)


def test_assert_agree_refuses_a_program_that_is_not_there_at_once(author):
    from minecheck.model.errors import Unavailable
    from minecheck.testing import assert_agree

    with pytest.raises(Unavailable, match="no such program: ./nonexist"):
        assert_agree("cmd:./nonexist", "HHH/121")
    assert not (author / ".minecheck").exists()  # no finding, no page


def test_a_solver_module_that_fails_to_import_exits_2_naming_the_line(author, capsys):
    (author / "broken.py").write_text("def solve(board_text, mode):\n    return {'schema': 1, 'cells': [}\n")
    code, out, err = run(capsys, "check", "H1H", "--solvers", "broken:solve")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "importing broken:solve raised SyntaxError" in err and "line 2" in err
