"""What a board says, read straight off its cells: the rules a layout must keep, and a layout checked
against them.

This reading is the certificates' own.  It shares no code with ``minecheck.engine.constraints`` (the
equations every reference reads) nor with ``Board.neighbours``: a fault there is not a fault here.
A *layout* is the set of mines among the board's unknown cells (covered cells and flags), and the
rules, each named by a key, are

* ``("digit", d)``: exactly as many mines around the opened cell d as it shows (flags count);
* ``("flag", f)``: the flagged cell f is a mine;
* ``("total",)``: exactly the board's total of mines among the unknown cells (the global mode only).

Flags are rules rather than constants so that a set of rules that cannot all hold (a core) can name
a flag as one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board

Key = tuple  # ("digit", cell), ("flag", cell) or ("total",)
TOTAL: Key = ("total",)


@dataclass(frozen=True)
class Rule:
    """Exactly ``mines`` of ``cells`` are mines; ``key`` names where the rule comes from."""

    key: Key
    cells: tuple[int, ...]
    mines: int

    def holds(self, layout: frozenset[int]) -> bool:
        return sum(1 for c in self.cells if c in layout) == self.mines


def around(width: int, height: int, cell: int) -> tuple[int, ...]:
    """The up to eight cells touching ``cell``, in row-major order (computed here, not read from the model)."""
    row, col = divmod(cell, width)
    return tuple(r * width + c for r in range(max(row - 1, 0), min(row + 2, height))
                 for c in range(max(col - 1, 0), min(col + 2, width)) if (r, c) != (row, col))


@dataclass(frozen=True)
class Reading:
    """A board's rules in one mode, with the unknown cells and the groups of linked digits."""

    board: Board
    mode: Mode

    @cached_property
    def unknown(self) -> tuple[int, ...]:
        """The cells that may hold a mine: covered cells and flags, in row-major order."""
        return tuple(i for i, v in enumerate(self.board.cells) if v in (COVERED, FLAG))

    @cached_property
    def rules(self) -> dict[Key, Rule]:
        """Every rule of the board in this mode, by key: flags, then digits, then the total, each in cell order."""
        b = self.board
        out: dict[Key, Rule] = {}
        for f in (i for i, v in enumerate(b.cells) if v == FLAG):
            out["flag", f] = Rule(("flag", f), (f,), 1)
        for d in (i for i, v in enumerate(b.cells) if v >= 0):
            cells = tuple(n for n in around(b.width, b.height, d) if b.cells[n] in (COVERED, FLAG))
            out["digit", d] = Rule(("digit", d), cells, b.cells[d])
        if self.mode is Mode.GLOBAL:
            if b.total_mines is None:
                raise ValueError("the global mode needs the total mine count (a header WxHxM)")
            out[TOTAL] = Rule(TOTAL, self.unknown, b.total_mines)
        return out

    def rule(self, key: Key) -> Rule:
        """The rule named ``key``; ValueError naming it when the board has no such rule in this mode."""
        key = tuple(key)
        if key not in self.rules:
            raise ValueError(f"the board has no rule {describe(self.board, key)} in the {self.mode.value} mode")
        return self.rules[key]

    def broken(self, layout: frozenset[int], keys=None) -> list[Key]:
        """The rules (all, or those named) that ``layout`` breaks; a mine on an opened cell breaks ("cell", c)."""
        bad: list[Key] = [("cell", c) for c in sorted(layout) if self.board.cells[c] not in (COVERED, FLAG)]
        return bad + [r.key for r in (self.rules.values() if keys is None else map(self.rule, keys))
                      if not r.holds(layout)]

    @cached_property
    def groups(self) -> tuple[tuple[Key, ...], ...]:
        """The digits next to covered cells, grouped where they share one (a flag links nothing: it is fixed),
        each group with the flags its digits touch.  In the local mode the groups are independent."""
        covered_of = {k: [c for c in r.cells if self.board.cells[c] == COVERED]
                      for k, r in self.rules.items() if k[0] == "digit"}
        parent = {k: k for k, cs in covered_of.items() if cs}
        owner: dict[int, Key] = {}

        def find(k: Key) -> Key:
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        for k in parent:
            for c in covered_of[k]:
                if c in owner:
                    parent[find(k)] = find(owner[c])
                else:
                    owner[c] = k
        members: dict[Key, list[Key]] = {}
        for k in parent:
            members.setdefault(find(k), []).append(k)
        out = []
        for digits in members.values():
            flags = sorted({("flag", c) for k in digits for c in self.rules[k].cells if self.board.cells[c] == FLAG})
            out.append(tuple(flags) + tuple(sorted(digits)))
        return tuple(sorted(out, key=lambda g: min(c for k in g if k[0] == "digit" for c in covered_of[k])))

    def group_of(self, cell: int) -> tuple[Key, ...] | None:
        """The group whose digits touch the covered ``cell``; None for a cell no digit touches."""
        return self._group_by_cell.get(cell)

    @cached_property
    def _group_by_cell(self) -> dict[int, tuple[Key, ...]]:
        return {c: g for g in self.groups for k in g if k[0] == "digit" for c in self.rules[k].cells}

    @cached_property
    def off_frontier(self) -> tuple[int, ...]:
        """The covered cells no digit touches: interchangeable, as far as every rule can tell."""
        touched = {c for k, r in self.rules.items() if k[0] == "digit" for c in r.cells}
        return tuple(c for c in self.unknown if self.board.cells[c] == COVERED and c not in touched)

    @cached_property
    def off_set(self) -> frozenset[int]:
        return frozenset(self.off_frontier)


def describe(board: Board, key: Key) -> str:
    """A rule as people read it: ``the digit 2 at r1c3``, ``the flag at r0c0``, ``the total of 10 mines``."""
    if key[0] == "total":
        return f"the total of {board.total_mines} mines"
    row, col = divmod(key[1], board.width)
    if key[0] == "digit":
        return f"the digit {board.cells[key[1]]} at r{row}c{col}"
    return f"the {key[0]} at r{row}c{col}"
