"""Python solvers that try to rewrite the judge through what crosses back from their sandbox (issue 48, case 1).

Each answers like ``exact`` (so it has no finding of its own) and, in its own process, wraps ``pickle.dumps``
so that every message its sandbox sends back starts with pickle opcodes that set class attributes in the process
reading it (pickle's BUILD step on a class object): ``Verdict.__eq__ = slice`` (a liar's verdicts then equal the
truth's), ``Fraction.__ne__ = int`` (exact probabilities never differ) or ``Answers.__hash__ = int`` (the set of
what a solver answers breaks).  Where the sandbox's answers are read back as data, the wrap does nothing.

``PatchByAnswer`` wraps on its first call (the answers carry the patch), ``PatchByDescription`` when its module is
imported (the description read when the solver is named carries it: the checking process itself), and
``PatchByError`` on its first call, then raises on every board (the patch rides on an error's outcome).
``FractionByAnswer`` and ``AnswersByDescription`` set the other two patches.
"""

from __future__ import annotations

import pickle

from hostile_python import _LikeExact

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board

PATCHES = {  # what each patch sets: (module, class, attribute, builtin put there)
    "verdict": ("minecheck.model.answers", "Verdict", "__eq__", "slice"),
    "fraction": ("fractions", "Fraction", "__ne__", "int"),
    "answers": ("minecheck.model.answers", "Answers", "__hash__", "int"),
}


def patch_opcodes(which: str) -> bytes:
    """Protocol-2 opcodes that push the class, BUILD it with a slot state {attribute: builtin}, and pop it."""
    module, name, attribute, builtin = PATCHES[which]
    state = b"N}" + pickle.dumps(attribute, protocol=2)[2:-1] + f"cbuiltins\n{builtin}\n".encode() + b"s\x86"
    return f"c{module}\n{name}\n".encode() + state + b"b0"


def wrap_dumps(which: str) -> None:
    """Every pickle this process makes from now on carries the patch before its own content."""
    if getattr(pickle.dumps, "wrapped", False):
        return
    prefix = patch_opcodes(which)
    plain = pickle.dumps

    def dumps(obj, protocol=None, **kw):
        return b"\x80\x02" + prefix + plain(obj, protocol=2, fix_imports=False)[2:]

    dumps.wrapped = True
    pickle.dumps = dumps


class PatchByAnswer(_LikeExact):
    patch = "verdict"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        wrap_dumps(self.patch)
        return self.exact(board, mode)


class PatchByError(_LikeExact):
    patch = "verdict"

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        wrap_dumps(self.patch)
        raise RuntimeError("an error whose outcome carries the patch")


class PatchByDescription(_LikeExact):
    """Wraps when it is made: in the sandbox that describes it, its description carries the patch."""

    patch = "verdict"

    def __init__(self, option: str | None = None):
        super().__init__(option)
        wrap_dumps(self.patch)

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return self.exact(board, mode)


class FractionByAnswer(PatchByAnswer):
    patch = "fraction"


class AnswersByDescription(PatchByDescription):
    patch = "answers"


BY_ANSWER = "hostile_pickle:PatchByAnswer"
BY_ERROR = "hostile_pickle:PatchByError"
BY_DESCRIPTION = "hostile_pickle:PatchByDescription"
FRACTION_BY_ANSWER = "hostile_pickle:FractionByAnswer"
ANSWERS_BY_DESCRIPTION = "hostile_pickle:AnswersByDescription"
ATTACKS = (BY_ANSWER, BY_ERROR, BY_DESCRIPTION, FRACTION_BY_ANSWER, ANSWERS_BY_DESCRIPTION)
