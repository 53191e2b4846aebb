"""SAT solvers for Minesweeper (article 004): the article's DPLL ported as it is, and made right.

* ``seed_solver``: the article's buildCNF (in cnf.py), DPLLSolver, MinesweeperSolver.analyze and
  ProbabilityEngine, step for step, with their defects (the ``DEFECT(seed)`` comments here and
  in cnf.py): a sign error in the exactly-k encoding, impossible digits skipped, models lost to
  pure literals, one recursion level per model, no total mine count.
* ``fixed_solver``: the same questions answered right.  Verdicts by SAT calls ("can this cell be
  a mine?", "can it be safe?"; a model found by one call settles every cell it shows both ways),
  layouts and exact probabilities by a counting DPLL, contradictions reported, and the global
  mode with a sequential counter.  The verdicts and the counts are found independently and
  checked against each other.

Glossary: a *variable* v >= 1 stands for a covered cell (true: a mine), a *model* is the set of
variables true in a satisfying assignment, a *tally* counts models by their number of mines.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from math import comb

from minecheck.answers import Answers, CellAnswer, Mode, SolverResult, Verdict, verdict_of
from minecheck.board import Board, label
from minecheck.constraints import Component, ConstraintSystem, Contradiction, build_constraints
from minecheck.solvers.cnf import CNF, Clause, between_by_counter, component_cnf, seed_board_cnf, variables_of

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
        if mode not in self.modes:
            raise ValueError(f"{self.name} answers only the local mode, not {mode.value}")
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


# -- the fixed variant ----------------------------------------------------------------------------------


class FixedDpll:
    """SAT verdicts and exact counts from a correct encoding, in both modes; contradictions reported."""

    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL, Mode.GLOBAL})

    def __init__(self, option: str | None = None):
        self.name = "dpll@fixed"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        if mode is Mode.GLOBAL and board.total_mines is None:
            raise ValueError("the global mode needs the total mine count (a header WxHxM)")
        try:
            system = build_constraints(board)
        except Contradiction as err:  # a digit no layout satisfies: the seed skips it
            return SolverResult(self.name, mode, consistent=False, reason=str(err), layouts=0)
        return solve_system(self.name, system, mode)


def fixed_solver(option: str | None = None) -> FixedDpll:
    return FixedDpll(option)


def solve_system(name: str, system: ConstraintSystem, mode: Mode) -> SolverResult:
    """One CNF per component (variables numbered along the frontier); counts first, then verdicts."""
    var_of = {cell: v for v, cell in enumerate(system.frontier, start=1)}
    cnfs = tuple(component_cnf(comp, var_of) for comp in system.components)
    tallies = []
    for comp, cnf in zip(system.components, cnfs):
        tally = count_models(cnf, tuple(var_of[c] for c in comp.cells))
        if tally.models == 0:
            assert satisfier(cnf)(()) is None, "the SAT search found a model the count missed"
            return SolverResult(name, mode, consistent=False, reason=_no_layout(system.board, comp), layouts=0)
        tallies.append(tally)
    verdicts, calls = {}, 0
    for comp, cnf in zip(system.components, cnfs):
        found, asked = sat_verdicts(cnf, tuple(var_of[c] for c in comp.cells))
        verdicts.update(found)
        calls += asked
    off_answers: list[CellAnswer] = []
    if mode is Mode.LOCAL:
        probabilities, layouts = local_probabilities(tallies)
    else:
        off, remaining = len(system.off_frontier), system.mines_remaining
        assert remaining is not None
        counted = global_probabilities(tallies, off, remaining)
        verdicts, off_verdict, asked = global_sat_verdicts(cnfs, verdicts, off, remaining)
        calls += asked
        if counted is None:
            assert verdicts is None, "the SAT search found a layout the count missed"
            reason = (f"the digits allow no layout with exactly {remaining} mines on the "
                      f"{len(system.board.covered)} covered cells ({off} of them off the frontier)")
            return SolverResult(name, mode, consistent=False, reason=reason, layouts=0)
        probabilities, layouts, p_off = counted
        assert verdicts is not None, "the count found layouts the SAT search missed"
        off_answers = [CellAnswer(cell, _checked(off_verdict, p_off, cell), p_off) for cell in system.off_frontier]
    answers = [CellAnswer(cell, _checked(verdicts[v], probabilities[v], cell), probabilities[v])
               for cell, v in var_of.items()] + off_answers
    return SolverResult(name, mode, consistent=True, cells=tuple(sorted(answers, key=lambda a: a.cell)),
                        layouts=layouts, component_layouts=tuple(t.models for t in tallies),
                        extra=(("sat_calls", str(calls)),))


def _checked(verdict: Verdict, probability: Fraction, cell: int) -> Verdict:
    """The SAT verdict, once the count is seen to imply the same (if not, this solver is broken)."""
    if verdict is not verdict_of(probability):
        raise AssertionError(f"cell {cell}: the SAT calls say {verdict.value}, the count says p={probability}")
    return verdict


def _no_layout(board: Board, comp: Component) -> str:
    digits = ", ".join(label(board, eq.source) for eq in comp.equations)
    return f"no layout of {len(comp.cells)} covered cells satisfies the digits at {digits} together"


# -- verdicts by SAT calls ------------------------------------------------------------------------------


def sat_verdicts(cnf: CNF, variables: tuple[int, ...]) -> tuple[dict[int, Verdict], int]:
    """Each variable's verdict from "can it be true?" and "can it be false?", reusing every model found."""
    check = satisfier(cnf)
    seen_true: set[int] = set()
    seen_false: set[int] = set()
    calls = 0
    for v in variables:
        for lit, seen in ((v, seen_true), (-v, seen_false)):
            if v not in seen:
                calls += 1
                model = check((lit,))
                if model is not None:
                    seen_true.update(u for u in variables if u in model)
                    seen_false.update(u for u in variables if u not in model)
    return {v: _verdict(v in seen_true, v in seen_false) for v in variables}, calls


