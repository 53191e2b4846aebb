"""A solver is found by name wherever it lives - built in, in the user's pyproject.toml, in an installed
package's entry points, by import path or as a program - without touching minecheck's code."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap

import pytest
from shared import PROGRAMS, ROOT, board

from minecheck.cli import main
from minecheck.model.answers import Answers, Mode
from minecheck.model.budget import Budget
from minecheck.model.errors import UnknownSolver
from minecheck.model.solver import reads_flags_as_marks
from minecheck.running import tables
from minecheck.running.discovery import Definition, FunctionSolver, build, get_solver, lookup, make, replay_name
from minecheck.running.registry import run_solver

PROGRAM = PROGRAMS / "protocol_program.py"

SOLVER_MODULE = '''
from minecheck.model.answers import Answers, Mode
from minecheck.solvers.exact import ExactSolver


class Mine(ExactSolver):
    """A user's own solver: exact's answers under another name."""


def verdicts_only(board_text, mode):
    return {"schema": 1, "cells": []}


def make(option=None):
    solver = Mine()
    solver.option = option
    return solver


class MarksMine(ExactSolver):
    """A solver that declares itself that a flag is the player's mark."""

    flags = "marks"


class NoModes:
    name = "no-modes"
    answers = frozenset({Answers.VERDICTS})

    def solve(self, board, mode):
        return None
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A user's project: a module of solvers and a pyproject.toml naming them; the working directory."""
    (tmp_path / "usersolvers.py").write_text(SOLVER_MODULE)
    program = shlex.join([sys.executable, str(PROGRAM)])
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f'''
        [project]
        name = "user-project"

        [tool.minecheck.solvers]
        mine = "usersolvers:Mine"
        func = "usersolvers:verdicts_only"
        prog = "cmd:{program}"

        [tool.minecheck.solvers.slowstart]
        command = "{program} --persistent"
        persistent = true
        modes = ["global"]
        answers = ["verdicts", "consistency"]

        [tool.minecheck.solvers.markprog]
        command = "{program}"
        flags = "marks"

        [tool.minecheck.solvers.markmine]
        target = "usersolvers:Mine"
        flags = "marks"
    '''))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return tmp_path


def listed(capsys) -> dict[str, dict]:
    assert main(["solvers", "--json"]) == 0
    return {row["name"]: row for row in json.loads(capsys.readouterr().out)}


def test_solvers_lists_built_in_and_configured_solvers_with_what_they_answer(project, capsys):
    rows = listed(capsys)
    assert rows["exact"]["origin"] == "built-in" and rows["exact"]["modes"] == ["global", "local"]
    assert rows["mine"]["origin"] == f"pyproject.toml at {project}"
    assert rows["mine"]["answers"] == ["consistency", "counts", "probabilities", "verdicts"]
    assert rows["slowstart"]["modes"] == ["global"] and rows["slowstart"]["answers"] == ["consistency", "verdicts"]
    assert rows["slowstart"]["persistent"] is True and rows["prog"]["persistent"] is False


