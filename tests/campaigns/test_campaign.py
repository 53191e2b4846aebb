"""Fuzz campaigns: replayable boards, the same findings whatever the parallelism, resume after a kill,
misbehaving solvers reported as findings, and the ``minecheck fuzz`` exit codes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import hanging_solver
import pytest

from minecheck.boards.generators import generate_board
from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config, board_recipe, check_index
from minecheck.check.findings import WHOLE_BOARD, Kind, read_findings
from minecheck.cli import main
from minecheck.model.budget import Budget

# small, fast boards; ilp@seed finds something on nearly every board, ilp@fixed on none
SMALL = Config(seed=1, subjects=("ilp@seed", "ilp@fixed"), references=("exact",), generator="reveal",
               budget=Budget(cpu=5.0))


def finding_lines(out: Path) -> list[str]:
    """The campaign's findings as sorted JSON lines (duplicates kept, so doubling would show)."""
    return sorted(f.to_json() for f in read_findings(out))


def board_indices(out: Path) -> list[int]:
    return sorted(json.loads(line)["index"] for line in (out / "boards.jsonl").read_text().splitlines())


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    """Eight boards of SMALL, checked in one go on two processes."""
    out = tmp_path_factory.mktemp("uninterrupted")
    run_campaign(SMALL, out, boards=8, jobs=2)
    return out


def test_every_board_replays_alone_from_seed_and_index(uninterrupted):
    findings = read_findings(uninterrupted)
    assert findings, "the comparison below would be empty"
    for index in range(8):
        in_campaign = sorted(f.to_json() for f in findings if f.index == index)
        assert sorted(f.to_json() for f in check_index(SMALL, index).findings) == in_campaign


def test_the_same_seed_gives_the_same_findings_on_one_or_two_processes(uninterrupted, tmp_path):
    run_campaign(SMALL, tmp_path, boards=8, jobs=1)
    assert finding_lines(tmp_path) == finding_lines(uninterrupted) != []
    # settled in board order, whatever order the workers finished in: the very same file
    assert (tmp_path / "findings.jsonl").read_text() == (uninterrupted / "findings.jsonl").read_text()
    # the boards checked again wrote their certificates again: still one line each, in board order
    assert (tmp_path / "certificates.jsonl").read_text() == (uninterrupted / "certificates.jsonl").read_text()


def test_another_seed_gives_other_boards():
    other = Config(2, SMALL.subjects, SMALL.references, SMALL.generator, SMALL.budget)
    assert [board_recipe(SMALL, i) for i in range(8)] != [board_recipe(other, i) for i in range(8)]


