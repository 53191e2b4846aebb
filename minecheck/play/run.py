"""Play runs: whole games, every player on the same deals, every decision cross-checked.

Game ``index`` of a run is dealt from (seed, index) alone (``minecheck.play.game``), so every player
meets the same boards and any game replays alone (``play_game``).  A run's directory holds:

  play.json       the configuration (a resumed run must match it)
  games.jsonl     one line per game played: player, index, outcome, every move by decision, time
  findings.jsonl  one line per bad decision (kind ``decision``), written before its game's line
  summary.json    the win-rate table: games, wins, Wilson 95% interval, games/s, findings; with
                  ``judge`` "optimal", also ``optimal``: the perfect-play value of the run's game from
                  its own first click under its rule (``{"value": "A/B", "win_rate": float}``)

A killed run loses at most the games in flight: ``resume`` drops torn lines and the findings of
games without a game line, then plays only the (player, index) pairs not yet in games.jsonl.
A player that raises or runs past its budget loses that game, with the error on the game's
line; a worker process that dies takes the games in flight with it, and they are replayed one
at a time, so that the death is pinned on its game (lost, with the reason) and the run goes on.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from minecheck.check.findings import Finding, read_findings
from minecheck.engine.counter import count_board
from minecheck.model.answers import Mode
from minecheck.model.board import label
from minecheck.model.boardtext import format_board
from minecheck.model.budget import Budget
from minecheck.model.errors import BadOption
from minecheck.model.position import render
from minecheck.play import game as rules
from minecheck.play import oracle
from minecheck.play.decisions import DECISION_MARGIN, JUDGES, OPTIMAL_MARGIN, as_finding, judge_with
from minecheck.play.game import Action, FirstClick, Game, Move, game_seed, parse_size, play_move, view
from minecheck.play.player import Player
from minecheck.play.players import get_player
from minecheck.play.winrate import WinRate
from minecheck.running.discovery import announce_jail, remember, require_runnable
from minecheck.running.runfolder import SUMMARY, RunFolder, Warn, holding, write_json
from minecheck.running.workqueue import run_tasks


@dataclass(frozen=True)
class PlayConfig:
    """Everything that decides a run's games (not how fast it runs)."""

    seed: int
    players: tuple[str, ...]
    size: str = "beginner"
    first_click: str = FirstClick.SAFE_3X3.value
    budget: Budget = Budget()  # what a player's solver may use per decision
    first_cell: str = "centre"  # or "ROW,COL"
    definitions: tuple[str, ...] = ()  # how workers make the solvers not built in (discovery.Definition JSON)
    judge: str = "probability"  # or "optimal": also each open move's chance of winning, by the oracle

    def validate(self) -> None:
        """Bad input is refused before any work: an unknown size, rule, judge or player, mines that do not fit,
        or (judging optimally) a size beyond the oracle."""
        rules.check_fits(parse_size(self.size), FirstClick(self.first_click), self.first_cell)
        if self.judge not in JUDGES:
            raise BadOption(f"judge {self.judge!r} is not one of {', '.join(JUDGES)}")
        if self.judge == "optimal":
            optimal_fits(self)
        remember(self.definitions)
        for name in self.players:
            player = get_player(name)  # a library not installed: Unavailable, as for any solver
            if getattr(player, "solver", None) is not None:
                require_runnable(player.solver)  # a program that is not there


@dataclass(frozen=True)
class GameRecord:
    """One game of one player: how it ended, every decision's moves, where the time went, its findings."""

    player: str
    index: int
    won: bool
    outcome: str
    turns: tuple[tuple[Move, ...], ...]
    error: str | None = None
    play_seconds: float = 0.0
    check_seconds: float = 0.0
    findings: tuple[Finding, ...] = field(default=())

    def as_json(self) -> dict:
        return {"player": self.player, "index": self.index, "won": self.won, "outcome": self.outcome,
                "error": self.error, "turns": [[[m.action.value, m.cell, m.reason] for m in t] for t in self.turns],
                "play_seconds": round(self.play_seconds, 4), "check_seconds": round(self.check_seconds, 4),
                "findings": len(self.findings)}


def _first(config: PlayConfig) -> tuple[rules.Size, int, tuple[int, ...]]:
    """The run's size, first cell and the cells its deals keep clear of mines."""
    size = parse_size(config.size)
    clear = rules.kept_clear(size, FirstClick(config.first_click), config.first_cell)
    return size, rules.first_cell(size, config.first_cell), tuple(sorted(clear))


