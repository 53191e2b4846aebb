"""Certifying a reference's answer: for each verdict the certificates that prove it, or disprove it, and the
proof of its count (``minecheck.certify.counting``) when it claims one.

A verdict is two facts about a cell: can it be a mine, can it be safe.  "safe" claims yes and no,
"mine" no and yes, "unknown" yes and yes.  A yes is proven by a layout (a Witness); a no by a
Refutation of the rules with the cell at that value.  Whatever the reference said, each fact is
settled by a certificate, so a wrong verdict comes out proven wrong: the layout it said cannot be,
or the refutation of the value it said the cell can take.

What it costs, and the short cuts taken (each certificate is still checked in full):
* yes: one SAT search finds layouts that answer many facts at once; a layout the board carries (its
  hidden truth) is tried first; the interchangeable cells off the frontier are answered by moving
  the mines of a layout among them, not by a search each;
* no: one refutation per group of linked digits for all its cells at once (a claim "one of these
  cells has the value it cannot have"), over the rules of that group only, since a proof from fewer
  rules holds for the whole board; only the facts the group cannot settle alone are refuted with
  every rule and the total (the global mode).
"""

from __future__ import annotations

import time
from fractions import Fraction

from minecheck.certify.certificates import REFUTATION, WITNESS, CellProof, Certification, Core, Evidence, Witness
from minecheck.certify.cnf import TooBig
from minecheck.certify.counting import count_certificate
from minecheck.certify.refute import PROOF_SOLVER, core, refute
from minecheck.certify.rules import Key, Reading
from minecheck.certify.search import Search
from minecheck.model.answers import Mode, SolverResult, Verdict, verdict_of
from minecheck.model.board import COVERED, Board

Fact = tuple[int, bool]  # (cell, as a mine): "the cell can have this value"


def claimed_verdicts(result: SolverResult) -> dict[int, Verdict]:
    """Each cell's verdict as the result states it (from an exact probability where no verdict is given)."""
    out = {}
    for a in result.cells:
        verdict = a.verdict
        if verdict is None and isinstance(a.probability, Fraction):
            verdict = verdict_of(a.probability)
        if verdict is not None:
            out[a.cell] = verdict
    return out


def certify(board: Board, result: SolverResult, solver: str = PROOF_SOLVER, digits: str = "direct",
            total: str = "seqcounter", with_cnf: bool = True) -> Certification:
    """The certificates behind (or against) every claim of ``result`` on ``board`` in its mode."""
    start = time.process_time()
    plain = Board(board.width, board.height, board.cells, board.total_mines)
    reading = Reading(plain, result.mode)
    claims = {c: v for c, v in claimed_verdicts(result).items() if 0 <= c < plain.size and plain.cells[c] == COVERED}
    maker = _Maker(reading, solver, digits, total, with_cnf)
    if result.consistent is None and not claims:
        return Certification(plain.text(), result.mode, result.solver, None, None, None, (), (), (),
                             declined=result.declined or result.error or "the answer claims nothing",
                             cpu=time.process_time() - start)
    consistent = found_core = declined = count = None
    try:
        with Search(reading) as search:
            maker.search = search
            if board.truth is not None:
                maker.witness(frozenset(board.truth))
            first = search.layout()
            if first is None:
                made = core(reading, solver, digits, total)
                if isinstance(made, Core):
                    found_core = made
                else:
                    first = made
            if first is None:
                consistent = Evidence(REFUTATION, maker.add_refutation(found_core.refutation))
                maker.settled = {(c, mine): consistent for c in claims for mine in (True, False)}
            else:
                consistent = Evidence(WITNESS, maker.witness(first))
                maker.settle(claims)
                if result.layouts is not None or any(isinstance(a.probability, Fraction) for a in result.cells):
                    count = count_certificate(reading, result, solver, digits, total, with_cnf)
    except TooBig as err:
        declined = f"too big to certify: {err}"
    cells = tuple(CellProof(c, v, maker.settled.get((c, True)), maker.settled.get((c, False)))
                  for c, v in sorted(claims.items()))
    return Certification(plain.text(), result.mode, result.solver, result.consistent, consistent, found_core,
                         tuple(Witness(result.mode, tuple(sorted(w))) for w in maker.layouts), tuple(maker.refutations),
                         cells, declined, count, cpu=time.process_time() - start)


