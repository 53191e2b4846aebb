"""A failing solver under pytest, as its author reads it (issue 19, item 5): the board as text, in the failure
and in hypothesis's failing example; no source of minecheck's own functions; hypothesis's explanation not
pointing into minecheck; and an install extra that brings the plugin's needs and nothing else."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions

from planted_source import SOURCE
from shared import ROOT

from minecheck.model.boardtext import parse_board

pytest_plugins = ["pytester"]

PLANTED = SOURCE + """
from hypothesis import given, settings

from minecheck import strategies
from minecheck.testing import assert_agree


@settings(max_examples=200, derandomize=True, database=None, deadline=None)  # as the README's: no wall clock
@given(strategies.boards(width=(1, 4), height=(1, 4)))
def test_agrees(board):
    assert_agree(solve, board)
"""


def test_a_failing_property_shows_board_text_and_none_of_minechecks_own_code(pytester):
    pytester.makepyfile(test_planted=PLANTED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "board=parse_board('" in out  # the failing example, as board text
    assert "Board(width=" not in out and "cells=(" not in out
    assert "def assert_agree" not in out and "__tracebackhide__" not in out  # no source of minecheck's function
    assert "minecheck/check/" not in out and "minecheck/testing.py" not in out  # nor its lines in the explanation
    assert "the smallest board that still shows it" in out or "already the smallest" in out
    assert "replay: minecheck check " in out


def test_a_boards_repr_is_its_text_and_reads_back():
    board = parse_board("3x2x1\nHmH\n111\n")
    assert repr(board) == "parse_board('3x2x1\\nHmH\\n111\\n')"
    assert eval(repr(board), {"parse_board": parse_board}) == board


def test_the_pytest_extra_brings_what_the_plugin_and_the_strategies_import_and_nothing_else():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = {re.match(r"[A-Za-z0-9._-]+", r).group() for r in project["optional-dependencies"]["pytest"]}
    assert extra == {"pytest", "hypothesis"}
    allowed = extra | {re.match(r"[A-Za-z0-9._-]+", r).group() for r in project["dependencies"]}
    program = ("import sys, json\n"
               "import minecheck.pytest_plugin, minecheck.strategies\n"
               "from minecheck.testing import assert_agree\n"
               "from hypothesis import given, settings\n"
               "@settings(max_examples=5, database=None, deadline=None)\n"
               "@given(minecheck.strategies.boards(width=(1, 3), height=(1, 3)))\n"
               "def t(board):\n"
               "    assert_agree('exact', board)\n"
               "t()\n"
               "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n")
    loaded = json.loads(subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                                       cwd=ROOT).stdout)
    owners = packages_distributions()
    needed = {_key(d) for m in loaded for d in owners.get(m, []) if m != "minecheck"}
    assert {"hypothesis", "pytest"} <= needed  # the check sees what was loaded
    assert needed <= _with_requirements(allowed) | {"pip", "setuptools"}, needed - _with_requirements(allowed)
    assert "ms-toollib" not in _with_requirements(allowed) and "ruff" not in _with_requirements(allowed)


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _with_requirements(names: set[str]) -> set[str]:
    """The distributions and everything they require when installed (extras left out), by normalised name."""
    seen, todo = set(), [_key(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue
        todo += [_key(re.match(r"[A-Za-z0-9._-]+", r).group()) for r in requires if "extra ==" not in r]
    return seen
