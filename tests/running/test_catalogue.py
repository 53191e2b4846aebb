"""The one catalogue of shipped solvers: every entry makes what it says, and every reader reads it."""

from __future__ import annotations

import pytest

from minecheck.running import catalogue
from minecheck.running.catalogue import CATALOGUE, Role, Variant, is_lp_solver
from minecheck.running.discovery import BUILT_IN, get_solver, lookup


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if Role.LP not in e.roles], ids=lambda e: e.name)
def test_each_solver_entry_makes_a_solver_answering_what_the_entry_says(entry):
    solver = get_solver(entry.name)
    assert solver.name == entry.name
    assert frozenset(solver.answers) == entry.answers and frozenset(solver.modes) == entry.modes
    assert lookup(entry.name).origin == "built-in"


def test_lp_solvers_are_checked_on_lps_and_never_made_as_solvers():
    from minecheck.check.lpcheck import lp_solver
    from minecheck.solvers.simplex import LP

    lps = [e for e in CATALOGUE if Role.LP in e.roles]
    assert {e.name for e in lps} == {"simplex@seed", "simplex@fixed"} and not set(catalogue.LP_SOLVERS) & set(BUILT_IN)
    unit = LP(((1.0, 1.0),), (1.0,), (1.0, 0.0))  # x + s = 1, minimise x
    assert all(lp_solver(e.name)(unit).objective == pytest.approx(0.0) for e in lps)


def test_the_roles_are_what_the_campaign_and_the_cross_check_read():
    assert catalogue.GROUND_TRUTH == "exact" and catalogue.REFERENCES[0] == "exact"
    assert catalogue.REFERENCES == ("exact", "cbc", "minisat", "brute") and catalogue.LP_REFERENCE == "cbc"
    assert catalogue.SUBJECTS == catalogue.SEED_VARIANTS + catalogue.FIXED_VARIANTS
    seeds = [catalogue.entry(n) for n in catalogue.SEED_VARIANTS]
    assert all(e.variant is Variant.SEED and e.article for e in seeds)
    assert "ms_toollib" not in catalogue.SUBJECTS, "a third-party engine is under test only when named"


def test_an_entry_carries_only_entries_of_its_own_article():
    for e in CATALOGUE:
        for carried in e.carries:
            assert catalogue.entry(carried).article == e.article and is_lp_solver(carried)


def test_a_name_with_an_option_is_still_its_entry():
    assert catalogue.entry("brute:4").name == "brute" and catalogue.entry("mine=cmd:x") is None
