"""Proof of teeth: for each known defect of the seed ports, the first board that shows it alone.

Each switchable defect (``minecheck.solvers.defects``) is switched on by itself in its port, and the
port is cross-checked against ``exact`` on the boards of a fixed-seed campaign, in order (for
``simplex@seed``: the campaign's general random LPs, against CBC), until the first finding; that
finding is shrunk.  A finding counts only where the port with every defect off agrees with the
reference (``Alone``), so each row shows what the one defect breaks.  Defects that random
boards do not reach get a stated targeted board.  The rows go to fixtures/teeth.json and, as
a Markdown table, to docs/teeth.md (tests/campaigns/test_teeth.py checks both).
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from functools import partial

from minecheck.boards.generators import generate_board
from minecheck.campaigns.fuzz import Config, board_recipe, board_seed
from minecheck.check.compare import compare
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Finding, Kind
from minecheck.check.shrink import shrink
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.solver import Solver
from minecheck.running.registry import run_solver
from minecheck.solvers.defects import DEFECTS, Defect
from minecheck.solvers.dpll_seed import SeedDpll
from minecheck.solvers.exact import ExactSolver
from minecheck.solvers.gibbs_seed import SeedGibbs
from minecheck.solvers.ilp_seed import SeedIlpSolver
from minecheck.solvers.simplex import LP, LPResult, solve_seed

SEED = 1  # the campaign whose boards are drawn, in order
BUDGET = 300  # boards (or LPs) tried before a defect is called not found (2000 mixed boards: too slow here)
SHRINK_CALLS = 300  # a bound on calls, not on seconds, so that the table does not depend on the machine
START, END = "<!-- teeth:start -->", "<!-- teeth:end -->"
# With the other defects off the DPLL port counts every model one by one (about 2 ms each): a board with
# more layouts than this is skipped in a dpll@seed hunt (a count, not a time, so the table is the same on
# every machine).  dpll-stack-overflow shows past 4371 models, so alone it shows on boards between the two.
DPLL_MODELS = 10_000
# A port with a defect on may take far longer than the port with none (dpll-negated-at-least counts the
# models of a weaker formula, millions on a large frontier): a board whose check takes more CPU seconds than
# this is skipped.  A bound in time, so kept far above the seconds the boards that count take (at most a few).
BOARD_CPU = 60.0


class OverBudget(BaseException):
    """Raised at BOARD_CPU; not an Exception, so that the in-process run of a solver does not take it for a crash."""


def within_cpu(seconds: float, fn: Callable[[], object]) -> tuple[bool, object]:
    """(True, fn()) if it returns within ``seconds`` of CPU time, else (False, None); main thread only."""
    def stop(signum, frame):
        raise OverBudget()

    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return True, fn()
    except OverBudget:
        return False, None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


# -- the ports with a chosen set of defects -------------------------------------------------------

def port(solver: str, defects: frozenset[str]) -> Solver:
    """The seed port named ``solver`` with only ``defects`` on (those it cannot drop stay on)."""
    make = {"ilp@seed": SeedIlpSolver, "dpll@seed": SeedDpll, "gibbs@seed": SeedGibbs}[solver]
    return make(defects=defects)


def lp_port(defects: frozenset[str]) -> Callable[[LP], LPResult]:
    return partial(solve_seed, defects=defects)


@dataclass(frozen=True)
class Alone:
    """A port with one defect on that answers as the reference wherever the port with none is wrong:
    its findings are the defect's alone (the Solver protocol, so check_board and shrink take it)."""

    broken: Solver
    fixed: Solver

    @property
    def name(self) -> str:
        return self.broken.name

    @property
    def answers(self):
        return self.broken.answers

    @property
    def modes(self):
        return self.broken.modes

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        truth = ExactSolver().solve(board, mode)
        if compare(run_solver(self.fixed, board, mode), self.fixed.answers, truth):
            return replace(truth, solver=self.name)
        return self.broken.solve(board, mode)


