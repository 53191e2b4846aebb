"""The fixed DPLL's two searches over a CNF: a satisfier (SAT calls) and a model counter by mine count.

Glossary: a *variable* v >= 1 stands for a covered cell (true: a mine), a *model* is the set of
variables true in a satisfying assignment, a *tally* counts models by their number of mines.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from minecheck.model.errors import SolverFault
from minecheck.solvers.cnf import CNF, Clause, variables_of

# -- the fixed search: SAT ------------------------------------------------------------------------------


def satisfier(cnf: CNF, nodes: Nodes | None = None):
    """A SAT check for cnf under assumed literals: the true variables of a model (others false), or None;
    every decision is a visit to ``nodes`` (None: no bound).

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
            if nodes is not None:
                nodes.visit("the SAT search")
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

COUNT_BUDGET = 2_000_000  # clauses held in the cache of one count (about 140 MB a million); beyond it the count
# gives up and the solver declines the board (500,000 declined a 12x10 board whose 82-cell component needs 1M)


class TooHard(SolverFault, RuntimeError):
    """A component whose model count would need more memory than COUNT_BUDGET allows, or a search past its nodes."""


class Nodes:
    """The search nodes a solve may visit; past them it declines the board (TooHard): a bound on its work that,
    unlike the CPU budget, is the same on a busy machine and a quiet one."""

    def __init__(self, limit: int):
        self.limit, self.used = limit, 0

    def visit(self, search: str) -> None:
        self.used += 1
        if self.used > self.limit:
            raise TooHard(f"{search} passed {self.limit:,} nodes")


@dataclass(frozen=True)
class Tally:
    """Models by their number of true variables, and per variable the same over the models where it is true."""

    by_mines: tuple[int, ...]
    mines_of: dict[int, tuple[int, ...]]

    @property
    def models(self) -> int:
        return sum(self.by_mines)


def count_models(cnf: CNF, variables: tuple[int, ...], nodes: Nodes | None = None) -> Tally:
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
            if nodes is not None:
                nodes.visit("the count")
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
