"""Article 004, the seed: the article's DPLLSolver, MinesweeperSolver.analyze and ProbabilityEngine, ported.

Step for step, with their defects (the ``DEFECT(seed)`` comments here and in cnf.py): a sign
error in the exactly-k encoding, impossible digits skipped, models lost to pure literals, one
recursion level per model (a StackOverflowError past about 4400 models, as in the Java), no total
mine count.

The DPLL is here twice.  ``seed_solve`` reads like the Java (lists of clauses, simplified and
copied) and is the reference.  The solver runs ``ClauseBits``: the same unit, pure-literal and
branch decisions over clause bitsets, walked only down the branch that succeeds.  The Java's DPLL
is complete (it returns false exactly when no assignment extending its own satisfies the
formula), so a branch it would search in vain is one MiniSat proves unsatisfiable at once: the
same models in the same order and the same floats, without the failing searches that make the
Java take minutes on boards with thousands of models.

Glossary: a *variable* v >= 1 stands for a covered cell (true: a mine), a *model* is the set of
variables true in a satisfying assignment, a *tally* counts models by their number of mines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import chain

from pysat.solvers import Solver as SatSolver

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board
from minecheck.model.errors import SolverFault
from minecheck.model.solver import require_mode
from minecheck.solvers.cnf import CNF, SEED_DEFECTS, Clause, seed_board_cnf
from minecheck.solvers.defects import chosen

# -- the seed: MinesweeperSolver.analyze and ProbabilityEngine ----------------------------------------


class SeedDpll:
    """The article's MinesweeperSolver.analyze plus ProbabilityEngine; local mode only, as the Java."""

    # consistency too: it says "no layout" where its search finds none (and, by its defects, not always)
    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    # DEFECT(seed) dpll-no-global-mode: the Java never reads the total mine count (Board.totalMines):
    # no global mode. The fixed variant adds it with a cardinality constraint.
    modes = frozenset({Mode.LOCAL})

    def __init__(self, option: str | None = None, defects: frozenset[str] | None = None):
        """``defects``: the ones kept (None: all, as the Java); see minecheck.solvers.defects."""
        self.name = "dpll@seed"
        self.defects = chosen(defects, "dpll@seed")

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        cnf, cells = seed_board_cnf(board, self.defects)
        try:
            verdicts = seed_analyze(cnf, len(cells), self.defects)
            probabilities, models = seed_probabilities(cnf, tuple(range(1, len(cells) + 1)), self.defects)
        except NoLayout as err:
            return SolverResult(self.name, mode, consistent=False, reason=str(err), layouts=0)
        answers = tuple(sorted((CellAnswer(cell, verdicts.get(v), probabilities[v])
                                for v, cell in enumerate(cells, start=1)), key=lambda a: a.cell))
        return SolverResult(self.name, mode, cells=answers, layouts=models)


def seed_solver(option: str | None = None) -> SeedDpll:
    return SeedDpll(option)


class NoLayout(SolverFault, ValueError):
    """No assignment satisfies the digits: how the sites fixed in the seed report an impossible board."""


def seed_analyze(cnf: CNF, num_vars: int, defects: frozenset[str] = SEED_DEFECTS) -> dict[int, Verdict | None]:
    """MinesweeperSolver.analyze: per variable, can it be true, can it be false (two SAT calls each)."""
    # The Java's `cnf.size() == 0` does not compile (CNF has no size()); read as "no clauses":
    # an empty formula, nothing analysed. (Read as "no variables", the variables of skipped digits
    # would get UNKNOWN instead of nothing; no SAFE or MINE claim differs.)
    if not cnf:
        return {}
    out: dict[int, Verdict | None] = {}
    formula = ClauseBits(cnf, num_vars)
    try:
        for v in range(1, num_vars + 1):
            # checkSat adds the unit clause and runs DPLLSolver.solve, which is complete: its answer
            # is whether the formula has a model with v true (false), which MiniSat gives directly.
            can_be_true = formula.satisfiable({v: True})
            can_be_false = formula.satisfiable({v: False})
            # DEFECT(seed) dpll-impossible-cell-unlisted: neither value satisfiable means no layout at
            # all, but the Java just lists the cell nowhere and goes on: the impossible board passes
            # unnoticed. The fixed variant reports consistent=False with the digits that conflict.
            if not (can_be_true or can_be_false or "dpll-impossible-cell-unlisted" in defects):
                raise NoLayout(f"no layout: variable {v} can be neither a mine nor safe")
            out[v] = {(True, True): Verdict.UNKNOWN, (False, True): Verdict.SAFE,
                      (True, False): Verdict.MINE, (False, False): None}[can_be_true, can_be_false]
    finally:
        formula.close()
    return out


