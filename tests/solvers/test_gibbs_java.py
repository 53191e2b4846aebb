"""gibbs@seed and javarand against the article's own Java (tests/programs/java/gibbs/src, unchanged but for a driver).

The driver (GibbsCheck) prints doubles as exact hex, so the port must reproduce the Java bit for
bit: the same random stream, the same HashSet sweep order, the same floating-point sums.
"""

from __future__ import annotations

import random
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from javabuild import compile_java
from shared import FIXTURES, PROGRAMS, board

from minecheck.boards.generators import generate_board, recipe
from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board
from minecheck.model.boardtext import parse_board
from minecheck.solvers.gibbs_seed import SeedGibbs, article_constraints, article_key
from minecheck.solvers.javarand import JavaRandom, hash_order, spread, string_hash

pytestmark = pytest.mark.java

SOURCES = PROGRAMS / "java" / "gibbs" / "src"
MAIN = "com.example.minesweeper.GibbsCheck"


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory) -> Path:
    return compile_java(SOURCES, tmp_path_factory.mktemp("gibbs_java"), "gibbs@seed")


def run_java(classes: Path, commands: list[str]) -> list[list[str]]:
    """Each command's output lines (the driver ends every answer with 'end')."""
    done = subprocess.run(["java", "-cp", str(classes), MAIN], input="\n".join(commands) + "\n",
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    blocks = done.stdout.split("end\n")
    assert len(blocks) == len(commands) + 1
    return [block.splitlines() for block in blocks[:-1]]


# -- java.util.Random and HashSet ----------------------------------------------------------------

RANDOM_CASES = [(seed, kind) for seed in (0, 1, 42, -7, 2**40 + 3, -(2**63), 2**63 - 1)
                for kind in ("int", "long", "double", "bound:10", "bound:16", "bound:1", "bound:1073741825",
                             "bound:2147483647", "bound:1000000007")]


def port_random(seed: int, kind: str, count: int) -> list[str]:
    rnd = JavaRandom(seed)
    if kind == "double":
        return [rnd.next_double().hex() for _ in range(count)]
    if kind == "long":
        return [str(rnd.next_long()) for _ in range(count)]
    bound = None if kind == "int" else int(kind.removeprefix("bound:"))
    return [str(rnd.next_int(bound)) for _ in range(count)]


def test_java_random_matches_the_jdk(java_classes):
    answers = run_java(java_classes, [f"random {seed} {kind} 50" for seed, kind in RANDOM_CASES])
    for (seed, kind), java in zip(RANDOM_CASES, answers):
        if kind == "double":
            java = [float.fromhex(x).hex() for x in java]
        assert port_random(seed, kind, 50) == java, (seed, kind)


def key_sets() -> list[list[str]]:
    """Random keys, whole grids, anti-diagonals (one-digit "r,c" with r + c fixed share a bucket), and a
    crowded bucket of a 64-bucket table, whose tree is split in two trees when the table doubles."""
    rng = random.Random(3)
    grid = [f"{r},{c}" for r in range(30) for c in range(30)]
    crowded = [k for k in grid if spread(string_hash(k)) & 63 == 59]  # 25 keys, 13 + 12 after the split
    sets = []
    for i in range(200):
        if i % 4 == 3:
            keys = rng.sample(crowded, rng.randrange(9, 26)) + rng.sample(grid, rng.randrange(0, 120))
            rng.shuffle(keys)
        elif i % 4 == 0:
            keys = [f"{rng.randrange(16)},{rng.randrange(30)}" for _ in range(rng.randrange(1, 150))]
        elif i % 4 == 1:
            keys = [f"{r},{s - r}" for s in rng.sample(range(6, 13), rng.randrange(1, 4)) for r in range(10)
                    if 0 <= s - r < 10]
            keys += [f"{rng.randrange(10)},{rng.randrange(10)}" for _ in range(rng.randrange(0, 60))]
            rng.shuffle(keys)
        else:
            keys = rng.sample([f"{r},{c}" for r in range(10) for c in range(10)], rng.randrange(20, 101))
        sets.append(keys)
    return sets


def test_hash_set_order_matches_the_jdk(java_classes):
    sets = key_sets()
    # some sets must reach the JDK's tree bins (9 keys in one bucket of a 64-bucket table)
    assert sum(max(Counter(spread(string_hash(k)) & 63 for k in set(keys)).values()) >= 9 for keys in sets) > 10
    answers = run_java(java_classes, ["hashset " + " ".join(keys) for keys in sets])
    for keys, java in zip(sets, answers):
        assert hash_order(keys) == (java[0].split() if java else []), keys


# -- the sampler ---------------------------------------------------------------------------------

HAND = ["HH/H1", "3x1x2/H2H", "3x1x1/0HH", "2F1/111/HHH", "3x3x3/2F1/111/HHH", "HHHHH/H1H1H/HHHHH",
        "3x2x2/F1F/HHH", "4x3x1/HHHH/H1HH/HHHH", "2x2x4/HH/HH", "3x1/1H0"]
FIXTURE_NAMES = ["hand_typed.mine", "one_two_one.mine", "one_two_two_one.mine", "inconsistent_12100.mine"]


def boards() -> list[tuple[int, Board]]:
    out = [board(text) for text in HAND] + [parse_board((FIXTURES / "boards" / n).read_text()) for n in FIXTURE_NAMES]
    for s in range(24):
        out.append(generate_board([recipe("reveal", s, width=6, height=5),
                                   recipe("play", s, level="beginner", guesses=1),
                                   recipe("play", s, level="intermediate", guesses=3),
                                   recipe("play", s, level="expert", guesses=5)][s % 4]))
    return [(seed * 7919 - 3, b) for seed, b in enumerate(out)]


def board_command(seed: int, b: Board) -> str:
    symbol = {COVERED: "H", FLAG: "F"}
    rows = ["".join(symbol.get(v, str(v)) for v in b.cells[r * b.width:(r + 1) * b.width]) for r in range(b.height)]
    total = -1 if b.total_mines is None else b.total_mines
    return f"board {seed} {total} {b.height} {b.width}\n" + "\n".join(rows)


def test_seed_matches_the_article_bit_for_bit(java_classes):
    cases = boards()
    answers = run_java(java_classes, [board_command(seed, b) for seed, b in cases])
    for (seed, b), java in zip(cases, answers):
        assert differences(seed, b, java) == [], (seed, b)


def test_seed_matches_the_article_on_stress_boards(java_classes):
    """Large loose frontiers (about 280 variables): the same to the bit there too."""
    cases = [(seed, generate_board(recipe("stress", seed))) for seed in (1, 2)]
    answers = run_java(java_classes, [board_command(seed, b) for seed, b in cases])
    for (seed, b), java in zip(cases, answers):
        assert differences(seed, b, java) == [], (seed, b)


def differences(seed: int, b: Board, java: list[str]) -> list[str]:
    """What the port with this seed answers differently from GibbsCheck's lines for the board (nothing: [])."""
    lines = [line.split() for line in java]
    java_prob = [(w[1], float.fromhex(w[2])) for w in lines if w[0] == "prob"]
    result = SeedGibbs(seed=seed).solve(b, Mode.LOCAL)
    key = {a.cell: article_key(b, a.cell) for a in result.cells}
    frontier = dict(java_prob)
    out = []
    if {key[a.cell]: a.probability for a in result.cells if key[a.cell] in frontier} != frontier:
        out.append("frontier probabilities")
    sweep_order = hash_order(v for c in article_constraints(b) for v in c.variables)
    if hash_order(sweep_order) != [k for k, _ in java_prob]:
        out.append("the order decide() sums the estimates in")
    if b.total_mines is None:
        if [w for w in lines if w[0] != "prob"] or any(key[a.cell] not in frontier for a in result.cells):
            out.append("answers beyond the frontier without a total")
        return out
    far = next(float.fromhex(w[1]) for w in lines if w[0] == "far")
    if any(a.probability != far for a in result.cells if key[a.cell] not in frontier):
        out.append("off-frontier probability")
    move = next(w[1:] for w in lines if w[0] == "decide")
    expected = "none" if move == ["none"] else f"{'flag' if move[2] == '1' else 'open'} r{move[0]}c{move[1]}"
    if dict(result.extra)["decide"] != expected:
        out.append("decide")
    return out
