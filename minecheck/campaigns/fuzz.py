"""Fuzz campaigns: many seeded boards cross-checked in parallel, findings written as they are found.

Board ``index`` of campaign ``seed`` is made by ``board_recipe(config, index)`` alone, so any
board can be replayed without the others.  The output directory holds:

  campaign.json    the configuration (a resumed campaign must match it)
  boards.jsonl     one line per board checked: index, recipe, time per solver, findings count
  findings.jsonl   one line per finding, appended (and flushed) the moment it is found

Both .jsonl files are settled in board order when the campaign ends (workqueue.settle), so that
one seed gives the same files on a busy machine and a quiet one.

A killed campaign loses at most the boards in flight; ``resume`` skips every index already in
boards.jsonl (and first drops torn lines, and findings of boards without a board line, so that
nothing is counted twice).  Work runs in processes (``jobs``), or on a dask.distributed cluster
through ``Client.get_executor()`` - the same executor interface either way.

A worker process that dies (a crash below Python) takes every board in flight with it; those
boards are rerun one at a time, so that the death is reported as a crash finding on the board
that caused it and the campaign goes on.

Every solver runs isolated (``minecheck.running.sandbox``) within the campaign's ``Budget``: a CPU-time
budget, a memory limit, an idle stop and an output limit, enforced the same way in local processes and in
dask's worker threads.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path

from minecheck.boards.generators import features, generate_board, recipe
from minecheck.boards.recipe import Recipe
from minecheck.boards.small import MAX_CELLS, small_count, small_recipe, small_walk
from minecheck.campaigns.mix import (  # noqa: F401 (the mix's names, where campaigns and benches have found them)
    DEEP,
    DIGIT_CHANGED,
    GUESS,
    GUESS_SAMPLE,
    MANY_LAYOUTS,
    MIX,
    NO_FLAGS,
    NUMERIC,
    NUMERIC_WIDE,
    SAMPLE,
    SEARCH,
    SMALL,
    WALK,
    is_search_slot,
    search_turn,
    walk_board,
    walk_step,
)
from minecheck.campaigns.search import LAG, Near, board_closeness, near_to_json, search_recipe, state_before
from minecheck.check.certified import CERTIFICATES, certify_checks, with_certificate
from minecheck.check.crosscheck import check_board, check_boards
from minecheck.check.findings import WHOLE_BOARD, Finding, Kind
from minecheck.model.answers import Mode, result_to_json
from minecheck.model.boardtext import format_board
from minecheck.model.budget import Budget
from minecheck.model.errors import BadOption
from minecheck.running.catalogue import GROUND_TRUTH, REFERENCES, SUBJECTS, is_lp_solver
from minecheck.running.discovery import remember
from minecheck.running.runfolder import RunFolder, append_text

BATCH = 32  # boards of the small sweep checked together, each solver in one sandboxed run for all of them


@dataclass(frozen=True)
class Config:
    """Everything that decides a campaign's boards and checks (not how fast it runs)."""

    seed: int
    subjects: tuple[str, ...] = SUBJECTS
    references: tuple[str, ...] = REFERENCES
    generator: str = "mix"  # "mix", "small:N" (the sweep of boards of at most N cells), or "NAME" / "NAME:level"
    budget: Budget = Budget()  # what each solver may use on each board
    definitions: tuple[str, ...] = ()  # how to make the solvers that are not built in (Definition JSON), for workers
    certify: bool = False  # certify every reference answer of every board, not only those behind a finding
    judge_undeclared: bool = False  # a failure on a board a solver does not judge is a finding (compare.not_judged)
    search: bool = True  # the mix's search slots search (campaigns.search); without, they keep their walk boards


@dataclass(frozen=True)
class BoardOutcome:
    """One board's check: its findings and where the time went."""

    index: int
    recipe: Recipe
    findings: tuple[Finding, ...]
    seconds: float  # wall-clock, for people
    solver_cpu: tuple[tuple[str, float], ...] = field(default=())  # CPU seconds per solver, both modes together
    solver_wall: tuple[tuple[str, float], ...] = field(default=())  # wall-clock seconds per solver (load-dependent)
    stops: tuple[tuple[str, str], ...] = field(default=())  # how each stopped run was stopped, with its numbers
    answers: tuple[dict, ...] = field(default=())  # the results a finding's page draws (result_to_json), kept
    not_judged: tuple[tuple[str, str], ...] = ()  # (solver, why): not judged on this board (see compare.not_judged)
    certificates: tuple[str, ...] = ()  # certificates.jsonl lines: the references' answers, certified and checked
    near: tuple[Near, ...] = ()  # how close each subject came to being wrong here (campaigns.search)

    def cost(self, solvers: tuple[str, ...]) -> float:
        """CPU seconds these solvers took on the board: what shrinking a finding of theirs is budgeted by."""
        cpu = dict(self.solver_cpu)
        return sum(cpu.get(name, 0.0) for name in solvers)