def seed_probabilities(cnf: CNF, variables: tuple[int, ...],
                       defects: frozenset[str] = SEED_DEFECTS) -> tuple[dict[int, float], int]:
    """ProbabilityEngine.computeProbabilities: mine frequency over the models it enumerates, and their number."""
    lost = "dpll-partial-model-blocked" in defects  # completions of a partial model are lost
    mine_count = dict.fromkeys(variables, 0)
    total = iterations = 0
    formula = ClauseBits(cnf, max(variables, default=0))
    try:
        while True:  # collectModels: solve, count the model, block it, recurse (here: loop)
            # DEFECT(seed) dpll-stack-overflow: one recursion level per model: past
            # JAVA_NESTED_COLLECT_MODELS models the Java's default thread stack overflows. The fixed
            # variant's depth is bounded by the variables.
            iterations += 1
            if iterations > JAVA_NESTED_COLLECT_MODELS and "dpll-stack-overflow" in defects:
                raise JavaStackOverflow(iterations)
            satisfiable, assignment = formula.solve()
            if not satisfiable:
                break
            free = 0 if lost else sum(1 for v in variables if v not in assignment)
            total += 1 << free
            for v in variables:
                if assignment.get(v):
                    mine_count[v] += 1 << free
                elif free and v not in assignment:
                    mine_count[v] += 1 << (free - 1)
            # DEFECT(seed) dpll-partial-model-blocked: the solver's assignment is partial (pure literals
            # and satisfied clauses leave variables unassigned, and those count as safe), and the blocking
            # clause names only assigned variables, so it blocks every completion at once: the models
            # differing in the unassigned variables are never counted. The fixed variant counts by a
            # search that multiplies by 2^free (here: each partial model weighs 2^free, above).
            blocking = tuple(-v if assignment[v] else v for v in variables if v in assignment)
            if not blocking:
                break
            formula.add(blocking)
    finally:
        formula.close()
    # DEFECT(seed) dpll-no-model-half: with no model at all (an impossible board) every cell gets 0.5
    # instead of the board being called inconsistent; the fixed variant reports consistent=False.
    if total == 0 and "dpll-no-model-half" not in defects:
        raise NoLayout("no layout satisfies the digits")
    return {v: 0.5 if total == 0 else mine_count[v] / total for v in variables}, total


# -- the Java's stack ---------------------------------------------------------------------------------
#
# collectModels calls itself once per model, on the main thread's default stack (ThreadStackSize
# 1 MiB on x86-64 Linux: the tests run `java` without -Xss).  Where it overflows was measured with
# tests/programs/java/dpll/DpllMain (OpenJDK 17.0.15, 2 busy cores), which prints the models counted when
# the stack ran out (the next nested call overflowed):
#
#   board                                   dpll depth  fresh JVM          JVM warmed by 1024 models
#   H1H x 13 (26 variables, 8192 models)    14          4710 4717 4750     4371 4389 4399 4413
#   HHHHHHHHHHHH/222222222222/HHHHHHHHHHHH  19-20       4445 4448          4444
#   Intermediate play, seed 0               27 vars     4764               4418
#   Expert play, seed 23 (4555 models)      18          answers            4389
#
# The spread is the JIT's: a JVM that has run collectModels a thousand times compiles it with C2
# before the recursion starts and overflows after 4370-4450 models; a fresh one runs the first
# frames interpreted or C1-compiled, which are smaller here, and gets further, by how much
# depending on when C2 finishes (the load on the machine, the board).  The DPLL's depth at the
# leaves adds too little to see (14 to 42 nested dpll calls).  The port's rule: it overflows where
# the Java was seen to overflow in some run, at the lowest count seen; between that and the
# highest the Java overflows in some runs and not in others (bench/ports_vs_java.py calls such
# boards "fuzzy").
JAVA_NESTED_COLLECT_MODELS = 4371  # the most nested collectModels calls every measured run survived
JAVA_NESTED_COLLECT_MODELS_SOMETIMES = 4764  # the most any run survived (a fresh JVM)


