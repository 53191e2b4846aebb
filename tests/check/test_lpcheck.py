"""LP values: the fixed simplex agrees with CBC; the seed simplex's defects are found."""

from __future__ import annotations

from collections import Counter

import pytest
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.findings import Kind
from minecheck.check.lpcheck import cbc_lp, check_lp, check_relaxations, describe_lp, random_lp, read_lp
from minecheck.model.errors import BadOption
from minecheck.solvers.simplex import INFEASIBLE, LP, OPTIMAL, UNBOUNDED


def test_generator_mixes_statuses_and_is_seeded():
    statuses = Counter(cbc_lp(random_lp(s)).status for s in range(60))
    assert all(statuses[k] >= 10 for k in (OPTIMAL, INFEASIBLE, UNBOUNDED))
    assert random_lp(5) == random_lp(5) and random_lp(5) != random_lp(6)


def test_cbc_reference_is_right_where_cbc_alone_says_infeasible():
    # x1 appears in no row and lowers the objective: feasible and unbounded (CBC alone said "Infeasible")
    lp = LP(((1.0, 0.0, 3.0, -1.0),), (5.0,), (0.0, -3.0, 2.0, -1.0))
    assert cbc_lp(lp).status == UNBOUNDED


def test_fixed_simplex_agrees_with_cbc_on_general_lps():
    found = [f for s in range(120) for f in check_lp(random_lp(s), ["simplex@fixed"], "")]
    assert found == []


def test_seed_simplex_defects_are_found_on_general_lps():
    kinds = Counter((f.kind, f.subject_says.split(":")[0], f.reference_says)
                    for s in range(120) for f in check_lp(random_lp(s), ["simplex@seed"], ""))
    assert kinds[(Kind.LP, INFEASIBLE, OPTIMAL)] > 0  # negative right-hand sides refused
    assert kinds[(Kind.CRASH, "IllegalStateException", UNBOUNDED)] > 0  # unbounded throws


def test_relaxations_of_a_board_are_checked_per_component():
    b = board("HHHHH/H1H2H/HHHHH")
    assert check_relaxations(b, ["simplex@fixed"], salt=1) == []
    experts = [generate_board(recipe("play", s, level="expert")) for s in range(4)]
    assert all(check_relaxations(e, ["simplex@fixed"], salt=1) == [] for e in experts)
    seed_findings = [f for s, e in enumerate(experts) for f in check_relaxations(e, ["simplex@seed"], salt=s)]
    assert seed_findings and all(f.subject == "simplex@seed" for f in seed_findings)
    assert "relaxation of component" in seed_findings[0].detail


def test_describe_lp_is_readable():
    assert describe_lp(LP(((1.0, -2.0),), (3.0,), (1.0, 0.0))) == "min +1 x0\n  +1 x0 -2 x1 = 3\n  x >= 0"



def test_one_random_lp_in_eight_is_degenerate():
    from minecheck.check.lpcheck import degenerate_pick

    share = sum(degenerate_pick(s) is not None for s in range(800)) / 800
    assert 0.09 <= share <= 0.16
    assert random_lp(5) == random_lp(5)


@pytest.mark.parametrize("base", range(4))
def test_the_cycling_lps_cycle_with_first_row_ties_alone_when_scaled_and_the_fixed_simplex_agrees_with_cbc(base):
    import random

    from minecheck.campaigns.teeth import lp_alone
    from minecheck.check.lpcheck import DEGENERATE, degenerate_lp

    lp = degenerate_lp(random.Random(base), DEGENERATE[base])
    assert lp != DEGENERATE[base]  # scaled
    assert lp_alone(lp, "simplex-first-row-ties") == Kind.CRASH.value  # ~1 s: 20,000 pivots, then it gives up
    assert check_lp(lp, ["simplex@fixed"], "") == []


def test_the_relaxations_are_written_by_the_check_not_taken_from_the_solver_under_test():
    """The LP check builds each component's relaxation itself; it is the same LP the fixed ILP builds."""
    import inspect

    from minecheck.check import lpcheck
    from minecheck.engine.constraints import build_constraints
    from minecheck.solvers.ilp_fixed import relaxation_lp

    assert "minecheck.solvers.ilp" not in inspect.getsource(lpcheck)
    for text in ("HHH/121", "HHHHH/12100/HHHHH", "4x4x4/HHHH/H21H/H23H/HHHH"):
        for comp in build_constraints(board(text)).components:
            objective = [k % 3 - 1 for k in range(len(comp.cells))]
            assert lpcheck.component_relaxation(comp, objective) == relaxation_lp(comp, objective)


@pytest.mark.parametrize("seed", range(60))
def test_an_lp_as_printed_reads_back_as_the_same_lp(seed):
    lp = random_lp(seed)
    text = describe_lp(lp)
    again = read_lp(text.replace("\n", "/"))  # as a replay line gives it
    assert describe_lp(again) == text and cbc_lp(again) == cbc_lp(lp)


@pytest.mark.parametrize("text", ["", "max +1 x0/x >= 0", "min +1 x0/+1 x0 = /x >= 0", "min +1 y0/x >= 0",
                                  "min +1 x0/+1 x0 = 2"])
def test_a_text_that_is_no_lp_is_refused_naming_the_form(text):
    with pytest.raises(BadOption, match="--lp"):
        read_lp(text)
