"""Certificates as plain data, and their JSON form (versioned by ``SCHEMA``).

* ``Witness``: a layout keeping every rule of the mode: the board is consistent, and each cell can
  have the value it has there.
* ``Refutation``: the rules named plus a claim ("one of these cells has this value") cannot all hold:
  a DRUP proof that their CNF (``minecheck.certify.cnf``, rebuilt from the board) is unsatisfiable.
  With no claim it refutes the board; the claim's every cell-value is impossible.
* ``Core``: rules of an impossible board that cannot all hold, minimal: its refutation, and for each
  rule a layout keeping all the others.
* ``Count``: the proof of a count: per component of linked digits its layouts listed, and a refutation that
  no other exists; ``tally`` combines them with the binomials off the frontier into the count and probabilities.
* ``Certification``: one reference's answer on one board in one mode, each verdict backed by evidence
  (an index into the witnesses or the refutations), so that ``minecheck.certify.verify`` can check it all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb

from minecheck.certify.cnf import Claim
from minecheck.certify.rules import Key
from minecheck.model.answers import Mode, Verdict
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import parse_board

SCHEMA = 1
WITNESS, REFUTATION = "witness", "refutation"


@dataclass(frozen=True)
class Witness:
    """The mines among the unknown cells (flags included) of a layout keeping every rule of ``mode``."""

    mode: Mode
    mines: tuple[int, ...]


@dataclass(frozen=True)
class Refutation:
    """A DRUP proof that the rules named and the claim ``some`` cannot all hold."""

    rules: tuple[Key, ...]
    some: Claim
    proof: str  # DRUP text, as the solver logged it
    steps: int  # clauses the proof adds (deletions not counted)
    solver: str  # the PySAT solver that logged it
    digits: str = "direct"  # the encodings the CNF was written with (minecheck.certify.cnf)
    total: str = "seqcounter"
    cnf: str | None = None  # the DIMACS text the proof refutes, for a checker of the user's choice
    blocked: tuple[tuple[int, ...], ...] = ()  # layouts of the cells ``over`` ruled out, a clause each (counts)
    over: tuple[int, ...] = ()


@dataclass(frozen=True)
class Core:
    """Rules that cannot all hold, each needed: ``layouts[i]`` keeps every rule but ``rules[i]``."""

    rules: tuple[Key, ...]
    refutation: Refutation
    layouts: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Component:
    """Linked digits (with the flags they touch) and every layout of their covered ``cells`` (the mines of each),
    with a refutation that no other exists: their rules and a clause blocking each layout listed, unsatisfiable.
    ``refutation`` None: not listed, it has more layouts than a certificate lists (``layouts`` then empty)."""

    rules: tuple[Key, ...]
    cells: tuple[int, ...]
    layouts: tuple[tuple[int, ...], ...]
    refutation: Refutation | None


@dataclass(frozen=True)
class Count:
    """The proof of a count: each component's layouts, combined with the binomials of the cells off the frontier
    (``tally``); ``second``: what the second counter said where a component is too big to list."""

    claimed: int | None  # the reference's count of layouts
    probabilities: tuple[tuple[int, Fraction], ...]  # the exact probabilities it claimed, by cell
    components: tuple[Component, ...]
    second: str | None = None

    @property
    def listed(self) -> bool:
        return all(c.refutation is not None for c in self.components)


def tally(board: Board, mode: Mode, components: tuple[Component, ...]) -> tuple[int, dict[int, Fraction]]:
    """The number of layouts of the board and each covered cell's mine probability, from every component's
    listed layouts: in the local mode the product of their numbers; in the global mode the sum over each choice
    of mines per component of the product of their numbers and C(off, remaining - mines), ``off`` the covered
    cells no digit touches and ``remaining`` the total less the flags.  Reads the board's cells here."""
    near: set[int] = set()
    for d in (i for i, v in enumerate(board.cells) if v >= 0):
        row, col = divmod(d, board.width)
        around = [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                  if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]
        if not any(board.cells[n] == COVERED for n in around) and sum(board.cells[n] == FLAG for n in around) != \
                board.cells[d]:
            return 0, {}  # a digit with every neighbour known, and not its number of flags
        near.update(n for n in around if board.cells[n] == COVERED)
    if mode is Mode.LOCAL:
        total = 1
        for comp in components:
            total *= len(comp.layouts)
        probs = {c: Fraction(sum(c in lay for lay in comp.layouts), len(comp.layouts))
                 for comp in components if comp.layouts for c in comp.cells}
        return total, probs if total else {}
    off = [c for c in range(board.size) if board.cells[c] == COVERED and c not in near]
    remaining = board.total_mines - sum(v == FLAG for v in board.cells)
    by_mines = [_histogram(comp.layouts) for comp in components]

    def weigh(hists: list[list[int]]) -> tuple[int, int]:
        """Layouts with these histograms, and the mines they leave off the frontier in all (weighted)."""
        dist = [1]
        for h in hists:
            dist = [sum(dist[i] * h[s - i] for i in range(len(dist)) if 0 <= s - i < len(h))
                    for s in range(len(dist) + len(h) - 1)]
        ways = [n * comb(len(off), remaining - s) if 0 <= remaining - s <= len(off) else 0 for s, n in enumerate(dist)]
        return sum(ways), sum(w * (remaining - s) for s, w in enumerate(ways))

    total, off_mines = weigh(by_mines)
    if not total:
        return 0, {}
    probs = {c: Fraction(off_mines, total * len(off)) for c in off}
    for i, comp in enumerate(components):
        for c in comp.cells:
            with_c = _histogram(tuple(lay for lay in comp.layouts if c in lay))
            probs[c] = Fraction(weigh(by_mines[:i] + [with_c] + by_mines[i + 1:])[0], total)
    return total, probs


