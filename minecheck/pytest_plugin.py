"""minecheck's pytest plugin, found by pytest through the ``pytest11`` entry point of the installed package.

* markers: ``minecheck`` (a test of a solver with minecheck; given to every corpus test, so
  ``-m minecheck`` selects them) and ``nightly`` (a long test, skipped unless the nightly profile
  is chosen);
* hypothesis profiles ``minecheck-ci`` (derandomized, few examples) and ``minecheck-nightly``
  (random, many examples), loaded only when chosen with ``--minecheck-profile=ci|nightly`` or the
  environment variable ``MINECHECK_PROFILE``: otherwise the project's own profile stays in force;
* the fixture ``minecheck_board``: every board file in the project's corpus folder (ini option
  ``minecheck_corpus``, default ``minecheck-corpus``), ``*.mine`` board text and minecheck's
  regression ``*.json`` files alike, one parametrized test each, named after the file.

It imports nothing heavy until a test asks for a board, since pytest loads it in every run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from minecheck.model.errors import BadFile

PROFILE_OPTION = "--minecheck-profile"
PROFILE_VARIABLE = "MINECHECK_PROFILE"
PROFILES = ("ci", "nightly")
CORPUS_INI = "minecheck_corpus"
CORPUS_DEFAULT = "minecheck-corpus"
BOARD_SUFFIXES = (".mine", ".json")
FIXTURE = "minecheck_board"
CI_EXAMPLES = 50
NIGHTLY_EXAMPLES = 2000
_previous = pytest.StashKey[str]()  # the hypothesis profile in force before ours was loaded


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("minecheck")
    group.addoption(PROFILE_OPTION, choices=PROFILES, default=None,
                    help=f"load the hypothesis profile minecheck-ci (derandomized, {CI_EXAMPLES} examples) or "
                         f"minecheck-nightly ({NIGHTLY_EXAMPLES} random examples, and run tests marked nightly); "
                         f"default: ${PROFILE_VARIABLE}, else the project's own profile")
    parser.addini(CORPUS_INI, default=CORPUS_DEFAULT,
                  help="folder of boards (*.mine, minecheck regression *.json) that the minecheck_board fixture "
                       "replays, one test each; relative to the rootdir")


def chosen_profile(config: pytest.Config) -> str | None:
    """The profile asked for by the option, else by the environment variable; None when neither is given."""
    chosen = config.getoption(PROFILE_OPTION) or os.environ.get(PROFILE_VARIABLE) or None
    if chosen is not None and chosen not in PROFILES:
        raise pytest.UsageError(f"{PROFILE_VARIABLE}={chosen!r}: expected one of {', '.join(PROFILES)}")
    return chosen


def register_profiles() -> None:
    """The two hypothesis profiles; solver runs are slow to generate and to run, so neither has a deadline."""
    from hypothesis import HealthCheck, settings

    slow = [HealthCheck.too_slow]
    settings.register_profile("minecheck-ci", derandomize=True, database=None, max_examples=CI_EXAMPLES,
                              deadline=None, print_blob=True, suppress_health_check=slow)
    settings.register_profile("minecheck-nightly", derandomize=False, max_examples=NIGHTLY_EXAMPLES,
                              deadline=None, print_blob=True, suppress_health_check=slow)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "minecheck: a test of a solver with minecheck (strategies, assert_agree, "
                                       "the corpus of boards)")
    config.addinivalue_line("markers", f"nightly: a long test, run only with {PROFILE_OPTION}=nightly "
                                       f"(or {PROFILE_VARIABLE}=nightly)")
    profile = chosen_profile(config)
    if profile is None:
        return
    try:
        from hypothesis import settings
    except ImportError:
        raise pytest.UsageError(f"{PROFILE_OPTION} chooses a hypothesis profile, but hypothesis is not "
                                "installed") from None
    register_profiles()
    config.stash[_previous] = settings.get_current_profile_name()
    settings.load_profile(f"minecheck-{profile}")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Put back the profile that was in force, so that a run inside another (pytester) leaves no trace."""
    previous = config.stash.get(_previous, None)
    if previous is not None:
        from hypothesis import settings

        settings.load_profile(previous)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    nightly = chosen_profile(config) == "nightly"
    skip = pytest.mark.skip(reason=f"nightly: runs with {PROFILE_OPTION}=nightly or {PROFILE_VARIABLE}=nightly")
    for item in items:
        if item.get_closest_marker("nightly") is not None and not nightly:
            item.add_marker(skip)
        if FIXTURE in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.minecheck)


# -- the corpus ---------------------------------------------------------------------------------

def corpus_folder(config: pytest.Config) -> Path:
    folder = Path(config.getini(CORPUS_INI))
    return folder if folder.is_absolute() else config.rootpath / folder


def corpus_files(folder: Path) -> list[Path]:
    """Every board file under the folder (subfolders too), in name order."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in BOARD_SUFFIXES and p.is_file())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if FIXTURE not in metafunc.fixturenames:
        return
    folder = corpus_folder(metafunc.config)
    files = corpus_files(folder)
    if not files:
        why = f"no board files (*.mine, *.json) in {folder} (ini option {CORPUS_INI})"
        metafunc.parametrize(FIXTURE, [pytest.param(None, marks=pytest.mark.skip(reason=why))], ids=["no-corpus"],
                             indirect=True)
        return
    metafunc.parametrize(FIXTURE, files, ids=[p.relative_to(folder).as_posix() for p in files], indirect=True)


def load_board(path: Path):
    """The board a corpus file holds: board text (``.mine``), or the board of a saved finding (``.json``)."""
    from minecheck.model.boardtext import parse_board
    from minecheck.model.errors import BoardFormatError

    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        from minecheck.campaigns.regressions import load

        text = load(path).board  # checked before use: BadFile naming the file and the field
    try:
        return parse_board(text)
    except BoardFormatError as err:
        raise BadFile(f"{path}: {err}") from None


@pytest.fixture
def minecheck_board(request: pytest.FixtureRequest):
    """One board of the corpus folder (a minecheck Board, hidden truth as the file has it)."""
    return load_board(request.param)