def global_sat_verdicts(cnfs: tuple[CNF, ...], local: dict[int, Verdict], off: int,
                        remaining: int) -> tuple[dict[int, Verdict] | None, Verdict | None, int]:
    """Verdicts with the total: of the frontier variables 1..n (given their local verdicts) and of the off cells.

    "Exactly remaining of the frontier and off-frontier cells" needs no variables for the off
    cells: they lie in no clause, so they are interchangeable, and a frontier layout with K mines
    extends to C(off, remaining - K) layouts - some iff remaining - off <= K <= remaining.  So a
    sequential counter over the frontier variables bounds K (it vanishes when the bounds cannot
    bind).  An off cell, all alike, can be a mine iff some frontier layout leaves it one to hold
    (K <= remaining - 1), and safe iff some leaves a cell over (K >= remaining - off + 1).  A cell
    the digits alone settle stays settled (a layout with the total is a layout), so only the
    locally unknown cells are asked again.  Returns None verdicts when no layout exists, and the
    number of SAT calls.
    """
    digits = tuple(clause for cnf in cnfs for clause in cnf)
    variables = tuple(range(1, len(local) + 1))
    checks = {}
    unknown = [v for v in variables if local[v] is Verdict.UNKNOWN]
    seen_true: set[int] = set()
    seen_false: set[int] = set()
    off_mine = off_safe = False
    calls = 0

    def ask(low: int, high: int, assume: tuple[int, ...] = ()) -> bool:
        nonlocal calls, off_mine, off_safe
        calls += 1
        if (low, high) not in checks:
            checks[low, high] = satisfier(digits + between_by_counter(variables, low, high, len(variables) + 1)[0])
        model = checks[low, high](assume)
        if model is None:
            return False
        seen_true.update(v for v in variables if v in model)
        seen_false.update(v for v in variables if v not in model)
        mines = sum(1 for v in variables if v in model)
        off_mine = off_mine or remaining - mines >= 1
        off_safe = off_safe or remaining - mines <= off - 1
        return True

    low, high = remaining - off, remaining
    if not ask(low, high):
        return None, None, calls
    for v in unknown:
        if v not in seen_true:
            ask(low, high, (v,))
        if v not in seen_false:
            ask(low, high, (-v,))
    if off and not off_mine:
        ask(low, high - 1)
    if off and not off_safe:
        ask(low + 1, high)
    verdicts = local | {v: _verdict(v in seen_true, v in seen_false) for v in unknown}
    return verdicts, _verdict(off_mine, off_safe) if off else None, calls