def _histogram(layouts) -> list[int]:
    """How many layouts have 0, 1, 2 ... mines."""
    out = [0] * (max((len(lay) for lay in layouts), default=0) + 1)
    for lay in layouts:
        out[len(lay)] += 1
    return out


@dataclass(frozen=True)
class Evidence:
    """Where the proof of one fact is: ``certification.witnesses[index]`` or ``.refutations[index]``."""

    kind: str  # WITNESS or REFUTATION
    index: int


@dataclass(frozen=True)
class CellProof:
    """A covered cell: the verdict the reference claimed, and the evidence for "can it be a mine" and
    "can it be safe" (a witness says yes, a refutation no; None: not settled)."""

    cell: int
    claimed: Verdict
    mine: Evidence | None
    safe: Evidence | None

    @property
    def proven(self) -> Verdict | None:
        """The verdict the evidence proves (None when a fact is not settled)."""
        if self.mine is None or self.safe is None:
            return None
        can_mine, can_safe = self.mine.kind == WITNESS, self.safe.kind == WITNESS
        if can_mine and can_safe:
            return Verdict.UNKNOWN
        if can_mine or can_safe:
            return Verdict.MINE if can_mine else Verdict.SAFE
        return None  # neither value possible: the board is impossible, and ``consistent`` says so


@dataclass(frozen=True)
class Certification:
    """One reference's answer on one board in one mode, with the certificates that prove or disprove it."""

    board: str  # the board's text (without a hidden truth)
    mode: Mode
    reference: str
    claimed_consistent: bool | None
    consistent: Evidence | None  # a witness (consistent) or a refutation of every rule (impossible)
    core: Core | None  # for an impossible board
    witnesses: tuple[Witness, ...]
    refutations: tuple[Refutation, ...]
    cells: tuple[CellProof, ...]
    declined: str | None = None  # why some fact was left unsettled (a budget), None when all are
    count: Count | None = None  # the proof of the count it claims (None: it claims none, or the board is impossible)
    cpu: float = field(default=0.0, compare=False)  # CPU seconds it took to make: for people, not in the JSON

    @property
    def proven_consistent(self) -> bool | None:
        return None if self.consistent is None else self.consistent.kind == WITNESS

    @cached_property
    def proven_count(self) -> tuple[int, dict[int, Fraction]] | None:
        """The count and probabilities the count certificate's listed layouts give (None: not all listed)."""
        if self.count is None or not self.count.listed:
            return None
        return tally(parse_board(self.board), self.mode, self.count.components)

    @property
    def wrong(self) -> tuple[str, ...]:
        """What the certificates prove the reference wrong about: "consistency", cells (as cell indices), "count"
        and "probabilities" (as listed, whether or not they were checked: ``verify`` checks them)."""
        out = []
        if self.claimed_consistent is not None and self.proven_consistent not in (None, self.claimed_consistent):
            out.append("consistency")
        if self.proven_consistent is not False:
            out += [str(p.cell) for p in self.cells if p.proven is not None and p.proven != p.claimed]
        if self.proven_count is not None:
            count, probs = self.proven_count
            if self.count.claimed is not None and count != self.count.claimed:
                out.append("count")
            if any(probs.get(c) != p for c, p in self.count.probabilities):
                out.append("probabilities")
        return tuple(out)

    @property
    def certified(self) -> bool:
        """Every claim of the reference settled, and as it said."""
        settled = self.consistent is not None and (self.proven_consistent is False
                                                   or all(p.proven is not None for p in self.cells))
        return settled and not self.wrong


# -- JSON ------------------------------------------------------------------------------------------

def to_json(item) -> dict:
    """A certificate (or a Certification) as JSON-ready data, tagged with its type and the schema."""
    return {"schema": SCHEMA} | _out(item)


