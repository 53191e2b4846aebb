"""Checking certificates with code that shares nothing with the solvers that made them.

* a layout is checked by reading the board's cells: the mines around each digit counted, each flag
  a mine, the total (a few lines of its own);
* a refutation by what its CNF means (``minecheck.certify.encoding``: each rule's clauses admit exactly that
  rule's layouts, the claim clause is the claim, no helper shared), by every layout of the certification
  (none may have a value its claim says no layout has), and by ``dratify``'s pure-Python checker replaying
  its proof forward, every step by reverse unit propagation (DRUP; RAT steps are refused);
* a core by its refutation and, for each rule, a layout keeping all the others (so it is minimal);
* a count by its components (the board's, read here) in boxes, each listed box solution against the digits,
  and each component's refutation of its rules with every listed solution blocked
  (``minecheck.certify.countcheck``); the count and probabilities are then recomputed from the lists
  (``minecheck.certify.tally``).

A certificate proves the reference's answer on that board under these rules, read off its cells here.
"""

from __future__ import annotations

from dataclasses import dataclass

from minecheck.certify.certificates import REFUTATION, WITNESS, Certification, Core, Evidence, Witness
from minecheck.certify.countcheck import check_count
from minecheck.certify.drup import CHECKER, check_refutation, required_clauses
from minecheck.certify.encoding import cell_var, read_dimacs
from minecheck.certify.rules import Reading, describe
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import parse_board

__all__ = ["CHECKER", "Checked", "check_certification", "check_core", "check_refutation", "check_witness"]


@dataclass(frozen=True)
class Checked:
    """What checking found: the problems (none when every certificate holds) and what it cost."""

    problems: tuple[str, ...]
    refutations: int = 0
    steps: int = 0  # proof steps replayed
    seconds: tuple[float, ...] = ()  # CPU seconds per refutation checked
    checker: str = CHECKER

    @property
    def ok(self) -> bool:
        return not self.problems


def check_witness(board: Board, witness: Witness) -> list[str]:
    """What the layout breaks, in words (empty: it keeps every rule of its mode).  Read off the cells here,
    not through ``minecheck.certify.rules``, so that the search's reading of the board is checked too."""
    mines = set(witness.mines)
    problems = [f"a mine on r{c // board.width}c{c % board.width}, which is not covered or flagged"
                for c in sorted(mines) if not (0 <= c < board.size and board.cells[c] in (COVERED, FLAG))]
    for cell, value in enumerate(board.cells):
        row, col = divmod(cell, board.width)
        if value == FLAG and cell not in mines:
            problems.append(f"the flag at r{row}c{col} is not a mine")
        if value >= 0:
            near = sum((r * board.width + c) in mines for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                       if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col))
            if near != value:
                problems.append(f"the digit {value} at r{row}c{col} has {near} mines around it")
    if witness.mode is Mode.GLOBAL and len(mines) != board.total_mines:
        problems.append(f"{len(mines)} mines, not the total of {board.total_mines}")
    return problems


def check_core(board: Board, mode: Mode, core: Core) -> tuple[list[str], float]:
    """Why the core is not a minimal set of rules that cannot all hold (empty: it is)."""
    reading = Reading(board, mode)
    if tuple(core.refutation.rules) != tuple(core.rules) or core.refutation.some:
        return ["its refutation is not of its rules alone"], 0.0
    problems, seconds = check_refutation(board, mode, core.refutation)
    if len(core.layouts) != len(core.rules):
        return problems + ["it does not give a layout for each of its rules"], seconds
    for i, (key, layout) in enumerate(zip(core.rules, core.layouts)):
        others = [k for j, k in enumerate(core.rules) if j != i]
        if any(not 0 <= c < board.size for c in layout) or reading.broken(frozenset(layout), others):
            problems.append(f"without {describe(board, key)} its layout does not keep the others: not minimal")
    return problems, seconds