def optimal_fits(config: PlayConfig) -> None:
    """ValueError (naming the limit) unless the oracle covers the run's games from their first click."""
    size, _, clear = _first(config)
    if size.width * size.height > oracle.MAX_CELLS or not oracle.fits(size.width, size.height, size.mines,
                                                                      clear=clear):
        raise BadOption(f"--judge optimal: the oracle covers boards of at most {oracle.MAX_CELLS} cells and "
                         f"{oracle.MAX_LAYOUTS} mine layouts; {size.describe()} with first click "
                         f"{config.first_click} is beyond it")


def optimal_value(config: PlayConfig):
    """The perfect-play value of the run's game: its own first click (the fixed first cell) under its own rule
    (``any``: a first click on a mine is a loss, counted in the value)."""
    size, cell, _ = _first(config)
    return _first_click_value(size.width, size.height, size.mines, config.first_click, cell)


@cache
def _first_click_value(width: int, height: int, mines: int, rule: str, cell: int):
    return oracle.first_click_value(width, height, mines, rule, cell)  # 5x5x5 takes about a minute: once


@cache
def _player(name: str) -> Player:
    """One instance per name and process."""
    return get_player(name)


def _dealt(config: PlayConfig, index: int) -> Game:
    return rules.deal(parse_size(config.size), FirstClick(config.first_click), config.seed, index, config.first_cell)


def _board_text(game: Game) -> str:
    """The view with its hidden mines when the player's flags allow a Position, else the view alone."""
    pos = rules.position(game)
    return format_board(render(pos)) if pos is not None else format_board(view(game))


def play_game(config: PlayConfig, name: str, index: int) -> GameRecord:
    """Play game ``index`` of the run with player ``name``, judging every decision; replays alone."""
    game = _dealt(config, index)
    remember(config.definitions)  # a worker makes the run's own solvers (NAME=cmd:..., a pyproject's) by name
    player = _player(name)
    state = player.start(game_seed(config.seed, index))
    turns: list[tuple[Move, ...]] = []
    findings: list[Finding] = []
    play_s = check_s = 0.0
    outcome, error = "", None
    if game.lost:
        outcome = "the first click opened a mine"
    while not game.over:
        board = view(game)
        started = time.perf_counter()
        decision = player.decide(board, state, config.budget)
        play_s += time.perf_counter() - started
        if decision.error:
            outcome, error = "lost to an error", decision.error
            break
        before, played = game, []
        for move in decision.moves:
            game = play_move(game, move)
            played.append(move)
            if game.over:
                break
        started = time.perf_counter()
        bad = judge_with(board, tuple(played), config.judge, count_board(board, Mode.GLOBAL)) if played else ()
        if bad:
            text = _board_text(before)
            extra = {"state": state, "turn": len(turns), "seed": config.seed, "size": config.size,
                     "first_click": config.first_click}
            if config.judge != "probability":  # shrinking judges as the run did (the default judge's findings
                extra["judge"] = config.judge  # keep their earlier shape)
            findings += [as_finding(text, board, name, b, index, extra) for b in bad]
        check_s += time.perf_counter() - started
        if played:
            turns.append(tuple(played))
        if not decision.moves:
            outcome = f"no move: {decision.note or 'the player gave none'}"
            break
        if game == before:
            outcome = "no move: its moves change nothing"
            break
        state = decision.state
    if game.won:
        outcome = "won"
    elif game.lost and not outcome:
        outcome = f"opened a mine at {label(view(game), game.exploded)}"
    return GameRecord(name, index, game.won, outcome, tuple(turns), error, play_s, check_s, tuple(findings))


def replay(config: PlayConfig, record: dict) -> list[tuple[Game, tuple[Move, ...]]]:
    """A recorded game (a games.jsonl line) as (game before the decision, its moves), decision by decision."""
    game = _dealt(config, record["index"])
    out = []
    for turn in record["turns"]:
        moves = tuple(Move(Action(a), c, r) for a, c, r in turn)
        out.append((game, moves))
        for m in moves:
            game = play_move(game, m)
    out.append((game, ()))
    return out


# -- files -------------------------------------------------------------------------------------------

def folder(out: Path) -> RunFolder:
    """A play run's folder: play.json, games.jsonl (a line per game played), findings.jsonl."""
    return RunFolder(out, "play.json", "games.jsonl", lambda g: (g["player"], g["index"]),
                     lambda f: (f["subject"], f["index"]))


def read_games(out: Path) -> list[dict]:
    """Complete lines of games.jsonl (a line torn by a kill is dropped)."""
    return folder(out).read_results()


