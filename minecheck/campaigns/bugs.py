"""A campaign's findings grouped into bugs: what an engine's author gets is a list of distinct bugs, each
small, none hidden behind another of the same kind.

Before shrinking, a bug is every finding of one solver with one fingerprint (``check.fingerprint.bug_key``);
its first finding in report order is shrunk (``shrinking.representatives``).  After shrinking, two groups of
one solver are one bug when their small boards say so, read by faces (``fingerprint.face``: the kind and the
shape, without the board's class, and for a wrong answer without what varies with the board's shape):

* the same fingerprint but for the board's class (``fingerprint.classless``): a flag the impossibility needs,
  or the total the global mode needs, no longer tells two shrunk findings apart;
* each small board shows the other's face as well (one misread digit gives a wrong verdict, count and
  probability on one board; one way only is two faults on one board: a rounding everywhere and a wrong
  density off the frontier both show on a board with cells off the frontier);
* the same minimal cause: each shrunk wrong answer is shrunk on with one interestingness test, "the solver
  still misreads this board" (``check.shrink.minimal_cause``, as C-Reduce keeps one test), and two whose
  causes are one board, up to its mirrors and turns and leaving the total out, are one bug: a dropped digit's
  wrong count, wrong probabilities and impossible board called possible all come down to ``2x1/0H``.

A crash, a timeout or a broken answer keeps its whole fingerprint (its origin is its name) and has no cause:
two crashes stay two bugs.  An arithmetic face (a rounding, an overflow, a wrap) is shrunk to its cause as
itself, so a rounding everywhere and a misreading in one solver stay two.  A group whose shrink is missing
(not done, failed) stays apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from minecheck.check.findings import Finding
from minecheck.check.fingerprint import FAILURES, Fingerprint, bug_id, bug_key, classless, face, fingerprint
from minecheck.check.shrinkcache import finding_key
from minecheck.model.board import Board
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BoardFormatError


@dataclass(frozen=True)
class Bug:
    """One bug: its solver, what it shows (before and after shrinking), its small board, its findings."""

    id: str  # bug_id of its first group: stable across runs
    subject: str
    fingerprint: Fingerprint  # its first finding's, on the board it was found on
    findings: tuple[int, ...]  # the numbers (report order) of every finding it explains
    first: int  # the finding shrunk and drawn for it
    shrunk: Fingerprint | None = None  # the shrunk finding's, when its shrink is done
    board: str | None = None  # the shrunk board's text, when its shrink is done
    cut_short: bool = False  # the shrink's budget ran out before a 1-minimal board
    keys: tuple[str, ...] = ()  # the fingerprint keys of the groups it merges (its own first)
    cause: str | None = None  # the shrunk finding's minimal cause board, when one was found

    @property
    def groups(self) -> tuple[str, ...]:
        """The ids of the groups it merges, its own first."""
        return tuple(bug_id(self.subject, k) for k in self.keys)

    @property
    def words(self) -> str:
        """What it shows in words: the small board's fingerprint when there is one."""
        return (self.shrunk or self.fingerprint).words

    def to_json(self) -> dict:
        return {"id": self.id, "subject": self.subject, "kind": self.fingerprint.kind, "fingerprint": self.words,
                "key": self.fingerprint.key, "shrunk_key": self.shrunk.key if self.shrunk else None,
                "findings": len(self.findings), "first": self.first, "board": self.board,
                "cut_short": self.cut_short, "groups": list(self.groups), "cause": self.cause}


def groups(findings: list[Finding]) -> dict[tuple[str, str], list[int]]:
    """Bug key -> the numbers of its findings, in report order (the findings are in report order)."""
    out: dict[tuple[str, str], list[int]] = {}
    for n, f in enumerate(findings):
        out.setdefault(bug_key(f), []).append(n)
    return out


def bugs(findings: list[Finding], shrunk: dict[str, dict]) -> list[Bug]:
    """The campaign's bugs, merged after shrinking, ordered by their first finding.

    ``shrunk``: shrunk.jsonl's entries by finding key; a group whose first finding has a finished entry is
    judged by its shrunk finding, and by every fingerprint its small board shows (``shows``)."""
    own: list[Bug] = []
    shows: list[set[str]] = []
    for (subject, key), numbers in groups(findings).items():
        first = numbers[0]
        entry = shrunk.get(finding_key(findings[first]))
        small = Finding.from_json(entry["finding"]) if entry is not None and "finding" in entry else None
        cause = (entry.get("cause") or {}).get("board") if small is not None else None
        own.append(Bug(bug_id(subject, key), subject, fingerprint(findings[first]), tuple(numbers), first,
                       None if small is None else fingerprint(small), None if small is None else small.board,
                       bool(small is not None and entry["stats"].get("cut_short")), (key,), cause))
        shows.append(set(entry.get("shows", ())) if small is not None else set())
    parent = list(range(len(own)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(own):
        for j in range(i):
            b = own[j]
            if a.subject == b.subject and _same(a, shows[i], b, shows[j]):
                parent[max(root(i), root(j))] = min(root(i), root(j))  # the earlier group keeps its name
    merged: dict[int, Bug] = {}
    for i, b in enumerate(own):
        r = root(i)
        if r not in merged:
            merged[r] = b
        else:
            kept = merged[r]
            merged[r] = Bug(kept.id, kept.subject, kept.fingerprint, tuple(sorted(kept.findings + b.findings)),
                            kept.first, kept.shrunk, kept.board, kept.cut_short, kept.keys + b.keys, kept.cause)
    return sorted(merged.values(), key=lambda b: b.first)


def _same(a: Bug, a_shows: set[str], b: Bug, b_shows: set[str]) -> bool:
    """Whether two groups' small boards show one bug: the same fingerprint but for the class, each board the
    other's face, or the same minimal cause (the module's docstring says why each)."""
    if a.shrunk is None or b.shrunk is None:
        return False
    if classless(a.shrunk.key) == classless(b.shrunk.key):
        return True
    a_face, b_face = face(a.shrunk.key), face(b.shrunk.key)
    a_else = {face(k) for k in a_shows if k != a.shrunk.key}  # what else each small board shows: two faces
    b_else = {face(k) for k in b_shows if k != b.shrunk.key}  # alike alone on their boards are no evidence
    if a_face in b_else and b_face in a_else:
        return True
    failure = a.shrunk.kind in FAILURES or b.shrunk.kind in FAILURES  # its origin is its name: no cause
    return not failure and a.cause is not None and b.cause is not None and same_board(a.cause, b.cause)


def same_board(a: str, b: str) -> bool:
    """Whether two boards' texts are one board up to its mirrors and turns, the total left out (a cause in the
    global mode keeps a total that the local mode's has not)."""
    try:
        first, second = parse_board(a), parse_board(b)
    except BoardFormatError:
        return False
    return _grid(second) in {_grid(t) for t in _symmetries(first)}


def _grid(board: Board) -> tuple:
    return board.width, board.height, board.cells


def _symmetries(board: Board) -> list[Board]:
    """The board under each of the square's 8 symmetries (a non-square board's turns change its shape)."""
    rows = [board.cells[r * board.width:(r + 1) * board.width] for r in range(board.height)]
    out = []
    for _ in range(4):
        for grid in (rows, [row[::-1] for row in rows]):
            out.append(Board(len(grid[0]), len(grid), tuple(v for row in grid for v in row)))
        rows = [list(col) for col in zip(*rows[::-1])]  # a quarter turn
    return out


def bug_of(found: list[Bug]) -> dict[int, Bug]:
    """Finding number -> the bug that explains it."""
    return {n: b for b in found for n in b.findings}
