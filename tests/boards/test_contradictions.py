"""Boards that cannot be: each has no layout where it should have none, and the fixed solvers and every
reference call it inconsistent (with a reason) rather than answer it."""

from __future__ import annotations

from minecheck.boards.generators import generate_board, recipe
from minecheck.campaigns.fuzz import MIX
from minecheck.check.crosscheck import check_board
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running.catalogue import FIXED_VARIANTS


def test_a_changed_digit_leaves_no_layout_and_a_changed_total_none_with_the_total():
    for seed in range(40):
        for change in ("digit", "total"):
            b = generate_board(recipe("contradict", seed, change=change))
            assert b.truth is None
            local = count_board(b, Mode.LOCAL).consistent
            assert local is (change == "total")
            if b.total_mines is not None:
                assert count_board(b, Mode.GLOBAL).consistent is False


def test_the_same_recipe_makes_the_same_contradiction():
    assert generate_board(recipe("contradict", 7)) == generate_board(recipe("contradict", 7))


def test_the_fixed_solvers_and_the_references_call_them_inconsistent():
    for seed in range(12):
        b = generate_board(recipe("contradict", seed))
        for checked in check_board(b, list(FIXED_VARIANTS), budget=Budget(cpu=20)):
            assert checked.findings == (), [f.subject for f in checked.findings]
            assert checked.result("exact").consistent is False or checked.mode is Mode.LOCAL


def test_the_default_mix_holds_them():
    assert ("contradict", ()) in MIX
