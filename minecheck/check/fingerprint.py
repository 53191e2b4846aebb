"""A finding's fingerprint: what it shows, in a few words, told apart from other root causes without reading
the solver (after ClusterFuzz's crash state and Hypothesis's failure origin).

A fingerprint is the finding's kind, its board's class and its shape:

* the board's class: whether it is impossible (a consistency finding says; a verdict, count or probability
  is compared on possible boards only; for a crash, whether a digit or the total is impossible alone),
  whether it has flags, whether any cell is covered;
* the shape, per kind: for a crash or a timeout the exception's type and the place it was raised (the last
  frame, or a program's last line of standard error), with every number, address and path that varies
  between boards taken out; for a protocol finding the schema complaint with its values taken out; for a
  verdict its direction (mine for safe, safe for mine, certain for undetermined, undetermined for certain),
  the worst one present; for a probability the shape of the error (an overflow to NaN or inf, a value
  outside [0, 1], a rounding, 0 or 1 where it is not, one factor for two or more wrong cells, other values)
  and where (on the frontier, off it, both; a rounding or an overflow is the same anywhere); for a count its
  direction and shape (a width's wrap, a double's rounding, none, off by one, twice or half, too many, too
  few); for consistency which side is wrong; for an LP both statuses (and, for two optima, which side of
  the true one).

Everything is read from the finding alone (its says, detail and board text), so the fingerprint is the same
in every process and with any number of workers.  The bug key is the solver and the fingerprint
(``bug_key``): the reference is left out (a solver wrong on a board is wrong against every exact reference)
and so is the mode (one wrong weight shows in local and global mode alike).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from fractions import Fraction

from minecheck.check.findings import Finding, Kind
from minecheck.check.numerals import count_edge, probability_edge
from minecheck.engine.constraints import Contradiction, build_constraints
from minecheck.model.board import Board
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import BoardFormatError

PRECISION = Fraction(1, 10**9)  # a wrong probability this near the exact one is a float's rounding, not a rule
SEVERITY = ("mine for safe", "safe for mine", "certain for undetermined", "undetermined for certain",
            "no answer for certain")  # a verdict finding's direction: the first of these it shows


@dataclass(frozen=True, order=True)
class Fingerprint:
    """What a finding shows: its kind, its board's class and its shape, each a short phrase."""

    kind: str
    board: str  # the board's class, e.g. "possible, total stated, no flags"
    shape: str  # the kind's own shape, e.g. "mine for safe" or "IndexError at seed_components"

    @property
    def words(self) -> str:
        return f"{self.kind}: {self.shape} ({self.board})"

    @property
    def key(self) -> str:
        return f"{self.kind}|{self.board}|{self.shape}"


def fingerprint(finding: Finding) -> Fingerprint:
    """The finding's fingerprint (a pure function of the finding), kept by a digest of what it reads: a report
    rewritten while a campaign runs reads every finding again, and a probability's shape on a board of
    thousands of cells costs tens of milliseconds (a fifth of a slow engine's campaign's report)."""
    key = _digest(finding)
    known = _KNOWN.get(key)
    if known is None:
        if len(_KNOWN) >= KNOWN_MAX:
            _KNOWN.clear()
        known = _KNOWN[key] = _fingerprint(finding)
    return known


_KNOWN: dict[bytes, Fingerprint] = {}
KNOWN_MAX = 100_000  # fingerprints kept (a few hundred bytes each)


def _digest(finding: Finding) -> bytes:
    """A digest of every field a fingerprint reads."""
    fields = (finding.kind.value, finding.board, ",".join(map(str, finding.cells)), finding.subject_says,
              finding.reference_says, finding.detail)
    return hashlib.blake2b("\0".join(fields).encode(errors="surrogatepass"), digest_size=16).digest()


def _fingerprint(finding: Finding) -> Fingerprint:
    board = _board(finding.board)
    return Fingerprint(finding.kind.value, board_class(finding, board), _SHAPES[finding.kind](finding, board))


