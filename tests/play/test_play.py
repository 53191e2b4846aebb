"""Play runs: every game replays alone, the same games whatever the parallelism, resume after a kill,
a player that crashes, spins or kills its worker loses that game and the run goes on, summary.json."""

from __future__ import annotations

import json
from pathlib import Path

import hanging_solver
import pytest

from minecheck.cli import main
from minecheck.model.budget import Budget
from minecheck.play.run import PlayConfig, play_game, read_findings, read_games, run_play, write_summary

# gibbs@seed makes a bad decision in most Beginner games: findings to carry through a kill
FAST = PlayConfig(seed=3, players=("exact", "gibbs@seed"), size="beginner", budget=Budget(cpu=10))


def game_lines(out: Path) -> list[str]:
    """The games as sorted JSON, without the timings (which differ from run to run)."""
    keep = ("player", "index", "won", "outcome", "error", "turns", "findings")
    return sorted(json.dumps({k: g[k] for k in keep}) for g in read_games(out))


def finding_lines(out: Path) -> list[str]:
    return sorted(f.to_json() for f in read_findings(out))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("play")
    run_play(FAST, out, games=6, jobs=2)
    return out


def test_every_game_replays_alone_from_seed_and_index(uninterrupted):
    recorded = {(g["player"], g["index"]): g for g in read_games(uninterrupted)}
    assert len(recorded) == 12
    for name, index in [("exact", 4), ("gibbs@seed", 5), ("gibbs@seed", 0)]:
        again = play_game(FAST, name, index).as_json()
        for key in ("won", "outcome", "turns", "findings"):
            assert again[key] == recorded[name, index][key]


def test_one_or_two_processes_play_the_same_games(uninterrupted, tmp_path):
    run_play(FAST, tmp_path, games=6, jobs=1)
    assert game_lines(tmp_path) == game_lines(uninterrupted)
    assert finding_lines(tmp_path) == finding_lines(uninterrupted) != []


def test_resume_after_a_kill_ends_with_the_games_and_findings_of_an_uninterrupted_run(uninterrupted, tmp_path):
    run_play(FAST, tmp_path, games=6, jobs=2)
    # the kill: four games recorded and a fifth torn in half; the findings of a game whose line never came
    games = (tmp_path / "games.jsonl").read_text().splitlines()
    kept = {(json.loads(line)["player"], json.loads(line)["index"]) for line in games[:4]}
    findings = (tmp_path / "findings.jsonl").read_text().splitlines()
    assert any((json.loads(f)["subject"], json.loads(f)["index"]) not in kept for f in findings)
    (tmp_path / "games.jsonl").write_text("".join(line + "\n" for line in games[:4]) + games[4][:30])
    (tmp_path / ".minecheck-digests").unlink()  # cut by hand, not by a kill: the digests of 6 games would refuse it
    played = []
    run_play(FAST, tmp_path, games=6, jobs=2, resume=True, on_game=lambda r, p: played.append((r.player, r.index)))
    assert len(played) == 8 and not set(played) & kept
    assert game_lines(tmp_path) == game_lines(uninterrupted)
    assert finding_lines(tmp_path) == finding_lines(uninterrupted)


def test_resuming_another_run_is_refused_naming_what_differs(uninterrupted, capsys):
    code = main(["play", "--solvers", "exact", "--games", "6", "--size", "expert", "--seed", "3",
                 "--out", str(uninterrupted), "--resume", "--no-report", "--no-progress"])
    assert code == 2 and "size: 'beginner' -> 'expert'" in capsys.readouterr().err


def test_a_crashing_or_spinning_player_loses_each_game_with_its_error_and_the_run_goes_on(tmp_path):
    config = PlayConfig(3, (hanging_solver.RAISE, hanging_solver.SPIN, "exact"), "beginner", budget=Budget(cpu=0.5))
    run_play(config, tmp_path, games=2, jobs=2)
    games = {(g["player"], g["index"]): g for g in read_games(tmp_path)}
    assert len(games) == 6
    for index in (0, 1):
        assert "deliberate failure" in games[hanging_solver.RAISE, index]["error"]
        assert "Timeout" in games[hanging_solver.SPIN, index]["error"]
        assert not games[hanging_solver.RAISE, index]["won"] and not games[hanging_solver.SPIN, index]["won"]
        assert games["exact", index]["error"] is None
    summary = write_summary(tmp_path)
    assert summary["solvers"][hanging_solver.RAISE]["errors"] == 2


def test_a_player_that_kills_its_worker_loses_that_game_and_the_run_goes_on(tmp_path, unjailed):
    config = PlayConfig(3, (hanging_solver.KILL_WORKER, "exact"), "5x5x3", budget=Budget(cpu=5))  # 3 mines: it kills
    run_play(config, tmp_path, games=1, jobs=2)
    games = {(g["player"], g["index"]): g for g in read_games(tmp_path)}
    assert len(games) == 2
    assert "worker process died" in games[hanging_solver.KILL_WORKER, 0]["error"]
    assert games["exact", 0]["error"] is None


def test_summary_json_holds_each_solver_s_games_wins_interval_speed_and_findings(uninterrupted):
    summary = write_summary(uninterrupted)
    assert (summary["size"], summary["first_click"], summary["seed"]) == ("beginner", "safe-3x3", 3)
    for name in FAST.players:
        row = summary["solvers"][name]
        assert row["games"] == 6 and 0 <= row["wins"] <= 6
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
        assert row["games_per_s"] > 0
    assert summary["solvers"]["exact"]["decision_findings"] == 0
    assert summary["solvers"]["gibbs@seed"]["decision_findings"] == len(
        [f for f in read_findings(uninterrupted) if f.subject == "gibbs@seed"]) > 0
    assert json.loads((uninterrupted / "summary.json").read_text()) == summary


@pytest.mark.parametrize("option", [("--solvers", "nope@seed"), ("--size", "huge"), ("--size", "3x3x9")])
def test_bad_input_exits_2_before_any_game(tmp_path, capsys, option):
    out = tmp_path / "out"
    args = ["play", "--games", "1", "--seed", "1", "--out", str(out), "--no-progress", "--no-report", *option]
    assert main(args) == 2
    assert not out.exists()


def test_play_exits_1_when_a_decision_was_bad_and_0_when_none_was(tmp_path):
    common = ["--games", "2", "--seed", "3", "--no-progress", "--no-report"]
    assert main(["play", "--solvers", "exact", "--out", str(tmp_path / "a"), *common]) == 0
    assert main(["play", "--solvers", "gibbs@seed", "--out", str(tmp_path / "b"), *common]) == 1