def alone(d: Defect) -> Alone:
    """The port with the defect on alone; for a masked one, on beside its PARTNER (where the port with only the
    partner on is right)."""
    partner = frozenset({PARTNER[d.name]}) if d.name in PARTNER else frozenset()
    return Alone(port(d.solver, frozenset({d.name}) | partner), port(d.solver, partner))


def too_many_models(board: Board, solver: str) -> bool:
    """A board a dpll@seed hunt skips: more layouts than DPLL_MODELS for the port with no defect to count."""
    if solver != "dpll@seed":
        return False
    count = count_board(board, Mode.LOCAL)
    return count.consistent and count.layouts > DPLL_MODELS


def board_findings(board: Board, solver: Solver) -> list[Finding]:
    """The solver's findings against ``exact`` on a board, in every mode it answers; in-process."""
    return [f for c in check_board(board, [solver], references=()) for f in c.findings]


# -- LPs: simplex@seed against CBC ----------------------------------------------------------------

def lp_finding(lp: LP, solve: Callable[[LP], LPResult]) -> str | None:
    """The finding's kind ("lp" or "crash") when the simplex disagrees with CBC on the LP, else None."""
    from minecheck.check.lpcheck import cbc_lp, lp_difference  # CBC only where LPs are checked

    try:
        return Kind.LP.value if lp_difference(solve(lp), cbc_lp(lp)) else None
    except Exception:  # the simplex raised: that is its answer
        return Kind.CRASH.value


def lp_alone(lp: LP, defect: str) -> str | None:
    """The finding with only ``defect`` on, where the simplex with none agrees with CBC."""
    if lp_finding(lp, lp_port(frozenset())) is not None:
        return None
    return lp_finding(lp, lp_port(frozenset({defect})))


def lp_candidates(lp: LP) -> Iterator[LP]:
    """Smaller LPs, biggest steps first: a row less, a variable less, one coefficient zeroed."""
    a, b, c = [list(r) for r in lp.a], list(lp.b), list(lp.c)
    for i in range(len(b)):
        if len(b) > 1:
            yield LP(tuple(tuple(r) for k, r in enumerate(a) if k != i), tuple(v for k, v in enumerate(b) if k != i),
                     lp.c)
    for j in range(len(c)):
        if len(c) > 1:
            yield LP(tuple(tuple(v for k, v in enumerate(r) if k != j) for r in a), lp.b,
                     tuple(v for k, v in enumerate(c) if k != j))
    for i, row in enumerate(a):
        for j, v in enumerate(row):
            if v:
                yield LP(tuple(tuple(0.0 if (k, m) == (i, j) else x for m, x in enumerate(r)) for k, r in enumerate(a)),
                         lp.b, lp.c)
    for i, v in enumerate(b):
        if v:
            yield LP(lp.a, tuple(0.0 if k == i else x for k, x in enumerate(b)), lp.c)
    for j, v in enumerate(c):
        if v:
            yield LP(lp.a, lp.b, tuple(0.0 if k == j else x for k, x in enumerate(c)))


def shrink_lp(lp: LP, still: Callable[[LP], bool], max_calls: int = SHRINK_CALLS) -> LP:
    """Greedy, deterministic: take the first smaller LP that still shows it, until none does."""
    calls = 0
    progress = True
    while progress and calls < max_calls:
        progress = False
        for candidate in lp_candidates(lp):
            calls += 1
            if still(candidate):
                lp, progress = candidate, True
                break
            if calls >= max_calls:
                break
    return lp


# -- the rows -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Tooth:
    """One defect's row: where it was first found, the finding's kind, and the shrunk input."""

    defect: str
    article: str
    solver: str
    found: str  # "board 3", "LP 12", "targeted board", "not found in 2000", "not switchable", "no board alone"
    kind: str | None = None
    board: str | None = None  # the shrunk board (format_board text)
    lp: dict | None = None  # the shrunk LP: {"a": rows, "b": [...], "c": [...]}
    note: str = ""
    median: str = ""  # boards of the default campaign until it first shows, median over 10 seeds (bench/reach.py)
    partner: str = ""  # for a masked defect: the defect switched on beside it (PARTNER)


