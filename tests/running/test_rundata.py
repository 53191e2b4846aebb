"""Everything minecheck reads back from a run folder is checked before use (issue 38): a hand edit of the wrong
type, depth or size is exit 2 naming the file, the line and the field, never exit 3 (minecheck's fault)."""

from __future__ import annotations

import json
import shutil

import pytest

from minecheck.cli import main
from minecheck.running.rundata import MAX_DEPTH, depth

FAST = ["--references", "exact", "--no-progress", "--no-report", "--jobs", "1", "--solvers", "hostile_python:Lie"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A campaign with findings, answers and certificates, as a run leaves it."""
    out = tmp_path_factory.mktemp("base") / "c"
    assert main(["fuzz", "--seed", "1", "--boards", "4", "--out", str(out), "--certify", *FAST]) == 1
    return out


def line_edit(name, n, change):
    def edit(out):
        lines = (out / name).read_text().splitlines()
        row = json.loads(lines[n])
        change(row)
        lines[n] = json.dumps(row)
        (out / name).write_text("\n".join(lines) + "\n")
    return edit


def text_edit(name, old, new):
    def edit(out):
        text = (out / name).read_text()
        assert old in text
        (out / name).write_text(text.replace(old, new, 1))
    return edit


DEEP = "[" * 200_000 + "]" * 200_000

# hand edits of a run folder that gave exit 3 before; each names its file, line and field
EDITS = {
    "an index {}": (line_edit("boards.jsonl", 1, lambda r: r.update(index={})), "boards.jsonl line 2: field index"),
    "an index 1e999": (text_edit("boards.jsonl", '"index": 1,', '"index": 1e999,'), "boards.jsonl line 2: holds 1e999"),
    'an index "2"': (line_edit("boards.jsonl", 1, lambda r: r.update(index="2")), "boards.jsonl line 2: field index"),
    "seconds a string": (line_edit("boards.jsonl", 1, lambda r: r.update(seconds="x")),
                         "boards.jsonl line 2: field seconds"),
    "cells a string": (line_edit("findings.jsonl", 0, lambda r: r.update(cells="1,2")),
                       "findings.jsonl line 1: field cells"),
    "a malformed recipe": (line_edit("findings.jsonl", 0, lambda r: r.update(recipe={"generator": 3})),
                           "findings.jsonl line 1: field recipe"),
    "a recipe string": (line_edit("findings.jsonl", 0, lambda r: r.update(recipe="mix")),
                        "findings.jsonl line 1: field recipe"),
    "a board number": (line_edit("findings.jsonl", 0, lambda r: r.update(board=5)),
                       "findings.jsonl line 1: field board"),
    "a deep campaign.json": (text_edit("campaign.json", '"seed": 1', '"seed": 1, "x": ' + DEEP),
                             "campaign.json: arrays or objects nested more than 64 deep"),
    "a deep answers line": (lambda out: (out / "answers.jsonl").write_text('{"index": 1, "results": ' + DEEP + "}\n"),
                            "answers.jsonl line 1: arrays or objects nested"),
    "a certificate without mode": (line_edit("certificates.jsonl", 0, lambda r: r.pop("mode")),
                                   "certificates.jsonl line 1: must contain ['mode']"),
    "a seed string": (text_edit("campaign.json", '"seed": 1', '"seed": "1"'), "campaign.json: field seed"),
    "a shrunk finding number": (lambda out: (out / "shrunk.jsonl").write_text('{"key": "k", "finding": 3}\n'),
                                "shrunk.jsonl line 1: field finding"),
}


@pytest.mark.parametrize("edit, named", EDITS.values(), ids=EDITS.keys())
def test_a_hand_edit_before_resume_is_exit_2_naming_the_file_line_and_field(base, tmp_path, capsys, edit, named):
    out = tmp_path / "c"
    shutil.copytree(base, out)
    (out / ".minecheck-digests").unlink()  # as a run of a minecheck that kept no digests: the reading is tested
    edit(out)
    capsys.readouterr()
    code = main(["fuzz", "--seed", "1", "--boards", "6", "--out", str(out), *FAST, "--certify", "--resume"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{out}/{named}" in err and err.count("\n") == 1, err


def test_verify_of_a_200000_deep_certificate_line_is_exit_2_naming_it(base, tmp_path, capsys):
    out = tmp_path / "c"
    shutil.copytree(base, out)
    with open(out / "certificates.jsonl", "a") as f:
        f.write('{"mode": "local", "reference": "exact", "certification": ' + DEEP + "}\n")
    capsys.readouterr()
    code = main(["verify", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "certificates.jsonl line" in err and "nested more than 64 deep" in err, err


def test_the_run_as_written_resumes_with_every_file_checked(base, tmp_path, capsys):
    out = tmp_path / "c"
    shutil.copytree(base, out)
    assert main(["fuzz", "--seed", "1", "--boards", "6", "--out", str(out), *FAST, "--certify", "--resume"]) == 1


@pytest.mark.parametrize("text, levels", [("1", 0), ("[]", 1), ('{"a": [[1]]}', 3), ('["[[[[", {"b": "}}"}]', 2),
                                          ('"\\"[["', 0), ("[" * 60 + "]" * 60, 60),
                                          ("[" * 200_000 + "]" * 200_000, MAX_DEPTH + 1)])
def test_depth_counts_brackets_outside_strings_without_parsing_up_to_one_past_the_most(text, levels):
    assert depth(text) == levels


def test_verify_runs_each_certificate_under_the_campaigns_budget(base, tmp_path, capsys, monkeypatch):
    """A proof that would take forever to check is stopped at the CPU budget of a solver call, and named."""
    import time

    from minecheck.check import certified

    out = tmp_path / "c"
    shutil.copytree(base, out)
    stored = json.loads((out / "campaign.json").read_text())
    stored["budget"]["cpu"] = 1.0
    (out / "campaign.json").write_text(json.dumps(stored))

    def forever(row, answer=None):
        while True:
            pass

    monkeypatch.setattr(certified, "verify_line", forever)  # the sandbox is forked from here: it checks so
    capsys.readouterr()
    began = time.monotonic()
    code = main(["verify", str(out)])
    printed = capsys.readouterr().out
    assert code == 1 and "not checked: Timeout: stopped at its CPU-time budget of 1 s" in printed, printed
    rows = sum(1 for line in (out / "certificates.jsonl").read_text().splitlines() if line.strip())
    assert printed.count("not checked") >= rows > 0
    assert time.monotonic() - began < 60 * rows


def test_a_baseline_nested_200000_deep_is_exit_2_naming_it(tmp_path, capsys):
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"schema": 1, "signatures": ' + DEEP + "}")
    code = main(["fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path / "c"), "--baseline", str(baseline),
                 *FAST])
    err = capsys.readouterr().err
    assert code == 2 and f"baseline {baseline}: arrays or objects nested more than 64 deep" in err, err


@pytest.mark.parametrize("text, named", [
    ("[" * 200_000 + "]" * 200_000, "nested more than 64 deep"),
    ('{"kind": "verdict", "cells": "1,2"}', "must contain"),
    ("not json", "not JSON"),
])
def test_a_broken_regression_fixture_is_bad_input_naming_the_file(tmp_path, text, named):
    from minecheck.campaigns.regressions import load
    from minecheck.model.errors import BadFile

    path = tmp_path / "fixture.json"
    path.write_text(text)
    with pytest.raises(BadFile, match="fixture.json") as caught:
        load(path)
    assert named in str(caught.value)
