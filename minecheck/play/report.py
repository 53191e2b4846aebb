"""A play run's report: the win-rate page (table, plot, findings, a lost game replayed) and the
decision findings' pages, from the run's files alone.

Like the campaign report it never knows how a player works: it reads games.jsonl and
findings.jsonl, replays recorded moves on the deal (``play.replay``), and reruns a player only to
draw what its solver answered on a finding's board.  Decision findings are grouped by player and
kind of bad move; the first ``per_flaw`` of each group are shrunk (cached in shrunk.jsonl; more
when none of them got far) and drawn in full, the first ``pages_per_flaw`` get a page, and the
table counts them all.
"""

from __future__ import annotations

import json
import shlex
from concurrent.futures import Executor
from dataclasses import asdict, replace
from pathlib import Path

from minecheck.check.findings import Finding, read_findings
from minecheck.check.shrink import shrink
from minecheck.check.shrinkcache import finding_key, shrink_cached
from minecheck.model.answers import Mode, SolverResult
from minecheck.model.board import COVERED, FLAG, Board, label
from minecheck.model.boardtext import parse_board
from minecheck.model.budget import Budget
from minecheck.play.decisions import (
    DECISION_MARGIN,
    OPTIMAL_MARGIN,
    answer_summary,
    replay_state,
    still_decides_badly,
    why_move,
)
from minecheck.play.game import Action, Game, Move, view
from minecheck.play.player import Decision
from minecheck.play.players import get_player
from minecheck.play.policy import mode_for
from minecheck.play.run import optimal_value, read_config, read_games, replay, win_rates
from minecheck.report.pages import FindingPage, page_name, render_finding, render_template, replay_command
from minecheck.report.plots import interval_plot
from minecheck.running.discovery import get_solver, remember, replay_names
from minecheck.running.registry import run_solver
from minecheck.running.runfolder import write_text

# Published win rates with a safe 3x3 first click, for the plot and the README
ANCHORS: dict[str, tuple[tuple[str, float], ...]] = {
    "beginner": (("Tu et al. 2017", 0.971),),
    "intermediate": (("Tu et al. 2017", 0.889),),
    "expert": (("Tu et al. 2017", 0.528), ("JSMinesweeper", 0.54)),
}
SHRINK_SECONDS = 120.0  # per finding: a sampler-based player makes every predicate call slow
SHRINK_TRIES = 3  # findings of one group shrunk before the report shows a board no crop could reduce
REPLAY_BOARDS = 8  # a lost game's replay draws the boards of its last decisions (all of its moves are listed)


def _shrink_one(f: Finding, how: tuple[Budget, tuple[str, ...]]) -> dict:
    budget, definitions = how
    remember(definitions)  # a pool worker makes the run's own solvers by name
    predicate = still_decides_badly(f, get_player(f.subject), budget)
    result = shrink(f, budget, seconds=SHRINK_SECONDS, predicate=predicate)
    return {"key": finding_key(f), "finding": result.finding.to_json(), "stats": asdict(result.stats)}


def ordered(findings: list[Finding], players: list[str]) -> list[Finding]:
    """Findings in a fixed order (player as in the run, game, turn, cells), whatever order games finished in."""
    rank = {name: i for i, name in enumerate(players)}
    return sorted(findings, key=lambda f: (rank.get(f.subject, len(rank)), f.subject, f.index or 0,
                                           f.extra.get("turn", 0), f.detail, f.cells))


def groups(findings: list[Finding]) -> dict[tuple[str, str], list[int]]:
    """Finding numbers by (player, kind of bad move), in order."""
    out: dict[tuple[str, str], list[int]] = {}
    for n, f in enumerate(findings):
        out.setdefault((f.subject, f.detail), []).append(n)
    return out


def shrink_groups(out: Path, findings: list[Finding], per_flaw: int, budget: Budget,
                  pool: Executor | None = None, definitions: tuple[str, ...] = ()) -> dict[int, dict]:
    """Shrunk results for the first ``per_flaw`` findings of each group, by number (cached in shrunk.jsonl).

    A group none of whose shrinks got far (each ran to its end and left more than a quarter of the
    board) tries its next finding, up to ``SHRINK_TRIES`` in all: a blind guess is a random draw over
    the covered cells, which lands elsewhere on a cropped board, and another game's draw may survive
    the crops.  A shrink cut short by its budget is not retried: the next would be as slow.
    """
    every = groups(findings)
    chosen = {key: numbers[:per_flaw] for key, numbers in every.items()}
    while True:
        shrunk = shrink_cached(out, findings, [n for ns in chosen.values() for n in ns], _shrink_one,
                               (budget, definitions), pool)
        stuck = [key for key, ns in chosen.items()
                 if len(ns) < min(SHRINK_TRIES, len(every[key])) and not any(_got_far(shrunk[n]) for n in ns)]
        if not stuck:
            return shrunk
        for key in stuck:
            chosen[key] = every[key][:len(chosen[key]) + 1]


