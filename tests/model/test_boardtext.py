"""The board text format: JSMinesweeper-compatible, round-trips, and names the place of every error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import format_board, parse_board, read_board_arg
from minecheck.model.errors import BoardFormatError


def test_reads_header_rows_flags_and_total():
    b = parse_board("3x2x2\nF1H\n11H\n")
    assert (b.width, b.height, b.total_mines) == (3, 2, 2)
    assert b.cells == (FLAG, 1, COVERED, 1, 1, COVERED)


def test_header_without_total_means_unknown_total():
    assert parse_board("2x1\nH1").total_mines is None


def test_dot_is_covered_and_comments_and_blank_lines_are_ignored():
    b = parse_board("# a comment\n\n2x2\n# between rows\n.1\n\nH1\n")
    assert b.cells == (COVERED, 1, COVERED, 1)


def test_lowercase_m_is_a_covered_mine_of_the_hidden_truth():
    b = parse_board("3x1x1\nm1H")
    assert b.cells[0] == COVERED and b.truth == frozenset({0})


def test_rows_without_header_are_read_with_unknown_total():
    b = parse_board("HHH\n121")
    assert (b.width, b.height, b.total_mines) == (3, 2, None)


@st.composite
def boards(draw):
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    return generate_board(recipe("reveal", draw(st.integers(0, 10**6)), width=w, height=h,
                                 show_total=draw(st.booleans())))


@given(boards(), st.booleans())
def test_writing_then_reading_gives_the_same_board(board, keep_truth):
    if not keep_truth:
        board = Board(board.width, board.height, board.cells, board.total_mines, None)
    if board.truth is not None and not any(c in board.truth for c in board.covered):
        board = Board(board.width, board.height, board.cells, board.total_mines, None)
    assert parse_board(format_board(board)) == board


def test_large_boards_round_trip():
    for w, h in [(2, 1001), (1001, 2), (1000, 1000)]:
        text = f"{w}x{h}x0\n" + "\n".join("0" * w for _ in range(h)) + "\n"
        b = parse_board(text)
        assert (b.width, b.height, len(b.cells)) == (w, h, w * h)
        assert format_board(b) == text


@pytest.mark.parametrize("text, line, column, words", [
    ("3x2\nHHH\nHH", 3, 3, "row has 2 cells, expected 3"),
    ("3x2\nHHH\nHHHH", 3, 4, "row has 4 cells, expected 3"),
    ("3x1\nH?H", 2, 2, "unknown character '?'"),
    ("3x3\nHHH\nHHH", 3, None, "header says 3 rows, found 2"),
    ("3x1\nHHH\nHHH", 3, None, "header says 1 rows, found 2"),
    ("3x1x1\nFFH", 1, None, "total mines 1 is below the 2 flags"),
    ("3x1x4\nHHH", 1, None, "total mines 4 is above the 3 cells"),
    ("3y1\nHHH", 1, 2, "unknown character 'y'"),
    ("3x1x\nHHH", 1, 1, "is not WxH or WxHxM"),
    ("0x1\n", 1, None, "at least 1x1"),
    ("3x1", 1, None, "not followed by any row"),
    ("# only a comment\n", None, None, "no board"),
    ("3x1x2\nm1H", 1, None, "hidden truth marks 1"),
    ("3x1\nm2H", 2, 2, "digit 2 has 1 mines around it in the hidden truth"),
])
def test_bad_text_names_the_line_and_column(text, line, column, words):
    with pytest.raises(BoardFormatError) as err:
        parse_board(text)
    assert err.value.line == line
    assert err.value.column == column
    assert words in str(err.value)
    if line is not None:
        assert str(err.value).startswith(f"line {line}")


def test_inline_board_argument_and_file_argument(tmp_path):
    assert read_board_arg("HHH/121") == parse_board("HHH\n121")
    path = tmp_path / "b.mine"
    path.write_text("2x1x1\nH1\n")
    assert read_board_arg(str(path)).total_mines == 1
    path.write_text("2x1x1\nH?\n")
    with pytest.raises(BoardFormatError, match=r"b.mine: line 2, column 2"):
        read_board_arg(str(path))


def test_a_board_typed_inline_longer_than_a_file_name_may_be_reads_as_rows():
    rows = ["H" * 300 + "1", "H" * 299 + "11"]  # a big board's replay line: its text is no file name
    assert read_board_arg("/".join(rows)) == parse_board("\n".join(rows))
