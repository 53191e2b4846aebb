"""A baseline of known signatures: a campaign exits 1 only on news, and lists the news first."""

from __future__ import annotations

import json

from shared import ROOT, board

from minecheck.campaigns.baseline import Baseline, Signature, canonical, news
from minecheck.check.findings import Finding, Kind
from minecheck.cli import main
from minecheck.model.answers import Mode
from minecheck.model.boardtext import format_board


def fuzz(out, *options) -> int:
    return main(["fuzz", "--seed", "2", "--boards", "3", "--out", str(out), "--references", "exact",
                 "--generator", "reveal", "--jobs", "2", "--no-progress", "--no-report", "--timeout", "5",
                 "--shrink-per-signature", "1", *options])


def test_a_board_turned_or_mirrored_has_one_signature_and_no_hidden_truth():
    b = board("3x2x2/mH1/H2m")
    turned = "2x3x2\nHm\n2H\nm1\n"
    assert canonical(format_board(b)) == canonical(turned) == canonical("3x2x2\n1HH\nH2H\n")
    assert "m" not in canonical(turned)
    assert canonical("3x2x2\nHH1\nH2H\n") != canonical("3x2x2\nHH1\nH3H\n")


def test_a_rerun_against_its_own_baseline_exits_0_and_another_solver_is_news(tmp_path):
    assert fuzz(tmp_path / "first", "--solvers", "ilp@seed") == 1
    assert main(["baseline", str(tmp_path / "first"), "--write", str(tmp_path / "known.json")]) == 0
    assert fuzz(tmp_path / "again", "--solvers", "ilp@seed", "--baseline", str(tmp_path / "known.json")) == 0
    assert json.loads((tmp_path / "again" / "news.json").read_text()) == []
    # gibbs@seed's findings are unknown signatures, but its named defects reproduce them: no news;
    # a solver with no named defect that goes wrong is news
    assert fuzz(tmp_path / "more", "--solvers", "ilp@seed,gibbs@seed,hanging_solver:RaisingSolver", "--baseline",
                str(tmp_path / "known.json")) == 1
    rows = json.loads((tmp_path / "more" / "news.json").read_text())
    fresh = [row for row in rows if row["explained_by"] is None]
    assert fresh and {row["subject"] for row in fresh} == {"hanging_solver:RaisingSolver"}
    known_defects = {row["explained_by"] for row in rows if row["subject"] == "gibbs@seed"}
    assert known_defects and None not in known_defects and all(d.startswith("gibbs-") for d in known_defects)
    from minecheck.campaigns.publish import publish

    index = publish(tmp_path / "more", per_signature=1).read_text()
    assert index.index("New since the baseline") < index.index("Findings by signature"), "the news come first"


def test_unshrunk_findings_are_news_only_when_their_kind_solver_and_mode_are_unknown():
    f = Finding(Kind.CRASH, "x@seed", "exact", Mode.LOCAL, (), "boom", "an answer", "3x1\nH1H\n")
    g = Finding(Kind.CRASH, "x@seed", "exact", Mode.LOCAL, (), "boom", "an answer", "3x1\nH2H\n")
    known = Baseline(frozenset({Signature("crash", "x@seed", "local", canonical("3x1\nH1H\n"))}))
    assert news([f, g], {0: "3x1\nH1H\n"}, known) == {}  # g was not shrunk: judged by its group
    assert list(news([f, g], {0: "3x1\nH1H\n", 1: "3x1\nH2H\n"}, known).values()) == [[1]]
    assert news([g], {}, Baseline(frozenset())) != {}


def test_a_bad_baseline_file_is_bad_input_naming_it(tmp_path, capsys):
    bad = tmp_path / "known.json"
    bad.write_text('{"schema": 7}')
    assert fuzz(tmp_path / "out", "--solvers", "ilp@fixed", "--baseline", str(bad)) == 2
    assert f"baseline {bad}: schema 7" in capsys.readouterr().err


def test_a_shrink_cut_short_is_no_signature(tmp_path):
    from minecheck.campaigns.publish import shrunk_boards
    from minecheck.check.shrinkcache import finding_key

    assert fuzz(tmp_path, "--solvers", "ilp@seed") == 1
    findings, boards = shrunk_boards(tmp_path, 1)
    assert boards, "some finding was shrunk to the end"
    cache = tmp_path / "shrunk.jsonl"
    entries = [json.loads(line) for line in cache.read_text().splitlines()]
    cut = next(n for n in boards if finding_key(findings[n]) == entries[0]["key"])
    entries[0]["stats"]["cut_short"] = True
    cache.write_text("".join(json.dumps(e) + "\n" for e in entries))
    assert set(shrunk_boards(tmp_path, 1)[1]) == set(boards) - {cut}


def test_a_crash_with_a_known_exception_is_no_news_on_another_board():
    def crash(text, says):
        return Finding(Kind.CRASH, "x@seed", "exact", Mode.LOCAL, (), says, "an answer", text)

    f = crash("39x1\n" + "H1H" * 13 + "\n", "JavaStackOverflow: StackOverflowError: after 4372 nested calls")
    g = crash("14x4\n" + "H" * 56 + "\n", "JavaStackOverflow: StackOverflowError: after 4372 nested calls")
    h = crash("14x4\n" + "H" * 56 + "\n", "IndexError: index 3 out of range")
    from minecheck.campaigns.baseline import from_campaign

    known = from_campaign([f], {0: f.board})
    assert news([g], {0: g.board}, known) == {}, "the same exception on another board"
    assert list(news([h], {0: h.board}, known).values()) == [[0]], "another exception is news"
    assert known.signatures == Baseline(frozenset(json_rows(known))).signatures


def json_rows(b: Baseline):
    from minecheck.campaigns.baseline import Signature as S

    return {S(**row) for row in json.loads(b.to_json())["signatures"]}


def test_the_nightly_baseline_loads_and_holds_only_the_seed_variants_defects():
    import re

    from minecheck.campaigns.baseline import load
    from minecheck.running.catalogue import FIXED_VARIANTS, SEED_VARIANTS

    root = ROOT
    workflow = (root / ".github/workflows/nightly.yml").read_text()
    (path,) = set(re.findall(r"--baseline (\S+)", workflow))
    known = load(root / path)
    subjects = {s.subject for s in known.signatures}
    assert subjects == set(SEED_VARIANTS), "every seed variant's defects are known, and nothing else"
    assert not subjects & set(FIXED_VARIANTS)