def bug_key(finding: Finding) -> tuple[str, str]:
    """What makes two findings one bug before shrinking: the same solver and the same fingerprint."""
    return (finding.subject, fingerprint(finding).key)


# -- faces: what a shrunk finding shows, read coarsely, for merging after shrinking --------------------

FAILURES = ("crash", "timeout", "protocol")  # kinds whose fingerprint is their origin: never coarsened
NUMERIC = ("NaN or inf: an overflow", "outside [0, 1]", "a rounding", "rounded to a double")  # a number's
# representation failing (and a count's wrap, "wraps ..."): a fault of arithmetic, told apart from a misreading


def classless(key: str) -> str:
    """A fingerprint key without the board's class (a failure's kept whole): what two shrunk findings must share
    to be one bug by their faces alone."""
    kind, _, rest = key.partition("|")
    return key if kind in FAILURES else f"{kind}|{rest.partition('|')[2]}"


def face(key: str) -> str:
    """A fingerprint key read coarsely, as bugs are merged after shrinking: the kind and the shape without the
    board's class (the shrinker keeps whatever class the small board needs: a flag that makes it impossible,
    a total the global mode needs) and, for a wrong answer, without what varies with the board's shape: where
    a probability is wrong, how far a count is off, which way a certain cell is missed.  A failure (crash,
    timeout, protocol) keeps its whole key: its origin is its name."""
    kind, _, rest = key.partition("|")
    if kind in FAILURES:
        return key
    shape = rest.partition("|")[2]
    if kind == "probability":
        first = shape.split(", ")[0]
        shape = first if first in NUMERIC or first.startswith("a sampler's") else "wrong values"
    elif kind == "count" and not (shape in NUMERIC or shape.startswith("wraps")):
        shape = "a wrong count"
    elif kind == "verdict":
        shape = {"undetermined for certain": "misses a certain cell", "no answer for certain": "misses a certain cell",
                 "safe for mine": "the opposite certainty", "mine for safe": "the opposite certainty"}.get(shape, shape)
    return f"{kind}|{shape}"


def arithmetic(face_: str) -> bool:
    """Whether a face is one of arithmetic (a rounding, an overflow, a wrap) or of a sampler's statistics, not
    of a misreading of the board: such a face is shrunk to its cause as itself (``check.shrink.minimal_cause``)."""
    shape = face_.partition("|")[2]
    return shape in NUMERIC or shape.startswith(("wraps", "a sampler's"))


def bug_id(subject: str, key: str) -> str:
    """A bug's short name, stable across runs: ``bug-`` and 8 hex digits of its solver and fingerprint."""
    return "bug-" + hashlib.sha256(f"{subject}|{key}".encode()).hexdigest()[:8]


# -- the board's class ------------------------------------------------------------------------------

def _board(text: str) -> Board | None:
    try:
        return parse_board(text)
    except BoardFormatError:
        return None  # a general LP's text


def board_class(finding: Finding, board: Board | None) -> str:
    """Whether the board is possible, and what it has: flags, covered cells (the total is left out: the mode
    carries it, the local mode never reads it and the global mode always has it; by it one crash on ``1x1/H``
    and ``1x1x0/H`` was two bugs, bench/bugs.py)."""
    if board is None:
        return "a random LP" if finding.kind in (Kind.LP, Kind.CRASH) else "no board"
    if finding.kind is Kind.LP:
        return "a board's LP relaxation"  # its digits and total are the LP's rows: the LP's statuses say the rest
    if finding.kind is Kind.CONSISTENCY:
        possible = "impossible" if finding.reference_says.startswith("inconsistent") else "possible"
    elif finding.kind in (Kind.VERDICT, Kind.COUNT, Kind.PROBABILITY):
        possible = "possible"  # compared on consistent boards only
    else:
        possible = "impossible at a digit" if _impossible_at_a_digit(board) else "no digit impossible alone"
    parts = [possible, "flags" if board.flags else "no flags"]
    if not board.covered:
        parts.append("no covered cell")
    return ", ".join(parts)