def _got_far(result: dict) -> bool:
    stats = result["stats"]
    return stats["cut_short"] or 4 * stats["cells_after"] <= stats["cells_before"]


def _decided(f: Finding, board: Board, budget: Budget) -> tuple[Decision | None, tuple[SolverResult, ...]]:
    """The player's decision again on the finding's board, and its solver's answer beside the exact one."""
    seen = replace(board, truth=None)
    if seen.total_mines is None:
        return None, ()
    decision = get_player(f.subject).decide(seen, replay_state(f), budget)
    exact = run_solver(get_solver(f.reference), seen, Mode.GLOBAL, budget)
    mine = () if decision.result is None else (replace(decision.result, solver=f.subject),)
    return decision, mine + (exact,)


def decision_notes(f: Finding, small: Finding | None, decided: Decision | None, board: Board) -> tuple:
    """The page's account of a decision: the move on the original board and on the shrunk one, why the player
    made it (its own answer: a blind guess says what left it blind), and what the counter says."""
    turn = f.extra.get("turn")
    where = f"game {f.index}" + (f", decision {turn + 1}" if isinstance(turn, int) else "")
    notes = [("the move in the game", f"{f.subject_says} on the original board ({where})")]
    if small is not None:
        notes.append(("on the shrunk board", f"{small.subject_says} (the same flaw; cells are named on the shrunk "
                                             "board, which a crop may have moved)"))
    shown = small or f
    if decided is not None:
        move = next((m for m in decided.moves if m.describe(board) == shown.subject_says), None)
        notes.append((f"{f.subject} answered", answer_summary(decided.result)))
        if move is not None:
            notes.append(("why it moved so", why_move(board, move, decided.result)))
    notes.append(("the exact counter says", shown.reference_says))
    return tuple(notes)


