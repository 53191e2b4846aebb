"""Article 000, the seed: ``MinesweeperSolver`` + ``BranchAndBound`` + ``Simplex`` ported from the Java.

Every covered frontier cell is a 0-1 variable, every digit an equation "these cells hold k
mines".  A cell is a mine for sure if no integer solution has it 0, safe for sure if none has
it 1; each question is a depth-first branch and bound whose nodes are LP relaxations
(0 <= x <= 1 written as x + s = 1) solved by the two-phase simplex in ``simplex.py``.

Ported with its own constraint extraction, Java HashMap order and defects (local mode only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.errors import SolverFault
from minecheck.model.solver import require_mode
from minecheck.solvers.defects import chosen, names_of
from minecheck.solvers.simplex import LP, OPTIMAL, IllegalStateException, solve_seed
from minecheck.solvers.simplex import SEED_DEFECTS as SIMPLEX_DEFECTS

INTEGRAL_TOL = 1e-6  # the article's pickFractional: a value within this of 0 or 1 is integral
SEED_DEFECTS = names_of("ilp@seed", "simplex@seed")  # its own, and those of the simplex it calls


class ArrayIndexOutOfBoundsException(SolverFault, IndexError):
    """The Java exception, raised where the article's code indexes an array with -1 or past its end."""


class OverfullDigit(SolverFault, ValueError):
    """A digit needing more mines than it has covered neighbours: the fixed site's report."""


class InfeasibleComponent(SolverFault, ValueError):
    """Digits that no 0-1 assignment of their cells satisfies together: the fixed site's report."""


@dataclass(frozen=True)
class SeedComponent:
    """The Java Component: cells as (row, col) decoded from r*1000+c, equations as 0-1 rows."""

    cells: tuple[tuple[int, int], ...]
    rows: tuple[tuple[float, ...], ...]
    rhs: tuple[float, ...]


