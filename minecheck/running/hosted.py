"""Solvers whose code is not minecheck's, made only inside their own sandboxes.

Importing a user's module runs its code: a patched ``ExactSolver.solve``, a changed ``decimal`` context or
recursion limit at import time would be inherited by every process forked afterwards, references'
sandboxes included.  So the process that checks (the campaign's coordinator, a worker, ``minecheck
check``) never imports one.  It learns what the solver declares (name, answers, modes) from a throwaway
sandbox that makes it once (``describe``), and holds a ``Hosted`` stand-in; each sandbox that serves the
stand-in makes the real solver when it is forked (``prepare``, under a budget of its own: an import is not
a solve), and every call there goes to it.  A hosted solver always runs in a sandbox under the budget,
even one that says it runs a program of its own (``runs_own_process``): that is for minecheck's ``cmd:``.
Its sandboxes are ``untrusted``: served from bubblewrap's jail (``running.jailed``) where there is one, as a
``cmd:`` program is, with only the paths of its definition's ``writable`` to write in.
"""

from __future__ import annotations

from collections.abc import Callable

from minecheck.model.answers import Answers, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.errors import Unavailable, UnknownSolver
from minecheck.model.solver import MINES
from minecheck.running import sandbox
from minecheck.running.messages import Declared, Refused


class Describer:
    """Makes the solver in a throwaway sandbox and says what it declares (or why it cannot be made)."""

    untrusted = True  # its sandbox runs the solver's module: in the jail (running.sandbox)

    def __init__(self, definition: object, make: Callable[[object], object]):
        self.definition, self.make = definition, make
        self.writable, self.reads, self.env = _paths(definition)

    def describe(self) -> Declared | Refused:
        try:
            solver = self.make(self.definition)
        except Unavailable as err:
            return Refused(False, err.message, err.fix)
        except UnknownSolver as err:
            return Refused(True, str(err))
        return Declared(solver.name, frozenset(Answers(a) for a in solver.answers),
                        frozenset(Mode(m) for m in solver.modes), str(getattr(solver, "flags", MINES)))


def _paths(definition: object) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What the solver's jail must let it write (its ``writable``) and read (the folder its module is found in),
    and the variables of minecheck's environment its table passes on (its ``env``)."""
    folder = getattr(definition, "cwd", None)
    return (tuple(getattr(definition, "writable", ())), (folder,) if folder else (),
            tuple(getattr(definition, "env", ())))


def describe(definition: object, make: Callable[[object], object], name: str) -> Declared:
    """What the solver declares, learnt in a throwaway sandbox; Unavailable when it cannot be made there."""
    describer = Describer(definition, make)
    if not sandbox.SUPPORTED:
        outcome = sandbox.run(describer, "describe", (), None)
    else:
        box = sandbox.Sandbox(describer)
        try:
            outcome = box.call(describer, "describe", (), sandbox.preparing(Budget()))
        finally:
            box.close()
    if isinstance(outcome.value, Refused):
        refused = outcome.value
        raise UnknownSolver(refused.message) if refused.unknown else Unavailable(refused.message, refused.fix)
    if outcome.error is not None or not isinstance(outcome.value, Declared):
        raise Unavailable(f"{name}: making it failed: {outcome.error or 'it declared what cannot be read back'}",
                          "make the solver and its module importable on their own (python -c 'import MODULE')")
    return outcome.value


class Hosted:
    """The stand-in for a solver made only in its sandboxes: its declarations here, its code there."""

    untrusted = True  # its sandboxes are served from the jail (running.sandbox)

    def __init__(self, definition: object, make: Callable[[object], object], declared: Declared):
        self.definition, self.make = definition, make
        self.writable, self.reads, self.env = _paths(definition)
        self.name, self.answers, self.modes = declared.name, declared.answers, declared.modes
        self.flags = declared.flags
        self.made: object | None = None

    def prepare(self) -> None:
        """Make the real solver (import its module): in a sandbox, once, when it is forked."""
        if self.made is None:
            self.made = self.make(self.definition)

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        self.prepare()  # in this process when run without a sandbox (no budget)
        return self.made.solve(board, mode)