def test_listing_the_solvers_imports_no_library_that_only_solving_needs():
    """``minecheck solvers`` answers at once (issue 40): it imports each solver's module, and those leave NumPy,
    GMP and the campaign's shrinking (the certifier, the cross-check) to the first board they solve."""
    program = ("import sys, json\nfrom minecheck.cli import main\nmain(['solvers', '--json'])\n"
               "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert {r["name"] for r in json.loads(done.stdout)} >= {"exact", "ilp@seed", "simplex@fixed"}
    assert not loaded & {"numpy", "gmpy2", "minecheck.campaigns.shrinking", "minecheck.check.crosscheck"}


def test_a_configured_solver_is_checked_by_name_without_installing_it(project, capsys):
    assert main(["check", "HHH/121", "--solvers", "mine,func,prog", "--references", "exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] == [] and {"mine", "func", "prog"} <= set(data)


def test_a_configured_program_keeps_its_modes_and_persistence(project):
    solver = get_solver("slowstart")
    assert solver.modes == frozenset({Mode.GLOBAL}) and solver.program.persistent
    result = run_solver(solver, board("3x2x2/HHH/121"), Mode.GLOBAL, Budget(cpu=10))
    assert result.error is None and result.consistent is True


def test_an_installed_package_offers_its_solvers_through_entry_points(tmp_path, monkeypatch, capsys):
    (tmp_path / "pkgsolvers.py").write_text(SOLVER_MODULE)
    info = tmp_path / "pkgsolvers-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pkgsolvers\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[minecheck.solvers]\ninstalled-mine = pkgsolvers:Mine\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    rows = listed(capsys)
    assert rows["installed-mine"]["origin"] == "installed (pkgsolvers)"
    assert run_solver(get_solver("installed-mine"), board("HHH/121"), Mode.LOCAL).layouts == 1


def test_an_import_path_names_a_class_a_factory_with_its_option_or_a_protocol_function(project):
    def made(name):  # what the solver's sandbox makes (here, the checking process holds a stand-in)
        return make(lookup(name))

    assert type(made("usersolvers:Mine")).__name__ == "Mine"
    assert made("usersolvers:make").option is None
    assert isinstance(made("usersolvers:verdicts_only"), FunctionSolver)
    assert get_solver("mine").name == "mine" and get_solver("alias=usersolvers:Mine").name == "alias"


def test_a_name_nobody_knows_is_refused_listing_what_is_known():
    with pytest.raises(UnknownSolver, match="unknown solver 'nope'; known: exact, cbc, minisat, brute, ganak, "):
        lookup("nope")


def test_an_object_without_the_protocol_is_refused_naming_what_it_lacks(project):
    with pytest.raises(UnknownSolver, match="lacks modes of the Solver protocol"):
        get_solver("usersolvers:NoModes")


def test_an_import_that_fails_names_the_solver_and_where_it_was_found(project):
    (project / "pyproject.toml").write_text('[tool.minecheck.solvers]\nbroken = "nosuchmodule:Solver"\n')
    tables.read_table.cache_clear()
    with pytest.raises(UnknownSolver, match=r"broken: cannot import nosuchmodule:Solver .* found in pyproject.toml"):
        get_solver("broken")


@pytest.mark.parametrize("entry, message", [
    ('bad = 3', "expected a string or a table"),
    ('bad = { command = "x", colour = "red" }', "unknown key(s) colour"),
    ('bad = { persistent = true }', "give either target"),
    ('bad = { command = "x", flags = "pencil" }', 'flags = \'pencil\': give "mines"'),
])
def test_a_bad_table_entry_is_bad_input_naming_its_place(project, capsys, entry, message):
    (project / "pyproject.toml").write_text(f"[tool.minecheck.solvers]\n{entry}\n")
    tables.read_table.cache_clear()
    assert main(["check", "HHH/121", "--solvers", "bad"]) == 2
    err = capsys.readouterr().err
    assert message in err and "[tool.minecheck.solvers] bad in" in err


def test_definitions_travel_as_data_so_a_worker_makes_the_same_solver(project):
    definition = lookup("slowstart")
    again = Definition.from_json(definition.to_json())
    assert again == definition
    assert build(again).answers == frozenset({Answers.VERDICTS, Answers.CONSISTENCY})


def test_flags_as_marks_is_declared_by_a_table_for_programs_and_import_paths_or_by_the_solver_itself(project):
    assert reads_flags_as_marks(get_solver("markprog")) and reads_flags_as_marks(get_solver("markmine"))
    assert reads_flags_as_marks(get_solver("usersolvers:MarksMine"))
    assert not reads_flags_as_marks(get_solver("prog")) and not reads_flags_as_marks(get_solver("mine"))
    again = Definition.from_json(lookup("markprog").to_json())
    assert again.flags == "marks" and 'flags = "marks"' in replay_name(Definition(**{**again.__dict__,
                                                                                     "origin": "command line"}))


def test_a_program_that_reads_flags_as_marks_is_checked_on_the_flagged_board_without_its_flags(project, capsys):
    assert main(["check", "4x1x2/F1HH", "--solvers", "markprog", "--references", "exact", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []


PYPROJECTS = {  # pyproject.toml files that gave exit 3 (issue 38): each is exit 2 naming the file and the place
    "not UTF-8": (b'[tool.minecheck.solvers]\nx = "caf\xe9"\n', "not UTF-8 text (byte 33)"),
    "nested 5,000 deep": (b"[tool.minecheck.solvers]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested 5000 deep"),
    "solvers = 3": (b"[tool.minecheck]\nsolvers = 3\n", "tool.minecheck.solvers = 3"),
    "minecheck = 3": (b"[tool]\nminecheck = 3\n", "tool.minecheck = 3"),
    "modes = 3": (b'[tool.minecheck.solvers]\nx = { command = "true", modes = 3 }\n', "modes = 3: expected a list"),
    "cwd = 3": (b'[tool.minecheck.solvers]\nx = { command = "true", cwd = 3 }\n', "cwd = 3: expected a string"),
}


@pytest.mark.parametrize("content, named", PYPROJECTS.values(), ids=PYPROJECTS.keys())
def test_a_broken_pyproject_is_exit_2_naming_the_file_and_the_place(tmp_path, monkeypatch, capsys, content, named):
    (tmp_path / "pyproject.toml").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    code = main(["check", "HHH/121", "--solvers", "x"])
    err = capsys.readouterr().err
    assert code == 2 and str(tmp_path / "pyproject.toml") in err and named in err, err
    assert err.count("\n") == 1 and "internal error" not in err


def test_a_program_s_writable_paths_are_absolute_and_must_exist(tmp_path):
    (tmp_path / "cache").mkdir()
    found = lookup(f'p={{command = "true", writable = ["{tmp_path / "cache"}"]}}')
    assert found.writable == (str(tmp_path / "cache"),)
    assert Definition.from_json(found.to_json()) == found
    with pytest.raises(UnknownSolver, match="no such file or folder"):
        lookup(f'p={{command = "true", writable = ["{tmp_path / "nowhere"}"]}}')
    assert lookup(f'p={{target = "mod:Thing", writable = ["{tmp_path}"]}}').writable == (str(tmp_path),), \
        "a Python solver is jailed as a program is, and may be given the same way out"
