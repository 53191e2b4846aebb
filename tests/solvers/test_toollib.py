"""ms_toollib, a third-party engine, checked like any solver: where it reads the rules otherwise than
minecheck, its findings say so in words; elsewhere it agrees."""

from __future__ import annotations

import builtins

import pytest
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.model.answers import Mode
from minecheck.model.errors import Unavailable
from minecheck.running.discovery import get_solver
from minecheck.solvers.toollib import game_board


def findings(text: str):
    (checked,) = check_board(board(text), ["ms_toollib"], [Mode.GLOBAL], ["exact"])
    return checked.findings


def test_the_board_is_given_in_its_codes():
    assert game_board(board("3x2x2/F1H/HH0")) == [[11, 1, 10], [10, 10, 0]]


def test_ignored_player_flags_are_findings_that_say_why():
    found = findings("3x2x2/FF1/HHH")
    assert {f.kind for f in found} == {Kind.VERDICT, Kind.PROBABILITY}
    assert all("ignored the flag(s) at r0c0, r0c1" in f.detail for f in found)


def test_a_total_the_digits_cannot_hold_is_moved_into_range_and_the_finding_says_so():
    (found,) = findings("3x2x0/HHH/111")
    assert found.kind is Kind.CONSISTENCY and found.subject_says == "consistent"
    assert "counted 1 mines where the board says 0" in found.detail


def test_it_agrees_with_exact_on_played_positions():
    for seed in range(6):
        b = generate_board(recipe("play", seed, level="intermediate"))
        (checked,) = check_board(b, ["ms_toollib"], [Mode.GLOBAL], ["exact"])
        assert checked.findings == ()


def test_without_the_engine_installed_it_is_refused_when_made_with_the_install_line(monkeypatch):
    real = builtins.__import__

    def no_toollib(name, *args, **kwargs):
        if name == "ms_toollib":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_toollib)
    with pytest.raises(Unavailable, match="ms_toollib is not installed") as caught:
        get_solver("ms_toollib")
    assert caught.value.fix.startswith('pip install "minecheck[toollib]"')
