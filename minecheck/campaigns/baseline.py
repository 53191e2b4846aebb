"""Known bugs, so that a nightly run goes red only on news.

A baseline (schema 2) lists bugs (``campaigns.bugs``): a solver and a fingerprint, with the fingerprint of
its shrunk finding and its canonical shrunk board.  A campaign's bug is known when its solver and one of its
fingerprints (of a group it merges, or of its shrunk finding) are known: a known bug met on new boards is no
news, and a second bug under an old signature (another fingerprint of the same kind, solver and mode) is.

Schema 1 (older files) lists signatures, and keeps its meaning: a bug is known to such a file when its first
finding's signature is, by the rules below.  ``minecheck baseline --merge`` onto a schema 1 file writes
schema 2 with its signatures kept beside the bugs, and they keep that meaning.

A finding's *signature* is its kind, solver, mode and shrunk board.  Shrunk boards are compared
as people would: without the hidden truth, and the same under the eight turns and mirror
images of the board (the smallest text of the eight stands for them all).  A finding that was
not shrunk (beyond the first few of its kind, solver and mode, one whose shrink its budget cut
short, or one with no board, such as a general LP) is news only when nothing of its kind, solver
and mode is known.

A crash also carries its exception (its first line, numbers as #), and a crash whose exception
is known is no news on any board: a stack overflow, say, has no one smallest board.

A baseline file is JSON: ``{"schema": 2, "bugs": [{"subject", "kind", "key", "shrunk", "board", "words"}],
"signatures": [{"kind", "subject", "mode", "board", "says"}]}`` (``signatures`` only from a schema 1 file;
``says`` for crashes only; a file without it still loads).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from minecheck.campaigns.bugs import Bug
from minecheck.check.findings import Finding, Kind
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.errors import BadFile, BoardFormatError
from minecheck.running.rundata import loads

SCHEMA = 2
READS = (1, 2)  # the schemas a baseline file may have


@dataclass(frozen=True)
class KnownBug:
    """A bug a baseline knows: its solver and fingerprint key, its shrunk finding's, and its small board."""

    subject: str
    kind: str
    key: str  # the fingerprint of its first finding, on the board it was found on
    shrunk: str | None = None  # the fingerprint of its shrunk finding
    board: str | None = None  # its canonical shrunk board, for people: a known bug is known on any board
    words: str = ""

    @property
    def order(self) -> tuple:
        return (self.subject, self.kind, self.key, self.shrunk or "", self.board or "")


@dataclass(frozen=True, order=True)
class Signature:
    kind: str
    subject: str
    mode: str
    board: str | None = None  # the canonical shrunk board, or None when the finding was not shrunk
    says: str | None = None  # a crash's exception (numbers as #): a known exception is no news on any board

    @property
    def group(self) -> tuple[str, str, str]:
        return (self.kind, self.subject, self.mode)


def canonical(board_text: str) -> str:
    """The board as the smallest text among its eight symmetries, without the hidden truth."""
    try:
        board = parse_board(board_text)
    except BoardFormatError:
        return board_text.strip()  # not a board (a general LP's text): compared as it is
    return min(format_board(b) for b in _symmetries(Board(board.width, board.height, board.cells,
                                                          board.total_mines, None)))


def _symmetries(board: Board) -> list[Board]:
    grid = [board.cells[r * board.width:(r + 1) * board.width] for r in range(board.height)]
    out = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]  # a quarter turn
        for g in (grid, [row[::-1] for row in grid]):
            out.append(Board(len(g[0]), len(g), tuple(v for row in g for v in row), board.total_mines, None))
    return out


def signature(finding: Finding, shrunk_board: str | None) -> Signature:
    board = canonical(shrunk_board) if shrunk_board is not None else None
    says = exception(finding.subject_says) if finding.kind is Kind.CRASH else None
    return Signature(finding.kind.value, finding.subject, finding.mode.value, board, says)


def exception(says: str) -> str:
    """A crash's first line with its numbers as #: the same exception wherever it is thrown (a stack
    overflow after 4372 models, an index out of bounds for length 3 or 4)."""
    first = says.strip().splitlines()[0] if says.strip() else ""
    return re.sub(r"\d+", "#", first)[:200]


