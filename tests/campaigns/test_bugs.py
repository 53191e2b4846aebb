"""Findings grouped into bugs: a second root cause under one signature is a bug of its own and is shrunk;
after shrinking, groups whose small boards show the same thing, or whose minimal causes are one board, merge;
baselines know bugs, old ones too."""

from __future__ import annotations

import json

from minecheck.campaigns.baseline import Baseline, Signature, bug_news, canonical, from_bugs, load
from minecheck.campaigns.bugs import bugs, groups, same_board
from minecheck.campaigns.shrinking import representatives
from minecheck.check.findings import Finding, Kind
from minecheck.check.fingerprint import fingerprint
from minecheck.check.shrinkcache import finding_key
from minecheck.model.answers import Mode


def crash(message: str, board: str, index: int, mode: Mode = Mode.LOCAL) -> Finding:
    return Finding(Kind.CRASH, "x", "exact", mode, (), message, "an answer", board, index=index)


def verdict(says: str, truth: str, board: str, index: int, subject: str = "x") -> Finding:
    return Finding(Kind.VERDICT, subject, "exact", Mode.LOCAL, (0,), says, truth, board, index=index)


def entry(small: Finding, *shows: Finding, cause: str | None = None) -> dict:
    out = {"finding": small.to_json(), "stats": {"cut_short": False, "cells_after": 1},
           "shows": sorted({fingerprint(f).key for f in (small, *shows)})}
    return out | ({"cause": {"board": cause, "key": ""}} if cause else {})


def impossible(board: str, index: int | None) -> Finding:
    return Finding(Kind.CONSISTENCY, "x", "exact", Mode.LOCAL, (), "consistent", "inconsistent: a digit", board,
                   index=index)


ONE = crash("IndexError: list index out of range (at solve:3)", "3x1\nH1H\n", 0)
TWO = crash("ValueError: max() arg is an empty sequence (at largest:9)", "5x5\nHHHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHH\n", 1)
AGAIN = crash("IndexError: list index out of range (at solve:3)", "4x1\nH1HH\n", 2)


def test_two_crashes_under_one_signature_are_two_bugs_each_shrunk():
    findings = [ONE, TWO, AGAIN]
    assert len({f.signature for f in findings}) == 1
    assert len(groups(findings)) == 2
    assert representatives(findings, 1) == [0, 1], "the first of each bug, not of each signature"
    found = bugs(findings, {})
    assert [b.findings for b in found] == [(0, 2), (1,)]


def test_groups_whose_small_boards_have_one_fingerprint_merge_and_the_first_keeps_its_name():
    flagged = crash("IndexError: list index out of range (at solve:3)", "3x1\nF1H\n", 0)  # another class: flags
    plain = crash("IndexError: list index out of range (at solve:3)", "4x1\nH1HH\n", 1)
    small = crash("IndexError: list index out of range (at solve:3)", "1x1\nH\n", None)
    before = bugs([flagged, plain], {})
    assert len(before) == 2
    after = bugs([flagged, plain], {finding_key(flagged): entry(small), finding_key(plain): entry(small)})
    assert len(after) == 1 and after[0].findings == (0, 1) and after[0].id == before[0].id
    assert after[0].board == small.board and len(after[0].groups) == 2


def test_a_small_board_that_shows_another_groups_fingerprint_merges_them():
    wrong = verdict("mine", "safe", "4x1\nH1HH\n", 0)
    count = Finding(Kind.COUNT, "x", "exact", Mode.LOCAL, (), "3 layouts", "2 layouts", "5x1\nH1HHH\n", index=1)
    small_wrong = verdict("mine", "safe", "3x1\nH1H\n", None)
    small_count = Finding(Kind.COUNT, "x", "exact", Mode.LOCAL, (), "3 layouts", "2 layouts", "3x1\nH1H\n")
    shrunk = {finding_key(wrong): entry(small_wrong, small_count), finding_key(count): entry(small_count, small_wrong)}
    assert len(bugs([wrong, count], shrunk)) == 1, "one misread digit: a wrong verdict and count on one board"
    one_way = {finding_key(wrong): entry(small_wrong, small_count), finding_key(count): entry(small_count)}
    assert len(bugs([wrong, count], one_way)) == 2, "two faults that meet on one board, each alone on another"


def test_impossible_boards_called_possible_merge_whether_or_not_the_impossibility_needs_a_flag():
    flagged, plain = impossible("2x1\nF0\n", 0), impossible("1x1\n1\n", 1)
    assert fingerprint(flagged).key != fingerprint(plain).key
    assert len(bugs([flagged, plain], {finding_key(flagged): entry(flagged), finding_key(plain): entry(plain)})) == 1


def test_two_faces_of_one_coarse_kind_alone_on_their_boards_stay_two_bugs():
    missed = verdict("unknown", "safe", "3x1\nH0H\n", 0)  # both miss a certain cell, each alone on its board
    silent = Finding(Kind.VERDICT, "x", "exact", Mode.LOCAL, (2,), "no answer", "mine", "4x1\nF1HH\n", index=1)
    assert len(bugs([missed, silent], {finding_key(missed): entry(missed), finding_key(silent): entry(silent)})) == 2