def seed_components(board: Board, defects: frozenset[str] = SEED_DEFECTS) -> tuple[SeedComponent, ...]:
    """The Java buildConstraints(): digits to equations, union-find grouping, Java's iteration order."""
    # with ilp-key-aliasing off, keys are r*stride+c with a stride wider than the board
    stride = 1000 if "ilp-key-aliasing" in defects else max(1000, board.width)
    cons_cells: list[list[tuple[int, int]]] = []
    cons_rhs: list[float] = []
    for cell in board.digits:
        r, c = board.row_col(cell)
        remain = board.cells[cell]
        unknown = []
        for nb in board.neighbours(cell):  # the Java DIRS order is row-major, as neighbours()
            if board.cells[nb] == FLAG:
                remain -= 1
            elif board.cells[nb] == COVERED:
                unknown.append(board.row_col(nb))
        if remain < 0:
            raise IllegalStateException(f"标记矛盾 @ ({r},{c})")
        if not unknown:
            if remain > 0:
                raise IllegalStateException(f"约束矛盾 @ ({r},{c})")
            continue
        # DEFECT(seed) ilp-overfull-digit: a digit needing more mines than it has covered neighbours
        # is not caught here (build_constraints raises Contradiction; the fixed variant reports it).
        if remain > len(unknown) and "ilp-overfull-digit" not in defects:
            raise OverfullDigit(f"the {board.cells[cell]} at ({r},{c}) needs {remain} mines "
                                f"among {len(unknown)} covered cells")
        cons_cells.append(unknown)
        cons_rhs.append(float(remain))

    lookups = [_key(r, c, stride) for cons in cons_cells for r, c in cons]
    id_of: dict[int, int] = {}
    for key in lookups:
        id_of.setdefault(key, len(id_of))
    uf = list(range(len(id_of)))
    for cons in cons_cells:
        # DEFECT(seed) ilp-stale-union-root: `first` is found once and not refreshed: after
        # union(first, b) the next union(first, c) overwrites uf[first], cutting b off (1H/HH splits
        # its digit's cells and the Java throws ArrayIndexOutOfBounds below); constraints.split_components
        # is correct (here: the root found afresh before each union).
        first = _find(uf, id_of[_key(*cons[0], stride)])
        for r, c in cons[1:]:
            if "ilp-stale-union-root" not in defects:
                first = _find(uf, first)
            _union(uf, first, _find(uf, id_of[_key(r, c, stride)]))

    by_root: dict[int, list[int]] = {}  # a LinkedHashMap: components in order of their first key
    for key in java_hashmap_order(lookups):
        by_root.setdefault(_find(uf, id_of[key]), []).append(key)
    comp_of = {key: root for root, keys in by_root.items() for key in keys}
    # DEFECT(seed) ilp-key-aliasing: a cell is decoded as (key / 1000, key % 1000), so a board wider
    # than 1000 columns aliases cells ((0,1000) is (1,0)) and its equations cannot find their cells.
    cells = {root: [(key // stride, key % stride) for key in keys] for root, keys in by_root.items()}
    rows: dict[int, list[tuple[float, ...]]] = {root: [] for root in by_root}
    rhs: dict[int, list[float]] = {root: [] for root in by_root}
    for cons, k in zip(cons_cells, cons_rhs):
        root = comp_of[_key(*cons[0], stride)]
        row = [0.0] * len(cells[root])
        for p in cons:
            row[_java_index(cells[root].index(p) if p in cells[root] else -1, len(row))] = 1.0
        rows[root].append(tuple(row))
        rhs[root].append(k)
    return tuple(SeedComponent(tuple(cells[r]), tuple(rows[r]), tuple(rhs[r])) for r in by_root)


def _key(r: int, c: int, stride: int = 1000) -> int:
    return r * stride + c


def _find(uf: list[int], x: int) -> int:
    while uf[x] != x:
        uf[x] = uf[uf[x]]
        x = uf[x]
    return x


def _union(uf: list[int], a: int, b: int) -> None:
    if a != b:
        uf[a] = b


def _java_index(index: int, length: int) -> int:
    """A Java array index: out of range raises, where Python would wrap -1 to the last element."""
    if not 0 <= index < length:
        raise ArrayIndexOutOfBoundsException(f"Index {index} out of bounds for length {length}")
    return index


def java_hashmap_order(lookups: Sequence[int]) -> list[int]:
    """The iteration order of a Java 17 HashMap<Long, Integer> filled by computeIfAbsent(key) calls.

    Buckets are iterated in index order (index = spread(hash) & (capacity - 1)); computeIfAbsent
    puts a new key at the head of its bucket and resizes before a call when size > threshold;
    a bucket reaching 8 keys in a table below 64 doubles the table.  Not modelled: tree bins
    (8 keys in one bucket of a table of 64 or more) are ordered here as chains, which differs
    from the Java; only the seed's LP vertex (variable order) can then differ.
    """
    capacity, threshold, keys = 0, 0, {}
    for key in lookups:
        if capacity == 0 or len(keys) > threshold:
            capacity, threshold = (capacity * 2, threshold * 2) if capacity else (16, 12)
        if key in keys:
            continue
        bucket = _spread(key) & (capacity - 1)
        crowd = sum(1 for k in keys if _spread(k) & (capacity - 1) == bucket)
        keys[key] = len(keys)
        if crowd >= 7 and capacity < 64:  # treeifyBin on a small table resizes instead
            capacity, threshold = capacity * 2, threshold * 2
    return sorted(keys, key=lambda k: (_spread(k) & (capacity - 1), -keys[k]))


def _spread(key: int) -> int:
    """HashMap.hash(Long): the long's hashCode with its high 16 bits folded into the low ones."""
    h = (key ^ (key >> 32)) & 0xFFFFFFFF
    return h ^ (h >> 16)


def seed_relax(comp: SeedComponent, fixed: Sequence[float | None],
               defects: frozenset[str] = SEED_DEFECTS) -> tuple[float, ...] | None:
    """The Java BranchAndBound.relax() (and relaxProbability()) with the model's zero objective:
    the LP vertex, or None if infeasible."""
    n, m = len(comp.cells), len(comp.rows)
    a = [[0.0] * (2 * n) for _ in range(m + n)]
    dropped: list[int] = []  # bound rows of fixed variables, with ilp-fixed-bound-row off
    b = [0.0] * (m + n)
    for i, (coef, r) in enumerate(zip(comp.rows, comp.rhs)):
        for j in range(n):
            if fixed[j] is None:
                a[i][j] = coef[j]
            else:
                r -= coef[j] * fixed[j]
        b[i] = r
    for j in range(n):
        if fixed[j] is None:
            a[m + j][j] = a[m + j][n + j] = 1.0
            b[m + j] = 1.0
        else:
            # DEFECT(seed) ilp-fixed-bound-row: a fixed variable keeps its bound row with all
            # coefficients zero and right-hand side 1 - fixed, so fixing x = 0 asks 0 = 1: infeasible,
            # and every cell is declared a mine (0H answers MINE).  The fixed variant drops the row.
            b[m + j] = 1.0 - fixed[j]
            if "ilp-fixed-bound-row" not in defects:
                dropped.append(m + j)
    if dropped:
        a = [row for i, row in enumerate(a) if i not in dropped]
        b = [v for i, v in enumerate(b) if i not in dropped]
    result = solve_seed(LP(tuple(map(tuple, a)), tuple(b), (0.0,) * (2 * n)), defects & SIMPLEX_DEFECTS)
    return result.x if result.status == OPTIMAL else None


def seed_feasible(comp: SeedComponent, fixed: list[float | None], defects: frozenset[str] = SEED_DEFECTS) -> bool:
    """The Java dfsFeasible(): relax, branch on the first fractional variable, 0 before 1.

    The Java recurses once per branch, as deep as the component has cells (its default stack holds
    thousands of such frames; heap and time run out first).  The open calls are an explicit stack
    here, so Python's recursion limit of about 1000 frames plays no part.
    """
    branches: list[tuple[int, float]] = []  # per open call that branched: its column, the value it tries
    while True:
        x = seed_relax(comp, fixed, defects)
        if x is not None:
            col = next((j for j in range(len(comp.cells))
                        if fixed[j] is None and INTEGRAL_TOL < x[j] < 1.0 - INTEGRAL_TOL), -1)
            if col < 0:  # an integral vertex: every open call returns true, restoring its column
                for col, _ in branches:
                    fixed[col] = None
                return True
            branches.append((col, 0.0))
            fixed[col] = 0.0
            continue
        while branches and branches[-1][1] == 1.0:  # calls that tried both values return false
            fixed[branches.pop()[0]] = None
        if not branches:
            return False
        col, _ = branches.pop()
        branches.append((col, 1.0))
        fixed[col] = 1.0


@dataclass(frozen=True)
class SeedAnalysis:
    """What the Java analyze() leaves behind for one component."""

    verdicts: tuple[int, ...]  # 1 mine, 0 safe, -1 unknown, aligned with the component's cells
    risks: tuple[float, ...]
    lp: tuple[float, ...]  # relaxProbability(): the LP vertex, clamped to [0, 1]


def seed_analyze(comp: SeedComponent, defects: frozenset[str] = SEED_DEFECTS) -> SeedAnalysis:
    """The Java analyze(): two feasibility questions per cell, then the LP vertex as the risk."""
    n = len(comp.cells)
    verdicts, risks = [-1] * n, [-1.0] * n
    # DEFECT(seed) ilp-contradiction-called-mines: the Java never asks whether the component has a
    # 0-1 solution at all; when its digits contradict each other (2x2 "01/HH"), x = 0 is infeasible
    # for every cell and every cell is declared a mine.  The fixed variant reports the board inconsistent.
    if "ilp-contradiction-called-mines" not in defects and not seed_feasible(comp, [None] * n, defects):
        cells = ", ".join(f"r{r}c{c}" for r, c in comp.cells)
        raise InfeasibleComponent(f"no 0-1 solution satisfies the digits around {cells} together")
    for k in range(n):
        for value, verdict in ((0.0, 1), (1.0, 0)):
            fixed: list[float | None] = [None] * n
            fixed[k] = value
            if not seed_feasible(comp, fixed, defects):
                verdicts[k], risks[k] = verdict, float(verdict)
                break
    x = seed_relax(comp, [None] * n, defects)
    lp = tuple(min(1.0, max(0.0, v)) for v in x[:n]) if x is not None else (0.0,) * n
    # DEFECT(seed) ilp-vertex-as-probability: the LP vertex is reported as the mine probability of
    # undecided cells; a vertex is not a probability (H1H: vertex (0, 1), probability 1/2).  While
    # the bound-row defect calls every cell a mine no cell is undecided, but the port keeps the rule.
    # The fixed variant reports the vertex only as lp_values and gives no probabilities.
    if "ilp-vertex-as-probability" in defects:
        risks = [lp[k] if verdicts[k] == -1 else risks[k] for k in range(n)]
    return SeedAnalysis(tuple(verdicts), tuple(risks), lp)


_VERDICT = {1: Verdict.MINE, 0: Verdict.SAFE, -1: Verdict.UNKNOWN}


class SeedIlpSolver:
    """The article's solver: verdicts, the risk it calls a probability, and the LP vertex; local only."""

    # consistency too: an overfull digit or an infeasible component makes it say so (by its defects, not always)
    answers = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.LP, Answers.CONSISTENCY})
    modes = frozenset({Mode.LOCAL})

    def __init__(self, option: str | None = None, defects: frozenset[str] | None = None):
        """``defects``: the ones kept, of ilp@seed and simplex@seed (None: all, as the Java)."""
        self.name = "ilp@seed"
        self.defects = chosen(defects, "ilp@seed", "simplex@seed")
        if "ilp-vertex-as-probability" not in self.defects:
            self.answers = self.answers - {Answers.PROBABILITIES}

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        require_mode(self, mode)
        verdict: dict[tuple[int, int], int] = {}
        risk: dict[tuple[int, int], float] = {}
        lp: dict[tuple[int, int], float] = {}
        try:
            components = seed_components(board, self.defects)
        except OverfullDigit as err:
            return SolverResult(self.name, mode, consistent=False, reason=str(err), layouts=0)
        for comp in components:
            try:
                found = seed_analyze(comp, self.defects)
            except InfeasibleComponent as err:
                return SolverResult(self.name, mode, consistent=False, reason=str(err), layouts=0)
            for k, (r, c) in enumerate(comp.cells):
                _java_index(r, board.height)  # the Java writes verdict[r][c]: a bad decode throws
                verdict[r, c], risk[r, c], lp[r, c] = found.verdicts[k], found.risks[k], found.lp[k]
        probabilities = Answers.PROBABILITIES in self.answers
        cells = tuple(CellAnswer(board.cell(r, c), _VERDICT[verdict[r, c]], risk[r, c] if probabilities else None)
                      for r, c in sorted(risk) if board.is_covered(board.cell(r, c)))
        return SolverResult(self.name, mode, cells=cells,
                            lp_values=tuple(sorted((board.cell(r, c), v) for (r, c), v in lp.items())))


def seed_solver(option: str | None = None) -> SeedIlpSolver:
    return SeedIlpSolver(option)