def _out(item) -> dict:
    if isinstance(item, Witness):
        return {"type": "witness", "mode": item.mode.value, "mines": list(item.mines)}
    if isinstance(item, Refutation):
        return {"type": "refutation", "rules": [list(k) for k in item.rules],
                "some": [[c, m] for c, m in item.some], "proof": item.proof, "steps": item.steps,
                "solver": item.solver, "digits": item.digits, "total": item.total, "cnf": item.cnf} | (
                    {"blocked": [list(b) for b in item.blocked], "over": list(item.over)} if item.over else {})
    if isinstance(item, Core):
        return {"type": "core", "rules": [list(k) for k in item.rules], "refutation": _out(item.refutation),
                "layouts": [list(lay) for lay in item.layouts]}
    if isinstance(item, Count):
        return {"type": "count", "claimed": None if item.claimed is None else str(item.claimed),
                "probabilities": [[c, f"{p.numerator}/{p.denominator}"] for c, p in item.probabilities],
                "second": item.second,
                "components": [{"rules": [list(k) for k in c.rules], "cells": list(c.cells),
                                "layouts": [list(lay) for lay in c.layouts],
                                "refutation": None if c.refutation is None else _out(c.refutation)}
                               for c in item.components]}
    if isinstance(item, Certification):
        return {"type": "certification", "board": item.board, "mode": item.mode.value, "reference": item.reference,
                "claimed_consistent": item.claimed_consistent, "consistent": _evidence_out(item.consistent),
                "core": None if item.core is None else _out(item.core),
                "witnesses": [_out(w) for w in item.witnesses], "refutations": [_out(r) for r in item.refutations],
                "cells": [[p.cell, p.claimed.value, _evidence_out(p.mine), _evidence_out(p.safe)] for p in item.cells],
                "declined": item.declined} | ({} if item.count is None else {"count": _out(item.count)})
    raise TypeError(f"not a certificate: {type(item).__name__}")


def _evidence_out(e: Evidence | None) -> list | None:
    return None if e is None else [e.kind, e.index]


def from_json(data: dict):
    """The certificate ``to_json`` made; ValueError naming the field for data it cannot read."""
    if data.get("schema", SCHEMA) != SCHEMA:
        raise ValueError(f"certificate schema {data.get('schema')!r}, this minecheck reads schema {SCHEMA}")
    try:
        return _in(data)
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"not a certificate minecheck can read: {err!r}") from err


def _in(d: dict):
    kind = d["type"]
    if kind == "witness":
        return Witness(Mode(d["mode"]), tuple(int(c) for c in d["mines"]))
    if kind == "refutation":
        return Refutation(tuple(_key(k) for k in d["rules"]), tuple((int(c), bool(m)) for c, m in d["some"]),
                          str(d["proof"]), int(d["steps"]), str(d["solver"]), str(d["digits"]), str(d["total"]),
                          d.get("cnf"), tuple(tuple(int(c) for c in b) for b in d.get("blocked", ())),
                          tuple(int(c) for c in d.get("over", ())))
    if kind == "core":
        return Core(tuple(_key(k) for k in d["rules"]), _in(d["refutation"]),
                    tuple(tuple(int(c) for c in lay) for lay in d["layouts"]))
    if kind == "count":
        return Count(None if d["claimed"] is None else int(d["claimed"]),
                     tuple((int(c), Fraction(p)) for c, p in d["probabilities"]),
                     tuple(Component(tuple(_key(k) for k in c["rules"]), tuple(int(x) for x in c["cells"]),
                                     tuple(tuple(int(x) for x in lay) for lay in c["layouts"]),
                                     None if c["refutation"] is None else _in(c["refutation"]))
                           for c in d["components"]), d.get("second"))
    if kind == "certification":
        cells = tuple(CellProof(int(c), Verdict(v), _evidence_in(m), _evidence_in(s)) for c, v, m, s in d["cells"])
        return Certification(str(d["board"]), Mode(d["mode"]), str(d["reference"]), d["claimed_consistent"],
                             _evidence_in(d["consistent"]), None if d["core"] is None else _in(d["core"]),
                             tuple(_in(w) for w in d["witnesses"]), tuple(_in(r) for r in d["refutations"]),
                             cells, d.get("declined"), None if d.get("count") is None else _in(d["count"]))
    raise ValueError(f"unknown certificate type {kind!r}")


def _key(k: list) -> Key:
    return (str(k[0]),) + tuple(int(x) for x in k[1:])


def _evidence_in(e: list | None) -> Evidence | None:
    if e is None:
        return None
    if e[0] not in (WITNESS, REFUTATION):
        raise ValueError(f"evidence kind {e[0]!r}")
    return Evidence(str(e[0]), int(e[1]))
