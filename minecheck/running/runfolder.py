"""A run's folder, the same for fuzz campaigns and play runs.

  OPTIONS.json    what decides the run's tasks (a resumed run must match it)
  RESULTS.jsonl   one line per task done (a board, a game), written after its findings
  findings.jsonl  one line per finding
  summary.json    the run's totals, written when it ends

A task's findings are appended and synced before its result line, so a result line means its
findings are on disk: a killed run loses at most the tasks in flight.  ``resume`` drops torn lines
and the findings of tasks without a result line, then runs only the tasks not done.  At the end
both files are rewritten in task order, so the same run gives the same files on any machine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path

FINDINGS = "findings.jsonl"
SUMMARY = "summary.json"

Key = Callable[[dict], Hashable]  # a JSON line's task: its board index, or (player, game index)


@dataclass(frozen=True)
class RunFolder:
    """Where a run keeps its files, and how a line of each names its task."""

    path: Path
    options: str  # "campaign.json", "play.json"
    results: str  # "boards.jsonl", "games.jsonl"
    result_task: Key
    finding_task: Key

    def prepare(self, given: dict, resume: bool, defaults: dict | None = None, ignored: Iterable[str] = (),
                merged: Callable[[dict, dict], dict] | None = None) -> set[Hashable]:
        """The tasks already done: none for a fresh run (its old files removed), those on disk for a
        resumed one, whose stored options (``defaults`` under them, ``ignored`` aside) must equal ``given``;
        ``merged(stored, given)`` is what a resumed run stores (default: the given options)."""
        self.path.mkdir(parents=True, exist_ok=True)
        stored_path = self.path / self.options
        if resume and stored_path.exists():
            stored = dict(defaults or {}) | json.loads(stored_path.read_text())
            differ = option_differences(stored, given, ignored)
            if differ:
                raise ValueError(f"cannot resume: {stored_path} holds another run ({'; '.join(differ)}); "
                                 "resume with the same options or use another --out")
            done = self._keep_complete()
            write_json(stored_path, merged(stored, given) if merged else given)
            return done
        for name in (self.results, FINDINGS, SUMMARY):
            (self.path / name).unlink(missing_ok=True)
        write_json(stored_path, given)
        return set()

    def _keep_complete(self) -> set[Hashable]:
        """Rewrite both files with whole lines only, and only the findings of tasks done: a kill can tear a
        last line, or fall between a task's findings and its result line (the task runs again)."""
        rows = self.read_results()
        done = {self.result_task(r) for r in rows}
        replace_lines(self.path / self.results, [json.dumps(r) for r in rows])
        kept = [line for line, row in _json_lines(self.path / FINDINGS) if _task(self.finding_task, row) in done]
        replace_lines(self.path / FINDINGS, kept)
        return done

    def read_results(self) -> list[dict]:
        """Complete result lines (a line torn by a kill, or not naming its task, is dropped)."""
        return [row for _, row in _json_lines(self.path / self.results) if _task(self.result_task, row) is not None]

    def record(self, result: dict, findings: Iterable[str]) -> None:
        """Append the task's findings (synced), then its result line."""
        with open(self.path / FINDINGS, "a") as f:
            for line in findings:
                f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        with open(self.path / self.results, "a") as f:
            f.write(json.dumps(result) + "\n")

    def settle(self, result_order: Callable[[dict], tuple], finding_order: Callable[[dict], tuple]) -> None:
        """Both files rewritten in task order (stable), whatever order the workers finished in."""
        settle(self.path / FINDINGS, finding_order)
        settle(self.path / self.results, result_order)

    def earlier_seconds(self) -> float:
        """Seconds the runs before this one took (summary.json), so a resumed run reports its total."""
        path = self.path / SUMMARY
        return json.loads(path.read_text()).get("seconds", 0.0) if path.exists() else 0.0


def option_differences(stored: dict, given: dict, ignored: Iterable[str] = ()) -> list[str]:
    """The options in which ``given`` differs from ``stored``, as 'name: stored -> given'."""
    stored, given = json.loads(json.dumps(stored)), json.loads(json.dumps(given))
    skip = set(ignored)
    return [f"{k}: {stored.get(k)!r} -> {given.get(k)!r}" for k in sorted(set(stored) | set(given))
            if k not in skip and stored.get(k) != given.get(k)]


def write_json(path: Path, data: object) -> None:
    """Write a JSON file through a temporary one: a kill or a full disk leaves the old file, never half."""
    replace_lines(path, json.dumps(data, indent=2).splitlines())


def _json_lines(path: Path) -> list[tuple[str, dict]]:
    """Each line of a JSON-lines file that holds a JSON object, with the object."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            out.append((line, row))
    return out


def _task(key: Key, row: dict) -> Hashable | None:
    try:
        return key(row)
    except (KeyError, TypeError):
        return None


def settle(path: Path, key: Callable[[dict], tuple]) -> None:
    """Rewrite a JSON-lines file in task order (stable): results land in the order workers finish,
    which depends on the load; settled, the same run gives the same file on any machine."""
    if not path.exists():
        return
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    ordered = sorted(lines, key=lambda line: key(json.loads(line)))
    if ordered != lines:
        replace_lines(path, ordered)


def replace_lines(path: Path, lines: list[str]) -> None:
    """Write the file anew through a temporary one: a kill leaves the old file or the new, never half."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(line + "\n" for line in lines))
    os.replace(tmp, path)
