"""The constraint system: frontier, equations, contradictions that name the cell, components, boxes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.engine.constraints import Contradiction, build_constraints


def test_equation_per_digit_subtracts_flags_and_lists_covered_neighbours():
    b = board("F2H/HHH")
    system = build_constraints(b)
    by_source = {eq.source: eq for eq in system.equations}
    assert by_source[1].cells == (2, 3, 4, 5) and by_source[1].mines == 1


def test_frontier_off_frontier_and_remaining_mines():
    b = board("4x2x3/1HHH/HHHH")
    system = build_constraints(b)
    assert system.frontier == (1, 4, 5)
    assert system.off_frontier == (2, 3, 6, 7)
    assert system.mines_remaining == 3


def test_digit_with_too_many_flags_is_a_contradiction_naming_the_cell():
    with pytest.raises(Contradiction, match=r"digit 1 at r0c1: 2 flagged neighbours, more than 1") as err:
        build_constraints(board("F1F/HHH"))
    assert (err.value.row, err.value.col) == (0, 1)


def test_digit_needing_more_mines_than_covered_neighbours_is_a_contradiction():
    with pytest.raises(Contradiction, match=r"digit 3 at r0c0: needs 3 more mines but has only 1 covered"):
        build_constraints(board("3H/11"))


def test_satisfied_digit_gives_no_equation():
    assert build_constraints(board("F1/11")).equations == ()


def test_one_h_hh_is_one_component():
    # the article's union-find splits this board; a correct one must not
    system = build_constraints(board("1H/HH"))
    assert len(system.components) == 1 and system.components[0].cells == (1, 2, 3)


def test_boxes_group_cells_with_the_same_equations():
    comp = build_constraints(board("HHHH/1001/HHHH")).components
    sizes = sorted(len(b.cells) for c in comp for b in c.boxes)
    assert sizes == [2, 2, 2, 2]


def _components_by_search(system):
    """Reference: connected components of the cell graph by depth-first search."""
    adjacent = {c: set() for c in system.frontier}
    for eq in system.equations:
        for c in eq.cells:
            adjacent[c].update(eq.cells)
    seen, groups = set(), []
    for start in system.frontier:
        if start in seen:
            continue
        stack, group = [start], set()
        while stack:
            cur = stack.pop()
            if cur not in group:
                group.add(cur)
                stack.extend(adjacent[cur] - group)
        seen |= group
        groups.append(tuple(sorted(group)))
    return sorted(groups)


@given(st.integers(0, 10**6), st.integers(2, 12), st.integers(2, 9), st.floats(0.1, 0.7))
def test_components_equal_graph_search_and_boxes_partition_them(seed, w, h, open_prob):
    b = generate_board(recipe("reveal", seed, width=w, height=h, open_prob=open_prob))
    system = build_constraints(b)
    assert sorted(c.cells for c in system.components) == _components_by_search(system)
    for comp in system.components:
        cells = sorted(c for box in comp.boxes for c in box.cells)
        assert tuple(cells) == comp.cells
        for box in comp.boxes:
            for c in box.cells:
                assert tuple(i for i, eq in enumerate(comp.equations) if c in eq.cells) == box.equations
