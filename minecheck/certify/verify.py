"""Checking certificates with code that shares nothing with the solvers that made them.

* a layout is checked by reading the board's cells: the mines around each digit counted, each flag
  a mine, the total (a few lines of its own);
* a refutation by what its CNF means (``minecheck.certify.encoding``: each rule's clauses admit exactly that
  rule's layouts, the claim clause is the claim, no helper shared), by every layout of the certification
  (none may have a value its claim says no layout has), and by ``dratify``'s pure-Python checker replaying
  its proof forward, every step by reverse unit propagation (DRUP; RAT steps are refused);
* a core by its refutation and, for each rule, a layout keeping all the others (so it is minimal);
* a count by its components (the board's, read here), each listed layout against the digits, and each
  component's refutation of its rules with every listed layout blocked; the count and probabilities are then
  recomputed from the lists (``certificates.tally``).

A certificate proves the reference's answer on that board under these rules, read off its cells here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version

from dratify import CNF, check_proof

from minecheck.certify.certificates import (
    REFUTATION,
    WITNESS,
    Certification,
    Core,
    Count,
    Evidence,
    Refutation,
    Witness,
)
from minecheck.certify.cnf import blocking, encode
from minecheck.certify.encoding import Dimacs, cell_var, meaning_problems, read_dimacs
from minecheck.certify.rules import Reading, describe
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import parse_board

CHECKER = f"dratify {version('dratify')} (pure Python, forward DRUP)"


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


def refutation_cnf(board: Board, mode: Mode, refutation: Refutation) -> Dimacs:
    """The CNF a refutation's proof is checked against: the DIMACS text it carries, else the board's encoding of
    its rules written again; ValueError when neither can be had."""
    if refutation.cnf is not None:
        return read_dimacs(refutation.cnf)
    formula = encode(Reading(board, mode), refutation.rules, refutation.some, refutation.digits, refutation.total,
                     refutation.blocked, refutation.over)
    return Dimacs(formula.nvars, formula.clauses)


def required_clauses(board: Board, refutation: Refutation) -> tuple[tuple[int, ...], ...]:
    """The clauses a refutation adds to its rules: the claim, and one per blocked layout."""
    var = cell_var(board)
    claim = (tuple(var[c] if mine else -var[c] for c, mine in refutation.some),) if refutation.some else ()
    return claim + tuple(blocking(var, refutation.over, mines) for mines in refutation.blocked)


def check_refutation(board: Board, mode: Mode, refutation: Refutation) -> tuple[list[str], float]:
    """Why the refutation does not hold (empty: it does), and the CPU seconds its proof took to check: its CNF
    must mean its rules and claim (``minecheck.certify.encoding``), and its proof must refute that CNF."""
    start = time.process_time()
    try:
        formula = refutation_cnf(board, mode, refutation)
        required = required_clauses(board, refutation)
    except (ValueError, KeyError) as err:
        return [f"its CNF cannot be read or written: {err!r}"], 0.0
    meaning = meaning_problems(board, mode, refutation.rules, required, formula)
    if meaning:
        return [f"its CNF is not its rules and claim: {p}" for p in meaning], time.process_time() - start
    cnf = CNF(formula.nvars)
    for clause in formula.clauses:
        cnf.add_dimacs(clause)
    try:
        result = check_proof(cnf, refutation.proof, check_rat=False, engine="python")
    except ValueError as err:
        return [f"its proof cannot be read: {err}"], time.process_time() - start
    seconds = time.process_time() - start
    if not (result.ok and result.reached_empty):
        return [f"its proof does not check: {result.reason}"], seconds
    return [], seconds


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


def components_of(board: Board) -> list[frozenset[int]]:
    """The board's components, read here: the covered cells by a digit, linked where one digit touches both."""
    parent: dict[int, int] = {}

    def find(c: int) -> int:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for cells in _covered_around(board).values():
        for c in cells:
            parent[find(c)] = find(cells[0])
    groups: dict[int, set[int]] = {}
    for c in parent:
        groups.setdefault(find(c), set()).add(c)
    return [frozenset(g) for g in groups.values()]


def _covered_around(board: Board) -> dict[int, list[int]]:
    """Each digit's covered neighbours (those with none left out)."""
    out = {}
    for d in (i for i, v in enumerate(board.cells) if v >= 0):
        row, col = divmod(d, board.width)
        near = [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]
        covered = [n for n in near if board.cells[n] == COVERED]
        if covered:
            out[d] = covered
    return out


def check_count(board: Board, mode: Mode, count: Count) -> tuple[list[str], list[float]]:
    """Why the count certificate does not prove its components' layouts (empty: it does): the components are the
    board's, each listed layout keeps every digit of its component and is listed once, and each refutation is of
    that component's rules (digits whose covered cells are all in it, flags) with a clause blocking each layout."""
    problems, seconds = [], []
    around = _covered_around(board)
    wanted = set(components_of(board))
    given = [frozenset(c.cells) for c in count.components]
    if set(given) != wanted or len(given) != len(wanted):
        problems.append(f"its {len(given)} components are not the board's {len(wanted)}")
    for i, comp in enumerate(count.components):
        cells = set(comp.cells)
        if comp.refutation is None:
            if comp.layouts:
                problems.append(f"component {i}: layouts listed without the refutation that no other exists")
            continue
        r = comp.refutation
        if r.some or tuple(r.blocked) != tuple(comp.layouts) or tuple(r.over) != tuple(sorted(cells)):
            problems.append(f"component {i}: its refutation does not block exactly its layouts")
        for key in r.rules:
            if key[0] == "total" or (key[0] == "digit" and not (around.get(key[1]) and set(around[key[1]]) <= cells)):
                problems.append(f"component {i}: its refutation leans on {key[0]} {key[1:]}, not a rule of it alone")
        if len(set(comp.layouts)) != len(comp.layouts):
            problems.append(f"component {i}: a layout is listed twice")
        digits = [(d, _around(board, d)) for d, near in around.items() if set(near) <= cells]
        flags = {c for c, v in enumerate(board.cells) if v == FLAG}
        for lay in comp.layouts:
            mines = set(lay) | flags
            if not set(lay) <= cells:
                problems.append(f"component {i}: layout {list(lay)} puts a mine outside it")
                break
            bad = next((d for d, near in digits if sum(n in mines for n in near) != board.cells[d]), None)
            if bad is not None:
                row, col = board.row_col(bad)
                problems.append(f"component {i}: layout {list(lay)} breaks the digit at r{row}c{col}")
                break
        found, spent = check_refutation(board, mode, r)
        problems += [f"component {i}: {p}" for p in found]
        seconds.append(spent)
    return problems, seconds


def _around(board: Board, cell: int) -> list[int]:
    row, col = divmod(cell, board.width)
    return [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
            if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]


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
            missing = next((c for c in cert.count.components if c.refutation is not None
                            and tuple(m for m in w.mines if m in set(c.cells)) not in set(c.layouts)), None)
            if missing is not None:
                problems.append(f"count: layout {j} is not among the listed layouts of its component")
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
