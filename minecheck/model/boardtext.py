"""Board text: JSMinesweeper-compatible reading and writing, with errors that name the place.

Format (see README):  a header ``WxHxM`` (or ``WxH`` when the total is unknown), then H rows
of W characters: ``0``-``8`` opened, ``F`` flag, ``H`` or ``.`` covered, ``m`` covered and a
mine in the hidden truth.  Lines starting with ``#`` are comments; blank lines are ignored.
Without a header the rows alone are read and the total is unknown.  A one-line form with
``/`` between rows (``HHH/121``) is accepted for typing on a command line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.errors import BoardFormatError

_HEADER = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*(?:x\s*(\d+))?\s*$", re.IGNORECASE)
_CELL = {str(d): d for d in range(9)} | {"H": COVERED, ".": COVERED, "m": COVERED, "F": FLAG}
_EXPECTED = "0-8, H, ., F or m"


def parse_board(text: str) -> Board:
    """Read board text; raise BoardFormatError naming the line and column of the first problem."""
    lines = _numbered_lines(text)
    if not lines:
        raise BoardFormatError("no board: the text is empty or only comments")
    header = _HEADER.match(lines[0][1])
    width = height = total = None
    if header:
        width, height = int(header.group(1)), int(header.group(2))
        total = int(header.group(3)) if header.group(3) is not None else None
        if width < 1 or height < 1:
            raise BoardFormatError(f"a board needs at least 1x1 cells, header says {width}x{height}", lines[0][0])
        rows = lines[1:]
    elif "x" in lines[0][1] and re.fullmatch(r"[\dx\s]+", lines[0][1]):
        raise BoardFormatError(f"header {lines[0][1].strip()!r} is not WxH or WxHxM", lines[0][0], 1)
    else:
        rows = lines
    if not rows:
        raise BoardFormatError("the header is not followed by any row", lines[0][0])
    if width is None:
        width, height = len(rows[0][1]), len(rows)
    if len(rows) != height:
        where = rows[height][0] if len(rows) > height else rows[-1][0]
        raise BoardFormatError(f"header says {height} rows, found {len(rows)}", where)

    cells: list[int] = []
    mines_marked: list[int] = []
    for r, (lineno, row) in enumerate(rows):
        if len(row) != width:
            col = min(len(row), width) + 1
            raise BoardFormatError(f"row has {len(row)} cells, expected {width}", lineno, col)
        bad = set(row) - _CELL.keys()
        if bad:
            col = min(row.index(ch) for ch in bad) + 1
            raise BoardFormatError(f"unknown character {row[col - 1]!r}, expected {_EXPECTED}", lineno, col)
        cells.extend(_CELL[ch] for ch in row)
        if "m" in row:
            mines_marked.extend(r * width + c for c, ch in enumerate(row) if ch == "m")

    flags = sum(1 for v in cells if v == FLAG)
    header_line = lines[0][0]
    if total is not None:
        if total < flags:
            raise BoardFormatError(f"total mines {total} is below the {flags} flags on the board", header_line)
        if total > width * height:
            raise BoardFormatError(f"total mines {total} is above the {width * height} cells", header_line)
    truth = None
    if mines_marked:
        truth = frozenset(mines_marked) | frozenset(i for i, v in enumerate(cells) if v == FLAG)
        if total is not None and len(truth) != total:
            raise BoardFormatError(
                f"total mines {total} but the hidden truth marks {len(truth)} (flags + m)", header_line)
    board = Board(width, height, tuple(cells), total, truth)
    if truth is not None:
        _check_truth(board, rows)
    return board


def format_board(board: Board) -> str:
    """Write board text that parse_board reads back to the same board."""
    return board.text()


MAX_BOARD_BYTES = 4 * 2**20  # far past any board (a 1000x1000 board is 1 MB): more is not a board


def read_board_arg(arg: str) -> Board:
    """A command-line board: a file path, ``-`` for stdin, or inline rows joined by ``/``; anything else
    (a folder, a binary or endless file, one that cannot be read) is a BoardFormatError naming it."""
    if arg == "-":
        return _parse_named("standard input", sys.stdin.buffer.read(MAX_BOARD_BYTES + 1))
    path = Path(arg)
    try:
        is_dir, exists = path.is_dir(), path.exists()
    except OSError:  # a name too long for a file (a big board's replay line): rows typed inline
        is_dir = exists = False
    if is_dir:
        raise BoardFormatError(f"{path}: a folder, not a board file")
    if exists:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BOARD_BYTES + 1)
        except OSError as err:
            raise BoardFormatError(f"{path}: cannot be read ({err.strerror or err})") from None
        return _parse_named(str(path), data)
    if ("/" in arg or not path.suffix) and not (path.suffix and _is_dir(path.parent)):  # rows typed inline: HHH/121
        try:
            return parse_board(arg.replace("/", "\n"))
        except BoardFormatError as err:
            raise BoardFormatError(f"inline board {arg!r} (not a file either): {err}") from None
    raise BoardFormatError(f"no such board file: {arg}")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _parse_named(name: str, data: bytes) -> Board:
    """Board text read from ``name``, refused with its name when it is too long or not UTF-8 text."""
    if len(data) > MAX_BOARD_BYTES:
        raise BoardFormatError(f"{name}: more than {MAX_BOARD_BYTES // 2**20} MiB, too long for a board")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BoardFormatError(f"{name}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})") from None
    try:
        return parse_board(text)
    except BoardFormatError as err:
        raise BoardFormatError(f"{name}: {err}") from None


def _numbered_lines(text: str) -> list[tuple[int, str]]:
    """(line number from 1, content) of every line that is neither blank nor a comment."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((number, line.strip()))
    return out


def _check_truth(board: Board, rows: list[tuple[int, str]]) -> None:
    """Every digit must count the truth's mines around it, or the marks are wrong."""
    truth = board.truth or frozenset()
    for cell in board.digits:
        around = sum(1 for n in board.neighbours(cell) if n in truth)
        if around != board.cells[cell]:
            r, c = board.row_col(cell)
            raise BoardFormatError(
                f"digit {board.cells[cell]} has {around} mines around it in the hidden truth (m and F)",
                rows[r][0], c + 1)