def targeted_boards() -> dict[str, Board]:
    """Boards the random boards do not reach: wider than 1000 columns, more than 4371 models, a digit
    owed mines with no covered neighbour (with or without covered cells elsewhere)."""
    wide = [["H"] * 1001 for _ in range(2)]
    wide[0][999] = wide[1][1] = "1"  # keys (0,1000) and (1,0) are both 1000
    return {"ilp-key-aliasing": parse_board("\n".join("".join(r) for r in wide)),
            "dpll-stack-overflow": parse_board("H1H" * 13),  # 2^13 models
            "dpll-isolated-digit-skipped": parse_board("2F1\n111\nHHH")}


# Defects that no board shows alone: the fix of another, switched off with it, calls the board inconsistent
# first.  Each is shown with that other defect on (PARTNER), on boards where the port with only the other on
# agrees with exact: what the defect breaks beyond it.
PARTNER = {"ilp-overfull-digit": "ilp-contradiction-called-mines",
           "dpll-impossible-cell-unlisted": "dpll-no-model-half",
           "dpll-no-model-half": "dpll-impossible-cell-unlisted"}
MASKED = {
    "ilp-overfull-digit": "masked alone: an overfull digit leaves its component no 0-1 solution, and the "
                          "feasibility check after it (ilp-contradiction-called-mines fixed) calls the board "
                          "inconsistent; shown with that defect on",
    "dpll-impossible-cell-unlisted": "masked alone: on an impossible board the model count that follows "
                                     "(dpll-no-model-half fixed) calls it inconsistent; shown with that defect on",
    "dpll-no-model-half": "masked alone: on an impossible board the verdicts before it "
                          "(dpll-impossible-cell-unlisted fixed) call it inconsistent; shown with that defect on",
}
# Defects that no board can show, alone or beside another that leaves the port right, and why.
NO_BOARD = {
    "dpll-partial-model-blocked": "no board: with the exactly-k clauses right (dpll-negated-at-least off) a "
                                  "model that satisfies a digit's at-least clauses has k of its cells true and "
                                  "one that satisfies its at-most clauses at most k true or unassigned, so every "
                                  "variable is assigned and the blocking clause loses nothing; with them negated "
                                  "it changes the count (114 of the 3,047 boards of small:5) of a port already "
                                  "wrong there",
}


def size_of(tooth: Tooth) -> str:
    if tooth.board is not None:
        b = parse_board(tooth.board)
        return f"{_many(b.size, 'cell')} ({b.width} x {b.height})"
    if tooth.lp is not None:
        return f"{_many(len(tooth.lp['b']), 'row')} x {_many(len(tooth.lp['c']), 'variable')}"
    return ""


def tooth_on_board(d: Defect, board: Board, found: str) -> Tooth | None:
    """The row from a board that shows the defect alone (shrunk), or None when it does not."""
    if too_many_models(board, d.solver):
        return None
    solver = alone(d)
    done, findings = within_cpu(BOARD_CPU, partial(board_findings, board, solver))
    if not done or not findings:
        return None
    shrunk = shrink(findings[0], None, max_calls=SHRINK_CALLS, solver=solver)
    partner = PARTNER.get(d.name, "")
    return Tooth(d.name, d.article, d.solver, found + (f" (with `{partner}` on)" if partner else ""),
                 shrunk.finding.kind.value, format_board(shrunk.board), note=MASKED.get(d.name, ""), partner=partner)


