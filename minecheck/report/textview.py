"""Solver answers for a person at a terminal: the board as a grid, and answers side by side."""

from __future__ import annotations

import re
from fractions import Fraction

from minecheck.model.answers import CellAnswer, SolverResult, Verdict
from minecheck.model.board import COVERED, FLAG, Board, label

_UNPRINTABLE = re.compile("[\ud800-\udfff\ufffe\uffff]")  # lone surrogates and the two non-characters
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f, *range(0x80, 0xa0)]}


def printable(text: str) -> str:
    """Text as it may be shown on a terminal, in HTML or in XML: control characters (but newline and tab),
    which a solver may print to move the cursor or break a file, shown escaped (``\\x1b``)."""
    text = text.translate(_CONTROLS)
    if _UNPRINTABLE.search(text) is None:  # the common case, at the regex engine's speed (every cell of a page)
        return text
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def rounded(seconds: float) -> str:
    """A time for people: two significant digits, never an exponent (12.3938 -> "12", 0.04721 -> "0.047")."""
    return f"{float(f'{seconds:.2g}'):g}"


def clipped(text: str, width: int) -> str:
    """``text`` cut to about ``width`` characters at a word's end, saying how much is left ("... 12 more"),
    never mid-word and never ending in a bare comma."""
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width)
    head = text[:cut if cut > width // 2 else width].rstrip(" ,;:")
    return f"{head} ... {len(text) - len(head)} more characters"


def grid(board: Board, result: SolverResult) -> str:
    """The board with each answered covered cell as S (safe), * (mine) or its mine percentage."""
    answers = {a.cell: a for a in result.cells}
    lines = ["     " + "".join(f"{c:>4}" for c in range(board.width))]
    for r in range(board.height):
        row = []
        for c in range(board.width):
            cell = board.cell(r, c)
            row.append(f"{_glyph(board.cells[cell], answers.get(cell)):>4}")
        lines.append(f"{r:>4} " + "".join(row))
    return "\n".join(lines)


def _glyph(value: int, answer: CellAnswer | None) -> str:
    if value == FLAG:
        return "F"
    if value != COVERED:
        return str(value)
    if answer is None:
        return "."
    if answer.verdict is Verdict.SAFE:
        return "S"
    if answer.verdict is Verdict.MINE:
        return "*"
    if answer.probability is not None:
        return f"{round(100 * float(answer.probability))}%"
    return "?"


def summary(board: Board, result: SolverResult) -> str:
    """Consistency, counts, time and error of one result, a line each."""
    out = [f"[{result.solver}] mode {result.mode.value}, {result.seconds * 1000:.1f} ms"]
    if result.error:
        out.append(f"  error: {result.error}")
    if result.consistent is False:
        out.append(f"  inconsistent: {result.reason}")
    if result.layouts is not None:
        out.append(f"  consistent layouts: {result.layouts}")
    if result.component_layouts:
        out.append(f"  components: {len(result.component_layouts)}, layouts each: "
                   + ", ".join(str(n) for n in result.component_layouts))
    verdicts = [a.verdict for a in result.cells]
    if verdicts:
        out.append(f"  safe {verdicts.count(Verdict.SAFE)}, mine {verdicts.count(Verdict.MINE)}, "
                   f"unknown {verdicts.count(Verdict.UNKNOWN)}")
    return "\n".join(out)


def side_by_side(board: Board, results: list[SolverResult], flagged: set[int] = frozenset()) -> str:
    """One row per covered cell, one column per solver: verdict and probability; '!' marks a disagreement."""
    cells = sorted({a.cell for r in results for a in r.cells})
    head = ["cell"] + [r.solver for r in results]
    rows = [head]
    for cell in cells:
        row = [("! " if cell in flagged else "  ") + label(board, cell)]
        for r in results:
            a = r.answer(cell)
            if a is None:
                row.append("")
                continue
            text = a.verdict.value if a.verdict else ""
            if a.probability is not None:
                p = a.probability
                text += f" {float(p):.3f}" + (f"±{a.stderr:.3f}" if a.stderr else "")
            row.append(text.strip())
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)


def as_json(board: Board, result: SolverResult) -> dict:
    """The JSON shape of one solver's answers (probabilities as exact fraction strings)."""
    cells = []
    for a in result.cells:
        row, col = board.row_col(a.cell)
        entry: dict = {"row": row, "col": col, "verdict": a.verdict.value if a.verdict else None,
                       "probability": None, "probability_float": None}
        if a.probability is not None:
            entry["probability"] = str(a.probability) if isinstance(a.probability, Fraction) else repr(a.probability)
            entry["probability_float"] = float(a.probability)
        if a.stderr is not None:
            entry["stderr"] = a.stderr
        cells.append(entry)
    out: dict = {"mode": result.mode.value, "consistent": result.consistent, "reason": result.reason,
                 "layouts": result.layouts, "component_layouts": list(result.component_layouts or []),
                 "cells": cells, "seconds": round(result.seconds, 6), "error": result.error}
    if result.lp_values is not None:
        out["lp_values"] = [{"row": board.row_col(c)[0], "col": board.row_col(c)[1], "value": v}
                            for c, v in result.lp_values]
    return out


def findings_text(board: Board, findings) -> str:
    """Each finding on a line or two: kind, who disagrees, where, and what each side says."""
    out = [f"{len(findings)} finding(s):"]
    for f in findings:
        where = ", ".join(label(board, c) for c in f.cells[:12]) + (" ..." if len(f.cells) > 12 else "")
        out.append(f"  [{f.kind.value}] {f.subject} vs {f.reference} ({f.mode.value})"
                   + (f" at {where}" if where else ""))
        out.append(f"      {f.subject} says: {f.subject_says}")
        out.append(f"      {f.reference} says: {f.reference_says}")
        if f.detail:  # on lines of its own: a program's standard error is its, not the reference's
            head, *rest = f.detail.splitlines() or [""]
            out.append(f"      {head}")
            out += [f"        | {line}" for line in rest]
    return "\n".join(out)
