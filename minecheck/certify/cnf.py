"""Rules of a board as CNF, written so that anyone can rebuild the same formula from the board.

Variable ``i + 1`` is the i-th unknown cell of the board in row-major order (covered cells and flags;
a cell with a mine is true).  Each rule named gives its clauses, in the board's order of rules:

* a digit, over at most 8 cells: the *direct* encoding, no helper variable: for exactly k of n cells,
  every k + 1 of them hold a safe cell and every n - k + 1 of them a mine.  Unit propagation on it is
  complete, and a proof speaks of cells only.  (``seqcounter``, pysat's sequential counter, for
  comparison in bench/certify.py.)
* a flag: a unit clause;
* the total, over every unknown cell: a cardinality encoding from ``pysat.card`` (the sequential
  counter by default: it propagates completely, so proofs stay short), its helper variables numbered
  after the cells and after the digits' helpers.

A *claim* ``some`` adds one clause: "one of these cells has this value".  The formula of rules + claim
being unsatisfiable proves every one of them false.

A count speaks of *boxes* (cells with the same digits around them, which every rule of their component treats
alike): the cells of each box held in order (a mine on the (i+1)-th only if the i-th is one), so that a box's
cells are the unary encoding of its number of mines, and a clause per *blocked* solution of the box system
("not k mines in each box b"): for box b of s cells with k mines, "not at least k" (-cell k) or "at least
k + 1" (cell k + 1), at most two literals a box.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from pysat.card import CardEnc, EncType

from minecheck.certify.certificates import Claim
from minecheck.certify.rules import Key, Reading, describe
from minecheck.model.errors import EngineError

DIGIT_ENCODINGS = ("direct", "seqcounter")
TOTAL_ENCODINGS = ("seqcounter", "totalizer", "kmtotalizer", "cardnetwrk", "sortnetwrk")
CLAUSES = 2_000_000  # about the most clauses one cardinality constraint may take: past it, TooBig


class TooBig(EngineError, ValueError):
    """A cardinality constraint would take more clauses than ``CLAUSES``: the board is too big to certify so."""


def counter_clauses(n: int, low: int, high: int) -> int:
    """About how many clauses a sequential counter keeping low..high of n literals true takes."""
    return 2 * n * (min(max(high, 0), n) if high < n else 0) + 2 * n * (n - low if low > 0 else 0)


@dataclass(frozen=True)
class Formula:
    """A CNF over the board's cells, with the comments that name each variable and each rule's clauses."""

    nvars: int
    clauses: tuple[tuple[int, ...], ...]
    comments: tuple[tuple[int, str], ...]  # (index of the clause it stands before, text)
    spans: tuple[tuple[Key, int, int], ...] = ()  # each rule's clauses: clauses[start:stop]

    @cached_property
    def dimacs(self) -> str:
        """Plain DIMACS text, the form drat-trim and every other checker reads: the comments (each naming the
        clause it stood before, by its number from 1) all before the ``p`` line, which drat-trim requires."""
        out = [f"c {text}" if i == 0 else f"c clause {at + 1} on: {text}" for i, (at, text) in enumerate(self.comments)]
        out.append(f"p cnf {self.nvars} {len(self.clauses)}")
        out += [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(out) + "\n"


def encode(reading: Reading, keys: tuple[Key, ...], some: Claim = (), digits: str = "direct",
           total: str = "seqcounter", blocked: tuple[tuple[int, ...], ...] = (),
           boxes: tuple[tuple[int, ...], ...] = ()) -> Formula:
    """The CNF of the rules named ``keys`` (in the board's order, whatever order they come in) and the claim;
    then the cells of each of the ``boxes`` held in order, and a clause per ``blocked`` solution of the box
    system (mines per box), saying "not this solution"."""
    if digits not in DIGIT_ENCODINGS or total not in TOTAL_ENCODINGS:
        raise ValueError(f"no encoding {digits!r} for digits ({', '.join(DIGIT_ENCODINGS)}) or {total!r} for the "
                         f"total ({', '.join(TOTAL_ENCODINGS)})")
    board = reading.board
    var = {c: i + 1 for i, c in enumerate(reading.unknown)}
    wanted = {tuple(k) for k in keys}
    clauses: list[tuple[int, ...]] = []
    comments = [(0, "minecheck: variable i is the i-th unknown cell (covered or flag), row-major: "
                 + " ".join(f"{v}=r{c // board.width}c{c % board.width}" for c, v in var.items()))]
    top = len(var)
    spans: list[tuple[Key, int, int]] = []
    for key, rule in reading.rules.items():
        if key not in wanted:
            continue
        comments.append((len(clauses), describe(board, key)))
        lits = [var[c] for c in rule.cells]
        way = total if key[0] == "total" else (digits if key[0] == "digit" else "direct")
        made, top = exactly(lits, rule.mines, way, top)
        spans.append((key, len(clauses), len(clauses) + len(made)))
        clauses += made
    unknown = wanted - reading.rules.keys()
    if unknown:
        raise ValueError(f"the board has no rule {describe(board, min(unknown))} in the {reading.mode.value} mode")
    if some:
        comments.append((len(clauses), "the claim: " + " or ".join(
            f"r{c // board.width}c{c % board.width} is {'a mine' if mine else 'safe'}" for c, mine in some)))
        for c, _ in some:
            if c not in var:
                raise ValueError(f"cell {c} is not an unknown cell of the board")
        clauses.append(tuple(var[c] if mine else -var[c] for c, mine in some))
    if boxes:
        comments.append((len(clauses), f"{len(boxes)} boxes, each's cells in order: " + "; ".join(
            " ".join(str(var[c]) for c in box) for box in boxes)))
        clauses += in_order(var, boxes)
    if blocked:
        comments.append((len(clauses), f"{len(blocked)} solutions of the box system (mines per box) blocked, a "
                         "clause each"))
        clauses += [blocking(var, boxes, solution) for solution in blocked]
    return Formula(top, tuple(clauses), tuple(comments), tuple(spans))


def in_order(var: dict[int, int], boxes: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """Each box's cells held in order: a mine on its (i+1)-th cell only if its i-th is one."""
    return [(-var[later], var[earlier]) for box in boxes for earlier, later in zip(box, box[1:])]


def blocking(var: dict[int, int], boxes: tuple[tuple[int, ...], ...], solution: tuple[int, ...]) -> tuple[int, ...]:
    """The clause "not ``solution[b]`` mines in each box b", the boxes' cells held in order: per box, "not at
    least k" (its k-th cell safe) or "at least k + 1" (its (k+1)-th cell a mine)."""
    out: list[int] = []
    for box, k in zip(boxes, solution, strict=True):
        if k > 0:
            out.append(-var[box[k - 1]])
        if k < len(box):
            out.append(var[box[k]])
    return tuple(out)


def exactly(lits: list[int], k: int, way: str, top: int) -> tuple[list[tuple[int, ...]], int]:
    """Clauses saying exactly k of lits are true, and the highest variable used so far."""
    n = len(lits)
    if not 0 <= k <= n:
        return [()], top  # the empty clause: no layout keeps this rule
    if way == "direct" or k in (0, n):
        at_most = [tuple(-x for x in group) for group in combinations(lits, k + 1)]
        at_least = [tuple(group) for group in combinations(lits, n - k + 1)]
        return at_most + at_least, top
    if counter_clauses(n, k, k) > CLAUSES:
        raise TooBig(f"exactly {k} of {n} cells would take about {counter_clauses(n, k, k):,} clauses")
    made = CardEnc.equals(lits=lits, bound=k, top_id=top, encoding=getattr(EncType, way))
    return [tuple(c) for c in made.clauses], max(top, made.nv)
