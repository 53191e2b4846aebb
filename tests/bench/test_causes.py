"""A shrunk wrong answer's minimal cause (check.shrink.minimal_cause), on planted faults of bench/faults.py: the
faces of one misreading come down to one board, an arithmetic face stays itself, and two faults in one solver
keep two causes."""

from __future__ import annotations

import sys

from shared import ROOT

from minecheck.campaigns.bugs import same_board
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.check.fingerprint import fingerprint
from minecheck.check.shrink import minimal_cause
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board

sys.path.insert(0, str(ROOT / "bench"))

from faults import FAULTS  # noqa: E402


def finding_on(solver, board: str, mode: Mode, kind: Kind):
    (check,) = check_board(parse_board(board), [solver], [mode], ["exact"])
    return next(f for f in check.findings if f.kind is kind)


def test_a_dropped_digits_impossible_board_and_missed_cell_have_one_cause():
    solver = FAULTS["last-digit-dropped"]()
    called = finding_on(solver, "4x1x1\nFHH1\n", Mode.GLOBAL, Kind.CONSISTENCY)
    missed = finding_on(solver, "3x1x1\nmH0\n", Mode.GLOBAL, Kind.VERDICT)
    first = minimal_cause(called, None, seconds=10, solver=solver)
    second = minimal_cause(missed, None, seconds=10, solver=solver)
    assert not first.stats.cut_short and not second.stats.cut_short
    assert first.board.size < 4 and same_board(first.finding.board, second.finding.board)


def test_a_roundings_cause_is_a_rounding_and_a_wrong_density_is_not_one():
    from faults import DensityOffFrontier, RoundedProbability

    class Both(RoundedProbability, DensityOffFrontier):
        key = "rounded+density"

        def adjust(self, board, mode, result):
            return RoundedProbability.adjust(self, board, mode, DensityOffFrontier.adjust(self, board, mode, result))

    solver = Both()
    density = finding_on(solver, "3x1x1\nmH0\n", Mode.GLOBAL, Kind.VERDICT)
    rounding = finding_on(solver, "2x2x1\nHH\n1m\n", Mode.GLOBAL, Kind.PROBABILITY)
    assert fingerprint(minimal_cause(rounding, None, seconds=10, solver=solver).finding).shape == "a rounding"
    cause = minimal_cause(density, None, seconds=10, solver=solver)
    assert fingerprint(cause.finding).shape != "a rounding"
    assert not same_board(cause.finding.board, minimal_cause(rounding, None, seconds=10, solver=solver).finding.board)