def hunt(d: Defect, seed: int = SEED, budget: int = BUDGET) -> Tooth:
    """The defect's row: boards (or LPs) of campaign ``seed`` in order, then its targeted board."""
    if not d.switchable:
        return Tooth(d.name, d.article, d.solver, "not switchable", note=d.fixed_only)
    if d.name in NO_BOARD:
        return Tooth(d.name, d.article, d.solver, "no board alone", note=NO_BOARD[d.name])
    config = Config(seed=seed)
    if d.solver == "simplex@seed":
        from minecheck.check.lpcheck import random_lp

        for i in range(budget):
            lp = random_lp(board_seed(config, i))
            kind = lp_alone(lp, d.name)
            if kind is not None:
                small = shrink_lp(lp, lambda c, k=kind: lp_alone(c, d.name) == k)
                return Tooth(d.name, d.article, d.solver, f"LP {i + 1}", kind, lp=asdict(small))
        return Tooth(d.name, d.article, d.solver, f"not found in {budget}")
    for i in range(budget):
        tooth = tooth_on_board(d, generate_board(board_recipe(config, i)), f"board {i + 1}")
        if tooth is not None:
            return tooth
    targeted = targeted_boards().get(d.name)
    if targeted is not None:
        return tooth_on_board(d, targeted, f"targeted board (none in {budget})") or Tooth(
            d.name, d.article, d.solver, f"not found in {budget}", note=MASKED.get(d.name, ""))
    return Tooth(d.name, d.article, d.solver, f"not found in {budget}", note=MASKED.get(d.name, ""))


# -- the table ------------------------------------------------------------------------------------

def inline(tooth: Tooth) -> str:
    """The shrunk input in one table cell: board rows joined by "/", or the LP."""
    if tooth.board is not None:
        text = tooth.board.strip().replace("\n", "/")
        return f"`{text}`" if len(text) <= 80 else "(in fixtures/teeth.json)"
    if tooth.lp is not None:
        rows = [" ".join(f"{v:+g}x{j}" for j, v in enumerate(r) if v) or "0" for r in tooth.lp["a"]]
        cost = " ".join(f"{v:+g}x{j}" for j, v in enumerate(tooth.lp["c"]) if v) or "0"
        return "`min " + cost + "; " + "; ".join(f"{r} = {b:g}" for r, b in zip(rows, tooth.lp["b"])) + "`"
    return tooth.note


def render_table(teeth: list[Tooth], seed: int = SEED) -> str:
    """The Markdown table docs/teeth.md holds between the teeth markers."""
    lines = [f"Campaign seed {seed}, default mix (simplex: the campaign's random LPs against CBC); "
             "regenerate with `python bench/teeth.py --write`.  Median: boards of the default campaign until it "
             "first shows, over campaign seeds 1 to 10 (`python bench/reach.py --write`).", "",
             "| defect | article | solver | first shown | median | kind | shrunk input | size |",
             "|---|---|---|---|---|---|---|---|"]
    for t in teeth:
        lines.append(f"| `{t.defect}` | {t.article} | `{t.solver}` | {t.found} | {t.median} | {t.kind or ''} | "
                     f"{inline(t)} | {size_of(t)} |")
    return "\n".join(lines)


def to_json(teeth: list[Tooth], seed: int = SEED, budget: int = BUDGET) -> str:
    return json.dumps({"seed": seed, "budget": budget, "teeth": [asdict(t) for t in teeth]}, indent=1) + "\n"


def from_json(text: str) -> list[Tooth]:
    return [Tooth(**row) for row in json.loads(text)["teeth"]]


def with_table(readme: str, table: str, markers: tuple[str, str] = (START, END)) -> str:
    """The page (docs/teeth.md) with the table between the markers (which must be there)."""
    first, last = markers
    head, start, rest = readme.partition(first)
    _, end, tail = rest.partition(last)
    if not start or not end:
        raise ValueError(f"the page has no {first} ... {last} block")
    return f"{head}{first}\n{table}\n{last}{tail}"


def table_in(readme: str, markers: tuple[str, str] = (START, END)) -> str:
    """The text between the markers, as with_table writes it."""
    return readme.partition(markers[0])[2].partition(markers[1])[0].strip("\n")


def all_teeth(seed: int = SEED, budget: int = BUDGET, only: tuple[str, ...] = ()) -> Iterator[Tooth]:
    for d in DEFECTS:
        if not only or d.name in only:
            yield hunt(d, seed, budget)


def _many(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
