"""A count certificate checked, from the board's cells: its components are the board's (read here), its boxes
split each component into cells that every digit of it sees all or none of, each listed solution of a box system
(mines per box) keeps every digit, none is listed twice, and each component's refutation is of its rules alone,
with its boxes' cells in order and a clause blocking exactly the solutions listed.  Then no layout of the
component is missing: a layout whose box solution is not listed could be moved, box by box, onto the first cells
of each box, keeping every rule, the order and every blocking clause, and the refutation says no such layout
exists.  A component said to be too big to list is counted again here, by a search over its boxes, up to
``certificates.LISTED`` solutions: one that has no more is refused."""

from __future__ import annotations

from minecheck.certify import certificates
from minecheck.certify.certificates import Component, Count
from minecheck.certify.drup import check_refutation
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board


def around(board: Board, cell: int) -> list[int]:
    """The up to eight cells touching ``cell`` (computed here)."""
    row, col = divmod(cell, board.width)
    return [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
            if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]


def covered_around(board: Board) -> dict[int, list[int]]:
    """Each digit's covered neighbours (those with none left out)."""
    out = {}
    for d in (i for i, v in enumerate(board.cells) if v >= 0):
        covered = [n for n in around(board, d) if board.cells[n] == COVERED]
        if covered:
            out[d] = covered
    return out


def components_of(board: Board) -> list[frozenset[int]]:
    """The board's components, read here: the covered cells by a digit, linked where one digit touches both."""
    parent: dict[int, int] = {}

    def find(c: int) -> int:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for cells in covered_around(board).values():
        for c in cells:
            parent[find(c)] = find(cells[0])
    groups: dict[int, set[int]] = {}
    for c in parent:
        groups.setdefault(find(c), set()).add(c)
    return [frozenset(g) for g in groups.values()]


def owed(board: Board, digit: int) -> int:
    """The mines a digit needs among its covered neighbours: its number less the flags around it."""
    return board.cells[digit] - sum(board.cells[n] == FLAG for n in around(board, digit))


def check_count(board: Board, mode: Mode, count: Count) -> tuple[list[str], list[float]]:
    """Why the count certificate does not prove its components' layouts (empty: it does), and the CPU seconds of
    each refutation checked."""
    problems, seconds = [], []
    near = covered_around(board)
    wanted = set(components_of(board))
    given = [frozenset(c.cells) for c in count.components]
    if set(given) != wanted or len(given) != len(wanted):
        problems.append(f"its {len(given)} components are not the board's {len(wanted)}")
    for i, comp in enumerate(count.components):
        found, spent = _component_problems(board, mode, comp, near)
        problems += [f"component {i}: {p}" for p in found]
        seconds += spent
    return problems, seconds


def _component_problems(board: Board, mode: Mode, comp: Component, near: dict[int, list[int]]
                        ) -> tuple[list[str], list[float]]:
    cells = set(comp.cells)
    if len(cells) != sum(len(b) for b in comp.boxes) or not all(0 <= c < board.size for c in cells):
        return ["its boxes overlap, or name cells off the board"], []
    digits = {d: ns for d, ns in near.items() if set(ns) & cells}
    if any(not set(ns) <= cells for ns in digits.values()):
        return ["a digit around its cells sees cells outside it"], []
    boxes = [tuple(box) for box in comp.boxes]
    seen_by = [[d for d, ns in digits.items() if box[0] in ns] for box in boxes]
    for box, ds in zip(boxes, seen_by):
        if any(sorted(d for d in digits if c in digits[d]) != ds for c in box):
            row, col = board.row_col(box[0])
            return [f"the box of r{row}c{col} holds cells that not the same digits see"], []
    if not comp.listed:
        if comp.solutions:
            return ["solutions listed without the refutation that no other exists"], []
        most = certificates.LISTED
        n = solutions_up_to(board, boxes, seen_by, most + 1)
        return ([] if n > most else [f"left unlisted, yet its box system has {n} solutions (a certificate lists "
                                     f"up to {most:,})"]), []
    problems = []
    r = comp.refutation
    if r.some or tuple(map(tuple, r.boxes)) != tuple(boxes) or tuple(r.blocked) != tuple(comp.solutions):
        problems.append("its refutation does not block exactly its solutions, in its boxes")
    for key in r.rules:
        if key[0] == "total" or (key[0] == "digit" and key[1] not in digits):
            problems.append(f"its refutation leans on {key[0]} {key[1:]}, not a rule of it alone")
    if len(set(comp.solutions)) != len(comp.solutions):
        problems.append("a solution is listed twice")
    for s in comp.solutions:
        if len(s) != len(boxes) or any(not 0 <= k <= len(b) for b, k in zip(boxes, s)):
            problems.append(f"the solution {list(s)} does not fit its {len(boxes)} boxes")
            break
        bad = next((d for d in digits if sum(k for k, ds in zip(s, seen_by) if d in ds) != owed(board, d)), None)
        if bad is not None:
            row, col = board.row_col(bad)
            problems.append(f"the solution {list(s)} breaks the digit at r{row}c{col}")
            break
    found, spent = check_refutation(board, mode, r)
    return problems + found, [spent]


def solutions_up_to(board: Board, boxes: list[tuple[int, ...]], seen_by: list[list[int]], most: int) -> int:
    """The solutions of the box system, counted by a search over the boxes up to ``most`` (then ``most``)."""
    need = {d: owed(board, d) for ds in seen_by for d in ds}
    left = {d: 0 for d in need}
    for box, ds in zip(boxes, seen_by):
        for d in ds:
            left[d] += len(box)
    found = 0

    def visit(i: int) -> None:
        nonlocal found
        if found >= most:
            return
        if i == len(boxes):
            found += 1
            return
        size, ds = len(boxes[i]), seen_by[i]
        for k in range(size + 1):
            for d in ds:
                need[d] -= k
                left[d] -= size
            if all(0 <= need[d] <= left[d] for d in ds):
                visit(i + 1)
            for d in ds:
                need[d] += k
                left[d] += size

    if all(0 <= need[d] <= left[d] for d in need):
        visit(0)
    return min(found, most)
