"""Refutations as the standard files any DRAT checker reads: ``NAME.cnf`` (plain DIMACS, comments only before the
``p`` line) and ``NAME.drat`` (the DRUP proof, DRAT text without RAT steps) side by side, one pair per distinct
refutation, and a README saying what each pair proves and the one-line loop that checks them with drat-trim."""

from __future__ import annotations

import hashlib
from pathlib import Path

from minecheck.certify.certificates import Certification, Refutation
from minecheck.certify.cnf import encode
from minecheck.certify.rules import Reading, describe
from minecheck.model.board import Board
from minecheck.model.boardtext import parse_board
from minecheck.running.manifest import write_text  # never through nor over a link already there

LOOP = ('for f in *.cnf; do drat-trim "$f" "${f%.cnf}.drat" | grep -q "s VERIFIED" '
        '&& echo "ok $f" || echo "FAILED $f"; done')
README = """# Refutations of a minecheck run, for a checker of your choice

Each `NAME.cnf` is a plain DIMACS formula (comments only before the `p` line) and `NAME.drat`
beside it a DRUP proof (DRAT text without RAT steps) that the formula is unsatisfiable. An empty
proof means unit propagation on the formula alone reaches a conflict. Check every pair with
drat-trim (built from its C source; it is on neither PyPI nor Debian):

    {loop}

Variable i is the i-th covered or flagged cell of the board in row-major order (the first comment
of each file lists them); a true variable is a mine. The clauses are the rules named in the comments
(each digit: exactly so many mines around it; each flag: a mine; the total: exactly so many mines in
all), and then the claim: one clause "one of these cells has this value". Unsatisfiable, the formula
proves that no layout keeping those rules has any of those values. A formula without a claim proves
the board impossible; one with a clause per listed layout ("not this layout") proves the list of a
component's layouts complete. `minecheck verify` checks, besides the proof, that each formula means
exactly that (tests/certify/test_encoding.py).

LRAT: none is exported, as no LRAT checker installs from PyPI or Debian here; drat-trim writes one
(`drat-trim F.cnf F.drat -L F.lrat`) that lrat-check, from drat-trim's source, checks.

## What each pair proves

{what}
"""


def plain_dimacs(text: str, header: str = "") -> str:
    """The DIMACS text with every comment line moved before the ``p`` line (drat-trim misreads comments after it)."""
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith("c")]
    rest = [line for line in lines if line.strip() and not line.startswith("c")]
    return "\n".join(([f"c {header}"] if header else []) + comments + rest) + "\n"


def claim_words(board: Board, refutation: Refutation) -> str:
    """What a refutation proves, in words."""
    rules = ", ".join(describe(board, k) for k in refutation.rules)
    if refutation.blocked:
        return f"the {len(refutation.blocked)} layouts listed are every layout of {rules}"
    if not refutation.some:
        return f"no layout keeps {rules}"
    values = " or ".join(f"r{c // board.width}c{c % board.width} {'a mine' if m else 'safe'}"
                         for c, m in refutation.some)
    return f"no layout keeping {rules} has {values}"


def export(items: list[tuple[str, Certification]], folder: Path) -> int:
    """Write every refutation of the certifications (each named ``label``, e.g. "b3-global") into ``folder``, one
    pair of files per distinct formula and proof, and the README; the number of pairs written."""
    folder.mkdir(parents=True, exist_ok=True)
    seen: dict[str, str] = {}
    what: dict[str, list[str]] = {}
    for label, cert in items:
        board = parse_board(cert.board)
        found = list(enumerate(cert.refutations)) + ([("core", cert.core.refutation)] if cert.core else [])
        if cert.count is not None:
            found += [(f"count{i}", c.refutation) for i, c in enumerate(cert.count.components) if c.refutation]
        for i, r in found:
            cnf = r.cnf if r.cnf is not None else encode(Reading(board, cert.mode), r.rules, r.some, r.digits,
                                                         r.total, r.blocked, r.over).dimacs
            digest = hashlib.sha256((cnf + "\0" + r.proof).encode()).hexdigest()
            stem = seen.get(digest)
            if stem is None:
                stem = seen[digest] = f"{label}-r{i}"
                words = claim_words(board, r)
                write_text(folder / f"{stem}.cnf", plain_dimacs(cnf, f"minecheck {label} ({cert.mode.value}): "
                                                                     f"{words}"))
                write_text(folder / f"{stem}.drat", r.proof)
                what[stem] = [f"{label} ({cert.mode.value}): {words}; for"]
            what[stem].append(cert.reference)
    listed = "\n".join(f"- `{stem}`: {lines[0]} {', '.join(dict.fromkeys(lines[1:]))}"
                       for stem, lines in sorted(what.items()))
    write_text(folder / "README.md", README.format(loop=LOOP, what=listed or "(the run has no refutation)"))
    return len(seen)