class JavaStackOverflow(SolverFault, RuntimeError):
    """The Java's StackOverflowError: collectModels nested deeper than its default thread stack holds."""

    def __init__(self, nested: int):
        super().__init__(f"StackOverflowError: the article's Java overflows its default thread stack here "
                         f"({nested} nested collectModels calls)")
        self.nested = nested


# -- the reference: DPLLSolver as the Java reads ---------------------------------------------------------
#
# The Java keeps clauses simplified: every assigned variable is removed from every clause at once,
# so its checks of clauses against the assignment never fire and are left out here.


def seed_solve(cnf: CNF) -> tuple[bool, dict[int, bool]]:
    """DPLLSolver.solve: satisfiable?, and the variables it assigned (a partial assignment).

    The reference: ``ClauseBits.solve`` must answer the same (tests/solvers/test_dpll.py compares them).
    """
    assignment: dict[int, bool] = {}
    return _seed_dpll(list(cnf), assignment), assignment


def _seed_dpll(clauses: list[Clause], assignment: dict[int, bool]) -> bool:
    while True:  # unit propagation, then pure literals, until neither finds anything
        changed = False
        for find in (_seed_unit, _seed_pure):
            lit = find(clauses)
            while lit is not None:
                assignment[abs(lit)] = lit > 0
                simpler = _seed_simplify(clauses, abs(lit), lit > 0)
                if simpler is None:
                    return False
                clauses, changed = simpler, True
                lit = find(clauses)
        if not changed:
            break
    if not clauses:
        return True
    branch = next((abs(clause[0]) for clause in clauses if clause), -1)  # selectVariable
    for value in (True, False):
        trial = dict(assignment)
        trial[branch] = value
        simpler = _seed_simplify(clauses, branch, value)
        if simpler is not None and _seed_dpll(simpler, trial):
            assignment.clear()
            assignment.update(trial)
            return True
    return False


def _seed_unit(clauses: list[Clause]) -> int | None:
    """findUnitClause: the literal of the first one-literal clause."""
    return next((clause[0] for clause in clauses if len(clause) == 1), None)


def _seed_pure(clauses: list[Clause]) -> int | None:
    """findPureLiteral: the first single-polarity variable in the Java HashMap's iteration order."""
    lits = set(chain.from_iterable(clauses))
    variables = list(dict.fromkeys(map(abs, chain.from_iterable(clauses))))  # the order the Java puts them
    pure = [v for v in variables if (v in lits) != (-v in lits)]
    if not pure:
        return None
    mask = java_hashmap_capacity(variables) - 1
    position = {v: i for i, v in enumerate(variables)}
    first = min(pure, key=lambda v: (_java_hash(v) & mask, position[v]))
    return first if first in lits else -first


def _seed_simplify(clauses: list[Clause], var: int, value: bool) -> list[Clause] | None:
    """simplify: drop the clauses var=value satisfies, strip the false literal from the others; None on an empty one."""
    out = []
    true_lit = var if value else -var
    for clause in clauses:
        if true_lit in clause:
            continue
        if -true_lit in clause:  # a literal appears once in a clause: cut it out
            cut = clause.index(-true_lit)
            clause = clause[:cut] + clause[cut + 1:]
        if not clause:
            return None
        out.append(clause)
    return out


# -- the same DPLL, fast -------------------------------------------------------------------------------


