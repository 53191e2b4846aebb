"""Certificates as plain data, and their JSON form (versioned by ``SCHEMA``).

* ``Witness``: a layout keeping every rule of the mode: the board is consistent, and each cell can
  have the value it has there.
* ``Refutation``: the rules named plus a claim ("one of these cells has this value") cannot all hold:
  a DRUP proof that their CNF (``minecheck.certify.cnf``, rebuilt from the board) is unsatisfiable.
  With no claim it refutes the board; the claim's every cell-value is impossible.
* ``Core``: rules of an impossible board that cannot all hold, minimal: its refutation, and for each
  rule a layout keeping all the others.
* ``Count``: the proof of a count: per component of linked digits its boxes and every solution of their system
  (mines per box) listed, and a refutation that no other exists; ``minecheck.certify.tally`` combines them with
  binomials into the count and probabilities.
* ``Certification``: one reference's answer on one board in one mode, each verdict backed by evidence
  (an index into the witnesses or the refutations), so that ``minecheck.certify.verify`` can check it all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from minecheck.certify.rules import Key
from minecheck.certify.tally import layouts_of, tally
from minecheck.model.answers import Mode, Verdict
from minecheck.model.boardtext import parse_board

Claim = tuple[tuple[int, bool], ...]  # (cell, is a mine): "one of these holds" (the CNF's claim clause)
SCHEMA = 2  # 2: a count's components in boxes, the second counter's word as data
LISTED = 10_000  # box solutions a count certificate lists per component at most: past it, not listed
WITNESS, REFUTATION = "witness", "refutation"
CLAIMS = ("consistency", "verdicts", "count", "probabilities")  # the kinds of claim, in the order people read them


def in_order(claims) -> list[str]:
    """The kinds of claim in the order people read them (``CLAIMS``), any other after."""
    return sorted(claims, key=lambda k: (CLAIMS.index(k) if k in CLAIMS else len(CLAIMS), k))


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
    blocked: tuple[tuple[int, ...], ...] = ()  # solutions of the box system (mines per box) ruled out (counts)
    boxes: tuple[tuple[int, ...], ...] = ()  # the boxes, each's cells held in order (minecheck.certify.cnf)


@dataclass(frozen=True)
class Core:
    """Rules that cannot all hold, each needed: ``layouts[i]`` keeps every rule but ``rules[i]``."""

    rules: tuple[Key, ...]
    refutation: Refutation
    layouts: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Component:
    """Linked digits (with the flags they touch), their covered cells in ``boxes`` (cells with the same digits
    around them, which every rule of the component treats alike), and every solution of the box system (mines
    per box), with a refutation that no other exists: its rules, its boxes' cells held in order and a clause
    blocking each solution listed, unsatisfiable.  ``refutation`` None: not listed (``solutions`` then empty), it
    has more solutions than a certificate lists (``minecheck.certify.counting.LISTED``)."""

    rules: tuple[Key, ...]
    boxes: tuple[tuple[int, ...], ...]
    solutions: tuple[tuple[int, ...], ...]
    refutation: Refutation | None

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted(c for box in self.boxes for c in box))

    @property
    def listed(self) -> bool:
        return self.refutation is not None


@dataclass(frozen=True)
class Second:
    """What the second counter (ganak) counted where a count is not proved: data ``verify`` counts again, never
    text taken on trust.  ``layouts`` None: it declined (``declined`` says why)."""

    counter: str
    layouts: int | None
    declined: str | None = None


@dataclass(frozen=True)
class Count:
    """The proof of a count: each component's box solutions, combined with the binomials of its boxes and of the
    cells off the frontier (``minecheck.certify.tally``)."""

    claimed: int | None  # the reference's count of layouts
    probabilities: tuple[tuple[int, Fraction], ...]  # the exact probabilities it claimed, by cell
    components: tuple[Component, ...]
    claimed_components: tuple[int, ...] | None = None  # its count of each component's layouts (in its own order)
    second: Second | None = None  # the second counter's count, where a component is not listed

    @property
    def listed(self) -> bool:
        return all(c.listed for c in self.components)


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
        """The count and probabilities the count certificate's listed solutions give (None: not all listed)."""
        if self.count is None or not self.count.listed:
            return None
        return tally(parse_board(self.board), self.mode, self.count.components)

    @property
    def proven_components(self) -> tuple[int, ...] | None:
        """Each component's layouts, as its listed solutions give them (None: not all listed)."""
        if self.count is None or not self.count.listed:
            return None
        return tuple(layouts_of(c.boxes, c.solutions) for c in self.count.components)

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
            if self.count.claimed is not None and count != self.count.claimed or (
                    self.count.claimed_components is not None
                    and sorted(self.count.claimed_components) != sorted(self.proven_components)):
                out.append("count")
            if any(probs.get(c) != p for c, p in self.count.probabilities):
                out.append("probabilities")
        return tuple(out)

    @property
    def claims(self) -> dict[str, str]:
        """Each kind of claim the answer makes, and what its certificates do with it: "proved", "wrong" or
        "unproved" (a fact left unsettled, a component not listed).  The one reading behind the certificate
        lines' ``claims``, ``check --certify``'s words and the pages'."""
        wrong, out = set(self.wrong), {}
        if self.claimed_consistent is not None:
            out["consistency"] = ("wrong" if "consistency" in wrong else "unproved" if self.consistent is None
                                  else "proved")
        if self.cells:
            out["verdicts"] = ("wrong" if wrong - {"consistency", "count", "probabilities"} else "proved" if (
                self.proven_consistent is False or all(p.proven is not None for p in self.cells)) else "unproved")
        count = self.count
        if count is not None:
            if count.claimed is not None or count.claimed_components is not None:
                out["count"] = "wrong" if "count" in wrong else "proved" if count.listed else "unproved"
            if count.probabilities:
                out["probabilities"] = ("wrong" if "probabilities" in wrong else "proved" if count.listed
                                        else "unproved")
        return out

    @property
    def certified(self) -> bool:
        """Every claim of the reference proved, and as it said: verdicts, consistency, count and probabilities."""
        return self.consistent is not None and all(v == "proved" for v in self.claims.values())


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
                    {"blocked": [list(b) for b in item.blocked], "boxes": [list(b) for b in item.boxes]}
                    if item.boxes else {})
    if isinstance(item, Core):
        return {"type": "core", "rules": [list(k) for k in item.rules], "refutation": _out(item.refutation),
                "layouts": [list(lay) for lay in item.layouts]}
    if isinstance(item, Count):
        return {"type": "count", "claimed": None if item.claimed is None else str(item.claimed),
                "claimed_components": None if item.claimed_components is None else [
                    str(n) for n in item.claimed_components],
                "probabilities": [[c, f"{p.numerator}/{p.denominator}"] for c, p in item.probabilities],
                "second": None if item.second is None else {
                    "counter": item.second.counter, "declined": item.second.declined,
                    "layouts": None if item.second.layouts is None else str(item.second.layouts)},
                "components": [{"rules": [list(k) for k in c.rules], "boxes": [list(b) for b in c.boxes],
                                "solutions": [list(x) for x in c.solutions],
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
                          d.get("cnf"), _rows(d.get("blocked", ())), _rows(d.get("boxes", ())))
    if kind == "core":
        return Core(tuple(_key(k) for k in d["rules"]), _in(d["refutation"]),
                    tuple(tuple(int(c) for c in lay) for lay in d["layouts"]))
    if kind == "count":
        second = d.get("second")
        return Count(None if d["claimed"] is None else int(d["claimed"]),
                     tuple((int(c), Fraction(p)) for c, p in d["probabilities"]),
                     tuple(Component(tuple(_key(k) for k in c["rules"]), _rows(c["boxes"]), _rows(c["solutions"]),
                                     None if c["refutation"] is None else _in(c["refutation"]))
                           for c in d["components"]),
                     None if d.get("claimed_components") is None else tuple(int(n) for n in d["claimed_components"]),
                     None if second is None else Second(str(second["counter"]), None if second["layouts"] is None
                                                        else int(second["layouts"]), second.get("declined")))
    if kind == "certification":
        cells = tuple(CellProof(int(c), Verdict(v), _evidence_in(m), _evidence_in(s)) for c, v, m, s in d["cells"])
        return Certification(str(d["board"]), Mode(d["mode"]), str(d["reference"]), d["claimed_consistent"],
                             _evidence_in(d["consistent"]), None if d["core"] is None else _in(d["core"]),
                             tuple(_in(w) for w in d["witnesses"]), tuple(_in(r) for r in d["refutations"]),
                             cells, d.get("declined"), None if d.get("count") is None else _in(d["count"]))
    raise ValueError(f"unknown certificate type {kind!r}")


def _rows(rows: list) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(x) for x in row) for row in rows)


def _key(k: list) -> Key:
    return (str(k[0]),) + tuple(int(x) for x in k[1:])


def _evidence_in(e: list | None) -> Evidence | None:
    if e is None:
        return None
    if e[0] not in (WITNESS, REFUTATION):
        raise ValueError(f"evidence kind {e[0]!r}")
    return Evidence(str(e[0]), int(e[1]))