def board_seed(config: Config, index: int) -> int:
    """The seed of board ``index`` of the campaign: its recipe's (but for the small sweep, whose recipe is the
    index alone) and its random LP's."""
    return int.from_bytes(hashlib.sha256(f"{config.seed}|{index}".encode()).digest()[:6], "big")


def board_recipe(config: Config, index: int) -> Recipe:
    """The recipe of board ``index``: depends on the campaign seed and the index only (for ``small:N``, on
    the index alone: board i of the sweep is the same in every campaign)."""
    seed = board_seed(config, index)
    if config.generator == "mix":
        name, params = MIX[index % len(MIX)]
        if (name, params) in (SMALL, SEARCH):  # a search slot's board when there is nothing to search (next_recipe)
            walk = small_walk(WALK)
            return small_recipe(WALK, walk[walk_board(walk_step(index)) % len(walk)])
        return recipe(name, seed, **dict(params))
    name, _, level = config.generator.partition(":")
    if name == "small":
        n = sweep_cells(config.generator)
        if not 0 <= index < small_count(n):
            raise IndexError(f"the small:{n} sweep holds boards 0 to {small_count(n) - 1}, not {index}")
        return small_recipe(n, index)
    return recipe(name, seed, **({"level": level} if level else {}))


def next_recipe(config: Config, index: int, boards: dict[int, tuple[Recipe, tuple[Near, ...]]]) -> Recipe:
    """The next board, as a campaign and bench/reach.py both make it: ``board_recipe``, but for a search slot of the
    mix with a target among ``boards`` (index -> recipe and closeness) before ``index - LAG``: that slot's search
    board (``campaigns.search``).  Only those boards are read, so the board is the same however many were done."""
    if config.generator != "mix" or not config.search or not is_search_slot(index):
        return board_recipe(config, index)
    planned = search_recipe(state_before(boards, index - LAG), config.subjects, search_turn(index), index,
                            board_seed(config, index))
    return planned if planned is not None else board_recipe(config, index)


def sweep_cells(generator: str) -> int:
    """N of a ``small:N`` generator (ValueError for a bad one)."""
    name, _, cells = generator.partition(":")
    if name != "small" or not cells.isdigit():
        raise BadOption(f"the small-board sweep is named small:N, N the most cells a board has, not {generator!r}")
    n = int(cells)
    if not 1 <= n <= MAX_CELLS:
        raise BadOption(f"small:N sweeps boards of 1 to {MAX_CELLS} cells, not {n}")
    return n


def campaign_size(config: Config) -> int | None:
    """How many boards the generator has: the whole sweep for ``small:N``, None (no end) for the others."""
    if config.generator.partition(":")[0] == "small":
        return small_count(sweep_cells(config.generator))
    return None


@dataclass(frozen=True)
class Planned:
    """A board whose recipe the campaign made (a search board, ``next_recipe``): a worker cannot make it again from
    its index alone."""

    index: int
    recipe: Recipe


Board_ = int | Planned  # a board to check: its index, or its index and recipe


def index_of(item: Board_) -> int:
    return item.index if isinstance(item, Planned) else item


def recipe_of(config: Config, item: Board_) -> Recipe:
    return item.recipe if isinstance(item, Planned) else board_recipe(config, item)


def check_index(config: Config, item: Board_) -> BoardOutcome:
    """Make board ``item`` and cross-check it; with a simplex subject, also one general random LP."""
    start = time.perf_counter()
    index, rec = index_of(item), recipe_of(config, item)
    board = generate_board(rec)
    remember(config.definitions)
    checks = check_board(board, config.subjects, references=config.references, recipe=rec, index=index,
                         budget=config.budget, judge_undeclared=config.judge_undeclared)
    return _outcome(config, index, rec, checks, start)


def check_indices(config: Config, indices: tuple[Board_, ...]) -> list[BoardOutcome]:
    """``check_index`` on each index, the boards checked together: each solver gets them all in one sandboxed
    run (``check_boards``), as a batch of tiny boards needs.  The same findings as board by board."""
    if len(indices) == 1:
        return [check_index(config, indices[0])]
    start = time.perf_counter()
    recipes = [recipe_of(config, i) for i in indices]
    boards = [(generate_board(rec), rec, index_of(i)) for rec, i in zip(recipes, indices)]
    remember(config.definitions)
    made = (time.perf_counter() - start) / len(indices)
    checked = check_boards(boards, config.subjects, references=config.references, budget=config.budget,
                           judge_undeclared=config.judge_undeclared)
    return [_outcome(config, i, rec, checks, time.perf_counter() - made - _seconds(checks))
            for (_, rec, i), checks in zip(boards, checked)]


