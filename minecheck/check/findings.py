"""A finding: one disagreement between a solver and a reference, replayable on its own.

Plain data with a JSON form (one line per finding in a campaign's findings.jsonl).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path

from minecheck.boards.recipe import Recipe
from minecheck.model.answers import Mode
from minecheck.running.runfolder import FINDINGS

REGRESSIONS = Path("fixtures/regressions")  # where findings are saved to replay as regression tests
WHOLE_BOARD = "the whole board check failed"  # the detail of a crash on a board, not on one solver


class Kind(StrEnum):
    CRASH = "crash"  # the solver raised
    TIMEOUT = "timeout"  # the solver ran past its CPU-time budget, or sat idle
    PROTOCOL = "protocol"  # an external solver's answer broke the protocol's schema
    CONSISTENCY = "consistency"  # consistent for one side, inconsistent for the other
    VERDICT = "verdict"  # safe / mine / unknown differ on some cells
    COUNT = "count"  # layout counts differ
    PROBABILITY = "probability"  # probabilities differ (exactly, or beyond the statistical bound)
    LP = "lp"  # LP status or optimal value differ
    REFERENCE = "reference"  # two references disagree: minecheck itself is wrong somewhere
    DECISION = "decision"  # a move in a game that the exact counter shows to be bad (minecheck.play.decisions)


@dataclass(frozen=True)
class Difference:
    """What compare() finds between two results, before the board is attached."""

    kind: Kind
    cells: tuple[int, ...]
    subject_says: str
    reference_says: str
    detail: str = ""


@dataclass(frozen=True)
class Finding:
    """A difference on a board, with what is needed to replay it alone."""

    kind: Kind
    subject: str
    reference: str
    mode: Mode
    cells: tuple[int, ...]
    subject_says: str
    reference_says: str
    board: str  # board text (format_board)
    detail: str = ""
    recipe: Recipe | None = None
    index: int | None = None  # the board's index in its campaign
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def signature(self) -> tuple[str, str, str, str]:
        return (self.kind.value, self.subject, self.reference, self.mode.value)

    def to_json(self) -> str:
        # fields as they are (plain data), not dataclasses.asdict: its deep copy of ``extra`` (a certificate,
        # a core) cost the campaign's main process more than rendering the pages did; the JSON is the same
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["kind"], data["mode"] = self.kind.value, self.mode.value
        if self.recipe is not None:
            data["recipe"] = {"generator": self.recipe.generator, "params": dict(self.recipe.params),
                              "seed": self.recipe.seed}
        try:
            return json.dumps(data, sort_keys=True, allow_nan=False)
        except ValueError:  # a float that is not finite (a z-score of inf, a NaN a solver said): JSON has none
            return json.dumps(_finite(data), sort_keys=True, allow_nan=False)

    @staticmethod
    def from_json(line: str) -> Finding:
        data = json.loads(line)
        rec = data.pop("recipe")
        recipe = None if rec is None else Recipe(rec["generator"], tuple(sorted(rec["params"].items())), rec["seed"])
        return Finding(kind=Kind(data.pop("kind")), mode=Mode(data.pop("mode")), cells=tuple(data.pop("cells")),
                       recipe=recipe, **data)


def _finite(value: object) -> object:
    """``value`` with every non-finite float written as text ("inf", "nan"), so that the line stays JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def read_findings(out: Path) -> list[Finding]:
    """The findings of a run folder (fuzz or play), in file order; a line torn by a kill is skipped."""
    path = out / FINDINGS
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        try:
            found.append(Finding.from_json(line))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue  # a line torn by a kill: everything before it is kept
    return found


MAX_SUBJECT = 80  # characters of a solver's name in a file name: file systems allow 255 bytes in all


def file_name(finding: Finding) -> str:
    """``<kind>-<subject>-<mode>-<hash>.json``; characters unsafe in file names become '_'."""
    what = "|".join((finding.kind.value, finding.subject, finding.reference, finding.mode.value, finding.board))
    digest = hashlib.sha256(what.encode()).hexdigest()[:8]
    subject = re.sub(r"[^A-Za-z0-9@._-]", "_", finding.subject)[:MAX_SUBJECT]  # the digest keeps names apart
    return f"{finding.kind.value}-{subject}-{finding.mode.value}-{digest}.json"
