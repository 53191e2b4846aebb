"""The reference's side of a finding, certified: its answer on the board proved claim by claim
(``minecheck.certify``) and checked again by the independent checker, so that a person believes the finding
without trusting the reference.  A campaign certifies the references behind its findings (every reference
answer with ``--certify``); the certificates go to certificates.jsonl, a summary onto each finding."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib.util import find_spec
from pathlib import Path

from minecheck.certify import certificates
from minecheck.certify.certificates import WITNESS, Certification, Second, from_json, in_order, to_json
from minecheck.certify.certification import certify, claimed_verdicts
from minecheck.certify.verify import check_certification
from minecheck.check.crosscheck import FLAGS_COVERED, BoardCheck
from minecheck.check.findings import Finding, Kind, read_findings
from minecheck.model.answers import Answers, Mode, SolverResult, result_from_json
from minecheck.model.board import COVERED, Board
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.running.catalogue import REFERENCES
from minecheck.running.catalogue import entry as catalogue_entry
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver

CERTIFICATES = "certificates.jsonl"  # a line per (board, mode, reference) certified
ANSWERS = "answers.jsonl"  # the answers a run kept for its boards with findings (minecheck.campaigns.fuzz)
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
                           "claims": self.certification.claims,
                           "checked": not self.problems, "problems": list(self.problems), "steps": self.steps,
                           "checker": self.checker, "certification": to_json(self.certification)}, sort_keys=True)


def certifiable(result: SolverResult | None) -> bool:
    """Whether a reference's answer claims something a certificate can prove: verdicts or consistency."""
    return result is not None and result.error is None and result.declined is None and (
        bool(result.cells) or result.consistent is not None)


def certify_checks(checks: list[BoardCheck], index: int | None, references: tuple[str, ...] | None = None,
                   budget: Budget | None = None) -> list[Certified]:
    """Certify the references behind the findings of these checks of one board (or, given ``references``,
    each of their answers in each mode), each answer once: references that claim the same share one
    certification, and only its reference's name differs.  ``budget``: each call of the second counter's."""
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
            key = (c.mode, result.consistent, result.layouts, result.component_layouts,
                   tuple((a.cell, a.verdict, a.probability) for a in result.cells))
            if key not in made:
                made[key] = with_second_counter(c.board, certify(c.board, result), budget)
            cert = replace(made[key], reference=name)
            checked = check_certification(cert, c.board)
            out.append(Certified(index, cert, checked.problems, checked.steps, checked.checker))
    return out


def with_second_counter(board: Board, cert: Certification, budget: Budget | None = None) -> Certification:
    """Where a component has too many box solutions to list, the count is not proved: ask the second counter
    (ganak), within ``budget`` as a solver is run (a count it cannot finish is declined, never a hang of the run),
    and keep what it counts as data beside the claim (agreement, not proof; ``verify`` counts it again)."""
    if cert.count is None or cert.count.listed or cert.count.claimed is None or find_spec("pyganak") is None:
        return cert
    theirs = second_count(board, cert.mode, budget)
    return replace(cert, count=replace(cert.count, second=theirs))


def second_count(board: Board, mode: Mode, budget: Budget | None) -> Second:
    """The second counter's count of the board's layouts, run as a solver is, within ``budget``."""
    theirs = run_solver(get_solver("ganak"), board, mode, budget=budget)
    return Second("ganak", theirs.layouts, None if theirs.layouts is not None else str(
        theirs.declined or theirs.error or "no count"))


def count_words(cert: Certification) -> str | None:
    """What is proved of the count, and what only agreed, in a line (None: the answer claims no count)."""
    count = cert.count
    if count is None:
        return None
    if count.listed:
        proven, _ = cert.proven_count
        state = ("as claimed" if "count" not in cert.wrong else "not the "
                 + (f"{count.claimed:,}" if count.claimed is not None else "components' counts") + " claimed")
        boxes = sum(len(c.boxes) for c in count.components)
        solutions = sum(len(c.solutions) for c in count.components)
        return (f"count proved: {proven:,} layouts ({state}), from {solutions:,} solutions of {boxes:,} boxes in "
                f"{len(count.components)} components, each checked against the digits, with a refutation that no "
                f"other exists" + ("; the probabilities follow from them" if count.probabilities else ""))
    big = sum(not c.listed for c in count.components)
    second = count.second
    said = ("no second counter counted it" if second is None else
            f"the second counter declined: {second.declined}" if second.layouts is None else
            f"only agreed: {second.counter} counts {second.layouts:,}, "
            + ("as claimed" if second.layouts == count.claimed else "NOT as claimed"))
    return (f"count not proved: {big} of {len(count.components)} components have more than {certificates.LISTED:,} box "
            f"solutions to list; " + said + ("; the probabilities are not proved either" if count.probabilities
                                             else ""))


