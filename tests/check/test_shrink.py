"""Shrinking: known seed defects shrink to boards as small as the hand-found ones; 1-minimal; deterministic."""

from __future__ import annotations

from dataclasses import replace

import pytest
from shared import board

from minecheck.boards.generators import generate_board, recipe
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind
from minecheck.check.shrink import POSITION_PASSES, delete_chunks, find_integer, shrink, still_shows
from minecheck.model.answers import Mode
from minecheck.model.board import FLAG
from minecheck.model.boardtext import format_board, parse_board
from minecheck.model.position import position_of, render


def first_finding(subject: str, kind: Kind, generator: str = "reveal", **params):
    """The first finding of this kind for this solver on seeded boards (deterministic)."""
    for seed in range(200):
        b = generate_board(recipe(generator, seed, **params))
        for check in check_board(b, [subject], [Mode.LOCAL], references=[], recipe=recipe(generator, seed, **params)):
            for f in check.findings:
                if f.kind is kind and f.subject == subject:
                    return f
    raise AssertionError(f"no {kind} finding for {subject} in 200 boards")


# (solver, kind, the hand-found board, its number of cells)
KNOWN = [
    ("ilp@seed", Kind.VERDICT, "0H", 2),
    ("ilp@seed", Kind.CRASH, "1H/HH", 4),
    ("dpll@seed", Kind.VERDICT, "HHH/121", 6),
    ("gibbs@seed", Kind.PROBABILITY, "H1H", 3),
]


@pytest.mark.parametrize("subject, kind, hand_found, cells", KNOWN, ids=[f"{s}-{k.value}" for s, k, _, _ in KNOWN])
def test_known_defects_shrink_as_small_as_found_by_hand(subject, kind, hand_found, cells):
    # the hand-found board really shows the defect ...
    assert still_shows(first_finding(subject, kind))(board(hand_found)) is not None
    # ... and shrinking a generated board that shows it gets as small, or within two cells
    finding = first_finding(subject, kind, width=7, height=6, density=0.2, open_prob=0.5)
    shrunk = shrink(finding)
    assert shrunk.stats.cells_after <= cells + 2, format_board(shrunk.board)
    assert shrunk.stats.cells_after < shrunk.stats.cells_before
    assert shrunk.finding.kind is kind and shrunk.finding.subject == subject
    assert not shrunk.stats.cut_short


def test_shrunk_board_still_shows_the_finding_and_carries_its_origin():
    finding = first_finding("dpll@seed", Kind.VERDICT, width=7, height=6)
    shrunk = shrink(finding)
    assert still_shows(finding)(parse_board(shrunk.finding.board)) is not None
    assert shrunk.finding.recipe == finding.recipe and shrunk.finding.index == finding.index


def test_result_is_one_minimal_for_every_position_pass():
    finding = first_finding("dpll@seed", Kind.VERDICT, width=7, height=6)
    shrunk = shrink(finding)
    pos = position_of(shrunk.board)
    shows = still_shows(finding)
    candidates = []
    for cell in sorted(pos.opened):
        candidates.append(replace(pos, opened=pos.opened - {cell}))
    for cell in sorted(pos.mines):
        candidates.append(replace(pos, mines=pos.mines - {cell}, flags=pos.flags - {cell}))
    for cell in sorted(pos.flags):
        candidates.append(replace(pos, flags=pos.flags - {cell}))
    if pos.show_total:
        candidates.append(replace(pos, show_total=False))
    assert candidates, "a shrunk board still has something to remove"
    assert not any(shows(render(c)) for c in candidates)
    for name, run in POSITION_PASSES:
        if name.startswith("crop"):
            assert run(pos, lambda c, moved=(0, 0): shows(render(c)) is not None) is None, name


def test_shrinking_is_deterministic():
    finding = first_finding("gibbs@seed", Kind.PROBABILITY, width=7, height=6)
    first, second = shrink(finding), shrink(finding)
    assert first.finding.board == second.finding.board and first.stats.calls == second.stats.calls


def test_an_inconsistent_hand_typed_board_is_shrunk_by_editing_the_board():
    big = board("HHHHHH/HF1FHH/HHHHHH/HHHHHH")  # two flags on a 1, and no hidden truth
    (check,) = check_board(big, ["dpll@seed"], [Mode.LOCAL], references=[])
    (finding,) = [f for f in check.findings if f.kind is Kind.CONSISTENCY]
    shrunk = shrink(finding)
    assert shrunk.board.size <= 6 and shrunk.finding.kind is Kind.CONSISTENCY