class ClauseBits:
    """A CNF that grows by blocking clauses, as bitsets: clause k is bit k of ``pos[v]`` if it holds v,
    of ``neg[v]`` if it holds -v.

    Clause lengths are bit-sliced (``planes[j]``: the clauses whose length has bit j), so one
    assignment shortens every clause in a few big-integer operations.  A MiniSat copy of the same
    clauses answers whether the formula has a model extending an assignment.  Call close() when done.
    """

    def __init__(self, cnf: CNF, num_vars: int):
        self.literals: list[Clause] = []
        self.pos = [0] * (num_vars + 1)
        self.neg = [0] * (num_vars + 1)
        self.planes: list[int] = [0]
        self.empty = False  # it holds the empty clause: no model
        self.sat = SatSolver(name="minisat22")
        for clause in cnf:
            self.add(clause)

    def add(self, clause: Clause) -> None:
        bit = 1 << len(self.literals)
        self.literals.append(clause)
        self.empty = self.empty or not clause
        for lit in clause:
            if lit > 0:
                self.pos[lit] |= bit
            else:
                self.neg[-lit] |= bit
        for j in range(len(clause).bit_length()):
            if j == len(self.planes):
                self.planes.append(0)
            if len(clause) >> j & 1:
                self.planes[j] |= bit
        if clause:
            self.sat.add_clause(clause)

    def satisfiable(self, assignment: dict[int, bool]) -> bool:
        """Whether some model of the formula extends the assignment."""
        return not self.empty and self.sat.solve(assumptions=[v if value else -v for v, value in assignment.items()])

    def solve(self) -> tuple[bool, dict[int, bool]]:
        """What seed_solve answers: the DPLL walked down the branch that succeeds.

        At each branch the Java tries true first, and searches that subtree in vain exactly when
        the formula has no model extending the branch's assignment; then it takes false.
        """
        if not self.satisfiable({}):
            return False, {}
        node = _Node((1 << len(self.literals)) - 1, list(self.planes), {})
        node.propagate(self)
        while node.alive:
            var = node.branch_variable(self)
            child = node.child(self, var, True)
            if child is None or not self.satisfiable(child.assignment):
                child = node.child(self, var, False)
            assert child is not None, "the formula under the branch's assignment has a model"
            node = child
            node.propagate(self)
        return True, node.assignment

    def close(self) -> None:
        self.sat.delete()


class _Node:
    """One dpll() call: the clauses still alive (a bitset), their lengths, the assignment so far."""

    __slots__ = ("alive", "planes", "assignment")

    def __init__(self, alive: int, planes: list[int], assignment: dict[int, bool]):
        self.alive, self.planes, self.assignment = alive, planes, assignment

    def child(self, f: ClauseBits, var: int, value: bool) -> _Node | None:
        """The Java's branch: a copy with var = value, None if a clause empties."""
        node = _Node(self.alive, list(self.planes), dict(self.assignment))
        return node if node.simplify(f, var, value) else None

    def propagate(self, f: ClauseBits) -> bool:
        """dpll()'s loop: unit clauses, then pure literals, until neither finds anything; False on an empty clause."""
        while True:
            changed = False
            for find in (_Node.unit, _Node.pure):
                lit = find(self, f)
                while lit is not None:
                    if not self.simplify(f, abs(lit), lit > 0):
                        return False
                    changed = True
                    lit = find(self, f)
            if not changed:
                return True

    def simplify(self, f: ClauseBits, var: int, value: bool) -> bool:
        """Drop the clauses var=value satisfies, shorten the others by one; False if one empties."""
        self.assignment[var] = value
        satisfied, falsified = (f.pos[var], f.neg[var]) if value else (f.neg[var], f.pos[var])
        self.alive &= ~satisfied
        shorter = self.alive & falsified
        if not shorter:
            return True
        borrow = shorter
        for j, plane in enumerate(self.planes):  # length - 1, bit by bit, for the shorter clauses
            self.planes[j] = plane ^ borrow
            borrow &= ~plane
            if not borrow:
                break
        empty = shorter
        for plane in self.planes:
            empty &= ~plane
        return not empty

    def unit(self, f: ClauseBits) -> int | None:
        """findUnitClause: the literal left in the first clause of length one."""
        ones = self.alive & self.planes[0]
        for plane in self.planes[1:]:
            ones &= ~plane
        if not ones:
            return None
        return next(lit for lit in f.literals[_lowest(ones)] if abs(lit) not in self.assignment)

    def pure(self, f: ClauseBits) -> int | None:
        """findPureLiteral: the first single-polarity variable in the Java HashMap's iteration order."""
        present, pure = [], []
        for v in range(1, len(f.pos)):
            if v not in self.assignment:
                positive, negative = self.alive & f.pos[v], self.alive & f.neg[v]
                if positive or negative:
                    present.append(v)
                    if not (positive and negative):
                        pure.append(v)
        if not pure:
            return None
        mask = java_hashmap_capacity(present, lambda: self._put_order(f)) - 1
        bucket = min(_java_hash(v) & mask for v in pure)
        first = [v for v in pure if _java_hash(v) & mask == bucket]
        if len(first) > 1:  # one bucket, in put order: the variable met first in the clauses
            holders = 0
            for v in first:
                holders |= f.pos[v] | f.neg[v]
            first = [next(abs(lit) for lit in f.literals[_lowest(self.alive & holders)] if abs(lit) in first)]
        return first[0] if self.alive & f.pos[first[0]] else -first[0]

    def _put_order(self, f: ClauseBits) -> list[int]:
        """The variables in the order findPureLiteral puts them in its HashMap."""
        order: dict[int, None] = {}
        alive = self.alive
        while alive:
            order.update((abs(lit), None) for lit in f.literals[_lowest(alive)] if abs(lit) not in self.assignment)
            alive &= alive - 1
        return list(order)

    def branch_variable(self, f: ClauseBits) -> int:
        """selectVariable: the first unassigned variable of the first clause."""
        return next(abs(lit) for lit in f.literals[_lowest(self.alive)] if abs(lit) not in self.assignment)