def unproved(cert: Certification) -> list[str]:
    """The claims of an answer its certificates leave unproved, in words (empty: each is proved or wrong)."""
    out = []
    claims = cert.claims
    if claims.get("consistency") == "unproved":
        out.append("consistency" + (f" ({cert.declined})" if cert.declined else ""))
    if claims.get("verdicts") == "unproved":
        n = sum(p.proven is None for p in cert.cells)
        out.append(f"{n} verdicts" + (f" ({cert.declined})" if cert.declined else ""))
    if "unproved" in (claims.get("count"), claims.get("probabilities")):
        out.append(count_words(cert))
    return out


def claims_tally(claims) -> dict[str, dict[str, int]]:
    """How many claims of each kind are proved, wrong or not proved, over certifications' ``claims``."""
    out: dict[str, dict[str, int]] = {}
    for one in claims:
        for kind, state in one.items():
            out.setdefault(kind, {}).setdefault(state, 0)
            out[kind][state] += 1
    return out


def tally_words(tally: dict[str, dict[str, int]]) -> str:
    """``claims_tally`` in words: "count 96 proved, 6 unproved; ..." (kinds in a fixed order)."""
    return "; ".join(f"{kind} " + ", ".join(f"{n} {state}" for state, n in sorted(tally[kind].items()))
                     for kind in in_order(tally))


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
            "claims": cert.claims, "count": count_words(cert),
            "count_proved": cert.claims.get("count") == "proved",
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


def verify_line(row: dict, answer: dict | None = None) -> tuple[str, ...]:
    """Check one line of certificates.jsonl again, from its certification alone (and, given the reference's
    answer as the run kept it, that every claim of it is in the certification): the problems found."""
    cert = from_json(row["certification"])
    problems = list(check_certification(cert).problems)
    problems += claims_missing(cert, answer)
    if row.get("certified") and not cert.certified:
        problems.append("the line says certified, but its certificates do not prove every claim as claimed")
    said = row.get("claims")
    if said is not None and said != cert.claims:
        problems.append(f"the line says its claims are {_claims(said)}, its certificates make them "
                        f"{_claims(cert.claims)}")
    if cert.wrong:
        problems.append(f"the certificates prove {cert.reference} wrong about {', '.join(cert.wrong)}")
    return tuple(problems)


def _claims(claims) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(claims.items())) if isinstance(claims, dict) else repr(claims)


def claims_missing(cert: Certification, answer: dict | None) -> list[str]:
    """The reference's claims the certification lost: against its answer when the run kept it, else, for a
    built-in reference, what each of them claims: consistency, a verdict for each covered cell in the global
    mode (each covered cell by a digit in the local one), and a count and probabilities where it answers them.
    A certification that declined a fact still lists every claim: ``declined`` excuses no claim lost."""
    board = parse_board(cert.board)
    have = {p.cell: p.claimed for p in cert.cells}
    if answer is not None:
        result = result_from_json(answer)
        wanted = {c: v for c, v in claimed_verdicts(result).items()
                  if 0 <= c < board.size and board.cells[c] == COVERED}
        out = [] if result.consistent == cert.claimed_consistent else [
            f"the answer says consistent={result.consistent}, the certification {cert.claimed_consistent}"]
        changed = [c for c, v in wanted.items() if have.get(c) != v]
        if changed:
            out.append(f"{len(changed)} verdicts of the answer missing or changed: {_cells(board, changed)}")
        return out + _count_lost(cert, result.layouts, result.component_layouts, tuple(
            (a.cell, a.probability) for a in result.cells if isinstance(a.probability, Fraction)))
    if cert.reference not in REFERENCES:
        return []
    if cert.claimed_consistent is None:
        return ["the answer's claim about consistency is missing (claimed_consistent is null)"]
    if cert.proven_consistent is not True:
        return []
    near = {n for d in board.digits for n in board.neighbours(d)} if cert.mode is Mode.LOCAL else None
    wanted = [c for c in range(board.size) if board.cells[c] == COVERED and (near is None or c in near)]
    lost = [c for c in wanted if c not in have]
    out = [f"{len(lost)} verdicts missing: {_cells(board, lost)}"] if lost else []
    answers = catalogue_entry(cert.reference).answers
    count = cert.count
    if Answers.COUNTS in answers and (count is None or count.claimed is None):
        out.append(f"{cert.reference} claims a count, and the certification "
                   + ("has no count certificate" if count is None else "lost it (claimed is null)"))
    if Answers.PROBABILITIES in answers and cert.claimed_consistent:
        given = {c for c, _ in count.probabilities} if count is not None else set()
        gone = [c for c in have if c not in given]
        if gone:
            out.append(f"{len(gone)} probabilities {cert.reference} claims are missing: {_cells(board, gone)}")
    return out


