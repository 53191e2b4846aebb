"""Which known defect of a seed port explains a finding: replayed with the named defects switched on
one at a time (then two at a time), the port shows the same kind of finding on the shrunk board.

A nightly run meets the seed ports' defects on ever new boards; a shrunk board the baseline has
not seen is news only when no known defect, alone or with one other, reproduces it there.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from itertools import combinations

from minecheck.campaigns.teeth import board_findings, lp_port, port
from minecheck.check.findings import Finding
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BoardFormatError
from minecheck.running.catalogue import BY_NAME, SEED_VARIANTS, is_lp_solver
from minecheck.solvers.defects import DEFECTS

PORTED = tuple(n for n in SEED_VARIANTS if not is_lp_solver(n))  # replayed on the board (an LP solver: on its LPs)
MAX_CELLS = 32  # attribution replays every pair of defects: small shrunk boards only


def explained_by(finding: Finding, board_text: str) -> str | None:
    """The known defects that reproduce the finding's kind and mode on the board ("a + b"), or None."""
    if finding.subject not in SEED_VARIANTS:
        return None
    try:
        board = parse_board(board_text)
    except BoardFormatError:
        return None
    if board.size > MAX_CELLS:
        return None
    if is_lp_solver(finding.subject):
        return _explain_lp(finding.subject, board_text, finding.kind.value)
    return _explain(finding.subject, board_text, finding.kind.value, finding.mode.value)


def _trials(names: list[str]) -> list[tuple[str, ...]]:
    """None, each alone, then every pair: the fewest defects first."""
    return [()] + [(n,) for n in names] + list(combinations(names, 2))


@cache
def _explain_lp(subject: str, board_text: str, kind: str) -> str | None:
    """A seed LP solver on the board's relaxations (the campaign's objectives), against CBC once per LP."""
    from minecheck.check.lpcheck import cbc_lp, lp_difference, relaxations  # CBC: only for LP findings

    board = parse_board(board_text)
    lps = [(lp, cbc_lp(lp)) for lp, _, _ in relaxations(board)]
    names = [d.name for d in DEFECTS if d.solver == subject and d.switchable]
    for on in _trials(names):
        solve = lp_port(frozenset(on))
        for lp, want in lps:
            try:
                shown = "lp" if lp_difference(solve(lp), want) else None
            except Exception:  # noqa: BLE001 - the simplex raised: that is its answer
                shown = "crash"
            if shown == kind:
                return " + ".join(on) or None
    return None


@cache
def _explain(subject: str, board_text: str, kind: str, mode: str) -> str | None:
    """The port against ``exact`` on the board (without its hidden mines), the fewest defects on first."""
    board = replace(parse_board(board_text), truth=None)
    solvers = (subject, *BY_NAME[subject].carries)  # ilp@seed runs the seed simplex, defects and all
    names = [d.name for d in DEFECTS if d.solver in solvers and d.switchable]
    always = [d.name for d in DEFECTS if d.solver in solvers and not d.switchable]
    for on in _trials(names):
        found = board_findings(board, port(subject, frozenset(on)))
        if any(f.kind.value == kind and f.mode.value == mode for f in found):
            return " + ".join(on) if on else " + ".join(always) or None
    return None