def decision_commands(f: Finding, shown: Finding, names: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """Replays beside the page's own: the decision in the game, and the solver's answer on the board shown."""
    names = names or {}
    commands = []
    if shown is not f:
        commands.append(("The decision on the original board", replay_command(f, f.board, names)))
    player = get_player(f.subject)
    solver = getattr(player, "solver", None)
    if solver is not None:  # a registry solver under the policy: its answer alone
        inline = "/".join(line for line in shown.board.splitlines() if line and not line.startswith("#"))
        named = shlex.quote(names.get(f.subject, f.subject))
        commands.append((f"What {f.subject} answers on it",
                         f"minecheck check {shlex.quote(inline)} --solvers {named} "
                         f"--mode {mode_for(solver).value} --references exact"))
    return tuple(commands)


PLAY_INDEX = ("index.html", "play index")


def finding_pages(out: Path, findings: list[Finding], shrunk: dict[int, dict], pages_per_flaw: int,
                  budget: Budget, names: dict[str, str] | None = None) -> set[int]:
    """Write the pages of the first findings of each group; the numbers that have a page.  ``names``: how a
    command line makes each player again (the run's own definitions), for the replays."""
    names = names or {}
    written = set()
    for numbers in groups(findings).values():
        for n in numbers[:pages_per_flaw]:
            f = findings[n]
            original = parse_board(f.board)
            in_game, original_results = _decided(f, original, budget)
            if n in shrunk:
                small = Finding.from_json(shrunk[n]["finding"])
                small = replace(small, extra={**small.extra, "original_board": f.board,
                                              "found_says": [f.subject_says, f.reference_says]})
                board = parse_board(small.board)
                decided, small_results = _decided(small, board, budget)
                page = FindingPage(small, n, original, board, original_results, small_results, shrunk[n]["stats"],
                                   back=PLAY_INDEX, notes=decision_notes(f, small, decided, board),
                                   commands=decision_commands(f, small, names), names=names)
            else:
                page = FindingPage(f, n, original, None, original_results, back=PLAY_INDEX,
                                   notes=decision_notes(f, None, in_game, original),
                                   commands=decision_commands(f, f, names), names=names)
            write_text(out / page_name(n), render_finding(page))
            written.add(n)
    return written


# -- replays -----------------------------------------------------------------------------------------

def _cell(game: Game, board: Board, cell: int, acted: dict[int, Action], final: bool) -> dict:
    value = board.cells[cell]
    title = label(board, cell)
    cls, text = "covered", ""
    if value >= 0:
        cls, text = f"open d{value}", str(value) if value else ""
    elif value == FLAG:
        cls, text = "flag" + ("" if cell in game.mines else " wrongflag"), "F"
        title += " flag" + ("" if cell in game.mines else " (not a mine)")
    elif final and cell in game.mines and value == COVERED:
        cls, text = "mine", "*"
        title += " mine"
    if cell == game.exploded:
        cls, text, title = "mine exploded", "*", title + " the mine opened"
    if cell in acted:
        cls += " move"
        title += f" ({acted[cell].value} here)"
    return {"cls": cls, "text": text, "title": title, "style": ""}


def _grid(game: Game, moves: tuple[Move, ...], caption: str, name: str, final: bool = False) -> dict:
    acted = {m.cell: m.action for m in moves}
    board = view(game)  # once per grid: a view per cell made a 50x50 replay take minutes
    rows = [[_cell(game, board, r * game.width + c, acted, final) for c in range(game.width)]
            for r in range(game.height)]
    return {"caption": caption, "width": game.width, "rows": rows, "name": name}


def lost_game(games: list[dict], findings: list[Finding], player: str) -> dict | None:
    """The game replayed for a player: its first lost game with a bad decision, else its first lost game."""
    lost = sorted((g for g in games if g["player"] == player and not g["won"]), key=lambda g: g["index"])
    flagged = {f.index for f in findings if f.subject == player}
    return next((g for g in lost if g["index"] in flagged), lost[0] if lost else None)


def replay_view(config, record: dict, findings: list[Finding]) -> dict:
    """A lost game move by move: every move listed by decision, the last decisions' boards drawn."""
    steps = replay(config, record)
    first = steps[0][0]
    bad = {(f.extra.get("turn"), f.cells[0]): f for f in findings
           if f.subject == record["player"] and f.index == record["index"]}
    listed = []
    b = Board(first.width, first.height, (COVERED,) * (first.width * first.height))  # moves are named by place only
    for turn, (_, moves) in enumerate(steps[:-1]):
        listed.append({"turn": turn + 1, "moves": [{"text": m.describe(b),
                                                    "bad": bad.get((turn, m.cell)).detail if (turn, m.cell) in bad
                                                    else ""} for m in moves]})
    drawn = []
    start = max(0, len(steps) - 1 - REPLAY_BOARDS)
    for turn in range(start, len(steps) - 1):
        game, moves = steps[turn]
        drawn.append(_grid(game, moves, f"before decision {turn + 1}", f"replay-{record['player']}-{turn}"))
    end = steps[-1][0]
    drawn.append(_grid(end, (), f"the end: {record['outcome']}", f"replay-{record['player']}-end", final=True))
    return {"player": record["player"], "index": record["index"], "outcome": record["outcome"],
            "error": record.get("error"), "opened_first": len(first.opened), "decisions": listed,
            "grids": drawn, "skipped": start}


# -- the page ----------------------------------------------------------------------------------------

def publish_play(out: Path, per_flaw: int = 1, pages_per_flaw: int = 20, pool: Executor | None = None) -> Path:
    """Shrink representatives, write the findings' pages and index.html (the play page) into the run's directory."""
    config = read_config(out)
    remember(config.definitions)
    games = read_games(out)
    players = list(json.loads((out / "play.json").read_text())["players"])
    findings = ordered(read_findings(out), players)
    shrunk = shrink_groups(out, findings, per_flaw, config.budget, pool, config.definitions)
    paged = finding_pages(out, findings, shrunk, pages_per_flaw, config.budget, replay_names(config.definitions))
    rates = win_rates(out)
    anchors = ANCHORS.get(config.size, ()) if config.first_click == "safe-3x3" else ()
    optimal = optimal_value(config) if config.judge == "optimal" else None
    if optimal is not None:  # perfect play's value from the same first click, beside the players
        anchors = (*anchors, ("perfect play", float(optimal)))
    plot = interval_plot([(r.player, r.rate, *r.interval) for r in rates if r.games],
                         "Win rate per solver with its 95% Wilson interval", list(anchors))
    table = [{"player": r.player, "games": r.games, "wins": r.wins, "rate": 100 * r.rate,
              "low": 100 * r.interval[0], "high": 100 * r.interval[1], "speed": r.games_per_s,
              "check": 100 * r.check_share, "errors": r.errors, "findings": r.decision_findings} for r in rates]
    found = []
    for (player, flaw), numbers in groups(findings).items():
        small = [{"text": Finding.from_json(shrunk[n]["finding"]).board, "label": n,
                  "href": page_name(n) if n in paged else None}
                 for n in sorted((n for n in numbers if n in shrunk), key=lambda n: shrunk[n]["stats"]["cells_after"])]
        found.append({"player": player, "flaw": flaw, "count": len(numbers), "boards": small,
                      "links": [{"href": page_name(n), "label": n} for n in numbers if n in paged],
                      "more": sum(1 for n in numbers if n not in paged)})
    replays = [replay_view(config, g, findings) for p in players if (g := lost_game(games, findings, p))]
    html = render_template(
        "play.html.j2", title=f"minecheck play: {config.size}, seed {config.seed}", config=config, table=table,
        plot=plot, anchors=anchors, found=found, replays=replays, margin=f"{float(DECISION_MARGIN):.2f}",
        optimal=None if optimal is None else {"value": str(optimal), "rate": 100 * float(optimal),
                                              "margin": str(OPTIMAL_MARGIN)})
    write_text(out / "index.html", html)
    return out / "index.html"