class _Maker:
    """The certificates made so far for one answer, and the facts they settle."""

    def __init__(self, reading: Reading, solver: str, digits: str, total: str, with_cnf: bool):
        self.reading, self.options = reading, dict(solver=solver, digits=digits, total=total, with_cnf=with_cnf)
        self.layouts: list[frozenset[int]] = []
        self.index: dict[frozenset[int], int] = {}
        self.refutations: list = []
        self.settled: dict[Fact, Evidence] = {}
        self.search: Search | None = None

    def witness(self, layout: frozenset[int]) -> int | None:
        """Keep a layout that keeps every rule (else None); it settles every fact it shows."""
        if layout in self.index:
            return self.index[layout]
        if self.reading.broken(layout):
            return None
        i = self.index[layout] = len(self.layouts)
        self.layouts.append(layout)
        for c in self.reading.unknown:
            if self.reading.board.cells[c] == COVERED:
                self.settled.setdefault((c, c in layout), Evidence(WITNESS, i))
        return i

    def add_refutation(self, refutation) -> int:
        self.refutations.append(refutation)
        return len(self.refutations) - 1

    def settle(self, claims: dict[int, Verdict]) -> None:
        """Settle both facts of every claimed cell: layouts first, then refutations of what none showed."""
        can = [(c, mine) for c, v in claims.items() for mine in (True, False)
               if v is Verdict.UNKNOWN or v is (Verdict.MINE if mine else Verdict.SAFE)]
        cannot = [(c, not mine) for c, mine in can if claims[c] is not Verdict.UNKNOWN]
        self._lay_off_frontier([f for f in can if f[0] in self.reading.off_set])
        for cell, mine in can:
            if (cell, mine) not in self.settled:
                layout = self.search.layout(cell, mine)
                if layout is not None:
                    self.witness(layout)
        self._refute([f for f in can + cannot if f not in self.settled])

    def _lay_off_frontier(self, facts: list[Fact]) -> None:
        """Settle facts about the interchangeable cells by moving a layout's mines among them: a layout with
        m of the n off-frontier cells mined answers m "can be a mine" facts, or n - m "can be safe" ones."""
        off, off_set = self.reading.off_frontier, self.reading.off_set
        for mine in (True, False):
            wanted = [c for c, m in facts if m is mine and (c, m) not in self.settled]
            while wanted:
                base = next((lay for lay in self.layouts if 0 < len(lay & off_set) < len(off)), None)
                if base is None:  # every layout so far has all or none of them mined: search
                    layout = self.search.layout(wanted[0], mine)
                    if layout is None or self.witness(layout) is None:
                        return  # left for a refutation
                    wanted = [c for c in wanted if (c, mine) not in self.settled]
                    if not 0 < len(layout & off_set) < len(off):
                        return
                    continue
                here = len(base & off_set)
                chunk = wanted[:here] if mine else wanted[:len(off) - here]
                taken = set(chunk)
                others = [c for c in off if c not in taken]
                placed = chunk + others[:here - len(chunk)] if mine else others[:here]
                self.witness((base - off_set) | frozenset(placed))
                wanted = [c for c in wanted if (c, mine) not in self.settled]

    def _refute(self, facts: list[Fact]) -> None:
        """Settle the facts no layout showed: by groups of linked digits, then with every rule."""
        everything = tuple(self.reading.rules)
        by_group: dict[tuple[Key, ...], list[Fact]] = {}
        for fact in facts:
            by_group.setdefault(self.reading.group_of(fact[0]) or everything, []).append(fact)
        rest = by_group.pop(everything, [])
        for group, claim in by_group.items():
            rest += self._refute_with(group, claim, whole=False)
        if rest:
            if self._refute_with(everything, rest, whole=True):
                raise RuntimeError("a SAT model of every rule did not make a layout that keeps them")

    def _refute_with(self, keys: tuple[Key, ...], facts: list[Fact], whole: bool) -> list[Fact]:
        """Refute the facts from these rules, keeping each layout found meanwhile; the facts these rules alone
        cannot settle (their layout does not extend to the board)."""
        while facts:
            made = refute(self.reading, keys, tuple((c, mine) for c, mine in facts), **self.options)
            if not isinstance(made, frozenset):
                i = self.add_refutation(made)
                for fact in facts:
                    self.settled[fact] = Evidence(REFUTATION, i)
                return []
            layout = made if whole else self._extended(keys, made)
            if layout is None or self.witness(layout) is None:
                return facts
            facts = [f for f in facts if f not in self.settled]
        return []

    def _extended(self, keys: tuple[Key, ...], part: frozenset[int]) -> frozenset[int] | None:
        """A layout of one group of digits made whole with the rest of a known layout (local mode: the groups
        are independent); None in the global mode, where the total ties them."""
        if self.reading.mode is Mode.GLOBAL or not self.layouts:
            return None
        cells = {c for k in keys for c in self.reading.rules[k].cells}
        return (self.layouts[0] - cells) | (part & cells)
