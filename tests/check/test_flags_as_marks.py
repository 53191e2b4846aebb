"""A solver that reads flags as the player's marks (``flags = "marks"``) is given each flagged board with its
flags covered and judged there, against the ground truth's answer on that same flag-free board."""

from __future__ import annotations

from dataclasses import replace

from minecheck.check.crosscheck import check_board, check_boards
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import FLAG
from minecheck.model.boardtext import parse_board
from minecheck.model.solver import MARKS, flags_covered, reads_flags_as_marks
from minecheck.solvers.exact import ExactSolver


def board(text: str):
    return parse_board(text.replace("/", "\n"))


class Recording(ExactSolver):
    """exact's answers, reading flags as marks, keeping every board it was given."""

    flags = MARKS

    def __init__(self):
        super().__init__()
        self.name, self.seen = "marks-reader", []

    def solve(self, b, mode):
        self.seen.append(b)
        return replace(super().solve(b, mode), solver=self.name)


class CertainMinesSafe(Recording):
    """Calls every covered cell safe when the board has no flag: a bug only a flag-free board shows."""

    def solve(self, b, mode):
        result = super().solve(b, mode)
        if b.flags:
            return SolverResult(self.name, mode, declined="a flag is a mark here")
        return replace(result, cells=tuple(replace(a, verdict=type(a.verdict).SAFE, probability=None)
                                           for a in result.cells))


def test_a_flag_becomes_a_covered_cell_with_the_same_total_and_truth():
    flagged = board("3x1x2/1Fm")
    bare = flags_covered(flagged)
    assert FLAG not in bare.cells and bare.total_mines == 2 and bare.truth == flagged.truth


def test_a_marks_reader_is_given_the_board_without_flags_and_agrees_when_right():
    solver = Recording()
    checks = check_board(board("4x1x2/F1HH"), [solver], references=())
    assert solver.seen and all(FLAG not in b.cells for b in solver.seen)
    assert {m for c in checks for m in [c.mode]} == {Mode.LOCAL, Mode.GLOBAL}
    assert [f for c in checks for f in c.findings] == []


def test_its_finding_is_on_the_flag_free_board_it_was_judged_on():
    checks = check_board(board("3x1/1F1"), [CertainMinesSafe()], references=())
    findings = [f for c in checks for f in c.findings]
    assert findings and all("F" not in f.board.splitlines()[1] for f in findings)
    assert all(f.subject == "marks-reader" for f in findings)


def test_without_the_declaration_the_same_engine_declines_every_flagged_board_and_its_bug_stays_hidden():
    undeclared = CertainMinesSafe()
    undeclared.flags = "mines"
    assert not reads_flags_as_marks(undeclared) and reads_flags_as_marks(CertainMinesSafe())
    hidden = check_board(board("3x1/1F1"), [undeclared], references=())
    assert [f for c in hidden for f in c.findings] == []


def test_other_solvers_keep_the_flagged_board_and_each_board_of_a_batch_keeps_its_own_checks():
    marks, plain = CertainMinesSafe(), Recording()
    plain.flags, plain.name = "mines", "plain"
    boards = [(board("3x1/1F1"), None, 0), (board("3x1/1HH"), None, 1)]
    checked = check_boards(boards, [marks, plain], references=())
    assert any(FLAG in b.cells for b in plain.seen) and all(FLAG not in b.cells for b in marks.seen)
    first, second = ([f for c in checks for f in c.findings] for checks in checked)
    assert first and all(f.index == 0 and f.subject == "marks-reader" for f in first)
    assert second and all(f.index == 1 for f in second)


def test_its_finding_says_it_was_judged_without_flags_and_carries_no_certificate_of_the_flagged_board():
    from minecheck.check.certified import certify_checks, with_certificate
    from minecheck.check.crosscheck import FLAGS_COVERED

    checks = check_board(board("3x1/1F1"), [CertainMinesSafe()], references=())
    certified = certify_checks(list(checks), 0, ("exact",))
    for f in (f for c in checks for f in c.findings):
        assert FLAGS_COVERED in f.extra and "certificate" not in with_certificate(f, certified).extra