@dataclass(frozen=True)
class Baseline:
    signatures: frozenset[Signature]  # a schema 1 file's rows
    bugs: frozenset[KnownBug] = frozenset()

    def knows_bug(self, bug: Bug, first: Finding, shrunk_board: str | None) -> bool:
        """Whether a campaign's bug is known: by one of its fingerprints, or (schema 1 rows) by its first
        finding's signature with its shrunk board (None: not shrunk to the end)."""
        known = {(k.subject, key) for k in self.bugs for key in (k.key, k.shrunk) if key is not None}
        mine = [*bug.keys, *([bug.shrunk.key] if bug.shrunk is not None else [])]
        if any((bug.subject, key) in known for key in mine):
            return True
        return bool(self.signatures) and self.knows(signature(first, shrunk_board))

    @property
    def groups(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(s.group for s in self.signatures)

    def knows(self, sig: Signature) -> bool:
        if sig.board is None:
            return sig.group in self.groups
        if sig.says is not None and any(s.group == sig.group and s.says == sig.says for s in self.signatures):
            return True  # a known exception on another board (a stack overflow has no one smallest board)
        return any(s.group == sig.group and s.board == sig.board for s in self.signatures)

    def to_json(self) -> str:
        data: dict = {"schema": SCHEMA, "bugs": [asdict(b) for b in sorted(self.bugs, key=lambda b: b.order)]}
        if self.signatures:
            data["signatures"] = [asdict(s) for s in sorted(self.signatures)]
        return json.dumps(data, indent=2) + "\n"


def load(path: Path) -> Baseline:
    """Read a baseline file; ValueError naming the file on anything else."""
    try:
        data = loads(path.read_text(encoding="utf-8"), f"baseline {path}")  # too deep: BadFile naming it
        if not isinstance(data, dict):
            raise BadFile(f"holds a JSON {type(data).__name__}, not a baseline object")
        if data.get("schema") not in READS:
            raise BadFile(f"schema {data.get('schema')!r}, expected {' or '.join(map(str, READS))}")
        if data["schema"] == 1:
            return Baseline(frozenset(Signature(**row) for row in data["signatures"]))
        return Baseline(frozenset(Signature(**row) for row in data.get("signatures", [])),
                        frozenset(KnownBug(**row) for row in data["bugs"]))
    except BadFile as err:
        if str(err).startswith(f"baseline {path}"):  # named already (nested too deep)
            raise
        raise BadFile(f"baseline {path}: {err}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise BadFile(f"baseline {path}: {err}") from None


def campaign_signatures(findings: list[Finding], shrunk_boards: dict[int, str]) -> dict[int, Signature]:
    """Per finding number: its signature with its shrunk board, or without one where it was not shrunk."""
    return {n: signature(f, shrunk_boards.get(n)) for n, f in enumerate(findings)}


def news(findings: list[Finding], shrunk_boards: dict[int, str], baseline: Baseline) -> dict[Signature, list[int]]:
    """The signatures the baseline does not know, each with the numbers of its findings.

    Within a kind, solver and mode, only the shrunk findings carry a board to compare; the rest of
    that group is news only when the group has no shrunk finding and is unknown as a whole.
    """
    sigs = campaign_signatures(findings, shrunk_boards)
    shrunk_groups = {s.group for n, s in sigs.items() if n in shrunk_boards}
    out: dict[Signature, list[int]] = {}
    for n, sig in sigs.items():
        if sig.board is None and sig.group in shrunk_groups:
            continue  # judged by its group's shrunk findings
        if not baseline.knows(sig):
            out.setdefault(sig, []).append(n)
    return out


def from_campaign(findings: list[Finding], shrunk_boards: dict[int, str]) -> Baseline:
    """The baseline that knows every signature of a campaign."""
    sigs = campaign_signatures(findings, shrunk_boards)
    shrunk_groups = {s.group for n, s in sigs.items() if n in shrunk_boards}
    return Baseline(frozenset(s for n, s in sigs.items() if s.board is not None or s.group not in shrunk_groups))


def bug_news(found: list[Bug], findings: list[Finding], shrunk_boards: dict[int, str],
             baseline: Baseline) -> list[Bug]:
    """The campaign's bugs the baseline does not know (``shrunk_boards``: by finding number, the shrinks done to
    the end, for the schema 1 rows)."""
    return [b for b in found if not baseline.knows_bug(b, findings[b.first], shrunk_boards.get(b.first))]


def from_bugs(found: list[Bug]) -> Baseline:
    """The baseline that knows every bug of a campaign."""
    return Baseline(frozenset(), frozenset(
        KnownBug(b.subject, b.fingerprint.kind, key, b.shrunk.key if b.shrunk else None,
                 canonical(b.board) if b.board is not None else None, b.words) for b in found for key in b.keys))