def _verdict(can_be_mine: bool, can_be_safe: bool) -> Verdict:
    assert can_be_mine or can_be_safe, "a variable of a satisfiable formula takes some value"
    if can_be_mine and can_be_safe:
        return Verdict.UNKNOWN
    return Verdict.MINE if can_be_mine else Verdict.SAFE


# -- probabilities from counts --------------------------------------------------------------------------


def local_probabilities(tallies: list[Tally]) -> tuple[dict[int, Fraction], int]:
    """Each component uniform over its own models; the board's layouts are their product."""
    probabilities: dict[int, Fraction] = {}
    layouts = 1
    for t in tallies:
        layouts *= t.models
        probabilities.update({v: Fraction(sum(per_k), t.models) for v, per_k in t.mines_of.items()})
    return probabilities, layouts


def global_probabilities(tallies: list[Tally], off: int,
                         remaining: int) -> tuple[dict[int, Fraction], int, Fraction] | None:
    """Uniform over the layouts of all covered cells: the frontier probabilities, the layouts, the off-cell probability.

    A frontier layout with K mines stands for C(off, remaining - K) layouts; None if there are none.
    """
    polys = [list(t.by_mines) for t in tallies]
    frontier = _product(polys)
    layouts = sum(n * comb(off, remaining - k) for k, n in enumerate(frontier) if remaining >= k)
    if layouts == 0:
        return None
    probabilities: dict[int, Fraction] = {}
    for i, t in enumerate(tallies):
        others = _product(polys[:i] + polys[i + 1:])
        weight = [sum(n * comb(off, remaining - k - j) for j, n in enumerate(others) if remaining >= k + j)
                  for k in range(len(t.by_mines))]
        for v, per_k in t.mines_of.items():
            probabilities[v] = Fraction(sum(n * w for n, w in zip(per_k, weight)), layouts)
    off_mines = sum(n * comb(off - 1, remaining - k - 1) for k, n in enumerate(frontier) if remaining > k) if off else 0
    return probabilities, layouts, Fraction(off_mines, layouts)


def _product(polys: list[list[int]]) -> list[int]:
    out = [1]
    for p in polys:
        nxt = [0] * (len(out) + len(p) - 1)
        for i, x in enumerate(out):
            for j, y in enumerate(p):
                nxt[i + j] += x * y
        out = nxt
    return out


# -- the fixed search: SAT ------------------------------------------------------------------------------


