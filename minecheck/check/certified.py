"""The reference's side of a finding, certified: its answer on the board proved claim by claim
(``minecheck.certify``) and checked again by the independent checker, so that a person believes the finding
without trusting the reference.  A campaign certifies the references behind its findings (every reference
answer with ``--certify``); the certificates go to certificates.jsonl, a summary onto each finding."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from minecheck.certify.certificates import WITNESS, Certification, from_json, to_json
from minecheck.certify.certification import certify
from minecheck.certify.verify import check_certification
from minecheck.check.crosscheck import FLAGS_COVERED, BoardCheck
from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import SolverResult

CERTIFICATES = "certificates.jsonl"  # a line per (board, mode, reference) certified
CERTIFIED_KINDS = frozenset({Kind.VERDICT, Kind.CONSISTENCY, Kind.PROBABILITY, Kind.COUNT})
WITNESS_CELLS = 400  # a layout is carried on the finding (to be drawn) on boards of at most this many cells


@dataclass(frozen=True)
class Certified:
    """One reference's answer on one board in one mode, certified and checked."""

    index: int | None
    certification: Certification
    problems: tuple[str, ...]  # what the checker found wrong with the certificates (none: all hold)
    steps: int
    checker: str

    def line(self) -> str:
        """Its line in certificates.jsonl."""
        return json.dumps({"index": self.index, "mode": self.certification.mode.value,
                           "reference": self.certification.reference, "certified": self.certification.certified,
                           "checked": not self.problems, "problems": list(self.problems), "steps": self.steps,
                           "checker": self.checker, "certification": to_json(self.certification)}, sort_keys=True)


def certifiable(result: SolverResult | None) -> bool:
    """Whether a reference's answer claims something a certificate can prove: verdicts or consistency."""
    return result is not None and result.error is None and result.declined is None and (
        bool(result.cells) or result.consistent is not None)


def certify_checks(checks: list[BoardCheck], index: int | None,
                   references: tuple[str, ...] | None = None) -> list[Certified]:
    """Certify the references behind the findings of these checks of one board (or, given ``references``,
    each of their answers in each mode), each answer once: references that claim the same share one
    certification, and only its reference's name differs."""
    made: dict[tuple, Certification] = {}
    out = []
    for c in checks:
        wanted = {f.reference for f in c.findings if f.kind in CERTIFIED_KINDS}
        if references is not None:
            wanted |= {r.solver for r in c.results if r.solver in references}
        for name in sorted(wanted):
            result = c.result(name)
            if not certifiable(result):
                continue
            key = (c.mode, result.consistent, tuple((a.cell, a.verdict, a.probability) for a in result.cells))
            if key not in made:
                made[key] = certify(c.board, result)
            cert = replace(made[key], reference=name)
            checked = check_certification(cert, c.board)
            out.append(Certified(index, cert, checked.problems, checked.steps, checked.checker))
    return out


def with_certificate(finding: Finding, certified: list[Certified]) -> Finding:
    """The finding carrying a summary of its reference's certificate (``extra["certificate"]``), if made."""
    match = next((c for c in certified if c.certification.reference == finding.reference
                  and c.certification.mode is finding.mode), None)
    if match is None or finding.kind not in CERTIFIED_KINDS or FLAGS_COVERED in finding.extra:
        return finding  # (a marks reader's finding is on the board without flags, which no certificate covers)
    return replace(finding, extra={**finding.extra, "certificate": summary(match, finding.cells)})


def summary(c: Certified, cells: tuple[int, ...]) -> dict:
    """What a finding's page says of the certificate: certified or not, checked or not, and per cell of the
    finding the evidence (a layout, or a refutation of so many steps)."""
    cert = c.certification
    proofs = {p.cell: p for p in cert.cells}
    small = len(cert.board) <= WITNESS_CELLS * 2
    out_cells = []
    for cell in cells:
        p = proofs.get(cell)
        if p is None:
            continue
        entry = {"cell": cell, "claimed": p.claimed.value}
        for side, evidence in (("mine", p.mine), ("safe", p.safe)):
            if evidence is None:
                entry[side] = None
            elif evidence.kind == WITNESS:
                entry[side] = {"witness": list(cert.witnesses[evidence.index].mines) if small else None}
            else:
                entry[side] = {"refutation_steps": cert.refutations[evidence.index].steps}
        out_cells.append(entry)
    core = None if cert.core is None else [list(k) for k in cert.core.rules]
    return {"reference": cert.reference, "certified": cert.certified, "wrong": list(cert.wrong),
            "declined": cert.declined, "checked": not c.problems, "checker": c.checker, "steps": c.steps,
            "consistent": cert.proven_consistent, "core": core, "cells": out_cells, "file": CERTIFICATES}


def read_certificates(out: Path) -> list[dict]:
    """The lines of a run's certificates.jsonl (a line torn by a kill is skipped)."""
    path = out / CERTIFICATES
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


def verify_line(row: dict) -> tuple[str, ...]:
    """Check one line of certificates.jsonl again, from its certification alone: the problems found."""
    cert = from_json(row["certification"])
    problems = list(check_certification(cert).problems)
    if cert.wrong:
        problems.append(f"the certificates prove {cert.reference} wrong about {', '.join(cert.wrong)}")
    return tuple(problems)
