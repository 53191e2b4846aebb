"""The ilp@seed port against the article's own Java (tests/programs/java/ilp/src, unchanged but for a driver).

The driver prints doubles as exact hex, so the port must reproduce the Java bit for bit: the
same simplex pivots, the same HashMap iteration order, the same exceptions and messages.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from javabuild import compile_java
from shared import PROGRAMS, board
from test_simplex import BEALE, SEED_CYCLES

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.solvers.ilp_seed import ArrayIndexOutOfBoundsException, seed_analyze, seed_components
from minecheck.solvers.simplex import INFEASIBLE, LP, IllegalStateException, solve_seed

pytestmark = pytest.mark.java

SOURCES = PROGRAMS / "java" / "ilp" / "src"
MAIN = "com.algodaily.minesweeper.CheckMain"


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory) -> Path:
    return compile_java(SOURCES, tmp_path_factory.mktemp("ilp_java"), "ilp@seed")


def run_java(classes: Path, blocks: list[str]) -> list[list[str]]:
    done = subprocess.run(["java", "-cp", str(classes), MAIN], input="\n\n".join(blocks) + "\n",
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [[line for line in out.splitlines() if line] for out in done.stdout.split("END\n")[:len(blocks)]]


# -- boards --------------------------------------------------------------------------------------

def board_text(b: Board) -> str:
    symbol = {COVERED: "H", FLAG: "F"}
    return "\n".join("".join(symbol.get(v, str(v)) for v in b.cells[r * b.width:(r + 1) * b.width])
                     for r in range(b.height))


def port_lines(b: Board) -> list[str]:
    """What CheckMain prints for a board, from the Python port."""
    try:
        comps = seed_components(b)
        lines, cells = [], []
        for comp in comps:
            found = seed_analyze(comp)
            lines.append(f"COMP {len(comp.cells)} {len(comp.rows)}")
            lines += [f"LP {r} {c} {v!r}" for (r, c), v in zip(comp.cells, found.lp)]
            cells += zip(comp.cells, found.verdicts, found.risks)
        lines += [f"CELL {r} {c} {v} {risk!r}" for (r, c), v, risk in sorted(cells)
                  if b.cells[b.cell(r, c)] == COVERED]
        return lines
    except (ArrayIndexOutOfBoundsException, IllegalStateException) as err:
        return [f"ERROR {type(err).__name__}: {err}"]


def java_values(lines: list[str]) -> list[str]:
    """Hex doubles as Python reprs (and -0.0 as 0.0), to compare with port_lines."""
    out = []
    for line in lines:
        parts = line.split()
        if parts[0] in ("LP", "CELL"):
            parts[-1] = repr(float.fromhex(parts[-1]) + 0.0)
        out.append(" ".join(parts))
    return out


def random_board(rng: random.Random) -> Board:
    """Mostly one- and two-row boards, where the seed's union-find often survives, with some flags."""
    height = rng.choice([1, 1, 2, 2, 3, 5])
    width = rng.randint(3, 70 if height < 3 else 20)
    mines = {c for c in range(width * height) if rng.random() < 0.25}
    cells = []
    for c in range(width * height):
        if c in mines:
            cells.append(FLAG if rng.random() < 0.2 else COVERED)
        elif rng.random() < 0.5:
            r, col = divmod(c, width)
            cells.append(sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if (dr or dc) and 0 <= r + dr < height and 0 <= col + dc < width
                             and (r + dr) * width + col + dc in mines))
        else:
            cells.append(COVERED)
    return Board(width, height, tuple(cells))


FIXTURES = ["0H", "1H/HH", "2H", "1F/FF", "H1H", "HHH/121", "HHHHH/12100/HHHHH", "0" * 1000 + "H1H",
            "H" * 1002 + "/" + "0" * 999 + "H1H"]


def test_seed_port_answers_what_the_java_answers_on_boards(java_classes):
    rng = random.Random(2026)
    boards = [board(text) for text in FIXTURES]
    boards += [random_board(rng) for _ in range(160)]
    boards += [generate_board(recipe("reveal", s, width=3 + s % 5, height=3 + s % 3)) for s in range(40)]
    boards += [generate_board(recipe("play", s, level="beginner")) for s in range(3)]
    java = run_java(java_classes, [board_text(b) for b in boards])
    mismatches = [(board_text(b), j, p) for b, j, p in zip(boards, map(java_values, java), map(port_lines, boards))
                  if j != p]
    assert not mismatches, mismatches[:3]
    ran = sum(1 for lines in java if lines and not lines[0].startswith("ERROR"))
    assert ran >= 50, f"only {ran} boards got past the Java constructor: the comparison is too thin"


def test_seed_port_answers_what_the_java_answers_on_positions_of_every_size(java_classes):
    """Intermediate and Expert play positions and stress boards: most throw (the union-find defect), alike."""
    boards = [generate_board(recipe("play", s, level=level)) for level in ("intermediate", "expert") for s in range(12)]
    boards += [generate_board(recipe("stress", s)) for s in range(3)]
    java = run_java(java_classes, [board_text(b) for b in boards])
    mismatches = [(board_text(b), j, p) for b, j, p in zip(boards, map(java_values, java), map(port_lines, boards))
                  if j != p]
    assert not mismatches, mismatches[:3]
    assert any(lines and not lines[0].startswith("ERROR") for lines in java[:24])  # some position is answered


# -- linear programmes ---------------------------------------------------------------------------

def lp_text(lp: LP) -> str:
    numbers = [" ".join(float(v).hex() for v in row) or "0" for row in (*lp.a, lp.b, lp.c)]
    return "\n".join([f"LP {len(lp.b)} {len(lp.c)}", *numbers])


def port_lp_line(lp: LP) -> str:
    try:
        result = solve_seed(lp)
    except IllegalStateException as err:
        return f"ERROR IllegalStateException: {err}"
    if result.status == INFEASIBLE:
        return "INFEASIBLE"
    return " ".join(["OPTIMAL", repr(result.objective + 0.0), *(repr(v + 0.0) for v in result.x)])


def java_lp_line(lines: list[str]) -> str:
    parts = lines[0].split()
    if parts[0] != "OPTIMAL":
        return lines[0]
    return " ".join(["OPTIMAL", *(repr(float.fromhex(v) + 0.0) for v in parts[1:])])


def test_seed_simplex_answers_what_the_java_answers(java_classes):
    rng = random.Random(7)
    values = [-2.0, -1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 0.5, 3.0]
    lps = [BEALE, SEED_CYCLES, LP(((1.0,),), (1.0,), (1.0,)), LP(((-1.0,),), (-1.0,), (1.0,)),
           LP(((1.0, -1.0),), (0.0,), (-1.0, 0.0)), LP(((1.0, 1.0), (1.0, 1.0)), (1.0, 1.0), (0.0, -1.0))]
    for _ in range(400):
        m, n = rng.randint(1, 4), rng.randint(1, 6)
        lps.append(LP(tuple(tuple(rng.choice(values) for _ in range(n)) for _ in range(m)),
                      tuple(rng.choice([0.0, 0.0, 0.0, 1.0, 2.0, -1.0]) for _ in range(m)),
                      tuple(rng.choice([-3.0, -1.0, 0.0, 1.0, 2.0, -0.5]) for _ in range(n))))
    java = run_java(java_classes, [lp_text(lp) for lp in lps])
    mismatches = [(lp, j, p) for lp, j, p in zip(lps, map(java_lp_line, java), map(port_lp_line, lps)) if j != p]
    assert not mismatches, mismatches[:3]
