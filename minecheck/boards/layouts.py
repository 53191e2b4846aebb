"""Mine layouts that generators build on: scattered positions, and the fewest or most mines the
digits of a position allow (its total at either end of its range)."""

from __future__ import annotations

import functools
import operator
import random
from dataclasses import replace

from minecheck.engine.constraints import Component, build_constraints
from minecheck.engine.sweep import sweep_order
from minecheck.model.position import Position, render


def scatter(rng: random.Random, width: int, height: int, density: float, open_prob: float,
            flag_prob: float) -> Position:
    """``density`` of the cells are mines (rounded), each safe cell opened and each mine flagged with the
    given chances."""
    cells = range(width * height)
    mines = frozenset(rng.sample(cells, int(density * len(cells) + 0.5)))
    opened = frozenset(c for c in cells if c not in mines and rng.random() < open_prob)
    flags = frozenset(c for c in sorted(mines) if rng.random() < flag_prob)
    return Position(width, height, mines, opened, flags)


def extreme_mines(pos: Position, fewest: bool) -> Position:
    """The same board with its hidden mines moved so that the stated total is the smallest (or largest)
    the digits allow: flags stay, each component takes a layout with the fewest (most) mines, and the
    covered cells off the frontier hold no mine (are all mines).  The digits see the same mines around them."""
    system = build_constraints(render(pos))
    mines = set(pos.flags)
    for component in system.components:
        mines |= extreme_layout(component, fewest)
    if not fewest:
        mines |= set(system.off_frontier)
    return replace(pos, mines=frozenset(mines), show_total=True)


def extreme_layout(component: Component, fewest: bool) -> frozenset[int]:
    """A layout of the component with the fewest (or most) mines its equations allow.

    A dynamic programme over the boxes in the counter's sweep order: its state is what each open
    equation still owes, and its value the set of mine counts the boxes left can hold (a bit mask).
    One backward pass gives the extreme count; a forward walk then picks, box by box, a number of
    mines that keeps it reachable.  As fast as counting, where a search over layouts can take
    exponential time.
    """
    order = [component.boxes[b] for b in sweep_order(component)]
    first, last = {}, {}
    for i, box in enumerate(order):
        for e in box.equations:
            first.setdefault(e, i)
            last[e] = i
    still_open = [tuple(e for e in first if first[e] < i <= last[e]) for i in range(len(order) + 1)]
    later = [{e: sum(len(b.cells) for b in order[i + 1:] if e in b.equations) for e in box.equations}
             for i, box in enumerate(order)]

    def moves(i: int, owes: tuple[int, ...]):
        """Each number of mines box i can take, with the state it leaves."""
        owed = dict(zip(still_open[i], owes)) | {e: component.equations[e].mines for e in order[i].equations
                                                  if first[e] == i}
        for j in range(len(order[i].cells) + 1):
            after = owed | {e: owed[e] - j for e in order[i].equations}
            if all(0 <= after[e] <= later[i][e] for e in order[i].equations):
                yield j, tuple(after[e] for e in still_open[i + 1])

    states: list[dict[tuple[int, ...], list]] = [{(): []}]  # per box: state -> its moves
    for i in range(len(order)):
        for owes, out in states[i].items():
            out.extend(moves(i, owes))
        states.append({nxt: [] for out in states[i].values() for _, nxt in out})
    reachable = [{owes: 1 for owes in states[-1]}]  # per box, backwards: state -> mine counts the rest can hold
    for i in range(len(order) - 1, -1, -1):
        after = reachable[0]
        reachable.insert(0, {owes: functools.reduce(operator.or_, (after[nxt] << j for j, nxt in out), 0)
                             for owes, out in states[i].items()})
    counts = reachable[0][()]
    left = (counts & -counts).bit_length() - 1 if fewest else counts.bit_length() - 1
    chosen, owes = [], ()
    for i, box in enumerate(order):
        j, owes = next((j, nxt) for j, nxt in states[i][owes] if left >= j and reachable[i + 1][nxt] >> (left - j) & 1)
        chosen += box.cells[:j]
        left -= j
    return frozenset(chosen)
