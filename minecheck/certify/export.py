"""Refutations and count certificates as files any checker reads, named by what they hold (a digest), never
overwritten: ``proof-DIGEST.cnf`` (plain DIMACS, comments only before the ``p`` line) beside ``proof-DIGEST.drat``
(the DRUP proof, DRAT text without RAT steps), one pair per distinct refutation (a verdict's, a core's, a count's
component); ``count-DIGEST.json`` per distinct count certificate (the board, the claim, each component's boxes
and solutions, and the pair that proves its list complete); ``check_counts.py``, the standalone checker of those
(the standard library only: ``minecheck.certify.check_counts``); and a README saying what each file proves and the
commands that check them all."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from minecheck.certify import check_counts
from minecheck.certify.certificates import Certification, Count, Refutation
from minecheck.certify.cnf import encode
from minecheck.certify.encoding import read_dimacs
from minecheck.certify.rules import Reading, describe
from minecheck.model.board import Board
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import FolderRefused

LOOP = ('for f in proof-*.cnf; do drat-trim "$f" "${f%.cnf}.drat" | grep -q "s VERIFIED" '
        '&& echo "ok $f" || echo "FAILED $f"; done')
COUNTS = "python3 check_counts.py ."
README = """# Certificates of a minecheck run, for checkers of your choice

{summary}

## Refutations: `proof-*.cnf` and `proof-*.drat`

Each `proof-*.cnf` is a plain DIMACS formula (comments only before the `p` line) and the `.drat` file
beside it a DRUP proof (DRAT text without RAT steps) that the formula is unsatisfiable. An empty proof
means unit propagation on the formula alone reaches a conflict. Check every pair with drat-trim (built
from its C source; it is on neither PyPI nor Debian):

    {loop}

Variable i is the i-th covered or flagged cell of the board in row-major order (the first comment of
each file lists them); a true variable is a mine. The clauses are the rules named in the comments (each
digit: exactly so many mines around it; each flag: a mine; the total: exactly so many mines in all),
and then the claim: one clause "one of these cells has this value". Unsatisfiable, the formula proves
that no layout keeping those rules has any of those values. A formula without a claim proves the board
impossible. A count's formula holds a component's rules, each box's cells in order and one clause per
listed solution of its box system: unsatisfiable, it proves the list complete. `minecheck verify`
checks, besides the proof, that each formula means exactly that (tests/certify/test_encoding.py).

LRAT: none is exported, as no LRAT checker installs from PyPI or Debian here; drat-trim writes one
(`drat-trim F.cnf F.drat -L F.lrat`) that lrat-check, from drat-trim's source, checks.

## Counts: `count-*.json`, checked by `check_counts.py`

Each `count-*.json` is the count certificate of one answer: the board, its mode, the count, the
components' counts and the probabilities claimed, and per component of linked digits its boxes (cells
the same digits touch) and every solution of their system (mines per box), with the `proof-*.cnf`
whose refutation proves the list complete. `check_counts.py` (Python's standard library only; it does
not import minecheck) reads the board, checks the boxes, each solution against the digits and that
every clause of each count's formula follows from a rule, a box's order or a listed solution, then
recomputes the count and each probability (sums of products of binomials) and compares the claim:

    {counts}

A count is proved when `check_counts.py` says ok for it and the loop above says ok for each of its
`proof-*.cnf` files. A component marked `unlisted` had more solutions than minecheck lists: that count
is not proved, and `check_counts.py` says so.

## What each file proves