def _seconds(checks) -> float:
    return sum(r.seconds for c in checks for r in c.results)


def _outcome(config: Config, index: int, rec: Recipe, checks, start: float) -> BoardOutcome:
    """A board's outcome from its checks: its findings (each carrying its reference's certificate), and the
    general random LP's with a simplex subject."""
    certified = certify_checks(list(checks), index, config.references if config.certify else None, config.budget)
    findings = [with_certificate(f, certified) for c in checks for f in c.findings]
    lp_subjects = [s for s in config.subjects if is_lp_solver(s)]
    if lp_subjects:
        from minecheck.check.lpcheck import check_lp, describe_lp, random_lp  # CBC and numpy: only with a simplex

        seed = board_seed(config, index)  # not the recipe's: a small board's is its index, the same in every campaign
        lp = random_lp(seed)
        findings += check_lp(lp, lp_subjects, describe_lp(lp), detail=f"random LP seed={seed}", index=index)
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    stops = []
    for c in checks:
        for r in c.results:
            cpu[r.solver] = cpu.get(r.solver, 0.0) + r.cpu
            wall[r.solver] = wall.get(r.solver, 0.0) + r.seconds
            if "stopped" in dict(r.extra):
                stops.append((f"{r.solver} {c.mode.value}", dict(r.extra)["stopped"]))
    return BoardOutcome(index, rec, tuple(findings), time.perf_counter() - start, tuple(sorted(cpu.items())),
                        tuple(sorted(wall.items())), tuple(stops), _kept_answers(checks),
                        tuple(sorted({(n, why) for c in checks for n, why in c.not_judged})),
                        tuple(c.line() for c in certified), board_closeness(checks, config.subjects, GROUND_TRUTH))


KEEP_ANSWERS = 100_000  # cells: the answers of a finding's board are kept up to this size (pages draw them)


def _kept_answers(checks) -> tuple[dict, ...]:
    """The results a page of this board's findings draws: the ground truth's and each finding's solver, per
    mode; none on a board past KEEP_ANSWERS cells (its page draws the board without them)."""
    kept = []
    for c in checks:
        named = {f.subject for f in c.findings} | {f.reference for f in c.findings}
        if not c.findings or c.board.size > KEEP_ANSWERS:
            continue
        kept += [result_to_json(r) for r in c.results if r.solver in named]
    return tuple(kept)


WAIT = "wait"  # what ``tasks`` yields while a search board waits for the boards it reads to be done


def tasks(config: Config, todo: Iterator[int], batch: int = BATCH,
          plan: Callable[[int], Board_ | None] | None = None) -> Iterator[tuple[Board_, ...] | str]:
    """The boards to check, as tasks: a board of the small sweep waits for BATCH of them to be checked together
    (``check_indices``), any other board is a task of its own.  Board order within a batch is kept.  ``plan``
    makes a search slot's board (None while the boards it reads are not all done: the batch waiting is sent
    first, then WAIT is yielded until they are)."""
    waiting: list[Board_] = []
    for index in todo:
        item: Board_ = index
        if plan is not None and is_search_slot(index) and config.generator == "mix":
            if waiting:
                yield tuple(waiting)
                waiting = []
            while (planned := plan(index)) is None:
                yield WAIT
            item = planned
        if recipe_of(config, item).generator != "small":
            yield (item,)
            continue
        waiting.append(item)
        if len(waiting) == batch:
            yield tuple(waiting)
            waiting = []
    if waiting:
        yield tuple(waiting)


# -- files ---------------------------------------------------------------------------------------

def folder(out: Path) -> RunFolder:
    """A campaign's folder: campaign.json, boards.jsonl (a line per board checked), findings.jsonl."""
    return RunFolder(out, "campaign.json", "boards.jsonl", lambda row: row["index"], lambda row: row["index"])


def stored_budget(out: Path) -> Budget:
    """The budget a campaign ran with (campaign.json), for shrinking and replaying its findings alike."""
    stored = json.loads((out / "campaign.json").read_text())
    return Budget.from_json(stored.get("budget", {}))


def stored_judging(out: Path) -> bool:
    """Whether the campaign judged failures on boards a solver does not judge (``--judge-undeclared``)."""
    return bool(json.loads((out / "campaign.json").read_text()).get("judge_undeclared", False))


def _defaults() -> dict:
    """Options a campaign.json written by an older minecheck may lack: they count as their defaults."""
    return {f.name: f.default.to_json() if isinstance(f.default, Budget) else f.default
            for f in fields(Config) if f.default is not MISSING}


ANSWERS = "answers.jsonl"  # the kept answers of boards with findings: a line per board, read by the report


