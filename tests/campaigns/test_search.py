"""The campaign's search (campaigns/search.py): closeness read from a subject's answers, a state that does not
depend on the order boards were done in, search boards planned from the boards before ``index - LAG`` only, so
that one seed gives the same boards and findings with one process or two and after a resume; a subject never
close leaves the search slots their walk boards."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from near_solver import NEARLY_RIGHT

from minecheck.boards.generators import generate_board, recipe
from minecheck.boards.mutation import recipe_from_json
from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config, board_recipe, next_recipe
from minecheck.campaigns.mix import SEARCH_SLOTS
from minecheck.campaigns.search import (
    LAG,
    Near,
    closeness,
    fold,
    search_recipe,
    state_before,
)
from minecheck.check.findings import read_findings
from minecheck.model.answers import CellAnswer, Failure, Mode, SolverResult, Verdict
from minecheck.model.budget import Budget

TRUTH = SolverResult("exact", Mode.LOCAL, True, cells=(
    CellAnswer(0, Verdict.UNKNOWN, Fraction(1, 2)), CellAnswer(1, Verdict.UNKNOWN, Fraction(1, 1000)),
    CellAnswer(2, Verdict.SAFE, Fraction(0))), layouts=2**31 + 5)


def said(probabilities, layouts=None, **more) -> SolverResult:
    cells = tuple(CellAnswer(c, TRUTH.cells[c].verdict, p) for c, p in enumerate(probabilities))
    return SolverResult("s", Mode.LOCAL, True, cells=cells, layouts=layouts, **more)


def labels(result: SolverResult, wrong: bool = False) -> dict[str, float]:
    return {n.label: n.score for n in closeness(result, TRUTH, wrong)}


def test_a_float_a_hair_off_is_close_by_its_gap_and_an_exact_answer_is_not():
    exact = said([c.probability for c in TRUTH.cells])
    assert "gap" not in labels(exact)
    near = labels(said([0.5 + 5e-7, 0.001, 0.0]))
    assert near["gap"] == pytest.approx(0.5)
    assert labels(said([0.5 + 1e-7, 0.001, 0.0]))["gap"] < near["gap"]  # closer to wrong, higher
    assert "gap" not in labels(said([0.5 + 1e-15, 0.001, 0.0]))  # a double's rounding is no step towards a bug


def test_an_unknown_verdict_on_a_cell_near_certain_is_close_and_nearer_is_closer():
    assert 0 < labels(said([0.5, 0.001, 0.0]))["edge"] < 1  # p = 1/1000: within 1% of 0
    nearer = SolverResult("exact", Mode.LOCAL, True, cells=(CellAnswer(0, Verdict.UNKNOWN, Fraction(1, 10**9)),))
    assert closeness(said([1e-9]), nearer, False)[0].score > labels(said([0.5, 0.001, 0.0]))["edge"]


def test_a_right_count_near_two_to_the_31_is_close_and_a_small_one_is_not():
    assert labels(said([0.5, 0.001, 0.0], layouts=2**31 + 5))["count"] > 0.99
    small = SolverResult("exact", Mode.LOCAL, True, cells=TRUTH.cells, layouts=12)
    assert not [n for n in closeness(said([0.5, 0.001, 0.0], layouts=12), small, False) if n.label == "count"]


def test_a_declined_board_is_close_and_a_wrong_or_failed_answer_is_never():
    assert labels(SolverResult("s", Mode.LOCAL, declined="flags")) == {"declined": 1.0}
    assert labels(said([0.5 + 5e-7, 0.001, 0.0]), wrong=True) == {}
    assert labels(SolverResult("s", Mode.LOCAL, failure=Failure("crash", "boom"))) == {}


def test_the_state_is_the_same_whatever_order_the_boards_were_done_in():
    boards = {i: (recipe("reveal", i), (Near("s", "gap", score),)) for i, score in enumerate([0.2, 0.9, 0.9, 0.5])}
    forward, backward = {}, {}
    for i in sorted(boards):
        fold(forward, i, *boards[i])
    for i in sorted(boards, reverse=True):
        fold(backward, i, *boards[i])
    assert forward == backward and forward[("s", "gap")].index == 1  # the highest, then the earliest


def test_a_search_board_is_its_target_changed_and_a_search_boards_child_keeps_its_parent():
    state = state_before({3: (recipe("endgame", 9), (Near("s", "edge", 0.4), Near("s", "gap", 0.1)))}, 10)
    first = search_recipe(state, ("s",), 0, 20, 111)
    second = search_recipe(state, ("s",), 1, 32, 222)
    assert dict(first.params)["target"] == "gap of s" and dict(second.params)["target"] == "edge of s"
    assert recipe_from_json(dict(first.params)["parent"]) == recipe("endgame", 9)
    child = search_recipe(state_before({20: (first, (Near("s", "gap", 0.8),))}, 30), ("s",), 0, 40, 333)
    assert dict(child.params)["parent"] == dict(first.params)["parent"] and dict(child.params)["steps"] == "111,333"
    assert generate_board(child) == generate_board(child) and search_recipe({}, ("s",), 0, 20, 1) is None


def test_a_search_slot_reads_only_the_boards_before_its_index_minus_the_lag():
    config = Config(seed=1, subjects=("s",))
    slot = SEARCH_SLOTS[0]
    late = {slot - LAG: (recipe("reveal", 1), (Near("s", "gap", 0.5),))}
    assert next_recipe(config, slot, late) == board_recipe(config, slot)  # a walk board: nothing before the lag
    early = {slot - LAG - 1: (recipe("reveal", 1), (Near("s", "gap", 0.5),))}
    assert next_recipe(config, slot, early).generator == "search"
    assert next_recipe(Config(seed=1, subjects=("s",), search=False), slot, early) == board_recipe(config, slot)
    assert next_recipe(config, slot - 1, early) == board_recipe(config, slot - 1)  # not a search slot


SEARCHED = Config(seed=1, subjects=(NEARLY_RIGHT,), references=("exact",), budget=Budget(cpu=5.0))
BOARDS = SEARCH_SLOTS[0] + 2


def board_lines(out: Path) -> list[dict]:
    """boards.jsonl without its timings (the one part that depends on the machine)."""
    rows = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if "seconds" not in k} for row in rows]


@pytest.fixture(scope="module")
def searched(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("searched")
    run_campaign(SEARCHED, out, boards=BOARDS, jobs=2)
    return out


def test_a_close_subject_gets_search_boards_the_same_with_one_process_or_two(searched, tmp_path):
    lines = board_lines(searched)
    assert lines[SEARCH_SLOTS[0]]["generator"].startswith("search ")
    read = lines[:SEARCH_SLOTS[0] - LAG]
    assert any(line.get("near") for line in read)  # a hair off wherever it gives a probability short of 0 or 1
    target = json.loads(lines[SEARCH_SLOTS[0]]["generator"].split("parent=")[1].split(" steps=")[0])
    assert target in [[line["recipe"]["generator"], sorted(map(list, line["recipe"]["params"].items())),
                       line["recipe"]["seed"]] for line in read if line.get("near")]
    run_campaign(SEARCHED, tmp_path, boards=BOARDS, jobs=1)
    assert board_lines(tmp_path) == lines
    assert (tmp_path / "findings.jsonl").read_text() == (searched / "findings.jsonl").read_text()


def test_a_resumed_campaign_makes_the_same_search_boards(searched, tmp_path):
    run_campaign(SEARCHED, tmp_path, boards=BOARDS, jobs=2)
    keep = [line for line in (tmp_path / "boards.jsonl").read_text().splitlines()
            if json.loads(line)["index"] < SEARCH_SLOTS[0] - 3]
    (tmp_path / "boards.jsonl").write_text("".join(line + "\n" for line in keep))
    (tmp_path / ".minecheck-digests").unlink()  # cut by hand, not by a kill
    kept = {json.loads(line)["index"] for line in keep}
    (tmp_path / "findings.jsonl").write_text("".join(f.to_json() + "\n" for f in read_findings(tmp_path)
                                                     if f.index in kept))
    run_campaign(SEARCHED, tmp_path, boards=BOARDS, jobs=2, resume=True)
    assert board_lines(tmp_path) == board_lines(searched)


def test_a_subject_never_close_leaves_the_search_slots_their_walk_boards(tmp_path):
    config = Config(seed=1, subjects=("ilp@fixed",), references=("exact",), budget=Budget(cpu=5.0))
    run_campaign(config, tmp_path, boards=BOARDS, jobs=2)
    lines = board_lines(tmp_path)
    assert not any(line.get("near") for line in lines)
    assert lines[SEARCH_SLOTS[0]]["generator"] == board_recipe(config, SEARCH_SLOTS[0]).describe()
    assert lines[SEARCH_SLOTS[0]]["generator"].startswith("small ")


def test_no_search_is_an_option_of_the_campaign_kept_in_its_folder(tmp_path, capsys):
    from minecheck.cli import main

    argv = ["fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path), "--solvers", "ilp@fixed",
            "--references", "exact", "--no-report", "--no-progress"]
    assert main(argv + ["--no-search"]) == 0 and json.loads((tmp_path / "campaign.json").read_text())["search"] is False
    assert main(argv + ["--boards", "2", "--resume"]) == 2  # resumed with the search on: another campaign
    assert "search: False -> True" in capsys.readouterr().err


def test_closeness_read_back_from_a_board_line_is_the_very_same():
    from minecheck.campaigns.search import near_from_json, near_to_json

    near = (Near("s", "gap", 0.012345678901234567), Near("s", "edge", 1e-13 + 0.5))
    assert near_from_json(json.loads(json.dumps(near_to_json(near)))) == near  # a rounded score could change a tie
