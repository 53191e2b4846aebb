"""The one root of minecheck's errors, so that a caller tells "you asked wrongly" from "we broke".

    MinecheckError                      everything minecheck raises on purpose
    ├── BadInput (a ValueError)         the user's input: exit 2, one line naming the place
    │   ├── BoardFormatError            board text that does not parse (line, column, what was expected)
    │   ├── UnknownSolver               a solver name nothing defines
    │   │   └── Unavailable             a solver known by its name that cannot run here (with the fix)
    │   ├── BadOption                   an option's value, or options that do not go together
    │   ├── BadFile                     a file minecheck reads that is not what it should be
    │   └── FolderRefused               a run folder that cannot take this run (another run, another's files)
    ├── RunDisturbed                    the run's own files changed or could not be written under it: exit 4
    ├── EngineError                     the exact engine's own signals (an impossible board, past its reach)
    ├── ReferenceFailure                a reference that could not answer
    ├── ProtocolError                   a program's answer broke the protocol: a finding, never an exit
    ├── SolverUnavailable               raised by a solver's factory: becomes Unavailable on the command line
    └── SolverFault                     what the hand-written solvers under test raise (their articles' errors)

Anything else that escapes to the command line (a plain ValueError, a KeyError) is minecheck's own fault:
exit 3 with one line, never a traceback, and never blamed on the user.
"""

from __future__ import annotations


class MinecheckError(Exception):
    """The root: every error minecheck raises on purpose."""


class BadInput(MinecheckError, ValueError):
    """The user asked wrongly (a board, a name, an option, a file, a folder): the command exits 2."""


class BoardFormatError(BadInput):
    """Bad board text: says which line and column, and what was expected there."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line, self.column, self.reason = line, column, message
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)


class UnknownSolver(BadInput):
    """A solver name that nothing defines (built in, configured, installed, an import path, cmd:)."""


class Unavailable(UnknownSolver):
    """A solver known by its name that cannot run here: a library not installed, no such program, no
    such module.  The command line refuses it before any work with the reason and the fix."""

    def __init__(self, message: str, fix: str | None = None):
        super().__init__(message + (f"\n  to fix: {fix}" if fix else ""))
        self.message, self.fix = message, fix


class BadOption(BadInput):
    """An option's value that cannot be used, or options that do not go together."""


class BadFile(BadInput):
    """A file minecheck was asked to read that is not what it should be (not JSON, another schema...)."""


class FolderRefused(BadInput):
    """A run folder that cannot take this run: it holds another run, files minecheck did not write, a lock."""


class RunDisturbed(MinecheckError):
    """The run's own files were changed under it, or could not be written (a full disk): exit 4, naming
    the file; what was found before is kept on disk."""

    def __init__(self, path: object, what: str):
        super().__init__(f"{path}: {what}")
        self.path, self.what = path, what


class EngineError(MinecheckError):
    """A signal of the exact engine (an impossible board, an enumeration past its reach), caught inside."""


class ReferenceFailure(MinecheckError, RuntimeError):
    """A reference that could not answer a board (its library failed): a reference finding, not a crash."""


class ProtocolError(MinecheckError, ValueError):
    """An answer that breaks the protocol's schema; the message names the field (``cells[3].verdict``)."""


class SolverUnavailable(MinecheckError):
    """Raised when a solver is made and cannot run here (a library it needs is not installed): the
    command line refuses it before any work, with ``install``, the line that fixes it."""

    def __init__(self, reason: str, install: str | None = None):
        super().__init__(reason)
        self.reason, self.install = reason, install


class SolverFault(MinecheckError):
    """What a hand-written solver under test raises: the errors its article's Java would throw, and the
    fixed variants' own refusals.  Caught by the sandbox and reported as that solver's crash."""
