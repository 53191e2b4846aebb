"""assert_agree: silent when a solver agrees; on a disagreement, a failure that shows the shrunk board,
replays with one command, and has a page."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings

from minecheck import strategies
from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.check.shrink import shrink
from minecheck.cli import main
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.boardtext import format_board, parse_board
from minecheck.running.discovery import FunctionSolver
from minecheck.solvers.exact import ExactSolver
from minecheck.testing import assert_agree, import_path

STUCK = generate_board(recipe("play", 3, level="beginner"))  # 81 cells, stuck: many undetermined cells


def answer(board_text: str, mode: str, safe_below: float = 0.0) -> dict:
    """The protocol's answer from the exact counter; cells below ``safe_below`` are called safe (a defect)."""
    board = parse_board(board_text)
    count = count_board(board, Mode(mode))
    if not count.consistent:
        return {"schema": 1, "consistent": False, "reason": count.reason, "cells": []}
    cells = []
    for cell, p in count.probabilities:
        if p is not None:
            verdict = "safe" if p < safe_below or p == 0 else "mine" if p == 1 else "unknown"
            row, col = board.row_col(cell)
            cells.append({"row": row, "col": col, "verdict": verdict, "probability": str(p)})
    return {"schema": 1, "consistent": True, "layouts": count.layouts, "cells": cells}


def right(board_text: str, mode: str) -> dict:
    return answer(board_text, mode)


def calls_unlikely_cells_safe(board_text: str, mode: str) -> dict:
    answered = answer(board_text, mode, safe_below=0.3)
    for cell in answered["cells"]:
        cell.pop("probability")  # it answers verdicts only, so verdicts are what is compared
    return answered


def failure(solver, board, **options) -> str:
    with pytest.raises(AssertionError) as raised:
        assert_agree(solver, board, **options)
    return str(raised.value)


def test_a_function_that_agrees_passes_in_every_mode():
    assert_agree(right, STUCK)
    assert_agree(right, "3x2x1/HHH/H1H", mode="global")


def test_solver_objects_and_names_are_accepted():
    assert_agree(ExactSolver(), STUCK)
    assert_agree("dpll@fixed", "HHH/121")


def test_a_disagreement_shows_what_each_side_says_and_the_shrunk_board(tmp_path):
    message = failure(calls_unlikely_cells_safe, STUCK, mode="local", pages=tmp_path)
    assert "test_testing:calls_unlikely_cells_safe disagrees with exact (verdict, local mode)" in message
    assert "says: safe" in message and "exact says: unknown" in message
    board_text = message.split("that still shows it")[1].split("replay:")[0]
    shrunk = parse_board("\n".join(line.strip() for line in board_text.splitlines()[1:]))
    assert shrunk.size < STUCK.size // 4


def test_the_replay_command_replays_the_shrunk_board(tmp_path, capsys):
    message = failure(calls_unlikely_cells_safe, STUCK, mode="local", pages=tmp_path)
    command = message.split("replay: ")[1].splitlines()[0]
    assert command.startswith("PYTHONPATH=tests minecheck check "), "the test module is imported from tests/"
    argv = shlex.split(command)[2:]  # this process already imports from tests/
    assert "--solvers" in argv and argv[argv.index("--solvers") + 1] == "test_testing:calls_unlikely_cells_safe"
    capsys.readouterr()
    assert main(argv) == 1
    assert "[verdict] test_testing:calls_unlikely_cells_safe vs exact" in capsys.readouterr().out


def test_the_page_is_written_where_asked_and_draws_both_boards(tmp_path):
    message = failure(calls_unlikely_cells_safe, STUCK, mode="local", pages=tmp_path / "pages")
    path = message.split("page:   ")[1].splitlines()[0]
    assert path.startswith(str(tmp_path / "pages")) and path.endswith(".html")
    html = open(path, encoding="utf-8").read()
    assert "Smallest board that still shows it" in html and "Original board" in html


def test_a_solver_without_an_import_path_is_named_in_a_note(tmp_path):
    message = failure(lambda text, mode: calls_unlikely_cells_safe(text, mode), "3x2x1/HHH/H1H", mode="local",
                      pages=tmp_path)
    assert "has no import path that `minecheck check` can use" in message


def test_import_paths_are_found_only_where_they_work():
    def local(text, mode):
        return right(text, mode)

    assert import_path(right) == "test_testing:right"
    assert import_path(FunctionSolver("x", right)) == "test_testing:right"
    assert import_path(local) is None and import_path(lambda t, m: {}) is None
    assert import_path(ExactSolver()) == "minecheck.solvers.exact:ExactSolver"


def test_shrink_reruns_a_solver_object_that_no_name_makes():
    solver = FunctionSolver("unnamed", calls_unlikely_cells_safe)
    (check,) = check_board(STUCK, [solver], [Mode.LOCAL], ["exact"])
    (finding,) = check.findings
    shrunk = shrink(finding, None, solver=solver)
    assert shrunk.finding.subject == "unnamed" and shrunk.board.size < STUCK.size // 4
    assert format_board(shrunk.board) == shrunk.finding.board


def test_under_hypothesis_only_the_example_it_settles_on_is_shrunk_and_drawn(tmp_path):
    @settings(max_examples=300, database=None)
    @given(strategies.boards(width=(1, 3), height=(1, 3), flags=0.0, total=False))
    def agrees(board):
        assert_agree(calls_unlikely_cells_safe, board, pages=tmp_path)

    with pytest.raises(AssertionError) as raised:
        agrees()
    assert "replay: PYTHONPATH=tests minecheck check" in str(raised.value) and "page:" in str(raised.value)
    assert len(list(tmp_path.iterdir())) == 1, "one page: the final run's, not one per example tried"
