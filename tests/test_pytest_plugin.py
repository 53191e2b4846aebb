"""The pytest plugin, as a user's project meets it: found by entry point, markers, profiles, the corpus fixture."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest
from hypothesis import settings

from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import Mode
from minecheck.pytest_plugin import CI_EXAMPLES, NIGHTLY_EXAMPLES

pytest_plugins = ["pytester"]

# a user's test module: the corpus fixture, both markers, and a property test that reports its settings
USER_TESTS = """
import pytest
from hypothesis import given, settings
from minecheck import strategies
from minecheck.model.board import Board


def test_corpus(minecheck_board):
    assert isinstance(minecheck_board, Board)


@pytest.mark.nightly
def test_long():
    pass


@pytest.mark.minecheck
@given(strategies.boards(width=(1, 2), height=(1, 2)))
def test_profile(board):
    current = settings.default
    print("PROFILE", current.max_examples, current.derandomize)
"""


@pytest.fixture(autouse=True)
def no_profile_from_outside(monkeypatch):
    """The runs below choose their profile themselves, whatever this run was started with."""
    monkeypatch.delenv("MINECHECK_PROFILE", raising=False)


def user_project(pytester: pytest.Pytester, corpus: bool = True) -> None:
    pytester.makepyfile(test_user=USER_TESTS)
    if corpus:
        folder = pytester.mkdir("minecheck-corpus")
        (folder / "one-two-one.mine").write_text("3x2\nHHH\n121\n")
        (folder / "nested").mkdir()
        (folder / "nested" / "corner.mine").write_text("HH/H3".replace("/", "\n"))
        finding = Finding(Kind.VERDICT, "dpll@seed", "exact", Mode.LOCAL, (0,), "safe", "mine", "2x1\nH1\n")
        (folder / "verdict-dpll@seed-local-0000.json").write_text(finding.to_json())
        (folder / "notes.txt").write_text("not a board: left out")


def test_the_plugin_is_registered_under_pytest11():
    assert [ep.value for ep in entry_points(group="pytest11") if ep.name == "minecheck"] == ["minecheck.pytest_plugin"]


def test_every_corpus_file_is_a_test_named_after_it(pytester):
    user_project(pytester)
    result = pytester.runpytest("--strict-markers", "-k", "corpus", "-v")
    result.assert_outcomes(passed=3, deselected=2)
    result.stdout.fnmatch_lines(["*test_corpus?nested/corner.mine? PASSED*", "*test_corpus?one-two-one.mine? PASSED*",
                                 "*test_corpus?verdict-dpll@seed-local-0000.json? PASSED*"])


def test_the_corpus_folder_is_an_ini_option_and_a_missing_one_skips_with_its_reason(pytester):
    user_project(pytester, corpus=False)
    pytester.makeini("[pytest]\nminecheck_corpus = boards/mine\n")
    result = pytester.runpytest("-k", "corpus", "-rs")
    result.assert_outcomes(skipped=1, deselected=2)
    result.stdout.fnmatch_lines(["*no board files (*.mine, *.json) in *boards?mine*"])


def test_a_bad_corpus_file_fails_its_own_test_only(pytester):
    user_project(pytester)
    (pytester.path / "minecheck-corpus" / "broken.mine").write_text("3x2\nHHH\n12\n")
    result = pytester.runpytest("-k", "corpus")
    result.assert_outcomes(passed=3, errors=1, deselected=2)
    result.stdout.fnmatch_lines(["*broken.mine: line 3, column 3: row has 2 cells, expected 3*"])


def test_without_a_profile_nightly_tests_are_skipped_and_the_projects_settings_stay(pytester):
    user_project(pytester)
    before = settings.get_current_profile_name()
    result = pytester.runpytest("--strict-markers", "-rs", "-s")
    result.assert_outcomes(passed=4, skipped=1)
    result.stdout.fnmatch_lines(["*nightly: runs with --minecheck-profile=nightly or MINECHECK_PROFILE=nightly*"])
    assert f"PROFILE {settings.default.max_examples} {settings.default.derandomize}" in result.stdout.str()
    assert settings.get_current_profile_name() == before


def test_the_ci_profile_is_derandomized_and_short(pytester):
    user_project(pytester)
    result = pytester.runpytest("--minecheck-profile=ci", "-s")
    result.assert_outcomes(passed=4, skipped=1)
    assert f"PROFILE {CI_EXAMPLES} True" in result.stdout.str()


def test_the_nightly_profile_is_random_long_and_runs_nightly_tests(pytester, monkeypatch):
    user_project(pytester)
    monkeypatch.setenv("MINECHECK_PROFILE", "nightly")
    before = settings.get_current_profile_name()
    result = pytester.runpytest("-s", "-k", "not test_profile")
    result.assert_outcomes(passed=4, deselected=1)
    assert settings.get_current_profile_name() == before, "the inner run put the outer profile back"
    assert settings.get_profile("minecheck-nightly").max_examples == NIGHTLY_EXAMPLES
    assert not settings.get_profile("minecheck-nightly").derandomize


def test_corpus_tests_carry_the_minecheck_marker(pytester):
    user_project(pytester)
    result = pytester.runpytest("-m", "minecheck")
    result.assert_outcomes(passed=4, deselected=1)


def test_an_unknown_profile_in_the_environment_is_a_usage_error(pytester, monkeypatch):
    user_project(pytester)
    monkeypatch.setenv("MINECHECK_PROFILE", "weekly")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*MINECHECK_PROFILE='weekly': expected one of ci, nightly*"])
