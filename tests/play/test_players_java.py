"""The articles' players against the articles' own Java: the same boards, the same moves.

Drivers of our own (tests/programs/java/mineai, tests/programs/java/satdemo) play whole games with the articles'
classes, compiled beside them, and print every move: 003's ``Main`` loop with ``MineBoard`` and
``MineAi``, and 004's ``MinesweeperDemo.main`` loop with its ``Board`` and ``MinesweeperSolver``
(given the mines and a seeded guess stream, which the demo leaves unseeded).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from javabuild import compile_java
from shared import PROGRAMS

from minecheck.play.players.articles import demo_004, main_003, place_mines_004

pytestmark = pytest.mark.java

JAVA = PROGRAMS / "java"


def compiled(tmp_path_factory, *sources: Path, what: str) -> Path:
    """The article's sources and our driver, copied side by side and compiled together."""
    src = tmp_path_factory.mktemp("src")
    for path in sources:
        for java in ([path] if path.is_file() else path.glob("*.java")):
            shutil.copy(java, src / java.name)
    return compile_java(src, tmp_path_factory.mktemp("classes"), what)


@pytest.fixture(scope="module")
def mineai_classes(tmp_path_factory) -> Path:
    return compiled(tmp_path_factory, JAVA / "gibbs" / "src", JAVA / "mineai", what="mineai@seed")


@pytest.fixture(scope="module")
def demo_classes(tmp_path_factory) -> Path:
    return compiled(tmp_path_factory, JAVA / "dpll" / "MinesweeperDemo.java", JAVA / "satdemo", what="satdemo@seed")


def java_games(classes: Path, main: str, lines: list[str]) -> list[tuple[list[tuple[str, int, int]], list[str]]]:
    """Each game's moves (action, row, col) and its end line's words."""
    done = subprocess.run(["java", "-cp", str(classes), main], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    games, moves = [], []
    for line in done.stdout.splitlines():
        word, *rest = line.split()
        if word == "move":
            moves.append((rest[0], int(rest[1]), int(rest[2])))
        elif word == "end":
            games.append((moves, rest))
            moves = []
    return games


def as_moves(game, cols: int) -> list[tuple[str, int, int]]:
    return [(m.action.value, *divmod(m.cell, cols)) for m in game.moves[1:]]  # the first click is the loop's own


def test_mineai_makes_the_java_moves_game_after_game(mineai_classes):
    games = [(g, 9, 9, 10) for g in range(2)]  # game 0 is won, game 1 lost
    java = java_games(mineai_classes, "com.example.minesweeper.MineAiGames",
                      [f"{g} {r} {c} {m} fixed" for g, r, c, m in games])
    for (g, rows, cols, mines), (moves, end) in zip(games, java):
        ours = main_003(g, rows, cols, mines, lay_first=True)
        assert as_moves(ours, cols) == moves, f"game {g}"
        assert ours.counted_win == (end[0] == "win")


def test_main_as_printed_counts_every_game_won_before_any_decision(mineai_classes, tmp_path):
    (moves, end), = java_games(mineai_classes, "com.example.minesweeper.MineAiGames", ["0 16 16 40 article"])
    assert moves == [] and end == ["win", "0"]
    ours = main_003(0)
    assert ours.counted_win and not ours.safe_won and "opened all 256 cells" in ours.ending
    printed = subprocess.run(["java", "-cp", str(mineai_classes), "com.example.minesweeper.Main"],
                             capture_output=True, text=True, timeout=120).stdout
    assert "胜利=100 胜率=100.0%" in printed


def test_the_demo_loop_makes_the_java_moves_game_after_game(demo_classes):
    seeds = range(10)
    laid = {s: place_mines_004(9, 9, 10, s) for s in seeds}
    lines = [f"{s} 9 9 " + " ".join(f"{c // 9} {c % 9}" for c in sorted(laid[s])) for s in seeds]
    for s, (moves, end) in zip(seeds, java_games(demo_classes, "SatDemoGames", lines)):
        ours = demo_004(s, laid=laid[s])
        assert as_moves(ours, 9) == moves, f"seed {s}"
        assert ours.counted_win == (end[0] == "true")
