"""Article 004, the seed: the article's DPLLSolver, MinesweeperSolver.analyze and ProbabilityEngine, ported.

Step for step, with their defects (the ``DEFECT(seed)`` comments here and in cnf.py): a sign
error in the exactly-k encoding, impossible digits skipped, models lost to pure literals, one
recursion level per model, no total mine count.

Glossary: a *variable* v >= 1 stands for a covered cell (true: a mine), a *model* is the set of
variables true in a satisfying assignment, a *tally* counts models by their number of mines.
"""

from __future__ import annotations

from itertools import chain

from minecheck.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.board import Board
from minecheck.registry import require_mode
from minecheck.solvers.cnf import CNF, Clause, seed_board_cnf

# -- the seed: MinesweeperSolver.analyze and ProbabilityEngine ----------------------------------------


class SeedDpll:
    """The article's MinesweeperSolver.analyze plus ProbabilityEngine; local mode only, as the Java."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS})
    # DEFECT(seed): the Java never reads the total mine count (Board.totalMines): no global mode.
    # The fixed variant adds it with a cardinality constraint.
    modes = frozenset({Mode.LOCAL})

    def __init__(self, option: str | None = None):
        self.name = "dpll@seed"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        cnf, cells = seed_board_cnf(board)
        verdicts = seed_analyze(cnf, len(cells))
        probabilities, models = seed_probabilities(cnf, tuple(range(1, len(cells) + 1)))
        answers = tuple(sorted((CellAnswer(cell, verdicts.get(v), probabilities[v])
                                for v, cell in enumerate(cells, start=1)), key=lambda a: a.cell))
        return SolverResult(self.name, mode, cells=answers, layouts=models)


def seed_solver(option: str | None = None) -> SeedDpll:
    return SeedDpll(option)


def seed_analyze(cnf: CNF, num_vars: int) -> dict[int, Verdict | None]:
    """MinesweeperSolver.analyze: per variable, can it be true, can it be false (two SAT calls each)."""
    # The Java's `cnf.size() == 0` does not compile (CNF has no size()); read as "no clauses":
    # an empty formula, nothing analysed. (Read as "no variables", the variables of skipped digits
    # would get UNKNOWN instead of nothing; no SAFE or MINE claim differs.)
    if not cnf:
        return {}
    out: dict[int, Verdict | None] = {}
    for v in range(1, num_vars + 1):
        can_be_true = seed_solve(cnf + ((v,),))[0]
        can_be_false = seed_solve(cnf + ((-v,),))[0]
        # DEFECT(seed): neither value satisfiable means no layout at all, but the Java just lists the
        # cell nowhere and goes on: the impossible board passes unnoticed. The fixed variant reports
        # consistent=False with the digits that conflict.
        out[v] = {(True, True): Verdict.UNKNOWN, (False, True): Verdict.SAFE,
                  (True, False): Verdict.MINE, (False, False): None}[can_be_true, can_be_false]
    return out


def seed_probabilities(cnf: CNF, variables: tuple[int, ...]) -> tuple[dict[int, float], int]:
    """ProbabilityEngine.computeProbabilities: mine frequency over the models it enumerates, and their number."""
    mine_count = dict.fromkeys(variables, 0)
    total = [0]
    _seed_collect(cnf, variables, mine_count, total)
    # DEFECT(seed): with no model at all (an impossible board) every cell gets 0.5 instead of the
    # board being called inconsistent; the fixed variant reports consistent=False.
    return {v: 0.5 if total[0] == 0 else mine_count[v] / total[0] for v in variables}, total[0]


def _seed_collect(cnf: CNF, variables: tuple[int, ...], mine_count: dict[int, int], total: list[int]) -> None:
    """ProbabilityEngine.collectModels: solve, count the model, block it, recurse."""
    satisfiable, assignment = seed_solve(cnf)
    if not satisfiable:
        return
    total[0] += 1
    for v in variables:
        if assignment.get(v):
            mine_count[v] += 1
    # DEFECT(seed): the solver's assignment is partial (pure literals and satisfied clauses leave
    # variables unassigned, and those count as safe), and the blocking clause names only assigned
    # variables, so it blocks every completion at once: the models differing in the unassigned
    # variables are never counted. The fixed variant counts by a search that multiplies by 2^free.
    blocking = tuple(-v if assignment[v] else v for v in variables if v in assignment)
    if blocking:
        # DEFECT(seed): one recursion level per model: enough models overflow the stack (Java's
        # StackOverflowError, Python's RecursionError; Python's limit is lower, about 1000 models).
        # The fixed variant's recursion depth is bounded by the number of variables.
        _seed_collect(cnf + (blocking,), variables, mine_count, total)


# -- the seed: DPLLSolver -----------------------------------------------------------------------------
#
# The Java keeps clauses simplified: every assigned variable is removed from every clause at once,
# so its checks of clauses against the assignment never fire and are left out here.


def seed_solve(cnf: CNF) -> tuple[bool, dict[int, bool]]:
    """DPLLSolver.solve: satisfiable?, and the variables it assigned (a partial assignment)."""
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


def java_hashmap_order(keys) -> list[int]:
    """Iteration order of a new java.util.HashMap<Integer, _> after putting these distinct keys in this order.

    It is iterated bucket by bucket (bucket = hash & (capacity - 1)), each bucket in insertion
    order; so a small map is not iterated in key order: {5, 20} in 16 buckets gives 20 (bucket 4), 5.
    """
    keys = list(keys)
    mask = java_hashmap_capacity(keys) - 1
    return sorted(keys, key=lambda k: _java_hash(k) & mask)  # sorted() is stable: insertion order within a bucket


def java_hashmap_capacity(keys: list[int]) -> int:
    """The bucket count of a new java.util.HashMap<Integer, _> after putting these distinct keys in this order.

    The table starts at 16 buckets and doubles when it holds more than 3/4 of that, or when a
    bucket reaches 9 entries while the table is under 64 (treeifyBin resizes instead).
    """
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2
    if not keys or max(keys) < 128:  # 9 keys in one of 16 buckets span 8 * 16: no bucket ever overfills
        return capacity
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
