"""Certificates as plain data, and their JSON form (versioned by ``SCHEMA``).

* ``Witness``: a layout keeping every rule of the mode: the board is consistent, and each cell can
  have the value it has there.
* ``Refutation``: the rules named plus a claim ("one of these cells has this value") cannot all hold:
  a DRUP proof that their CNF (``minecheck.certify.cnf``, rebuilt from the board) is unsatisfiable.
  With no claim it refutes the board; the claim's every cell-value is impossible.
* ``Core``: rules of an impossible board that cannot all hold, minimal: its refutation, and for each
  rule a layout keeping all the others.
* ``Certification``: one reference's answer on one board in one mode, each verdict backed by evidence
  (an index into the witnesses or the refutations), so that ``minecheck.certify.verify`` can check it all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minecheck.certify.cnf import Claim
from minecheck.certify.rules import Key
from minecheck.model.answers import Mode, Verdict

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
    cpu: float = field(default=0.0, compare=False)  # CPU seconds it took to make: for people, not in the JSON

    @property
    def proven_consistent(self) -> bool | None:
        return None if self.consistent is None else self.consistent.kind == WITNESS

    @property
    def wrong(self) -> tuple[str, ...]:
        """What the certificates prove the reference wrong about: "consistency" and cells, as cell indices."""
        out = []
        if self.claimed_consistent is not None and self.proven_consistent not in (None, self.claimed_consistent):
            out.append("consistency")
        if self.proven_consistent is not False:
            out += [str(p.cell) for p in self.cells if p.proven is not None and p.proven != p.claimed]
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
    if isinstance(item, Certification):
        return {"type": "certification", "board": item.board, "mode": item.mode.value, "reference": item.reference,
                "claimed_consistent": item.claimed_consistent, "consistent": _evidence_out(item.consistent),
                "core": None if item.core is None else _out(item.core),
                "witnesses": [_out(w) for w in item.witnesses], "refutations": [_out(r) for r in item.refutations],
                "cells": [[p.cell, p.claimed.value, _evidence_out(p.mine), _evidence_out(p.safe)] for p in item.cells],
                "declined": item.declined}
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
    if kind == "certification":
        cells = tuple(CellProof(int(c), Verdict(v), _evidence_in(m), _evidence_in(s)) for c, v, m, s in d["cells"])
        return Certification(str(d["board"]), Mode(d["mode"]), str(d["reference"]), d["claimed_consistent"],
                             _evidence_in(d["consistent"]), None if d["core"] is None else _in(d["core"]),
                             tuple(_in(w) for w in d["witnesses"]), tuple(_in(r) for r in d["refutations"]),
                             cells, d.get("declined"))
    raise ValueError(f"unknown certificate type {kind!r}")


def _key(k: list) -> Key:
    return (str(k[0]),) + tuple(int(x) for x in k[1:])


def _evidence_in(e: list | None) -> Evidence | None:
    if e is None:
        return None
    if e[0] not in (WITNESS, REFUTATION):
        raise ValueError(f"evidence kind {e[0]!r}")
    return Evidence(str(e[0]), int(e[1]))
