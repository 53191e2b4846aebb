"""Tiny boards in batches: each solver gets many boards in one sandboxed run, with the guarantees of one run
per board - a solver that raises, spins, sticks in C, sleeps, allocates or dies costs a finding on the board it
was on, and every other board of the batch is answered as alone."""

from __future__ import annotations

import json

import hanging_solver
import pytest

from minecheck.boards.small import small_count, small_entry
from minecheck.campaigns.campaign import run_campaign
from minecheck.campaigns.fuzz import Config, board_recipe, check_index, tasks
from minecheck.check.crosscheck import check_board, check_boards
from minecheck.check.findings import Kind, read_findings
from minecheck.model.answers import Mode
from minecheck.model.budget import Budget
from minecheck.running.discovery import get_solver
from minecheck.running.registry import run_solver, run_solver_batch
from minecheck.running.sandbox import close_all

FAST = Budget(cpu=0.5, memory_mib=256, idle=1.0)
BOARDS = [small_entry(3, i).board for i in range(0, small_count(3), 3)]  # 60 boards of 1 to 3 cells
ITEMS = [(b, Mode.GLOBAL if b.total_mines is not None else Mode.LOCAL) for b in BOARDS]
DEADLY = [hanging_solver.dies_on(b) for b, _ in ITEMS]


def plain(result):
    return (result.consistent, result.cells, result.layouts, result.component_layouts)


def test_a_batch_gives_each_board_what_a_run_of_its_own_gives():
    for name in ("exact", "brute", "ilp@fixed", "dpll@fixed"):
        solver = get_solver(name)
        batch = run_solver_batch(solver, ITEMS, Budget(cpu=10))
        assert [plain(r) for r in batch] == [plain(run_solver(solver, b, m, budget=Budget(cpu=10))) for b, m in ITEMS]


@pytest.mark.parametrize("name, says", [
    (hanging_solver.RAISES_ON_SOME, "RuntimeError: deliberate failure"),
    (hanging_solver.SPINS_ON_SOME, "Timeout: stopped at its CPU-time budget of 0.5 s"),
    (hanging_solver.STUCK_IN_C_ON_SOME, "Timeout: stopped at its CPU-time budget of 0.5 s"),
    (hanging_solver.SLEEPS_ON_SOME, "Timeout: stopped after 1 s without using the CPU"),
    (hanging_solver.HUNGRY_ON_SOME, "MemoryError: stopped at its memory limit of 256 MiB"),
    (hanging_solver.DIE, "Died: the solver's process exited with status 3"),
])
def test_a_solver_failing_on_some_boards_of_a_batch_fails_on_those_alone(name, says):
    items = ITEMS[:12]  # 3 of them deadly
    deadly = DEADLY[:12]
    assert 0 < sum(deadly) < len(items)
    results = run_solver_batch(get_solver(name), items, FAST)
    assert [r.error is not None for r in results] == deadly
    assert all(r.error.startswith(says) for r, bad in zip(results, deadly) if bad), [r.error for r in results]
    truth = get_solver("exact")
    assert all(plain(r) == plain(truth.solve(b, m)) for r, (b, m), bad in zip(results, items, deadly) if not bad)
    again = run_solver(get_solver("exact"), *items[0], budget=FAST)  # and the thread's sandbox still works
    assert again.error is None


def test_check_boards_finds_what_check_board_finds_board_by_board():
    subjects = ["ilp@seed", "dpll@seed", "gibbs@fixed"]
    boards = [(b, None, i) for i, (b, _) in enumerate(ITEMS[::3])]
    together = check_boards(boards, subjects, references=("exact", "brute"), budget=Budget(cpu=10))
    alone = [check_board(b, subjects, references=("exact", "brute"), index=i, budget=Budget(cpu=10))
             for b, _, i in boards]
    assert [[f.to_json() for c in checks for f in c.findings] for checks in together] == \
        [[f.to_json() for c in checks for f in c.findings] for checks in alone]
    assert any(c.findings for checks in together for c in checks)


def test_a_small_sweep_campaign_checks_its_boards_in_batches_with_the_findings_of_one_board_at_a_time(tmp_path):
    config = Config(seed=1, subjects=("ilp@seed", "dpll@fixed"), references=("exact", "brute"), generator="small:3")
    assert [len(t) for t in tasks(config, iter(range(70)), batch=32)] == [32, 32, 6]
    mix = Config(seed=1)
    chunks = list(tasks(mix, iter(range(12)), batch=4))
    assert all(len(c) == 1 for c in chunks if board_recipe(mix, c[0]).generator != "small")
    assert sorted(i for c in chunks for i in c) == list(range(12))
    run_campaign(config, tmp_path, boards=40, jobs=2)
    found = sorted(f.to_json() for f in read_findings(tmp_path))
    assert found == sorted(f.to_json() for i in range(40) for f in check_index(config, i).findings) != []


def test_a_worker_killed_in_a_batch_costs_a_crash_on_its_own_boards_and_the_rest_are_checked(tmp_path, unjailed):
    config = Config(3, (hanging_solver.KILL_WORKER,), ("exact",), "small:2")
    deadly = {i for i in range(small_count(2)) if hanging_solver.dies_on(small_entry(2, i).board)}
    assert 0 < len(deadly) < small_count(2)
    run_campaign(config, tmp_path, jobs=2)
    findings = read_findings(tmp_path)
    assert {f.index for f in findings} == deadly
    assert all(f.kind is Kind.CRASH and "worker process died" in f.subject_says for f in findings)
    lines = [json.loads(line) for line in (tmp_path / "boards.jsonl").read_text().splitlines()]
    assert sorted(line["index"] for line in lines) == list(range(small_count(2)))


def test_a_dying_solver_in_a_batch_costs_a_crash_on_its_own_boards(tmp_path):
    config = Config(3, (hanging_solver.DIE,), ("exact",), "small:3")
    run_campaign(config, tmp_path, boards=64, jobs=1)
    deadly = {i for i in range(64) if hanging_solver.dies_on(small_entry(3, i).board)}
    findings = read_findings(tmp_path)
    assert {f.index for f in findings} == deadly and deadly
    assert all(f.kind is Kind.CRASH and "exited with status 3" in f.subject_says for f in findings)
    close_all()