def satisfier(cnf: CNF):
    """A SAT check for cnf under assumed literals: the true variables of a model (others false), or None.

    The article's search made cheap and safe: unit propagation, then a branch on the lowest
    unassigned variable, true first; but on a trail (assign, undo on backtracking) with an index
    from literal to clauses built once per formula, so a node costs the propagation it causes,
    not a copy of the formula; and with conflict-directed backjumping: a branch that failed for
    reasons not involving the latest decision fails for the other value too, so the search jumps
    over it (without this, a contradiction in one corner of the frontier is rediscovered under
    every combination of choices made elsewhere).  The pure-literal rule is left out: sound for
    satisfiability, but it costs a pass over the formula per node.
    """
    occurs: dict[int, list[Clause]] = {}
    for clause in cnf:
        for lit in clause:
            occurs.setdefault(lit, []).append(clause)
    order = sorted(variables_of(cnf))
    units = tuple(clause[0] for clause in cnf if len(clause) == 1)
    empty = () in cnf

    def check(assume: tuple[int, ...]) -> frozenset[int] | None:
        value: dict[int, bool] = {}
        level: dict[int, int] = {}  # the decision depth a variable was set at (0: assumed or forced)
        reason: dict[int, Clause | None] = {}  # the clause that forced it; None for a decision
        trail: list[int] = []

        def assign(lit: int, depth: int, why: Clause | None) -> Clause | None:
            """Make lit true and propagate units; the clause found all false on a conflict, else None."""
            queue = [(lit, why)]
            while queue:
                lit, why = queue.pop()
                if abs(lit) in value:
                    if value[abs(lit)] != (lit > 0):
                        assert why is not None, "decisions and assumptions are never made twice"
                        return why
                    continue
                value[abs(lit)], level[abs(lit)], reason[abs(lit)] = lit > 0, depth, why
                trail.append(abs(lit))
                for clause in occurs.get(-lit, ()):
                    open_lits = []
                    for other in clause:
                        known = value.get(abs(other))
                        if known is None:
                            open_lits.append(other)
                        elif known == (other > 0):
                            break
                    else:
                        if not open_lits:
                            return clause
                        if len(open_lits) == 1:
                            queue.append((open_lits[0], clause))
            return None

        def blame(conflict: Clause) -> set[int]:
            """The decision depths a conflict follows from, through the clauses that forced each value."""
            depths, seen, stack = set(), set(), [abs(lit) for lit in conflict]
            while stack:
                u = stack.pop()
                if u not in seen:
                    seen.add(u)
                    if reason[u] is None:
                        depths.add(level[u])
                    else:
                        stack.extend(abs(lit) for lit in reason[u] if abs(lit) != u)
            depths.discard(0)
            return depths

        def search(depth: int) -> set[int] | None:
            """None when a model is found; else the decision depths the failure follows from."""
            v = next((u for u in order if u not in value), None)
            if v is None:
                return None
            culprits: set[int] = set()
            for lit in (v, -v):
                mark = len(trail)
                conflict = assign(lit, depth, None)
                failed = search(depth + 1) if conflict is None else blame(conflict)
                if failed is None:
                    return None
                while len(trail) > mark:
                    del value[trail.pop()]
                if depth not in failed:
                    return failed  # this decision is not to blame: its other value fails too
                culprits |= failed - {depth}
            return culprits

        if empty:
            return None
        for lit in assume + units:
            if assign(lit, 0, (lit,)) is not None:
                return None
        if search(1) is not None:
            return None
        return frozenset(v for v, is_true in value.items() if is_true)

    return check


# -- the fixed search: counting -------------------------------------------------------------------------

COUNT_BUDGET = 500_000  # clauses held in the cache of one count (~150 MB); beyond it the count gives up


class TooHard(RuntimeError):
    """A component whose model count would need more memory than COUNT_BUDGET allows."""


@dataclass(frozen=True)
class Tally:
    """Models by their number of true variables, and per variable the same over the models where it is true."""

    by_mines: tuple[int, ...]
    mines_of: dict[int, tuple[int, ...]]

    @property
    def models(self) -> int:
        return sum(self.by_mines)


def count_models(cnf: CNF, variables: tuple[int, ...]) -> Tally:
    """Count every model of cnf over variables exactly, by number of mines, without listing them.

    A counting DPLL (as in sharpSAT): unit propagation only (a pure literal would drop the models
    where it is false), the independent parts of what is left counted apart and multiplied, a
    variable left in no clause doubling the count, each part's count cached by its clauses, and
    the branch on the variable in most clauses, so that parts fall apart early.  A count is a
    polynomial in z (z^k: k mines) packed into one int, ``slot`` bits per coefficient, so adding
    and multiplying counts are single int operations.
    """
    scope = frozenset(variables)
    if not variables_of(cnf) <= scope:
        raise ValueError("the CNF mentions variables outside the ones to count over")
    slot = len(variables) + 2  # every coefficient counts models over these variables: below 2^n
    cache: dict[frozenset[Clause], tuple[int, dict[int, int]]] = {}
    held = 0

    def after(formula: CNF, lits: tuple[int, ...], scope: frozenset[int]) -> tuple[int, dict[int, int]] | None:
        """The count of formula with lits assumed, over scope (packed polynomial, and per variable)."""
        done = propagate(formula, lits)
        if done is None:
            return None
        residual, forced = done
        poly, marks = _product_of_parts([connected(part) for part in split(residual)])
        trues = [lit for lit in forced if lit > 0]
        if trues:
            poly <<= slot * len(trues)
            marks = {v: x << (slot * len(trues)) for v, x in marks.items()} | dict.fromkeys(trues, poly)
        free = scope - variables_of(residual) - {abs(lit) for lit in forced}
        if free:
            grow = sum(comb(len(free), j) << (slot * j) for j in range(len(free) + 1))  # (1+z)^f
            mine = sum(comb(len(free) - 1, j) << (slot * (j + 1)) for j in range(len(free)))  # z(1+z)^(f-1)
            marks = {v: x * grow for v, x in marks.items()} | dict.fromkeys(free, poly * mine)
            poly *= grow
        return poly, marks

    def connected(formula: CNF) -> tuple[int, dict[int, int]]:
        """The count of a formula that does not fall apart, over its own variables; cached."""
        nonlocal held
        key = frozenset(formula)
        if key not in cache:
            v = Counter(abs(lit) for clause in formula for lit in clause).most_common(1)[0][0]
            inner = variables_of(formula)
            poly, marks = 0, {}
            for branch in (after(formula, (v,), inner), after(formula, (-v,), inner)):
                if branch is not None:
                    poly += branch[0]
                    for u, x in branch[1].items():
                        marks[u] = marks.get(u, 0) + x
            held += len(key)
            if held > COUNT_BUDGET:
                raise TooHard(f"counting a component of {len(variables)} cells would cache over "
                              f"{COUNT_BUDGET} clauses")
            cache[key] = poly, marks
        return cache[key]

    top = after(cnf, (), scope)
    poly, marks = top if top is not None else (0, {})
    n = len(variables)
    return Tally(_unpack(poly, slot, n + 1), {v: _unpack(marks.get(v, 0), slot, n + 1) for v in variables})


