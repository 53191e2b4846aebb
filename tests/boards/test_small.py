"""The small-board sweep: every board of at most N cells once up to its symmetries, in a fixed order,
the consistent ones true to their truth and the impossible ones without a layout; checked against a naive
enumeration written here (its own neighbours, rendering, symmetries and brute-force consistency)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from itertools import product

import pytest

from minecheck.boards.small import (
    CONSISTENT,
    DIGIT_ABOVE_ALONE,
    DIGIT_BELOW_ALONE,
    FORBIDDEN_FLAG,
    KINDS,
    TOTAL_ABOVE,
    TOTAL_BELOW,
    canonical,
    layouts,
    shape_sweep,
    small,
    small_count,
    small_entry,
    small_label,
    small_recipe,
    small_sweep,
)
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.position import Position, render

TOTAL_KINDS = (TOTAL_BELOW, TOTAL_ABOVE)


# -- a naive sweep, written from the definition --------------------------------------------------

def around(width: int, height: int, cell: int) -> list[int]:
    row, col = divmod(cell, width)
    return [r * width + c for r in range(height) for c in range(width)
            if (r, c) != (row, col) and abs(r - row) <= 1 and abs(c - col) <= 1]


def grids(n: int):
    """Every width x height of at most n cells, both ways round."""
    return [(w, h) for w in range(1, n + 1) for h in range(1, n + 1) if w * h <= n]


def seen_boards(width: int, height: int) -> dict[tuple[int, ...], set[int]]:
    """Every position rendered by hand: cells -> the totals of the positions behind them."""
    size = width * height
    out: dict[tuple[int, ...], set[int]] = {}
    for states in product("sSmM", repeat=size):  # s covered safe, S opened, m covered mine, M flagged
        mines = {c for c, s in enumerate(states) if s in "mM"}
        cells = tuple(FLAG if s == "M" else COVERED if s in "sm" else sum(n in mines for n in around(width, height, c))
                      for c, s in enumerate(states))
        out.setdefault(cells, set()).add(len(mines))
    return out


def fitting_totals(width: int, height: int, cells: tuple[int, ...]) -> set[int]:
    """Brute force: the mine counts of every layout of the covered cells that meets every digit."""
    covered = [c for c, v in enumerate(cells) if v == COVERED]
    flags = {c for c, v in enumerate(cells) if v == FLAG}
    out = set()
    for bits in range(1 << len(covered)):
        mines = flags | {c for i, c in enumerate(covered) if bits >> i & 1}
        if all(sum(n in mines for n in around(width, height, c)) == v for c, v in enumerate(cells) if v >= 0):
            out.add(len(mines))
    return out


def images(width: int, height: int, cells: tuple[int, ...]) -> frozenset[tuple[int, int, tuple[int, ...]]]:
    """The board under its eight turns and mirrors, each as (width, height, cells)."""
    grid = [list(cells[r * width:(r + 1) * width]) for r in range(height)]
    out = set()
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]
        for g in (grid, [row[::-1] for row in grid]):
            out.add((len(g[0]), len(g), tuple(v for row in g for v in row)))
    return frozenset(out)


def orbit(width: int, height: int, cells: tuple[int, ...], total: int | None):
    return images(width, height, cells), total


def naive_sweep(n: int) -> tuple[set, set]:
    """(orbits of the consistent boards, orbits of the impossible ones) of at most n cells."""
    consistent, impossible = set(), set()
    for w, h in grids(n):
        fits = seen_boards(w, h)
        for cells, totals in fits.items():
            consistent |= {orbit(w, h, cells, t) for t in [None, *totals]}
            flags = cells.count(FLAG)
            if min(totals) - 1 >= flags:
                impossible.add(orbit(w, h, cells, min(totals) - 1))
            if max(totals) + 1 <= w * h:
                impossible.add(orbit(w, h, cells, max(totals) + 1))
            for c, v in enumerate(cells):
                for new in ([FLAG] if v == COVERED else [v - 1, v + 1] if v >= 0 else []):
                    changed = cells[:c] + (new,) + cells[c + 1:]
                    if (new == FLAG or 0 <= new <= 8) and changed not in fits:
                        impossible |= {orbit(w, h, changed, t) for t in [None, *totals]
                                       if t is None or t >= changed.count(FLAG)}
    return consistent, impossible


# -- the tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_the_sweep_holds_exactly_the_naive_boards_once_each(n):
    consistent, impossible = naive_sweep(n)
    sweep = small_sweep(n)
    got_consistent = [orbit(b.width, b.height, b.cells, b.total) for b in sweep if b.truth is not None]
    got_impossible = [orbit(b.width, b.height, b.cells, b.total) for b in sweep if b.truth is None]
    assert len(got_consistent) == len(set(got_consistent)) == len(consistent)
    assert len(got_impossible) == len(set(got_impossible)) == len(impossible)
    assert set(got_consistent) == consistent and set(got_impossible) == impossible


@pytest.mark.parametrize("width, height", [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2)])
def test_rendered_positions_are_exactly_the_boards_whose_digits_fit(width, height):
    by_hand = seen_boards(width, height)
    assert {cells: set(totals) for cells, totals in layouts(width, height).items()} == by_hand
    for cells in product([COVERED, FLAG, 0, 1, 2, 3], repeat=width * height):
        assert fitting_totals(width, height, cells) == by_hand.get(cells, set())


def test_the_counts_for_one_to_three_cells():
    assert [small_count(n) for n in (1, 2, 3)] == [10, 40, 179]
    one = {format_board(b.board) for b in small_sweep(1)}
    assert one == {"1x1\nH\n", "1x1x0\nH\n", "1x1x1\nm\n", "1x1\nF\n", "1x1x1\nF\n", "1x1\n0\n", "1x1x0\n0\n",
                   "1x1\n1\n", "1x1x0\n1\n", "1x1x1\n0\n"}


def test_no_two_boards_are_images_of_each_other_and_each_is_its_smallest_image():
    seen = set()
    for b in small_sweep(6):
        key = orbit(b.width, b.height, b.cells, b.total)
        assert b.width >= b.height and b.cells == min(c for w, h, c in key[0] if (w, h) == (b.width, b.height))
        assert key not in seen
        seen.add(key)


def test_consistent_boards_are_true_to_their_truth_and_the_counter():
    for b in small_sweep(5):
        if b.truth is None:
            continue
        pos = b.made()
        assert isinstance(pos, Position) and render(pos) == b.board
        assert b.total is None or b.total == len(b.truth)
        assert count_board(b.board, Mode.LOCAL).consistent
        if b.total is not None:
            assert count_board(b.board, Mode.GLOBAL).consistent


def test_impossible_boards_have_no_layout_in_the_modes_they_should_not():
    for b in small_sweep(5):
        if b.truth is not None:
            continue
        assert b.kind != CONSISTENT and isinstance(b.made(), type(b.board)) and b.board.truth is None
        local = count_board(b.board, Mode.LOCAL)
        assert local.consistent is (b.kind in TOTAL_KINDS), (format_board(b.board), b.label)
        if b.total is not None:
            glob = count_board(b.board, Mode.GLOBAL)
            assert not glob.consistent and glob.reason
        else:
            assert b.kind not in TOTAL_KINDS
        if not local.consistent:
            assert local.reason


def test_every_kind_of_contradiction_appears_by_four_cells():
    assert {b.kind for b in small_sweep(4)} == set(KINDS)


@pytest.mark.parametrize("text, kind", [
    ("1x1x0/1", DIGIT_ABOVE_ALONE),  # a 1 with no neighbour at all
    ("2x1x1/F0", DIGIT_BELOW_ALONE),  # a 0 beside a flag, nothing covered
    ("1x1x1/0", TOTAL_ABOVE),
    ("2x1x2/F1", TOTAL_ABOVE),
    ("2x1x0/H1", TOTAL_BELOW),
    ("3x1/0F0", FORBIDDEN_FLAG),  # a flag between two 0s
])
def test_the_boards_people_forget_are_in_the_sweep(text, kind):
    board = parse_board(text.replace("/", "\n"))
    want = (board.width, board.height, canonical(board.width, board.height, board.cells), board.total_mines)
    found = [b for b in small_sweep(4) if (b.width, b.height, b.cells, b.total) == want]
    assert len(found) == 1 and found[0].kind == kind


def test_labels_name_a_cell_of_their_kind():
    for b in small_sweep(5):
        if b.kind in (CONSISTENT, *TOTAL_KINDS):
            assert b.label.startswith(b.kind)
            continue
        row, col = (int(x) for x in b.label.rsplit(" at r", 1)[1].split("c"))
        cell = row * b.width + col
        value = b.cells[cell]
        assert value == FLAG if b.kind == FORBIDDEN_FLAG else value >= 0
        if b.kind in (DIGIT_ABOVE_ALONE, DIGIT_BELOW_ALONE):
            assert not any(b.cells[n] == COVERED for n in around(b.width, b.height, cell))


def test_every_board_survives_its_text():
    for b in small_sweep(5):
        back = parse_board(format_board(b.board))
        assert (back.width, back.height, back.cells, back.total_mines) == (b.width, b.height, b.cells, b.total)


def test_order_is_by_size_then_height_and_each_sweep_starts_with_the_smaller_one():
    sweep = small_sweep(6)
    keys = [(b.width * b.height, b.height) for b in sweep]
    assert keys == sorted(keys)
    for n in range(1, 6):
        assert sweep[:small_count(n)] == small_sweep(n)
    assert {(b.width, b.height) for b in sweep} == {(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (5, 1), (6, 1), (3, 2)}


def test_the_same_sweep_again_after_forgetting_it():
    before = small_sweep(5)
    for cached in (small_sweep, shape_sweep, layouts):
        cached.cache_clear()
    assert small_sweep(5) == before


def digest(n: int) -> str:
    text = "".join(f"{format_board(b.board)}{b.label}\n" for b in small_sweep(n))
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_same_sweep_in_another_process_with_another_hash_seed():
    code = ("import hashlib\nfrom minecheck.boards.small import small_sweep\n"
            "from minecheck.model.boardtext import format_board\n"
            "text = ''.join(f'{format_board(b.board)}{b.label}\\n' for b in small_sweep(5))\n"
            "print(hashlib.sha256(text.encode()).hexdigest(), end='')")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    assert other == digest(5)


def test_board_i_is_the_ith_of_the_sweep_and_beyond_the_end_is_an_error():
    sweep = small_sweep(4)
    for i in (0, 1, 17, len(sweep) - 1):
        assert small_entry(4, i).board == sweep[i].board and small_entry(4, i) == sweep[i]
        assert small_label(4, i) == sweep[i].label
        rec = small_recipe(4, i)
        made = small(rec, **dict(rec.params))
        assert (made if sweep[i].truth is None else render(made)) == sweep[i].board
    with pytest.raises(IndexError, match="small:4 sweep holds boards 0 to 913"):
        small_entry(4, len(sweep))
    with pytest.raises(IndexError):
        small_entry(4, -1)
    for n in (0, 9):
        with pytest.raises(ValueError, match="1 to 8 cells"):
            small_count(n)


def test_the_totals_a_board_allows_have_no_gap_so_one_past_each_end_is_every_impossible_total():
    for n in range(1, 7):
        for b in small_sweep(n):
            if b.truth is not None and b.total is None:
                totals = sorted(layouts(b.width, b.height)[b.cells])
                assert totals == list(range(totals[0], totals[-1] + 1))


def test_the_walk_visits_every_board_of_the_sweep_once_most_varied_first():
    from minecheck.boards.small import WALK_CELLS, small_walk, traits

    sweep = small_sweep(5)
    walk = small_walk(5)
    assert sorted(walk) == list(range(len(sweep)))
    pool = [b for b in sweep if b.width * b.height <= WALK_CELLS]
    pairs = {(a, b) for board in pool for k, a in enumerate(traits(board)) for b in traits(board)[k + 1:]}
    prefix = next(k for k in range(1, len(walk)) if walk[k:] == tuple(sorted(walk[k:])))
    seen = {(a, b) for i in walk[:prefix] for k, a in enumerate(traits(sweep[i])) for b in traits(sweep[i])[k + 1:]}
    assert seen == pairs and prefix < 80  # every pair of traits some board has, in a few dozen boards
    values = {v for board in pool for v in traits(board)}
    first_values = {v for i in walk[:12] for v in traits(sweep[i])}
    assert first_values == values  # every trait value within the first dozen
    assert small_walk(7)[:prefix] == walk[:prefix]  # the prefix is the same whatever the sweep's N (>= WALK_CELLS)