def test_resume_after_a_kill_ends_with_the_findings_of_an_uninterrupted_run(uninterrupted, tmp_path):
    run_campaign(SMALL, tmp_path, boards=8, jobs=2)
    # the kill: three boards recorded; one more board's findings written but not its board line;
    # then a finding line torn in half
    board_lines = (tmp_path / "boards.jsonl").read_text().splitlines()
    kept = {json.loads(line)["index"] for line in board_lines[:3]}
    lines = (tmp_path / "findings.jsonl").read_text().splitlines()
    index_of = [json.loads(line)["index"] for line in lines]
    half_done = next(i for i in index_of if i not in kept)
    torn = next(line for line, i in zip(lines, index_of) if i not in kept | {half_done})
    (tmp_path / "boards.jsonl").write_text("".join(line + "\n" for line in board_lines[:3]))
    (tmp_path / ".minecheck-digests").unlink()  # cut by hand, not by a kill: the digests of 8 boards would refuse it
    (tmp_path / "findings.jsonl").write_text(
        "".join(line + "\n" for line, i in zip(lines, index_of) if i in kept | {half_done}) + torn[:len(torn) // 2])

    checked = []
    run_campaign(SMALL, tmp_path, boards=8, jobs=2, resume=True, on_outcome=lambda o, p: checked.append(o.index))

    assert sorted(checked) == sorted(set(range(8)) - kept)
    assert board_indices(tmp_path) == list(range(8))
    assert finding_lines(tmp_path) == finding_lines(uninterrupted)
    assert (tmp_path / "findings.jsonl").read_text() == (uninterrupted / "findings.jsonl").read_text()


def test_resuming_with_other_options_is_refused_naming_them(tmp_path, capsys):
    run_campaign(SMALL, tmp_path, boards=1, jobs=1)
    code = main(["fuzz", "--seed", "7", "--boards", "2", "--out", str(tmp_path), "--solvers", "ilp@seed,ilp@fixed",
                 "--references", "exact", "--generator", "reveal", "--timeout", "5", "--resume", "--no-report",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot resume" in err and "seed: 1 -> 7" in err
    assert board_indices(tmp_path) == [0]


def test_a_hanging_solver_becomes_a_timeout_finding_and_the_campaign_goes_on(tmp_path):
    config = Config(3, (hanging_solver.HANG,), ("exact",), "reveal", Budget(cpu=0.3, idle=0.5))
    run_campaign(config, tmp_path, boards=3, jobs=2)
    timeouts = [f for f in read_findings(tmp_path) if f.kind is Kind.TIMEOUT and f.subject == hanging_solver.HANG]
    assert sorted({f.index for f in timeouts}) == [0, 1, 2]
    assert all("without using the CPU" in f.subject_says for f in timeouts)
    assert board_indices(tmp_path) == [0, 1, 2]


def test_a_raising_solver_becomes_a_crash_finding(tmp_path):
    config = Config(3, (hanging_solver.RAISE,), ("exact",), "reveal")
    run_campaign(config, tmp_path, boards=2, jobs=2)
    crashes = [f for f in read_findings(tmp_path) if f.kind is Kind.CRASH]
    assert sorted({f.index for f in crashes}) == [0, 1]
    assert all("RuntimeError: deliberate failure" in f.subject_says for f in crashes)


def test_a_solver_that_ends_its_process_is_a_crash_finding_on_its_boards_only(tmp_path):
    config = Config(3, (hanging_solver.DIE,), ("exact",), "reveal")
    deadly = {i for i in range(6) if hanging_solver.dies_on(generate_board(board_recipe(config, i)))}
    assert 0 < len(deadly) < 6, "the test needs boards that kill the solver and boards that do not"
    run_campaign(config, tmp_path, boards=6, jobs=2)
    findings = read_findings(tmp_path)
    assert {f.index for f in findings} == deadly
    assert all(f.kind is Kind.CRASH and f.subject == hanging_solver.DIE and "exited with status 3" in f.subject_says
               for f in findings)


def test_a_dead_worker_is_a_crash_finding_on_its_own_board_and_the_others_are_checked(tmp_path, unjailed):
    config = Config(3, (hanging_solver.KILL_WORKER,), ("exact",), "reveal")
    deadly = {i for i in range(8) if hanging_solver.dies_on(generate_board(board_recipe(config, i)))}
    assert 0 < len(deadly) < 8, "the test needs boards that kill the worker and boards that do not"
    run_campaign(config, tmp_path, boards=8, jobs=2)
    findings = read_findings(tmp_path)
    assert {f.index for f in findings} == deadly
    assert all(f.kind is Kind.CRASH and f.detail == WHOLE_BOARD and "worker process died" in f.subject_says
               for f in findings)
    assert board_indices(tmp_path) == list(range(8))


def fuzz(tmp_path, *options) -> int:
    return main(["fuzz", "--seed", "1", "--out", str(tmp_path), "--references", "exact", "--generator", "reveal",
                 "--jobs", "2", "--no-report", "--no-progress", *options])


def test_fuzz_exits_1_when_there_are_findings(tmp_path):
    assert fuzz(tmp_path, "--boards", "3", "--solvers", "ilp@seed") == 1


def test_fuzz_exits_0_when_there_are_none(tmp_path):
    assert fuzz(tmp_path, "--boards", "3", "--solvers", "ilp@fixed") == 0
    assert board_indices(tmp_path) == [0, 1, 2]


def test_fuzz_time_budget_stops_the_campaign_with_boards_checked(tmp_path):
    start = time.perf_counter()
    fuzz(tmp_path, "--time-budget", "3", "--solvers", "ilp@fixed")
    assert time.perf_counter() - start < 15
    assert len(board_indices(tmp_path)) >= 2


@pytest.mark.parametrize("option", [("--solvers", "nope@seed"), ("--references", "nope"), ("--generator", "nope")])
def test_unknown_names_exit_2_before_any_work(tmp_path, capsys, option):
    out = tmp_path / "out"
    code = main(["fuzz", "--seed", "1", "--boards", "1", "--out", str(out), "--no-progress", *option])
    err = capsys.readouterr().err
    assert code == 2 and "unknown" in err and "'nope" in err
    assert not out.exists()


def test_a_dask_cluster_gives_the_same_findings_as_local_processes(uninterrupted, tmp_path):
    import distributed  # in the test extra: a missing dask fails here rather than skipping

    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        run_campaign(SMALL, tmp_path, boards=8, jobs=2, scheduler=cluster.scheduler_address)
    assert finding_lines(tmp_path) == finding_lines(uninterrupted)
    assert board_indices(tmp_path) == list(range(8))


def test_the_fixed_variants_and_the_references_raise_no_false_alarm_on_the_default_mix(tmp_path):
    """The nightly's 10,000-board false-alarm run (docs/teeth.md), short: every kind of board in the mix."""
    from minecheck.running.catalogue import FIXED_VARIANTS, REFERENCES

    config = Config(seed=20261202, subjects=FIXED_VARIANTS, references=REFERENCES, generator="mix",
                    budget=Budget(cpu=10.0))
    run_campaign(config, tmp_path, boards=51, jobs=2)
    kinds = {json.loads(line)["generator"].split()[0] for line in (tmp_path / "boards.jsonl").read_text().splitlines()}
    assert kinds - {"search"} == {"small", "play", "reveal", "edge", "contradict", "swarm", "numeric", "guess",
                                  "sample", "finished", "endgame", "decided", "opening"}  # search: where one came close
    assert read_findings(tmp_path) == []


# -- the small-board sweep and swarm boards in campaigns ------------------------------------------

def test_small_n_board_i_is_board_i_of_the_sweep_whatever_the_campaign_seed():
    from minecheck.boards.small import small_count, small_recipe

    recipes = [board_recipe(Config(seed=s, generator="small:5"), i) for s in (1, 2) for i in (0, 7, 3046)]
    assert recipes == [small_recipe(5, i) for i in (0, 7, 3046)] * 2
    assert small_count(5) == 3047
    with pytest.raises(IndexError, match="0 to 3046"):
        board_recipe(Config(seed=1, generator="small:5"), 3047)


@pytest.mark.parametrize("name", ["small", "small:0", "small:9", "small:x"])
def test_a_bad_sweep_name_exits_2(tmp_path, capsys, name):
    code = main(["fuzz", "--seed", "1", "--boards", "1", "--out", str(tmp_path / "out"), "--no-progress",
                 "--generator", name])
    assert code == 2 and "small" in capsys.readouterr().err


def test_small_n_without_boards_checks_the_whole_sweep_and_with_boards_its_first(tmp_path):
    whole, first = tmp_path / "whole", tmp_path / "first"
    assert fuzz(whole, "--solvers", "ilp@fixed", "--generator", "small:2") == 0  # the later --generator wins
    assert board_indices(whole) == list(range(40))
    lines = [json.loads(line) for line in (whole / "boards.jsonl").read_text().splitlines()]
    assert lines[0]["generator"] == "small index=0 n=2 seed=0" and lines[0]["features"] == ["board 0 of small:2",
                                                                                           "consistent"]
    assert fuzz(first, "--solvers", "ilp@fixed", "--generator", "small:2", "--boards", "5") == 0
    assert board_indices(first) == list(range(5))
    assert fuzz(tmp_path / "capped", "--solvers", "ilp@fixed", "--generator", "small:1", "--boards", "99") == 0
    assert board_indices(tmp_path / "capped") == list(range(10))


def test_a_generator_without_an_end_needs_boards_or_a_time_budget(tmp_path, capsys):
    assert fuzz(tmp_path / "out", "--solvers", "ilp@fixed") == 2
    assert "--boards or --time-budget" in capsys.readouterr().err


def test_swarm_boards_carry_their_features_in_the_board_lines(tmp_path):
    from minecheck.boards.swarm import swarm_features

    config = Config(seed=5, subjects=("ilp@fixed",), references=("exact",), generator="swarm")
    run_campaign(config, tmp_path, boards=3, jobs=1)
    lines = [json.loads(line) for line in (tmp_path / "boards.jsonl").read_text().splitlines()]
    assert [line["generator"].split()[0] for line in lines] == ["swarm"] * 3
    assert [line["features"] for line in lines] == [list(swarm_features(board_recipe(config, i))) for i in range(3)]