def _product_of_parts(parts: list[tuple[int, dict[int, int]]]) -> tuple[int, dict[int, int]]:
    """Independent parts multiply; a variable's count in one part is multiplied by the other parts' counts."""
    prefix = [1]
    for poly, _ in parts:
        prefix.append(prefix[-1] * poly)
    marks: dict[int, int] = {}
    suffix = 1
    for i in range(len(parts) - 1, -1, -1):
        others = prefix[i] * suffix
        for v, x in parts[i][1].items():
            marks[v] = x * others
        suffix *= parts[i][0]
    return prefix[-1], marks


def _unpack(packed: int, slot: int, length: int) -> tuple[int, ...]:
    mask = (1 << slot) - 1
    return tuple((packed >> (slot * k)) & mask for k in range(length))


def propagate(cnf: CNF, lits: tuple[int, ...] = ()) -> tuple[CNF, tuple[int, ...]] | None:
    """Assume lits and propagate unit clauses: the simplified CNF and every literal made true; None on conflict.

    Only the clauses holding a newly false literal are looked at again (an index from literal to
    clauses), so a chain of units costs one pass over the formula, not one pass per unit.
    """
    if () in cnf:
        return None
    value: dict[int, bool] = {}
    queue = list(lits) + [clause[0] for clause in cnf if len(clause) == 1]
    occurs: dict[int, list[Clause]] = {}
    for clause in cnf:
        for lit in clause:
            occurs.setdefault(lit, []).append(clause)
    while queue:
        lit = queue.pop()
        if abs(lit) in value:
            if value[abs(lit)] != (lit > 0):
                return None
            continue
        value[abs(lit)] = lit > 0
        for clause in occurs.get(-lit, ()):
            if any(value.get(abs(other)) == (other > 0) for other in clause):
                continue
            open_lits = [other for other in clause if abs(other) not in value]
            if not open_lits:
                return None
            if len(open_lits) == 1:
                queue.append(open_lits[0])
    true = {v if is_true else -v for v, is_true in value.items()}
    kept = tuple(tuple(lit for lit in clause if abs(lit) not in value) for clause in cnf if true.isdisjoint(clause))
    return kept, tuple(sorted(true))


def split(cnf: CNF) -> tuple[CNF, ...]:
    """The independent parts of a CNF: its clauses grouped by shared variables (union-find)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for clause in cnf:
        root = find(abs(clause[0]))
        for lit in clause[1:]:
            other = find(abs(lit))
            if other != root:
                parent[other] = root
    groups: dict[int, list[Clause]] = {}
    for clause in cnf:
        groups.setdefault(find(abs(clause[0])), []).append(clause)
    return tuple(tuple(group) for group in groups.values())