def test_find_integer_uses_logarithmic_calls():
    calls = []

    def works(n):
        calls.append(n)
        return n <= 1000

    assert find_integer(works) == 1000
    assert len(calls) <= 2 * 11 + 2


def test_delete_chunks_reaches_a_one_minimal_subset():
    needed = {3, 17, 18}
    kept = delete_chunks(list(range(40)), lambda items: needed <= set(items))
    assert set(kept) == needed


def test_an_impossible_digit_is_lowered_to_the_smallest_value_that_still_shows():
    from minecheck.check.shrink import _board_lower_digits

    b = parse_board("8\nH")  # needs 8 mines, has one covered neighbour: any digit of 2 or more is as impossible
    lowered = _board_lower_digits(b, lambda c: c.cells[0] >= 2)
    assert lowered is not None and lowered.cells[0] == 2
    assert _board_lower_digits(lowered, lambda c: c.cells[0] >= 2) is None, "nothing lower shows it"


def test_the_shrink_budget_is_cpu_time_so_a_busy_machine_shrinks_as_far(monkeypatch):
    import time as clock

    import minecheck.check.shrink as shrinking

    f = first_finding("ilp@seed", Kind.VERDICT)
    real = shrinking.still_shows(f, None)

    def waiting(finding, budget, solver, judge_undeclared=False):  # each call waits as if busy: wall, no CPU
        def check(b, origin=(0, 0)):
            clock.sleep(0.05)
            return real(b, origin)
        return check

    monkeypatch.setattr(shrinking, "still_shows", waiting)
    slow = shrink(f, None, seconds=0.2, max_calls=6)
    assert slow.stats.calls == 6 and slow.stats.cut_short, "6 calls of 0.05 s wall (0.3 s) fit a 0.2 s CPU budget"
    monkeypatch.undo()
    assert shrink(f, None, max_calls=6).board == slow.board


def test_a_finding_on_a_wide_board_is_first_cropped_to_a_window_around_its_cells():
    # a long strip: the edge-by-edge crops would probe the whole board a dozen times; the window needs one call
    finding = first_finding("dpll@seed", Kind.VERDICT, width=80, height=3, density=0.2, open_prob=0.5)
    counted = []
    shows = still_shows(finding)

    def predicate(b, origin):
        counted.append(b.size)
        return shows(b, origin)

    shrunk = shrink(finding, predicate=predicate)
    assert shrunk.stats.successes.get("crop to the finding") == 1
    assert max(counted) <= 17 * 3, counted[:5]  # no candidate wider than the widest window: the strip is never probed
    assert still_shows(finding)(shrunk.board) is not None


class SlowEngineClock:
    """A CPU clock for a slow engine's checks: each costs 0.2 s plus 1 s per 1,000 cells (no real CPU is spent)."""

    def __init__(self):
        self.now = 0.0

    def charge(self, b) -> None:
        self.now += 0.2 + b.size / 1000


def big_crash(monkeypatch):
    """A crash on a 60x60 typed board on its one 6, and a predicate that charges the clock for every check."""
    import minecheck.check.shrink as shrinking
    from minecheck.check.findings import Finding

    rows = ["1" * 60] * 60
    rows[22] = rows[22][:52] + "6" + rows[22][53:]  # where no window around a spread digit reaches
    text = format_board(board("/".join(rows)))
    clock = SlowEngineClock()
    monkeypatch.setattr(shrinking, "cpu_seconds", lambda: clock.now)

    def crashes(b, origin=(0, 0)):
        clock.charge(b)
        return f if any(b.cells[d] >= 6 for d in b.digits) else None

    f = Finding(Kind.CRASH, "engine", "exact", Mode.LOCAL, (), "Crash: IndexError", "an answer", text)
    return f, crashes, clock


def test_a_slow_engines_big_board_shrinks_to_a_few_cells_while_each_smaller_board_pays(monkeypatch):
    f, crashes, clock = big_crash(monkeypatch)
    cost = 0.2 + 3.6  # the check on the 3,600-cell board
    small = shrink(f, None, predicate=crashes, patience=4.0, cost=cost, seconds=120.0)
    assert small.board.size == 1 and small.board.cells == (6,), "the one 6 alone"
    assert clock.now < 30 * cost, "quarters and halves first: each call cheaper than the last"



