"""dpll@seed against the article's own Java (tests/programs/java/dpll: the article's code with one compile fix, and a
driver).

The driver (DpllMain) runs MinesweeperSolver.analyze and ProbabilityEngine on each board and
prints the safe and mine cells, each variable's probability (Java's Double.toString, which reads
back to the same double) and the number of models; the port must give the same, exactly.  Where
the Java's stack overflows (one collectModels call per model, about 4400 of them fit) the port
must raise JavaStackOverflow.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from javabuild import compile_java
from shared import PROGRAMS, board

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.answers import Mode, Verdict
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.running.registry import run_solver
from minecheck.solvers import dpll_seed
from minecheck.solvers.dpll_seed import JAVA_NESTED_COLLECT_MODELS, seed_solver

pytestmark = pytest.mark.java

SOURCES = PROGRAMS / "java" / "dpll"

NAMED = ["HHH/121", "12H/1HH", "H1H1H", "1H0", "3H", "2H", "F0H", "10H", "F2F/HHH", "H1H" * 5, "1F/FH",
         "HHHH/1221", "HHHHH/12321", "FH2/HHH/1HH"]


def boards() -> list[Board]:
    out = [board(text) for text in NAMED]
    out += [generate_board(recipe("reveal", s, width=4, height=4)) for s in range(30)]
    out += [generate_board(recipe("reveal", s, width=5, height=3)) for s in range(20)]
    # 16 variables or more: the pure literal the Java picks follows its HashMap's buckets, not the ids
    out += [generate_board(recipe("reveal", s, width=9, height=3)) for s in (0, 3, 12, 22, 31, 32, 38)]
    out += [generate_board(recipe("play", s, level="beginner")) for s in (0, 1, 2, 6, 7, 8, 9, 10)]  # with flags
    out += [generate_board(recipe("play", s, level="intermediate")) for s in (1, 2, 3, 4, 5, 6, 8, 9, 10, 11)]
    out += [generate_board(recipe("play", s, level="expert")) for s in (0, 4, 6, 8, 11, 13, 16, 17, 19, 20)]
    return out


# 1123 models: more nested collectModels calls than Python's default recursion limit (1000) has frames,
# and a few seconds of Java
MANY_MODELS = recipe("play", 20, level="intermediate")
# 5807 models for the seed: the Java overflowed after 4389 to 4418 of them (bench/ports_vs_java.py)
OVERFLOWS = recipe("play", 9, level="expert")


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory) -> Path:
    return compile_java(SOURCES, tmp_path_factory.mktemp("dpll_java"), "dpll@seed")


def rows(b: Board) -> str:
    symbol = {COVERED: "H", FLAG: "F"}
    return "\n".join("".join(symbol.get(v, str(v)) for v in b.cells[r * b.width:(r + 1) * b.width])
                     for r in range(b.height))


def java_answers(classes: Path, many: list[Board], timeout: float = 900) -> list[dict]:
    """DpllMain's answer per board: safe, mine, prob, models, error, and overflow and ms when it prints them."""
    text = "".join(rows(b) + "\n---\n" for b in many)
    done = subprocess.run(["java", "-cp", str(classes), "DpllMain"], input=text, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr
    out, current = [], _empty()
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "end":
            out.append(current)
            current = _empty()
        elif word in ("safe", "mine"):
            current[word].add(tuple(map(int, rest.split())))
        elif word == "prob":
            r, c, p = rest.split()
            current["prob"][int(r), int(c)] = float(p)
        elif word in ("models", "overflow", "ms"):
            current[word] = int(rest)
        else:
            assert word == "error", line
            current["error"] = rest
    assert len(out) == len(many)
    return out


def _empty() -> dict:
    return {"safe": set(), "mine": set(), "prob": {}, "models": None, "error": None}


def port_answers(b: Board) -> dict:
    result = run_solver(seed_solver(), b, Mode.LOCAL)
    if result.error:
        return _empty() | {"error": result.error.split(" (at ")[0]}
    return {"safe": {b.row_col(a.cell) for a in result.cells if a.verdict is Verdict.SAFE},
            "mine": {b.row_col(a.cell) for a in result.cells if a.verdict is Verdict.MINE},
            "prob": {b.row_col(a.cell): a.probability for a in result.cells},
            "models": result.layouts, "error": None}


def assert_same_answer(port: dict, java: dict, b: Board) -> None:
    """Equal answers, or the same exception; a StackOverflowError is the port's JavaStackOverflow."""
    java = {k: v for k, v in java.items() if k != "ms"}
    if java.pop("overflow", None) is None:
        assert port == java, rows(b)
        return
    assert java["error"] == "StackOverflowError: null", rows(b)
    assert port["error"] is not None and port["error"].startswith("JavaStackOverflow: StackOverflowError: "), rows(b)


def test_the_seed_answers_what_the_java_answers(java_classes):
    many = boards()
    for b, java in zip(many, java_answers(java_classes, many)):
        assert_same_answer(port_answers(b), java, b)


def test_the_seed_counts_more_models_than_python_has_frames_where_the_java_does(java_classes):
    b = generate_board(MANY_MODELS)
    [java] = java_answers(java_classes, [b])
    assert 1000 < java["models"] < JAVA_NESTED_COLLECT_MODELS
    assert_same_answer(port_answers(b), java, b)


def test_the_seed_overflows_where_the_java_measured_overflows():
    """The port alone: the Java's side of this board takes minutes (see the next test)."""
    error = port_answers(generate_board(OVERFLOWS))["error"]
    assert error == (f"JavaStackOverflow: StackOverflowError: the article's Java overflows its default thread stack "
                     f"here ({JAVA_NESTED_COLLECT_MODELS + 1} nested collectModels calls)")


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("MINECHECK_JAVA_OVERFLOW") != "1",
                    reason="the Java needs 2-4 minutes to overflow its stack: the nightly workflow runs it "
                           "(MINECHECK_JAVA_OVERFLOW=1 here)")
def test_the_seed_overflows_where_the_java_overflows(java_classes):
    b = generate_board(OVERFLOWS)
    [java] = java_answers(java_classes, [b])
    assert java.get("overflow", -1) >= JAVA_NESTED_COLLECT_MODELS  # overflowed, and no sooner than the port
    assert_same_answer(port_answers(b), java, b)


def test_some_compared_answer_depends_on_the_hashmap_order(monkeypatch):
    """Were pure literals picked by ascending id, some compared board would be answered differently."""
    many = [b for b in boards() if len({n for d in b.digits for n in b.neighbours(d) if b.is_covered(n)}) >= 16]
    real = [port_answers(b) for b in many]
    monkeypatch.setattr(dpll_seed, "java_hashmap_capacity", lambda keys, put_order=None: 1 << 20)  # ascending ids
    assert [port_answers(b) for b in many] != real