def test_groups_whose_minimal_causes_are_one_board_up_to_a_mirror_merge():
    called = impossible("4x1\nFHH1\n", 0)  # a dropped digit: an impossible board called possible ...
    wrong = verdict("unknown", "safe", "3x3\nHHm\nHH1\n0HH\n", 1)  # ... and a certain cell missed
    apart = {finding_key(called): entry(called), finding_key(wrong): entry(wrong)}
    assert len(bugs([called, wrong], apart)) == 2, "no board shows both: an impossible one shows no verdict"
    def caused(cause: str) -> dict:
        return {finding_key(called): entry(called, cause="2x1x0\n0H\n"), finding_key(wrong): entry(wrong, cause=cause)}

    assert len(bugs([called, wrong], caused("2x1\nH0\n"))) == 1, "one board: its mirror, the total left out"
    assert len(bugs([called, wrong], caused("2x1\nH1\n"))) == 2


def test_one_board_up_to_its_mirrors_and_turns_the_total_left_out():
    assert same_board("2x1x0\n0H\n", "2x1\nH0\n") and same_board("2x1\n1H\n", "1x2\n1\nm\n")
    assert same_board("3x2\n1HH\nF2H\n", "2x3\nF1\n2H\nHH\n")  # a quarter turn
    assert not same_board("2x1\n0H\n", "2x1\n1H\n") and not same_board("2x1\n0H\n", "3x1\n0HH\n")


def test_two_crashes_never_merge_by_a_cause_and_keep_their_board_class():
    flagged = crash("IndexError: list index out of range (at solve:3)", "3x1\nF1H\n", 0)
    impossible_digit = crash("IndexError: list index out of range (at solve:3)", "2x1\n8H\n", 1)
    shrunk = {finding_key(flagged): entry(flagged, cause="1x1\nH\n"),
              finding_key(impossible_digit): entry(impossible_digit, cause="1x1\nH\n")}
    assert len(bugs([flagged, impossible_digit], shrunk)) == 2


def test_other_solvers_never_merge():
    a, b = verdict("mine", "safe", "3x1\nH1H\n", 0), verdict("mine", "safe", "3x1\nH1H\n", 0, subject="y")
    assert len(bugs([a, b], {finding_key(a): entry(a), finding_key(b): entry(b)})) == 2


def test_a_known_bug_on_new_boards_is_no_news_and_a_second_bug_under_an_old_signature_is(tmp_path):
    known = from_bugs(bugs([ONE], {}))
    path = tmp_path / "known.json"
    path.write_text(known.to_json())
    again = load(path)
    assert json.loads(path.read_text())["schema"] == 2
    later = [AGAIN, TWO]
    found = bugs(later, {})
    assert [b.findings for b in bug_news(found, later, {}, again)] == [(1,)]


def test_an_old_baseline_of_signatures_still_knows_what_it_knew(tmp_path):
    old = {"schema": 1, "signatures": [{"kind": "crash", "subject": "x", "mode": "local",
                                        "board": canonical("3x1\nH1H\n"), "says": None}]}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    known = load(path)
    assert known.signatures == {Signature("crash", "x", "local", canonical("3x1\nH1H\n"))} and not known.bugs
    findings = [ONE, TWO]
    found = bugs(findings, {})
    shrunk_boards = {0: ONE.board, 1: TWO.board}
    news = bug_news(found, findings, shrunk_boards, known)
    assert [b.first for b in news] == [1], "its signature's shrunk board is known; the other board is not"
    merged = Baseline(known.signatures, from_bugs(found).bugs)
    assert load_back(tmp_path, merged).signatures == known.signatures, "--merge keeps the old rows"


def load_back(tmp_path, baseline: Baseline) -> Baseline:
    path = tmp_path / "back.json"
    path.write_text(baseline.to_json())
    return load(path)


def test_a_campaign_lists_its_bugs_first_on_the_index_and_in_its_json_the_same_with_one_or_two_jobs(tmp_path, capsys):
    from minecheck.cli import main

    def run(out, jobs):
        code = main(["fuzz", "--seed", "2", "--boards", "3", "--out", str(out), "--references", "exact",
                     "--generator", "reveal", "--jobs", jobs, "--no-progress", "--timeout", "5",
                     "--solvers", "ilp@seed", "--json"])
        return code, json.loads(capsys.readouterr().out)

    code, one = run(tmp_path / "one", "1")
    assert code == 1 and one["bugs"], "ilp@seed's defects show on these boards"
    assert sum(b["findings"] for b in one["bugs"]) == one["findings"], "every finding is explained by one bug"
    assert one["bugs_before_merge"] >= len(one["bugs"])
    assert all(b["board"] for b in one["bugs"] if not b["cut_short"])
    index = (tmp_path / "one" / "index.html").read_text()
    assert index.index('id="bugs"') < index.index("Findings by signature")
    assert all(b["id"] in index for b in one["bugs"])
    _, two = run(tmp_path / "two", "2")
    assert [(b["id"], b["findings"], b["board"]) for b in two["bugs"]] == \
        [(b["id"], b["findings"], b["board"]) for b in one["bugs"]]
