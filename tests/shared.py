"""What the tests share: where the repository's folders are, and a board typed on one line."""

from __future__ import annotations

import json
from pathlib import Path

from minecheck.model.boardtext import parse_board

ROOT = Path(__file__).resolve().parent.parent  # the repository
FIXTURES = ROOT / "fixtures"  # boards, baselines, regressions, measured tables
PROGRAMS = ROOT / "tests" / "programs"  # solvers and programs the tests run (hostile ones among them), the Java


def board(text: str):
    """A board from text; '/' separates rows so tests can write boards on one line."""
    return parse_board(text.replace("/", "\n"))


def writing(name: str, command: str, folder: Path) -> str:
    """A program named ``name`` that may write in ``folder`` (its pids or starts file) from its sandbox, where
    everything else is read-only: the ``writable`` of a solver table, typed inline (docs/sandbox.md)."""
    return f"{name}={{command = {json.dumps(command)}, writable = [{json.dumps(str(folder))}]}}"