def _lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


# -- java.util.HashMap ---------------------------------------------------------------------------------


def java_hashmap_order(keys) -> list[int]:
    """Iteration order of a new java.util.HashMap<Integer, _> after putting these distinct keys in this order.

    It is iterated bucket by bucket (bucket = hash & (capacity - 1)), each bucket in insertion
    order; so a small map is not iterated in key order: {5, 20} in 16 buckets gives 20 (bucket 4), 5.
    """
    keys = list(keys)
    mask = java_hashmap_capacity(keys) - 1
    return sorted(keys, key=lambda k: _java_hash(k) & mask)  # sorted() is stable: insertion order within a bucket


def java_hashmap_capacity(keys: list[int], put_order: Callable[[], list[int]] | None = None) -> int:
    """The bucket count of a new java.util.HashMap<Integer, _> after putting these distinct keys.

    The table starts at 16 buckets and doubles when it holds more than 3/4 of that, or when a
    bucket reaches 9 entries while the table is under 64 (treeifyBin resizes instead).  Only that
    second rule depends on the order of the puts: ``keys`` are in put order, or ``put_order``
    gives it (asked only when some bucket could get 9 keys).
    """
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2
    tables = [16 << i for i in range(capacity.bit_length() - 4)]  # 16, 32, ..., capacity
    if all(max(Counter(_java_hash(k) & (size - 1) for k in keys).values(), default=0) <= 8 for size in tables):
        return capacity  # e.g. every key below 128: no table's bucket ever holds 9 of them
    keys = put_order() if put_order else keys
    capacity, fill = 16, {}
    for size, key in enumerate(keys, start=1):
        fill[_java_hash(key) & (capacity - 1)] = fill.get(_java_hash(key) & (capacity - 1), 0) + 1
        grow = size > capacity * 3 // 4
        if fill[_java_hash(key) & (capacity - 1)] > 8:
            if capacity >= 64:  # needs 9 ids in one bucket of 64+, so an id above 512
                raise NotImplementedError("a treeified HashMap bin: more than 512 variables")
            grow = True
        while grow:
            capacity *= 2
            fill = {}
            for k in keys[:size]:
                fill[_java_hash(k) & (capacity - 1)] = fill.get(_java_hash(k) & (capacity - 1), 0) + 1
            grow = size > capacity * 3 // 4
    return capacity


def _java_hash(key: int) -> int:
    """HashMap.hash of a non-negative Integer: its value with the high half folded into the low."""
    return key ^ (key >> 16)
