"""An LP finding's page: a board's relaxation outlines its component's cells on the board; a general LP, which
has no board, draws none and says where its LP came from."""

from __future__ import annotations

from test_report import Page

from minecheck.check.findings import Finding, Kind
from minecheck.check.lpcheck import check_relaxations, describe_lp
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.report.pages import FindingPage, render_finding
from minecheck.solvers.simplex import LP

# simplex@seed's optimum of this board's one component is 0 where CBC's is 3 (a shrunk finding of a campaign)
BOARD = "3x2\nmHH\n1H0\n"


def relaxation_finding() -> Finding:
    (found,) = check_relaxations(parse_board(BOARD), ["simplex@seed"])
    return found


def test_an_lp_finding_on_a_relaxation_names_the_cells_of_its_component():
    found = relaxation_finding()
    assert found.kind is Kind.LP and "relaxation of component 0 (4 cells)" in found.detail
    assert found.cells == (0, 1, 2, 4)  # the covered cells next to a digit; the digits are the LP's rows


def test_an_lp_finding_page_outlines_its_component_on_the_board_and_says_what_the_outline_is():
    found = relaxation_finding()
    page = Page(render_finding(FindingPage(found, 0, parse_board(BOARD))))
    assert page.grids and all(g.bad == {0, 1, 2, 4} for g in page.grids)
    assert "Cells: r0c0, r0c1, r0c2, r1c1." in page.text
    assert "the component whose LP relaxation disagrees" in page.text
    assert "disagreement" not in page.text  # the word the legend gives cells of other kinds


def test_a_general_lp_given_by_hand_draws_no_board_no_legend_and_says_it_was_given_by_hand():
    lp = LP(((1.0, 1.0),), (4.0,), (3.0, -2.0))
    text = describe_lp(lp)
    found = Finding(Kind.LP, "simplex@seed", "cbc", Mode.LOCAL, (), "infeasible", "optimal -8", text)  # check --lp's
    markup = render_finding(FindingPage(found, 0, None))
    page = Page(markup)
    assert page.grids == [] and 'class="legend"' not in markup
    assert "an LP given by hand" in page.text and "a board given by hand" not in page.text
    assert "board index" not in page.text and "The LP, as text to copy" in page.text
    assert page.pres == [f"minecheck check '{'/'.join(text.splitlines())}' --lp --solvers simplex@seed"]
