"""A solver that is not minecheck's is made only in its sandboxes: the checking process learns what it
declares, never runs its module's code, and an import's cost is not a board's."""

from __future__ import annotations

import sys

import pytest
from shared import board

from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.model.errors import Unavailable
from minecheck.running.discovery import get_solver
from minecheck.running.hosted import Hosted
from minecheck.running.registry import run_solver, run_solver_batch

BOARD = board("3x2x2/HHH/121")


def test_a_module_that_is_slow_to_import_answers_within_a_board_s_budget_in_a_call_and_in_a_batch():
    solver = get_solver("slow_import:Slow")
    assert isinstance(solver, Hosted) and "slow_import" not in sys.modules
    tight = Budget(cpu=0.5, idle=1.0)
    truth = [get_solver("exact").solve(BOARD, mode).layouts for mode in (Mode.LOCAL, Mode.GLOBAL)]
    assert run_solver(solver, BOARD, Mode.GLOBAL, tight).layouts == truth[1]
    batch = run_solver_batch(get_solver("slow_import:Slow"), [(BOARD, Mode.LOCAL), (BOARD, Mode.GLOBAL)], tight)
    assert [r.error for r in batch] == [None, None] and [r.layouts for r in batch] == truth


def test_a_module_that_fails_on_import_is_refused_naming_it_and_the_error(tmp_path, monkeypatch):
    (tmp_path / "failing_import.py").write_text("raise RuntimeError('no licence found')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(Unavailable, match=r"failing_import:Solver: importing failing_import:Solver raised "
                                          r"RuntimeError: no licence found"):
        get_solver("failing_import:Solver")
    assert "failing_import" not in sys.modules