def read_config(out: Path) -> PlayConfig:
    data = json.loads((out / "play.json").read_text())
    return PlayConfig(data["seed"], tuple(data["players"]), data["size"], data["first_click"],
                      Budget.from_json(data.get("budget", {})),
                      data.get("first_cell", "centre"), tuple(data.get("definitions", ())),
                      data.get("judge", "probability"))


def _with_players(stored: dict, given: dict) -> dict:
    """A resumed run may add players: it stores every player of either run, the old ones first."""
    return {**given, "players": list(dict.fromkeys([*stored.get("players", []), *given["players"]])),
            "definitions": list(dict.fromkeys([*stored.get("definitions", []), *given.get("definitions", [])]))}


def win_rates(out: Path) -> list[WinRate]:
    """Per player, from games.jsonl and findings.jsonl, in the run's order of players."""
    config = json.loads((out / "play.json").read_text())
    games = read_games(out)
    findings = read_findings(out)
    names = list(dict.fromkeys(config["players"] + [g["player"] for g in games]))
    rates = []
    for name in names:
        mine = [g for g in games if g["player"] == name]
        rates.append(WinRate(name, len(mine), sum(1 for g in mine if g["won"]),
                             sum(1 for g in mine if g.get("error")),
                             sum(g.get("play_seconds", 0.0) for g in mine),
                             sum(g.get("check_seconds", 0.0) for g in mine),
                             sum(1 for f in findings if f.subject == name)))
    return rates


def write_summary(out: Path, seconds: float | None = None) -> dict:
    """summary.json: the run's options and each player's win rate, interval, speed and findings."""
    config = json.loads((out / "play.json").read_text())
    data = {"size": config["size"], "first_click": config["first_click"], "seed": config["seed"],
            "margin": str(DECISION_MARGIN), "solvers": {r.player: r.as_json() for r in win_rates(out)}}
    if config.get("judge", "probability") == "optimal":
        value = optimal_value(read_config(out))
        data["judge"] = "optimal"
        data["optimal_margin"] = str(OPTIMAL_MARGIN)
        data["optimal"] = {"value": str(value), "win_rate": float(value)}
    if seconds is not None:
        data["seconds"] = round(seconds, 2)
    write_json(out / SUMMARY, data)
    return data


# -- running ------------------------------------------------------------------------------------------

@dataclass
class PlayProgress:
    games: int = 0
    wins: int = 0
    findings: int = 0
    started: float = field(default_factory=time.perf_counter)


def run_play(config: PlayConfig, out: Path, games: int, jobs: int | None = None, scheduler: str | None = None,
             resume: bool = False, on_game: Callable[[GameRecord, PlayProgress], None] | None = None,
             overwrite: bool = False, warn: Warn | None = None) -> PlayProgress:
    """Play games 0 .. games-1 with every player, skipping those already played (on resume), holding the
    folder's lock (``overwrite``: replace an earlier run's files; ``warn`` hears of lines resume skips)."""
    config.validate()
    with holding(out):
        announce_jail(config.definitions)
        run = folder(out)
        defaults = {"first_cell": "centre", "definitions": [], "judge": "probability"}  # play.json before each
        done = run.prepare(asdict(config), resume, defaults=defaults,
                           ignored=("players", "definitions"), merged=_with_players, overwrite=overwrite, warn=warn)
        progress = PlayProgress(games=len(done))
        todo = ((name, i) for i in range(games) for name in config.players if (name, i) not in done)
        jobs = jobs or os.cpu_count() or 1

        def finish(record: GameRecord) -> None:
            _finish(out, record, progress, on_game)

        run_tasks(todo, lambda pool, task: pool.submit(play_game, config, *task), finish, _died, jobs, scheduler)
        rank = {name: i for i, name in enumerate(config.players)}
        run.settle(lambda g: (g["index"], rank.get(g["player"], len(rank)), g["player"]),
                   lambda f: (f.get("index") or 0, rank.get(f["subject"], len(rank)), f["subject"],
                              f.get("extra", {}).get("turn", 0)))
        return progress


def _died(task: tuple[str, int], why: str) -> GameRecord:
    return GameRecord(task[0], task[1], False, "lost to an error", (), why)


def _finish(out: Path, record: GameRecord, progress: PlayProgress, on_game) -> None:
    folder(out).record(record.as_json(), [f.to_json() for f in record.findings])
    progress.games += 1
    progress.wins += record.won
    progress.findings += len(record.findings)
    if on_game:
        on_game(record, progress)