def check_certification(cert: Certification, board: Board | None = None) -> Checked:
    """Check every certificate of a certification, and that each piece of evidence is about its cell."""
    mine = parse_board(cert.board)
    if board is not None and Board(board.width, board.height, board.cells, board.total_mines) != mine:
        return Checked(("the certification is of another board",))
    problems: list[str] = []
    for i, w in enumerate(cert.witnesses):
        if w.mode is not cert.mode:
            problems.append(f"layout {i} is of the {w.mode.value} mode, not {cert.mode.value}")
        problems += [f"layout {i}: {p}" for p in check_witness(mine, w)]
    seconds, steps = [], 0
    for i, r in enumerate(cert.refutations):
        found, spent = check_refutation(mine, cert.mode, r)
        problems += [f"refutation {i}: {p}" for p in found]
        seconds.append(spent)
        steps += r.steps
    if cert.core is not None:
        found, spent = check_core(mine, cert.mode, cert.core)
        problems += [f"core: {p}" for p in found]
        seconds.append(spent)
    if cert.count is not None:
        found, spent = check_count(mine, cert.mode, cert.count)
        problems += [f"count: {p}" for p in found]
        seconds += spent
        if cert.proven_consistent is False:
            problems.append("count: a count certificate of a board its consistency refutation says is impossible")
        for j, w in enumerate(cert.witnesses):
            mines = set(w.mines)
            missing = next((c for c in cert.count.components if c.listed and tuple(
                sum(x in mines for x in box) for box in c.boxes) not in set(c.solutions)), None)
            if missing is not None:
                problems.append(f"count: layout {j} is not among the listed solutions of its component")
                break
    problems += _evidence_problems(cert, mine)
    problems += unsettled(cert, mine)
    problems += _contradictions(cert, mine)
    return Checked(tuple(problems), len(seconds), steps, tuple(seconds))


def unsettled(cert: Certification, board: Board) -> list[str]:
    """The claims of the answer left without evidence, when the certification does not say why (``declined``)."""
    if cert.declined is not None:
        return []
    out = []
    if cert.consistent is None:
        out.append("consistency: no evidence")
    for p in cert.cells:
        row, col = board.row_col(p.cell)
        out += [f"r{row}c{col}: no evidence whether it can be {side}" for side, e in (("a mine", p.mine),
                                                                                    ("safe", p.safe)) if e is None]
    return out


def _contradictions(cert: Certification, board: Board) -> list[str]:
    """A refutation that a layout of the same certification contradicts: the layout has a value the refutation's
    claim says no layout has, or (with no claim) exists at all, or breaks a clause of the refutation's CNF."""
    out = []
    refutations = list(enumerate(cert.refutations)) + ([("of the core", cert.core.refutation)] if cert.core else [])
    var = cell_var(board)
    for i, r in refutations:
        for j, w in enumerate(cert.witnesses):
            mines = set(w.mines)
            if not r.some or any((c in mines) == mine for c, mine in r.some):
                out.append(f"refutation {i} says no layout has what layout {j} has")
                break
        if cert.witnesses and r.cnf is not None:
            try:
                cnf = read_dimacs(r.cnf)
            except ValueError:
                continue  # reported by its own check
            claim = {frozenset(c) for c in required_clauses(board, r)}
            true = {var[c] for c in cert.witnesses[0].mines if c in var}
            broken = next((c for c in cnf.clauses if frozenset(c) not in claim and all(abs(x) <= len(var) for x in c)
                           and not any((abs(x) in true) == (x > 0) for x in c)), None)
            if broken is not None:
                out.append(f"refutation {i}: its CNF's clause {' '.join(map(str, broken))} is broken by layout 0, "
                           "which keeps every rule")
    return out


def _evidence_problems(cert: Certification, board: Board) -> list[str]:
    """Each piece of evidence must exist and speak of its own cell and value."""
    out = []
    if cert.consistent is not None:
        bad = _about(cert, cert.consistent, None, None)
        if bad:
            out.append(f"consistency: {bad}")
        if cert.consistent.kind == REFUTATION and cert.core is None:
            out.append("an impossible board comes without its core")
    for p in cert.cells:
        for mine, evidence in ((True, p.mine), (False, p.safe)):
            bad = evidence and _about(cert, evidence, p.cell, mine)
            if bad:
                row, col = board.row_col(p.cell)
                out.append(f"r{row}c{col} {'a mine' if mine else 'safe'}: {bad}")
    return out


def _about(cert: Certification, e: Evidence, cell: int | None, mine: bool | None) -> str | None:
    """Why the evidence does not prove "cell can (not) be ``mine``" (cell None: the board's consistency)."""
    pool = cert.witnesses if e.kind == WITNESS else cert.refutations
    if not isinstance(e.index, int) or not 0 <= e.index < len(pool):
        return f"no {e.kind} {e.index}"
    if e.kind == WITNESS:
        return None if cell is None or (cell in pool[e.index].mines) == mine else f"layout {e.index} shows otherwise"
    some = pool[e.index].some
    if not some or (cell is not None and (cell, mine) in some):
        return None
    return f"refutation {e.index} is about other cells"