def _count_lost(cert: Certification, layouts, components, probabilities) -> list[str]:
    """What of the answer's count, components' counts and exact probabilities the count certificate lost or
    changed (an impossible board's count is proved by its refutation, and has no count certificate)."""
    if layouts is None and components is None and not probabilities or cert.proven_consistent is False:
        return []
    count = cert.count
    if count is None:
        return ["the answer claims a count or probabilities, and the certification has no count certificate"]
    out = []
    if count.claimed != layouts or (components is not None and count.claimed_components != tuple(components)):
        out.append(f"the answer's count ({layouts}, components {components}) is not the certificate's claim "
                   f"({count.claimed}, components {count.claimed_components})")
    if dict(probabilities) != dict(count.probabilities):
        changed = [c for c in {c for c, _ in probabilities} | {c for c, _ in count.probabilities}
                   if dict(probabilities).get(c) != dict(count.probabilities).get(c)]
        out.append(f"{len(changed)} probabilities of the answer missing or changed: "
                   f"{_cells(parse_board(cert.board), changed)}")
    return out


def second_counted_again(cert: Certification, budget: Budget | None) -> tuple[list[str], list[str]]:
    """The second counter's word, counted again within ``budget``: (problems: a count it does not give again;
    notes: a count it cannot give again, not installed or declined, whose word then stands for nothing)."""
    second = cert.count.second if cert.count is not None else None
    if second is None or second.layouts is None:
        return [], []
    if find_spec("pyganak") is None:
        return [], [f"the second counter's count of {second.layouts:,} is dropped: it cannot be counted again "
                    "(ganak is not installed)"]
    again = second_count(parse_board(cert.board), cert.mode, budget)
    if again.layouts is None:
        return [], [f"the second counter's count of {second.layouts:,} is dropped: counted again, {again.declined}"]
    if again.layouts != second.layouts:
        return [f"the certificate says {second.counter} counts {second.layouts:,}; counted again, it counts "
                f"{again.layouts:,}"], []
    return [], []


def _cells(board: Board, cells: list[int]) -> str:
    names = [f"r{r}c{c}" for r, c in map(board.row_col, sorted(cells)[:5])]
    return ", ".join(names) + (f" and {len(cells) - 5} more" if len(cells) > 5 else "")


def run_gaps(out: Path, rows: list[dict], shrunk: dict[str, dict]) -> list[str]:
    """What a run lost of its certificates: a board's lines (boards.jsonl says how many it wrote), a finding's
    certificate (it carries a summary of one), a shrunk finding's."""
    have: dict[int, set] = {}
    for r in rows:
        have.setdefault(r.get("index"), set()).add((r.get("mode"), r.get("reference")))
    gaps = []
    boards = out / "boards.jsonl"
    for line in boards.read_text().splitlines() if boards.exists() else ():
        try:
            board = json.loads(line)
        except ValueError:
            continue
        wrote = board.get("certificates") if isinstance(board, dict) else None
        if isinstance(wrote, int) and len(have.get(board.get("index"), ())) < wrote:
            gaps.append(f"board {board['index']}: {wrote - len(have.get(board['index'], ()))} of its {wrote} "
                        f"certificate lines lost")
    for f in read_findings(out):
        if "certificate" in f.extra and (f.mode.value, f.reference) not in have.get(f.index, ()):
            gaps.append(f"board {f.index}: the certificate of {f.reference} ({f.mode.value}) behind its "
                        f"{f.kind.value} finding is lost")
    for key, entry in shrunk.items():
        finding = Finding.from_json(entry["finding"]) if "finding" in entry else None
        lines = {(json.loads(x).get("mode"), json.loads(x).get("reference")) for x in entry.get("certificates", ())}
        if finding is not None and "certificate" in finding.extra and (
                finding.mode.value, finding.reference) not in lines:
            gaps.append(f"the shrunk board of {key}: the certificate of {finding.reference} is lost")
    return gaps


def answers_by_line(out: Path) -> dict[tuple, dict]:
    """The references' answers the run kept (answers.jsonl), by (board, mode, solver)."""
    path = out / ANSWERS
    kept = {}
    for line in path.read_text().splitlines() if path.exists() else ():
        try:
            row = json.loads(line)
            for a in row["results"]:
                kept[row["index"], a["mode"], a["solver"]] = a
        except (ValueError, KeyError, TypeError):
            continue
    return kept
