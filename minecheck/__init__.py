"""minecheck: tells the authors of Minesweeper solvers, with proof, whether their solvers are right.

The public surface is ``__all__``; each name is imported on first use, so that ``import minecheck``
(and the command line) starts fast.  The layers below, from the bottom up: ``model``, ``engine``,
``boards``, ``solvers`` and ``references``, ``running``, ``check``, ``report``, ``play`` and
``campaigns``; each imports only those below it.
"""

from __future__ import annotations

from importlib import import_module

_PUBLIC = {  # name -> the module that defines it
    "Board": "minecheck.model.board",
    "parse_board": "minecheck.model.boardtext",
    "format_board": "minecheck.model.boardtext",
    "Mode": "minecheck.model.answers",
    "Verdict": "minecheck.model.answers",
    "Answers": "minecheck.model.answers",
    "CellAnswer": "minecheck.model.answers",
    "SolverResult": "minecheck.model.answers",
    "Failure": "minecheck.model.answers",
    "Solver": "minecheck.model.solver",
    "Budget": "minecheck.model.budget",
    "Finding": "minecheck.check.findings",
    "Kind": "minecheck.check.findings",
    "check_board": "minecheck.check.crosscheck",
    "count_board": "minecheck.engine.counter",
    "shrink": "minecheck.check.shrink",
    "assert_agree": "minecheck.testing",
    "MinecheckError": "minecheck.model.errors",
    "BadInput": "minecheck.model.errors",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str):
    if name == "__version__":
        return _version()
    if name in _PUBLIC:
        value = getattr(import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'minecheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__


def _version() -> str:
    """The installed distribution's version (read on demand: importlib.metadata costs start-up time)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("minecheck")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"