{what}
"""


@dataclass(frozen=True)
class Exported:
    """What an export wrote: distinct refutation pairs and count certificates, and what it could not write."""

    pairs: int
    counts: int
    skipped: tuple[str, ...] = ()

    @property
    def files(self) -> int:
        """Every file written: two per pair, one per count certificate, the checker and the README."""
        return 2 * self.pairs + self.counts + 2


def plain_dimacs(text: str, header: str = "") -> str:
    """The DIMACS text with every comment line moved before the ``p`` line (drat-trim misreads comments after it)."""
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith("c")]
    rest = [line for line in lines if line.strip() and not line.startswith("c")]
    return "\n".join(([f"c {header}"] if header else []) + comments + rest) + "\n"


def claim_words(board: Board, refutation: Refutation) -> str:
    """What a refutation proves, in words."""
    rules = ", ".join(describe(board, k) for k in refutation.rules)
    if refutation.boxes:
        return (f"the {len(refutation.blocked)} solutions listed are every solution of the {len(refutation.boxes)} "
                f"boxes of {rules}")
    if not refutation.some:
        return f"no layout keeps {rules}"
    values = " or ".join(f"r{c // board.width}c{c % board.width} {'a mine' if m else 'safe'}"
                         for c, m in refutation.some)
    return f"no layout keeping {rules} has {values}"


def export(items: list[tuple[str, Certification]], folder: Path) -> Exported:
    """Write every refutation and count certificate of the certifications (each named by ``label``, e.g. "board 3",
    for the README) into ``folder``, which must be new or empty: one file per distinct content, named by its
    digest, so none is lost or written twice."""
    _fresh(folder)
    what: dict[str, list[str]] = {}  # file name -> what it proves, then the lines it stands for
    skipped: list[str] = []
    pairs = counts = 0
    for label, cert in items:
        board = parse_board(cert.board)
        whose = f"{label} ({cert.mode.value}) {cert.reference}"
        found = list(enumerate(cert.refutations)) + ([("core", cert.core.refutation)] if cert.core else [])
        stems: dict[int, str] = {}
        if cert.count is not None:
            found += [(("count", i), c.refutation) for i, c in enumerate(cert.count.components) if c.listed]
        for i, r in found:
            cnf = r.cnf if r.cnf is not None else encode(Reading(board, cert.mode), r.rules, r.some, r.digits,
                                                         r.total, r.blocked, r.boxes).dimacs
            try:
                read_dimacs(cnf)
            except ValueError as err:
                skipped.append(f"{whose}: refutation {i}: its CNF cannot be read: {err}")
                continue
            stem = "proof-" + _digest(cnf + "\0" + r.proof)
            if isinstance(i, tuple):
                stems[i[1]] = stem
            if stem not in what:
                words = claim_words(board, r)
                _write(folder, f"{stem}.cnf", plain_dimacs(cnf, f"minecheck: {words}"))
                _write(folder, f"{stem}.drat", r.proof)
                what[stem] = [words]
                pairs += 1
            what[stem].append(whose)
        if cert.count is not None:
            text = json.dumps(count_data(cert, stems), indent=1) + "\n"
            name = f"count-{_digest(text)}.json"
            if name not in what:
                _write(folder, name, text)
                what[name] = [f"the count of {cert.count.claimed if cert.count.claimed is not None else '?'} "
                              f"layouts claimed, and its probabilities"]
                counts += 1
            what[name].append(whose)
    _write(folder, "check_counts.py", Path(check_counts.__file__).read_text())
    listed = "\n".join(f"- `{stem}`: {lines[0]}; for {', '.join(dict.fromkeys(lines[1:]))}"
                       for stem, lines in sorted(what.items()))
    summary = (f"{pairs} refutations (`proof-*.cnf` and `.drat`, {2 * pairs} files) and {counts} count certificates "
               f"(`count-*.json`)" + (f"; {len(skipped)} refutations not written (their CNF cannot be read)"
                                      if skipped else "") + ".")
    _write(folder, "README.md", README.format(summary=summary, loop=LOOP, counts=COUNTS,
                                              what=listed or "(the run has no refutation)"))
    return Exported(pairs, counts, tuple(skipped))


def count_data(cert: Certification, stems: dict[int, str]) -> dict:
    """A count certificate as ``check_counts.py`` reads it: the board, the claims, each component's boxes and
    solutions and the CNF file that proves them complete (or ``unlisted``)."""
    count: Count = cert.count
    return {"board": cert.board, "mode": cert.mode.value, "reference": cert.reference,
            "claimed": None if count.claimed is None else str(count.claimed),
            "claimed_components": None if count.claimed_components is None else [
                str(n) for n in count.claimed_components],
            "probabilities": [[c, f"{p.numerator}/{p.denominator}"] for c, p in count.probabilities],
            "components": [{"boxes": [list(b) for b in c.boxes]} | (
                {"solutions": [list(s) for s in c.solutions], "cnf": f"{stems[i]}.cnf" if i in stems else None}
                if c.listed else {"unlisted": True}) for i, c in enumerate(count.components)]}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _fresh(folder: Path) -> None:
    """The export's folder: made if missing, refused if it holds anything (an export replaces no file)."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FolderRefused(f"{folder}: not an empty folder; verify --export writes into a new or empty one")
    folder.mkdir(parents=True, exist_ok=True)


def _write(folder: Path, name: str, text: str) -> None:
    """The one place the export writes a file: created new, never over one that exists."""
    with open(folder / name, "x", encoding="utf-8") as out:
        out.write(text)