def _record(out: Path, outcome: BoardOutcome) -> None:
    """The board's line (boards.jsonl), its findings, and the answers their pages draw (answers.jsonl)."""
    if outcome.answers:
        append_text(out / ANSWERS, json.dumps({"index": outcome.index, "results": list(outcome.answers)}) + "\n")
    if outcome.certificates:
        append_text(out / CERTIFICATES, "".join(line + "\n" for line in outcome.certificates))
    line = {"index": outcome.index, "generator": outcome.recipe.describe(), "seconds": round(outcome.seconds, 4),
            "solver_cpu_seconds": {k: round(v, 4) for k, v in outcome.solver_cpu},
            "solver_wall_seconds": {k: round(v, 4) for k, v in outcome.solver_wall},
            "findings": len(outcome.findings)}
    if outcome.certificates:  # how many lines it wrote to certificates.jsonl: verify tells a lost one
        line["certificates"] = len({(c["mode"], c["reference"]) for c in map(json.loads, outcome.certificates)})
    drawn = features(outcome.recipe)
    if drawn:
        line["features"] = list(drawn)
    if outcome.stops:
        line["stops"] = dict(outcome.stops)
    if outcome.not_judged:
        line["not_judged"] = dict(outcome.not_judged)
    if outcome.near:  # what a resumed campaign's search reads again (campaigns.search)
        line["near"] = near_to_json(outcome.near)
        line["recipe"] = {"generator": outcome.recipe.generator, "params": dict(outcome.recipe.params),
                          "seed": outcome.recipe.seed}
    folder(out).record(line, [f.to_json() for f in outcome.findings])


def _died(config: Config, item: Board_, why: str) -> BoardOutcome:
    """A board whose check itself failed: a crash finding naming the board, so it can be replayed."""
    index, rec = index_of(item), recipe_of(config, item)
    text = format_board(generate_board(rec))
    finding = Finding(Kind.CRASH, ",".join(config.subjects), GROUND_TRUTH, Mode.LOCAL, (), why, "an answer",
                      text, WHOLE_BOARD, rec, index)
    return BoardOutcome(index, rec, (finding,), 0.0)


@dataclass(frozen=True)
class BoardPart:
    """One subject's share of a board whose whole check killed its worker: run alone, so that a death is
    that subject's and the other subjects' findings on the board are kept."""

    index: int
    subject: str
    recipe: Recipe | None = None  # a search board's (Planned)

    @property
    def item(self) -> Board_:
        return self.index if self.recipe is None else Planned(self.index, self.recipe)


@dataclass(frozen=True)
class PartDone:
    """A part's outcome: the board checked with that subject alone (or the crash its death costs)."""

    part: BoardPart
    outcome: BoardOutcome


def board_parts(config: Config, task) -> list:
    """What a task that killed its worker is cut into: a batch into its boards, a board with several subjects
    into one part per subject; a part, or a board with one subject, is what it is."""
    if isinstance(task, tuple) and len(task) > 1:
        return [(index,) for index in task]
    if isinstance(task, tuple) and len(config.subjects) > 1:
        item = task[0]
        return [BoardPart(index_of(item), subject, item.recipe if isinstance(item, Planned) else None)
                for subject in config.subjects]
    return [task]


def check_part(config: Config, part: BoardPart) -> PartDone:
    return PartDone(part, check_index(replace(config, subjects=(part.subject,)), part.item))


def part_died(config: Config, part: BoardPart, why: str) -> PartDone:
    """The crash a part's death costs, blamed on its subject alone."""
    return PartDone(part, _died(replace(config, subjects=(part.subject,)), part.item,
                                f"{why} (run with this solver alone on the board)"))


def merged(outcomes: list[BoardOutcome]) -> BoardOutcome:
    """One board's outcome from its parts, in the subjects' order: each finding, answer and certificate once
    (the references' appear in every part), each solver's seconds from the first part that ran it."""
    def once(items, key=lambda x: x):
        seen: dict = {}
        for item in items:
            seen.setdefault(key(item), item)
        return tuple(seen.values())

    def first_of(pairs):
        out: dict[str, float] = {}
        for name, seconds in pairs:
            out.setdefault(name, seconds)
        return tuple(sorted(out.items()))

    return BoardOutcome(
        outcomes[0].index, outcomes[0].recipe, once((f for o in outcomes for f in o.findings), Finding.to_json),
        sum(o.seconds for o in outcomes), first_of(p for o in outcomes for p in o.solver_cpu),
        first_of(p for o in outcomes for p in o.solver_wall), once(s for o in outcomes for s in o.stops),
        once((a for o in outcomes for a in o.answers), lambda a: json.dumps(a, sort_keys=True, default=str)),
        tuple(sorted({n for o in outcomes for n in o.not_judged})), once(c for o in outcomes for c in o.certificates),
        tuple(sorted({n for o in outcomes for n in o.near}, key=lambda n: (n.subject, n.label))))
