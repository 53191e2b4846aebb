"""Regression fixtures: every shrunk defect in fixtures/regressions is still shown by its solver.

The seed variants keep their articles' defects on purpose, so each file there must keep
failing the same way; when one stops, this says which.  Saving: one file per defect, named by
what it is, written by ``minecheck fuzz --save-regressions`` or ``minecheck save-regression``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from shared import FIXTURES

from minecheck.campaigns.regressions import load, save
from minecheck.check.findings import WHOLE_BOARD, Kind, file_name, read_findings
from minecheck.check.shrink import still_shows
from minecheck.cli import main
from minecheck.model.boardtext import parse_board

DIRECTORY = FIXTURES / "regressions"
SAVED = sorted(p.name for p in DIRECTORY.glob("*.json"))
EMPTY = "(fixtures/regressions holds no regression)"


def replays(finding) -> bool:
    return still_shows(finding)(parse_board(finding.board)) is not None


@pytest.mark.parametrize("name", SAVED or [EMPTY])  # never an empty parameter list: that would only skip
def test_each_saved_defect_is_still_shown(name):
    assert name != EMPTY, "seed fixtures/regressions: minecheck fuzz --seed 2 --boards 30 ... --save-regressions"
    finding = load(DIRECTORY / name)
    assert replays(finding), f"{finding.subject} no longer shows this {finding.kind.value} finding: {name}"


def test_saved_regressions_are_named_by_what_they_are():
    assert SAVED and all(file_name(load(DIRECTORY / name)) == name for name in SAVED)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    """A two-board campaign of ilp@seed, its shrunk findings saved by --save-regressions."""
    out = tmp_path_factory.mktemp("campaign")
    code = main(["fuzz", "--seed", "1", "--boards", "2", "--out", str(out), "--solvers", "ilp@seed",
                 "--references", "exact", "--generator", "reveal", "--jobs", "1", "--no-report", "--no-progress",
                 "--save-regressions", str(out / "saved")])
    assert code == 1
    return out


def test_fuzz_save_regressions_writes_shrunk_findings_that_replay(campaign):
    saved = load_all(campaign / "saved")
    assert saved
    originals = read_findings(campaign)
    smallest = min(len(parse_board(f.board).cells) for f in originals)
    for finding in saved.values():
        assert replays(finding)
        assert len(parse_board(finding.board).cells) < smallest


def test_save_regression_command_saves_finding_number_n(campaign, tmp_path, capsys):
    assert main(["save-regression", str(campaign), "0", "--to", str(tmp_path)]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert path.parent == tmp_path and path.exists()
    assert replays(load(path))


def test_save_regression_with_no_such_number_exits_2(campaign, tmp_path, capsys):
    assert main(["save-regression", str(campaign), "999", "--to", str(tmp_path)]) == 2
    assert "not 999" in capsys.readouterr().err


def test_save_and_load_all_round_trip_one_file_per_defect(tmp_path):
    finding = load(DIRECTORY / SAVED[0])
    path = save(finding, tmp_path)
    save(finding, tmp_path)
    assert re.fullmatch(r"[a-z]+-[a-z]+@[a-z]+-(local|global)-[0-9a-f]{8}\.json", path.name)
    assert load_all(tmp_path) == {path.name: finding}


@pytest.mark.parametrize("change", [{"kind": Kind.TIMEOUT}, {"detail": WHOLE_BOARD}])
def test_findings_too_slow_or_impossible_to_replay_are_not_saved(tmp_path, change):
    finding = dataclasses.replace(load(DIRECTORY / SAVED[0]), **change)
    with pytest.raises(ValueError, match="not saved"):
        save(finding, tmp_path)
    assert not list(tmp_path.iterdir())


def load_all(directory: Path) -> dict[str, object]:
    """Every saved finding, by file name."""
    return {p.name: load(p) for p in sorted(directory.glob("*.json"))}
