"""Python solvers that try the jail's ways out besides its walls (issue 48): RAM through its private /tmp, the
user's log through minecheck's standard error, and the secrets of minecheck's environment and root's files.

Named by import path (``hostile_jail:FillTmp``), served from the jail like any solver not minecheck's own.  Each
answers like ``exact`` where its attack gets nowhere, so that the only findings are what the attack costs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

from hostile_python import _LikeExact

from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parent / "hostile"))
import snoop  # noqa: E402

LOG_LINE = b"0 boards, 0 findings\n"  # what a solver holding the user's log would make it say


class FillTmp(_LikeExact):
    """Writes up to 4 GiB into its /tmp a MiB at a time, keeps it, and computes until it is stopped."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        block = b"x" * 2**20
        try:
            with open(f"/tmp/fill-{os.getpid()}", "wb") as f:
                for _ in range(4096):
                    f.write(block)
                    f.flush()
        except OSError:
            pass
        while True:
            sum(range(1000))


class Flood(_LikeExact):
    """Writes 200 MiB to its standard error, then answers like exact."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        block = (b"x" * 1023 + b"\n") * 1024
        for _ in range(200):
            view = memoryview(block)
            while view:
                view = view[os.write(2, view):]
        return self.exact(board, mode)


class TruncateLog(_LikeExact):
    """Empties whatever its standard error is (the user's log, were it minecheck's) and writes a run's end there."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        for fd in (1, 2):
            try:
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
            except OSError:
                pass
        os.write(2, LOG_LINE)
        return self.exact(board, mode)


class Snoop(_LikeExact):
    """Raises with every variable of its environment and the files /var/tmp/minecheck-secret-* in its message (a
    crash's message is published: findings, pages, junit.xml)."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        raise RuntimeError("found: " + "; ".join(snoop.found()))


class Verbose(_LikeExact):
    """Answers like exact, with a reason of 3 MiB."""

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return replace(self.exact(board, mode), reason="x" * 3 * 2**20)


FILL_TMP = "hostile_jail:FillTmp"
FLOOD = "hostile_jail:Flood"
TRUNCATE_LOG = "hostile_jail:TruncateLog"
SNOOP = "hostile_jail:Snoop"
VERBOSE = "hostile_jail:Verbose"