def _impossible_at_a_digit(board: Board) -> bool:
    """Whether a digit, or the total, makes the board impossible on its own: what is cheap to see (a board
    impossible only as a whole needs the counter, which a crash's fingerprint does not run)."""
    if board.total_mines is not None and not len(board.flags) <= board.total_mines <= len(board.flags) + len(
            board.covered):
        return True
    try:
        build_constraints(board)
    except Contradiction:
        return True
    return False


# -- shapes, per kind -------------------------------------------------------------------------------

_NUMBER = re.compile(r"-?\b\d+(\.\d+)?(e[-+]?\d+)?\b|0x[0-9a-fA-F]+")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\w.~-]*[/\\])+([\w.-]+)")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_CELL = re.compile(r"\br#c#\b|\(#, ?#\)|\[#\]")
_FRAME = re.compile(r"\(at ([\w.<>]+):\d+\)")
_PY_FRAME = re.compile(r'File "[^"]*", line \d+, in ([\w.<>]+)')
_JAVA_FRAME = re.compile(r"^\s*at ([\w.$<>]+)\(")


def _normalised(text: str) -> str:
    """Text without what varies from board to board: paths (their last part kept), quoted values, numbers,
    addresses, cells."""
    text = _PATH.sub(r"\1", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBER.sub("#", text)
    text = re.sub(r"\br\d*#c\d*#?", "r#c#", text)
    return re.sub(r"\s+", " ", _CELL.sub("#", text)).strip()


def _failure_shape(f: Finding, board: Board | None) -> str:
    """A crash's or timeout's exception type and where it was raised (function names, no line numbers)."""
    first = f.subject_says.strip().splitlines()[0] if f.subject_says.strip() else ""
    frame = _FRAME.search(first)
    message = _FRAME.sub("", first)
    stderr = [line for line in f.detail.splitlines()[1:] if line.strip()] if f.detail.startswith(
        "its standard error") else []
    frames = [m.group(1) for line in stderr for m in [_PY_FRAME.search(line) or _JAVA_FRAME.search(line)] if m]
    where = frame.group(1) if frame else (frames[-1] if frames else "")
    shape = _normalised(message)[:120]
    if stderr and not frame:  # a program: its last line of standard error names what it raised (kept whole:
        # the protocol's own words come first and are long, so a cut of the two together lost the engine's)
        shape = f"{shape}; its standard error ends {_normalised(stderr[-1])[:120]}"
    return f"{shape} at {where}" if where else shape


def _protocol_shape(f: Finding, board: Board | None) -> str:
    return _normalised(f.subject_says.strip().splitlines()[0] if f.subject_says.strip() else "")[:120]


def _verdict_shape(f: Finding, board: Board | None) -> str:
    """The worst direction among the finding's cells."""
    seen = set()
    for got, want in zip(_items(f.subject_says), _items(f.reference_says)):
        if got == want:
            continue
        if got == "no answer":
            seen.add("no answer for certain")
        elif got == "unknown":
            seen.add("undetermined for certain")
        elif want == "unknown":
            seen.add("certain for undetermined")
        else:
            seen.add(f"{got} for {want}")
    return next((d for d in SEVERITY if d in seen), "a verdict")


def _probability_shape(f: Finding, board: Board | None) -> str:
    if f.detail.startswith("z = "):
        return f"a sampler's estimate beyond its statistical bound, {_where(f, board)}"
    pairs = [(g, w) for g, w in zip(map(_number, _items(f.subject_says)), map(_number, _items(f.reference_says)))
             if g is not None and w is not None]
    shape = _error_shape(pairs)
    return shape if shape in ANYWHERE else f"{shape}, {_where(f, board)}"


ANYWHERE = ("NaN or inf: an overflow", "outside [0, 1]", "a rounding")  # shapes whose place says nothing more


def _error_shape(pairs: list[tuple]) -> str:
    if not pairs:
        return "wrong values"
    if any(isinstance(g, float) for g, _ in pairs):
        return "NaN or inf: an overflow"
    if any(not 0 <= g <= 1 for g, _ in pairs):
        return "outside [0, 1]"
    edges = {probability_edge(g, w) for g, w in pairs}
    if all(e is not None and e[0] == "rounded" for e in edges) or all(abs(g - w) <= PRECISION for g, w in pairs):
        return "a rounding"
    if all(g in (0, 1) for g, _ in pairs):
        return "0 or 1 where it is not"
    if len(pairs) > 1 and all(w for _, w in pairs) and len({g / w for g, w in pairs}) == 1:
        return "one factor for every wrong cell"
    return "wrong values"


def _where(f: Finding, board: Board | None) -> str:
    """Whether a finding's cells are on the frontier (next to a digit), off it, or both."""
    if board is None or not f.cells:
        return "no cells named"
    try:
        frontier = set(build_constraints(board).frontier)
    except Contradiction:
        return "no cells named"
    on = {c in frontier for c in f.cells}
    return "on the frontier" if on == {True} else "off the frontier" if on == {False} else "on and off the frontier"


def _count_shape(f: Finding, board: Board | None) -> str:
    got, want = _layouts(f.subject_says), _layouts(f.reference_says)
    if got is None or want is None:
        return "component counts differ" if f.subject_says.startswith("components") else "a wrong count"
    edge = count_edge(got, want)
    if edge is not None:
        return {"wrap": f"wraps at 2**{edge[1]}", "signed": f"wraps past 2**{edge[1] - 1} - 1",
                "double": "rounded to a double"}[edge[0]]
    if got == 0:
        return "none where some"
    if abs(got - want) == 1:
        return "off by one"
    if got == 2 * want or 2 * got == want:
        return "twice" if got > want else "half"
    return "too many" if got > want else "too few"


def _consistency_shape(f: Finding, board: Board | None) -> str:
    if f.reference_says.startswith("inconsistent"):
        return "calls an impossible board possible"
    return "calls a possible board impossible"


def _lp_shape(f: Finding, board: Board | None) -> str:
    got, want = f.subject_says.split(), f.reference_says.split()
    if not got or not want:
        return "a wrong status"
    if got[0] == want[0] == "optimal" and len(got) > 1 and len(want) > 1:
        low = _number(got[1]), _number(want[1])
        if None not in low:
            return "an optimum below the true one" if low[0] < low[1] else "an optimum above the true one"
    return f"{got[0]} for {want[0]}"


def _plain_shape(f: Finding, board: Board | None) -> str:
    return _normalised(f.subject_says.strip().splitlines()[0] if f.subject_says.strip() else "")[:120]


_SHAPES = {Kind.CRASH: _failure_shape, Kind.TIMEOUT: _failure_shape, Kind.PROTOCOL: _protocol_shape,
           Kind.CONSISTENCY: _consistency_shape, Kind.VERDICT: _verdict_shape, Kind.COUNT: _count_shape,
           Kind.PROBABILITY: _probability_shape, Kind.LP: _lp_shape, Kind.REFERENCE: _plain_shape,
           Kind.DECISION: _plain_shape}


# -- reading the says -------------------------------------------------------------------------------

def _items(says: str) -> list[str]:
    """A say's comma-separated values, each without its exact value in brackets ("0.333333 (= 1/3)")."""
    return [re.sub(r"\s*\(=[^)]*\)", "", s).strip() for s in says.split(", ")] if says else []


def _number(text: str) -> Fraction | float | None:
    """A value as shown: a fraction or a decimal exactly, NaN and inf as floats; None if it is none."""
    text = text.strip()
    if text.lower() in ("nan", "inf", "-inf", "infinity", "-infinity"):
        return float(text)
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def _layouts(says: str) -> int | None:
    m = re.fullmatch(r"(-?\d+) layouts", says.strip())
    return int(m.group(1)) if m else None
