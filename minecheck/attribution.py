"""Which known defect of a seed port explains a finding: replayed with the named defects switched on
one at a time (then two at a time), the port shows the same kind of finding on the shrunk board.

A nightly run meets the seed ports' defects on ever new boards; a shrunk board the baseline has
not seen is news only when no known defect, alone or with one other, reproduces it there.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from minecheck.boardtext import BoardFormatError, parse_board
from minecheck.defects import DEFECTS
from minecheck.findings import Finding

PORTED = ("ilp@seed", "dpll@seed", "gibbs@seed")  # the seed ports with defect switches and a board to replay
USES = {"ilp@seed": ("ilp@seed", "simplex@seed")}  # ilp@seed runs the seed simplex, defects and all
MAX_CELLS = 32  # attribution replays every pair of defects: small shrunk boards only


def explained_by(finding: Finding, board_text: str) -> str | None:
    """The known defects that reproduce the finding's kind and mode on the board ("a + b"), or None."""
    if finding.subject not in PORTED:
        return None
    try:
        board = parse_board(board_text)
    except BoardFormatError:
        return None
    if board.size > MAX_CELLS:
        return None
    return _explain(finding.subject, board_text, finding.kind.value, finding.mode.value)


@cache
def _explain(subject: str, board_text: str, kind: str, mode: str) -> str | None:
    from dataclasses import replace

    from minecheck.teeth import board_findings, port

    board = replace(parse_board(board_text), truth=None)
    solvers = USES.get(subject, (subject,))
    names = [d.name for d in DEFECTS if d.solver in solvers and d.switchable]
    always = [d.name for d in DEFECTS if d.solver in solvers and not d.switchable]
    trials = [()] + [(n,) for n in names] + list(combinations(names, 2))
    for on in trials:
        found = board_findings(board, port(subject, frozenset(on)))
        if any(f.kind.value == kind and f.mode.value == mode for f in found):
            return " + ".join(on) if on else " + ".join(always) or None
    return None
