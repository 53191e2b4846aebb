"""Article 004's demo loop (``MinesweeperDemo.main``): the seed as printed, and fixed.

**seed** (``satdemo@seed``) is one step of the demo's ``while`` loop per decision:
``MinesweeperSolver.analyze`` (the article's exactly-k CNF with its sign defect, two DPLL calls
per variable: the port in ``dpll@seed``), then one move - flag the first cell it calls a mine
that is still covered, else open the first cell it calls safe, else open a covered cell drawn by
``rand.nextInt(unknown.size())`` from the covered cells in row-major order.  "First" is in the
order of the solver's ``VariableMap``, which the demo keeps for the whole game: cells are
numbered as they first join the frontier, never renumbered.  The demo stops after 100 steps
(``if (step > 100) break``): a game not over by then is lost.  The player's state is the
guess stream's 48-bit state (``new Random()`` in the demo, seeded by the game here so that games
replay), the variable map's cells in order, and the steps taken.

The demo's variables that have left the frontier are in no clause, so both of their SAT calls
give the formula's own answer and they get no verdict; they are left out of the calls here
(same verdicts, less work).

**fixed** (``satdemo@fixed``): the same loop, one move per step, with the defects removed:
``dpll@fixed`` (the correct encoding, the total mine count) answers, and when it finds nothing
sure the step opens the cell with the lowest exact probability (its ``ProbabilityEngine``'s
job, which the demo leaves unused: "简化演示：随机选择") instead of a random one; ties go to the
lowest cell index; no cap on the steps.
"""

from __future__ import annotations

from dataclasses import replace

from minecheck.model.answers import Answers, CellAnswer, Mode, SolverResult, Verdict
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.play.game import Action, Move
from minecheck.play.player import Decision
from minecheck.play.players.javastate import ResumableRandom, initial_state
from minecheck.play.policy import lowest
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver
from minecheck.solvers.cnf import seed_board_cnf
from minecheck.solvers.dpll_seed import seed_analyze

STEP_CAP = 100  # the demo's `if (step > 100) break;`


class DemoAnalysis:
    """``MinesweeperSolver.analyze`` as a solver: the seed's SAT verdicts on the current frontier."""

    name = "satdemo-analyze"
    answers = frozenset({Answers.VERDICTS})
    modes = frozenset({Mode.LOCAL})

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        cnf, cells = seed_board_cnf(board)
        verdicts = seed_analyze(cnf, len(cells))
        answers = [CellAnswer(cell, verdicts[v]) for v, cell in enumerate(cells, start=1) if verdicts.get(v)]
        return SolverResult(self.name, mode, cells=tuple(sorted(answers, key=lambda a: a.cell)))


def boundary(board: Board) -> tuple[int, ...]:
    """The order in which buildCNF meets covered cells: opened cells row by row, each one's covered
    neighbours in row-major order (``seed_board_cnf`` numbers its variables the same way)."""
    return tuple(dict.fromkeys(n for d in board.digits for n in board.neighbours(d) if board.is_covered(n)))


def extend_map(variables: tuple[int, ...], board: Board) -> tuple[int, ...]:
    """The demo's VariableMap after this view: the cells it had, then new frontier cells in boundary order."""
    known = set(variables)
    return tuple(variables) + tuple(c for c in boundary(board) if c not in known)


def demo_step(board: Board, result: SolverResult, variables: tuple[int, ...]) -> Move | None:
    """The demo's move from analyze's verdicts: the first covered mine, else the first covered safe cell,
    in variable order; None when analyze gives neither (the demo then guesses)."""
    verdict = {a.cell: a.verdict for a in result.cells}
    ordered = [c for c in variables if board.is_covered(c) and c in verdict]
    for wanted, action, reason in ((Verdict.MINE, Action.FLAG, "mine"), (Verdict.SAFE, Action.OPEN, "safe")):
        for c in ordered:
            if verdict[c] is wanted:
                return Move(action, c, reason)
    return None


class SeedDemo:
    """MinesweeperDemo's loop as printed; state (guess stream, variable map, steps taken)."""

    def __init__(self, option: str | None = None):
        self.name = "satdemo@seed"

    def start(self, seed: int) -> tuple:
        return (initial_state(seed), (), 0)

    def relocate(self, state, where) -> tuple:
        """The variable map on a cropped board: its cells moved, in the same order, the cropped ones gone."""
        moved = (where(c) for c in state[1])
        return (state[0], tuple(c for c in moved if c is not None), state[2])

    def decide(self, board: Board, state, budget: Budget | None = None) -> Decision:
        rng_state, variables, steps = state[0], tuple(state[1]), state[2]
        if steps >= STEP_CAP:
            return Decision((), state, note=f"the demo stops after {STEP_CAP} steps")
        variables = tuple(c for c in extend_map(variables, board) if c < board.size)
        result = replace(run_solver(DemoAnalysis(), board, Mode.LOCAL, budget), solver=self.name)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        move = demo_step(board, result, variables)
        if move is None and board.covered:
            rng = ResumableRandom.at(rng_state)
            unknown = board.covered
            move = Move(Action.OPEN, unknown[rng.next_int(len(unknown))], "blind")
            rng_state = rng.state
        after = (rng_state, variables, steps + 1)
        if move is None:
            return Decision((), after, result, None, result.seconds, "no covered cell left to guess")
        return Decision((move,), after, result, None, result.seconds)


class FixedDemo:
    """The demo's loop with dpll@fixed in the global mode and the lowest exact probability for guesses."""

    def __init__(self, option: str | None = None):
        self.name = "satdemo@fixed"
        self.solver = get_solver("dpll@fixed")

    def start(self, seed: int) -> int:
        return 0

    def decide(self, board: Board, state, budget: Budget | None = None) -> Decision:
        result = replace(run_solver(self.solver, board, Mode.GLOBAL, budget), solver=self.name)
        if result.error:
            return Decision((), state, result, result.error, result.seconds)
        move = demo_step(board, result, board.covered)
        if move is None:
            rated = [(a.probability, a.cell) for a in result.cells
                     if board.is_covered(a.cell) and a.probability is not None]
            if rated:
                move = Move(Action.OPEN, lowest(rated), "lowest")
        if move is None:
            return Decision((), state, result, None, result.seconds, "dpll@fixed leaves nothing to open")
        return Decision((move,), state, result, None, result.seconds)


def seed_player(option: str | None = None) -> SeedDemo:
    return SeedDemo(option)


def fixed_player(option: str | None = None) -> FixedDemo:
    return FixedDemo(option)