def test_an_engine_whose_every_check_costs_a_second_still_shrinks_a_big_board_to_its_one_cell(monkeypatch):
    f, crashes, clock = big_crash(monkeypatch)
    monkeypatch.setattr(clock, "charge", lambda b: setattr(clock, "now", clock.now + 1.0))
    small = shrink(f, None, predicate=crashes, patience=4.0, cost=1.0, seconds=120.0)
    assert small.board.size == 1 and not small.stats.cut_short
    clock.now = 0.0
    before = shrink(f, None, predicate=crashes, seconds=3.0)  # the old rule: three times the board's cost
    assert before.stats.cut_short and before.board.size > 100


def test_a_shrink_that_finds_nothing_smaller_stops_after_its_patience(monkeypatch):
    f, crashes, clock = big_crash(monkeypatch)

    def never(b, origin=(0, 0)):
        clock.charge(b)
        return None

    stuck = shrink(f, None, predicate=never, patience=4.0, cost=3.8, seconds=120.0)
    assert stuck.stats.cut_short and "no smaller board within 4" in stuck.stats.stopped
    assert 4 * 3.8 < clock.now < 6 * 3.8, "its patience (4 board-costs) and the first windows (small boards)"


def test_a_shrunk_finding_shrinks_on_from_its_own_board_not_from_its_recipe_s_big_one():
    """A shrunk finding keeps its big board's recipe; its text may not carry the hidden mines (all flagged).
    Shrinking it again (a minimal cause, ``minecheck shrink``) started over from the recipe's big board: a slow
    engine's cause search checked boards of 1,551 cells for a 2-cell board (bench/slow_subject.py)."""
    finding = first_finding("dpll@seed", Kind.VERDICT, width=7, height=6)
    small = board("F1H")
    assert small.truth is None and generate_board(finding.recipe).size == 42
    sizes = []

    def spy(candidate, origin=(0, 0)):
        sizes.append(candidate.size)
        return None

    shrink(replace(finding, board=format_board(small), cells=(2,)), predicate=spy)
    assert sizes and max(sizes) <= small.size, sizes


def test_a_shrink_started_from_a_shape_keeps_its_hidden_mines():
    """``start``: a cause shrinks on from the shrink's own end, its position and hidden mines kept, so the
    position passes (moving mines, opening cells) still apply to a board whose text lost them."""
    finding = first_finding("dpll@seed", Kind.VERDICT, width=7, height=6)
    shrunk = shrink(finding)
    assert shrunk.shape is not None and render(shrunk.shape) == shrunk.board
    seen = []

    def spy(candidate, origin=(0, 0)):
        seen.append(candidate)
        return None

    shrink(shrunk.finding, predicate=spy, start=shrunk.shape)
    assert seen and all(b.truth is not None and b.size <= shrunk.board.size for b in seen)


def test_a_shrink_checks_each_candidate_once():
    """The passes run to a fixed point, so the last round meets the round before's candidates again: each is
    checked once (a slow engine's shrink of a 5,165-cell board made 13 checks where 8 were new)."""
    finding = first_finding("dpll@seed", Kind.VERDICT, width=7, height=6)
    shows = still_shows(finding)
    seen = []

    def spy(candidate, origin=(0, 0)):
        seen.append((candidate, origin))
        return shows(candidate, origin)

    shrunk = shrink(finding, predicate=spy)
    assert len(seen) == len(set(seen)) == shrunk.stats.calls
    assert shrunk.stats.cells_after <= 8 and not shrunk.stats.cut_short


def test_a_minimal_cause_keeps_two_neighbours_across_a_corner():
    """A flag diagonal to a 0 is no crop of the 2x2 around them: the crops stop there, and two faces of one
    misreading ended at different boards (2x2 HF/0H and 2x1 F0; bench/bugs.py's flags-ignored).  The pair pass
    keeps the two cells side by side."""
    from minecheck.check.findings import Finding

    def flag_beside_a_zero(candidate, origin=(0, 0)):
        cells = candidate.cells
        return found if any(cells[c] == 0 and any(cells[n] == FLAG for n in candidate.neighbours(c))
                            for c in range(candidate.size)) else None

    found = Finding(Kind.CONSISTENCY, "x", "exact", Mode.LOCAL, (), "consistent", "inconsistent", "2x2\nHF\n0H\n")
    assert format_board(shrink(found, predicate=flag_beside_a_zero).board) == "2x2\nHF\n0H\n"
    paired = shrink(found, predicate=flag_beside_a_zero, pairs=True)
    assert format_board(paired.board) == "2x1\nF0\n" and paired.stats.successes == {"keep two neighbours": 1}
