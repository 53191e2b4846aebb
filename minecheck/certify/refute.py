"""Making refutations and cores: a proof-logging SAT solver run on the CNF of some rules of a board.

The solver (Glucose 4.1 through PySAT by default; ``PROOF_SOLVERS`` the ones that log proofs) is
trusted for nothing: its DRUP proof is checked by ``minecheck.certify.verify``.  Measured on the
campaign's boards (bench/certify.py), Glucose's proofs are the smallest: with the direct encoding
of the digits most cell refutations follow by unit propagation and its proof is the empty clause
alone, where CaDiCaL logs the clauses it copies and strengthens on the way (hundreds of steps).
"""

from __future__ import annotations

from pysat.solvers import Solver

from minecheck.certify.certificates import Core, Refutation
from minecheck.certify.cnf import Claim, Formula, encode
from minecheck.certify.rules import Key, Reading

PROOF_SOLVER = "glucose4"
PROOF_SOLVERS = ("glucose4", "glucose42", "cadical195", "cadical153", "cadical103", "lingeling")


def refute(reading: Reading, keys: tuple[Key, ...], some: Claim = (), solver: str = PROOF_SOLVER,
           digits: str = "direct", total: str = "seqcounter", with_cnf: bool = True,
           blocked: tuple[tuple[int, ...], ...] = (), boxes: tuple[tuple[int, ...], ...] = ()
           ) -> Refutation | frozenset[int]:
    """A Refutation of the rules ``keys``, the claim, the ``boxes``' cells held in order and the clauses blocking the
    box solutions ``blocked``, or, when they can all hold, the mines of a layout keeping them (its cells outside
    those rules are safe)."""
    named = {tuple(k) for k in keys}
    keys = tuple(k for k in reading.rules if k in named)  # the board's order, as the CNF is written
    formula = encode(reading, keys, some, digits, total, blocked, boxes)
    with Solver(name=solver, bootstrap_with=[list(c) for c in formula.clauses], with_proof=True) as sat:
        if sat.solve():
            return _layout(reading, sat.get_model())
        lines = sat.get_proof()
    proof = "\n".join(lines) + "\n"
    steps = sum(1 for line in lines if not line.startswith("d"))
    return Refutation(keys, tuple(some), proof, steps, solver, digits, total, formula.dimacs if with_cnf else None,
                      tuple(blocked), tuple(boxes))


def core(reading: Reading, solver: str = PROOF_SOLVER, digits: str = "direct",
         total: str = "seqcounter") -> Core | frozenset[int]:
    """A minimal set of the board's rules that cannot all hold (deletion-based: drop each rule in turn,
    keep it if the rest can hold), with its refutation; or a layout keeping every rule."""
    keys = tuple(reading.rules)
    formula = encode(reading, keys, (), digits, total)
    select = {key: formula.nvars + 1 + i for i, (key, _, _) in enumerate(formula.spans)}
    clauses = [list(c) for c in formula.clauses]
    for key, start, stop in formula.spans:
        for clause in clauses[start:stop]:
            clause.append(-select[key])  # the rule holds only while its selector is assumed
    kept: dict[Key, tuple[int, ...]] = {}
    with Solver(name="cadical195", bootstrap_with=clauses) as sat:
        if sat.solve(assumptions=list(select.values())):
            return _layout(reading, sat.get_model())
        left = _core_keys(sat, select)
        for key in list(left):
            if key not in left:
                continue  # dropped with an earlier core
            rest = [k for k in left if k != key]
            if sat.solve(assumptions=[select[k] for k in rest]):
                kept[key] = tuple(sorted(_layout(reading, sat.get_model())))
            else:
                found = set(_core_keys(sat, select))
                left = [k for k in rest if k in found]
    found_keys = tuple(k for k in keys if k in left)
    refutation = refute(reading, found_keys, (), solver, digits, total)
    if not isinstance(refutation, Refutation):
        raise RuntimeError("the SAT solvers disagree: a core of one is satisfiable for the other")
    return Core(found_keys, refutation, tuple(kept[k] for k in found_keys))


def _core_keys(sat: Solver, select: dict[Key, int]) -> list[Key]:
    failed = set(sat.get_core() or ())
    return [k for k, s in select.items() if s in failed]


def _layout(reading: Reading, model: list[int]) -> frozenset[int]:
    """The mines of a SAT model: variable i + 1 is the i-th unknown cell (minecheck.certify.cnf)."""
    return frozenset(c for i, c in enumerate(reading.unknown) if i < len(model) and model[i] > 0)


def formula_of(reading: Reading, refutation: Refutation) -> Formula:
    """The CNF a refutation speaks of, written again from the board."""
    return encode(reading, refutation.rules, refutation.some, refutation.digits, refutation.total, refutation.blocked,
                  refutation.boxes)
