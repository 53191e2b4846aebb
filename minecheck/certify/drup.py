"""A refutation checked: its CNF must mean its rules and its claim (``minecheck.certify.encoding``), and its DRUP
proof must refute that CNF, replayed forward by dratify's pure-Python checker, every step by reverse unit
propagation (RAT steps are refused).  The clauses a refutation adds to its rules (the claim; for a count, each
box's cells in order and a clause per blocked box solution) are written here again from the refutation's data,
not by ``minecheck.certify.cnf``, so that a fault of the encoder is not the checker's."""

from __future__ import annotations

import time
from importlib.metadata import version

from dratify import CNF, check_proof

from minecheck.certify.certificates import Refutation
from minecheck.certify.cnf import encode
from minecheck.certify.encoding import Dimacs, cell_var, meaning_problems, read_dimacs
from minecheck.certify.rules import Reading
from minecheck.model.answers import Mode
from minecheck.model.board import Board

CHECKER = f"dratify {version('dratify')} (pure Python, forward DRUP)"


def refutation_cnf(board: Board, mode: Mode, refutation: Refutation) -> Dimacs:
    """The CNF a refutation's proof is checked against: the DIMACS text it carries, else the board's encoding of
    its rules written again; ValueError when neither can be had."""
    if refutation.cnf is not None:
        return read_dimacs(refutation.cnf)
    formula = encode(Reading(board, mode), refutation.rules, refutation.some, refutation.digits, refutation.total,
                     refutation.blocked, refutation.boxes)
    return Dimacs(formula.nvars, formula.clauses)


def required_clauses(board: Board, refutation: Refutation) -> tuple[tuple[int, ...], ...]:
    """The clauses a refutation adds to its rules: the claim; for a count, each box's cells in order (a mine on
    the (i+1)-th only if on the i-th) and, per blocked solution, "not k mines in each box" (the k-th cell safe or
    the (k+1)-th a mine).  ValueError for a solution that does not fit its boxes."""
    var = cell_var(board)
    out = [tuple(var[c] if mine else -var[c] for c, mine in refutation.some)] if refutation.some else []
    for box in refutation.boxes:
        out += [(-var[box[i + 1]], var[box[i]]) for i in range(len(box) - 1)]
    for solution in refutation.blocked:
        if len(solution) != len(refutation.boxes) or not all(0 <= k <= len(b) for b, k in
                                                             zip(refutation.boxes, solution)):
            raise ValueError(f"the solution {list(solution)} does not fit the {len(refutation.boxes)} boxes")
        clause = []
        for box, k in zip(refutation.boxes, solution):
            clause += ([-var[box[k - 1]]] if k else []) + ([var[box[k]]] if k < len(box) else [])
        out.append(tuple(clause))
    return tuple(out)


def check_refutation(board: Board, mode: Mode, refutation: Refutation) -> tuple[list[str], float]:
    """Why the refutation does not hold (empty: it does), and the CPU seconds its proof took to check: its CNF
    must mean its rules and claim (``minecheck.certify.encoding``), and its proof must refute that CNF."""
    start = time.process_time()
    try:
        formula = refutation_cnf(board, mode, refutation)
        required = required_clauses(board, refutation)
    except (ValueError, KeyError, IndexError) as err:
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
