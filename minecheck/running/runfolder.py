"""A run's folder, the same for fuzz campaigns and play runs.

  OPTIONS.json    what decides the run's tasks (a resumed run must match it)
  RESULTS.jsonl   one line per task done (a board, a game), written after its findings
  findings.jsonl  one line per finding
  summary.json    the run's totals, written when it ends

A task's findings are appended and synced before its result line, so a result line means its
findings are on disk: a killed run loses at most the tasks in flight.  ``resume`` drops torn lines
(saying which) and the findings of tasks without a result line, then runs only the tasks not done.
At the end both files are rewritten in task order, so the same run gives the same files on any
machine.  Every other file is written whole through a temporary one and a rename, so a kill or a
full disk leaves the last good file, never an empty one.

One run per folder: a run holds a lock on ``.lock`` while it lives (the kernel drops it when the
process dies, even by SIGKILL); a second run on the folder is refused, naming the first.  A fresh
run refuses a folder that holds another run's files, unless told to ``overwrite`` them, so a
report never shows a page of an earlier run.

The folder's *manifest* (``.minecheck-files``) names every file minecheck wrote there, noted as it
is made (``claim``).  ``overwrite`` removes those and nothing else, and refuses a folder holding any
other file, naming it; a fresh run refuses a folder holding a file it would write over (a user's
``index.html``); an ``--out`` that is a symbolic link is refused, naming where it points.

Every file minecheck writes is opened relative to its folder's descriptor without following a link at
its name (a temporary file is made new, ``O_EXCL``), so a ``NAME.tmp -> a user's file`` link planted in
the folder is RunDisturbed naming it, and nothing is written through it.  The files a run appends to are
checked for their content too, not only their identity and size: a running SHA-256 of what was written,
kept in memory and in ``.minecheck-digests``, is compared with the file before the run settles it and on
``resume`` (a file blanked with spaces to the same size is RunDisturbed naming it).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minecheck.model.errors import BadFile, FolderRefused, RunDisturbed
from minecheck.running import jail
from minecheck.running.files import open_in, read_bytes, read_text
from minecheck.running.manifest import DIGESTS, LOCK, claim, claimed, foreign_files, forget, write_json, write_text
from minecheck.running.rundata import check_folder

FINDINGS = "findings.jsonl"
SUMMARY = "summary.json"
RUN_FILES = ("*.jsonl", "*.json", "*.html", "junit.xml", "*.tmp")  # what a run writes, and overwrite removes
_HELD: dict[Path, int] = {}  # folder -> the open descriptor holding its lock, for this process's life

Warn = Callable[[str], None]

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
                merged: Callable[[dict, dict], dict] | None = None, overwrite: bool = False,
                warn: Warn | None = None) -> set[Hashable]:
        """The tasks already done: none for a fresh run, those on disk for a resumed one, whose stored
        options (``defaults`` under them, ``ignored`` aside) must equal ``given``; ``merged(stored, given)``
        is what a resumed run stores (default: the given options).  Call it holding the folder's lock."""
        make_folder(self.path, "--out")
        stored_path = self.path / self.options
        if resume and stored_path.exists():
            check_folder(self.path)
            stored = dict(defaults or {}) | read_json_object(stored_path)
            differ = option_differences(stored, given, ignored)
            if differ:
                raise FolderRefused(f"cannot resume: {stored_path} holds another run ({'; '.join(differ)}); "
                                 "resume with the same options or use another --out")
            self._check_digests()
            done = self._keep_complete(warn or (lambda _: None))
            write_json(stored_path, merged(stored, given) if merged else given)
            self._expect_as_now()
            return done
        ours, foreign = sorted(claimed(self.path)), foreign_files(self.path)
        clash = [p for p in foreign if p in set(run_files(self.path))]
        if foreign and overwrite:
            raise FolderRefused(f"{self.path} holds files minecheck did not write ({_names(foreign)}); --overwrite "
                                "removes only the files of an earlier run: move them, or choose another --out")
        if clash:
            raise FolderRefused(f"{self.path} holds files minecheck did not write and would write over "
                                f"({_names(clash)}): move them, or choose another --out")
        if ours and not overwrite:
            raise FolderRefused(f"{self.path} holds the files of an earlier run ({_names(ours)}): add --resume to "
                                "continue it, --overwrite to replace it, or choose another --out")
        for path in ours:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
        forget(self.path)
        write_json(stored_path, given)
        self._expect_as_now()
        return set()

    def _keep_complete(self, warn: Warn) -> set[Hashable]:
        """Rewrite both files with whole lines only, and only the findings of tasks done: a kill can tear a
        last line, or fall between a task's findings and its result line (the task runs again)."""
        rows = self.read_results(warn)
        done = {self.result_task(r) for r in rows}
        replace_lines(self.path / self.results, [json.dumps(r) for r in rows])
        kept = [line for line, row in _json_lines(self.path / FINDINGS, warn) if _task(self.finding_task, row) in done]
        replace_lines(self.path / FINDINGS, kept)
        return done

    def read_results(self, warn: Warn | None = None) -> list[dict]:
        """Complete result lines (a line torn by a kill, or not naming its task, is dropped)."""
        rows = []
        for _, row in _json_lines(self.path / self.results, warn):
            if _task(self.result_task, row) is None:
                if warn:
                    warn(f"{self.path / self.results}: a line names no task ({json.dumps(row)[:60]}): skipped")
                continue
            rows.append(row)
        return rows

    def record(self, result: dict, findings: Iterable[str]) -> None:
        """Append the task's findings (synced), then its result line; RunDisturbed (naming the file) when the
        run's files were changed under it or cannot be written (a full disk: the lines written are taken back,
        so no file ends torn)."""
        self.check_undisturbed()
        claim(self.path / FINDINGS)
        claim(self.path / self.results)
        _append(self.path / FINDINGS, "".join(line + "\n" for line in findings), sync=True)
        _append(self.path / self.results, json.dumps(result) + "\n")
        self._note_digests()

    def check_undisturbed(self) -> None:
        """RunDisturbed, naming the file and what changed, if the lock or the files this run appends to are
        not as it left them (another program wrote, removed or replaced them)."""
        held = _HELD.get(self.path.resolve())
        if held is not None:
            try:
                same = os.stat(self.path / LOCK).st_ino == os.fstat(held).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                raise RunDisturbed(self.path / LOCK, "removed or replaced while the run held it (another program "
                                   "changed the run's folder); the run stopped; --resume continues it")
        for path in (self.path / FINDINGS, self.path / self.results):
            expected, now = _EXPECTED.get(path.resolve(), _UNKNOWN), _state(path)
            if expected is not _UNKNOWN and now != expected:
                raise RunDisturbed(path, f"{_change(expected, now)} while the run wrote it (another program changed "
                                   "it); the run stopped; --resume continues it from what is whole")

    def check_contents(self) -> None:
        """RunDisturbed, naming the file, if what the files this run appends to hold is not what it wrote (the
        same size, blanked with spaces): their SHA-256 against the one kept as they were written."""
        for path in (self.path / FINDINGS, self.path / self.results):
            digest = _DIGEST.get(path.resolve())
            if digest is not None and _sha256(path) != digest.hexdigest():
                raise RunDisturbed(path, "its content is not what the run wrote (another program changed it, "
                                   "keeping its size); the run stopped; --resume continues it from what is whole")

    def _expect_as_now(self) -> None:
        for path in (self.path / FINDINGS, self.path / self.results):
            _EXPECTED[path.resolve()] = _state(path)
            _DIGEST[path.resolve()] = hashlib.sha256(read_bytes(path) or b"")
        self._note_digests(anew=True)

    def _note_digests(self, anew: bool = False) -> None:
        """The appended files' sizes and SHA-256 as the run left them, a line appended to the folder's digests
        after each record (``anew``: the file written again with that line alone), for ``resume`` to check."""
        noted = {}
        for path in (self.path / FINDINGS, self.path / self.results):
            digest, state = _DIGEST.get(path.resolve()), _EXPECTED.get(path.resolve())
            if digest is not None and state:
                noted[path.name] = {"bytes": state[1], "sha256": digest.hexdigest()}
        line = json.dumps(noted, sort_keys=True) + "\n"
        if anew:
            write_text(self.path / DIGESTS, line, sync=False)
        else:
            _append(self.path / DIGESTS, line)

    def _check_digests(self) -> None:
        """Before resuming: RunDisturbed, naming the file, if an appended file does not begin with what the run
        noted it wrote (lines past it, of a task in flight when the run was killed, are read as ever: a torn
        line dropped, findings without their task's line dropped)."""
        noted: object = {}
        for line in reversed((read_bytes(self.path / DIGESTS) or b"").splitlines()):  # the last whole line
            try:
                noted = json.loads(line)
                break
            except ValueError:
                noted = None  # a line torn by a kill: the one before it holds
        if not isinstance(noted, dict):
            raise RunDisturbed(self.path / DIGESTS, "not the JSON object minecheck wrote (another program changed it)")
        for name in (FINDINGS, self.results):
            entry = noted.get(name)
            if entry is None:
                continue  # a run of a minecheck that noted no digests, or a file not written yet
            size, digest = (entry.get("bytes"), entry.get("sha256")) if isinstance(entry, dict) else (None, None)
            data = read_bytes(self.path / name) or b""
            if not isinstance(size, int) or isinstance(size, bool) or not isinstance(digest, str):
                raise RunDisturbed(self.path / DIGESTS, f"{name}: not the digest minecheck wrote")
            if len(data) < size or hashlib.sha256(data[:size]).hexdigest() != digest:
                raise RunDisturbed(self.path / name, "its content is not what the run wrote (another program "
                                   "changed it since); move the folder aside and start again, or use another --out")

    def settle(self, result_order: Callable[[dict], tuple], finding_order: Callable[[dict], tuple]) -> None:
        """Both files rewritten in task order (stable), whatever order the workers finished in."""
        self.check_undisturbed()
        self.check_contents()
        settle(self.path / FINDINGS, finding_order)
        settle(self.path / self.results, result_order)
        self._expect_as_now()

    def earlier_seconds(self) -> float:
        """Seconds the runs before this one took (summary.json), so a resumed run reports its total; a
        summary that is missing, torn or without them counts as none."""
        return summary_seconds(self.path) or 0.0


def summary_seconds(folder: Path) -> float | None:
    """The seconds a run's summary.json says it took, as a float a report can print; None where it is missing,
    torn, not a file minecheck wrote, or holds no such number (a 400-digit integer, 1e999: JSON, but no time)."""
    try:
        seconds = json.loads(read_text(folder / SUMMARY) or "{}", parse_constant=float).get("seconds")
    except (OSError, ValueError, AttributeError, BadFile):
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < 1e12:
        return None
    return float(seconds)


_UNKNOWN = ("unknown",)
# appended file -> (inode, size) as the run left it; None: absent.  A rewrite to the same size shows in the
# digest, checked before the run settles its files and on resume (the change time is no witness: this kernel
# moved it under the run's own appends now and then).
_EXPECTED: dict[Path, tuple[int, int] | None] = {}
_DIGEST: dict[Path, Any] = {}  # appended file -> SHA-256 of all the run wrote to it


def _state(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size


def _sha256(path: Path) -> str:
    return hashlib.sha256(read_bytes(path) or b"").hexdigest()


def _change(expected: tuple[int, int] | None, now: tuple[int, int] | None) -> str:
    if now is None:
        return "removed"
    if expected is None:
        return f"made by another program ({now[1]} bytes)"
    if now[0] != expected[0]:
        return f"replaced by another file ({now[1]} bytes, where the run had written {expected[1]})"
    return f"{now[1]} bytes where the run had written {expected[1]}"


def _append(path: Path, text: str, sync: bool = False) -> None:
    """Append ``text`` whole or not at all: on a failed write (a full disk) the file is cut back to its size
    before, and RunDisturbed names it."""
    data = text.encode()
    fd = open_in(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        before = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        except OSError as err:
            try:
                os.ftruncate(fd, before)
            except OSError:
                pass
            raise RunDisturbed(path, f"cannot write ({err.strerror or err}); the run stopped with every line "
                               "before whole; --resume continues it once there is room") from None
        key = path.resolve()
        if key in _DIGEST:
            _DIGEST[key].update(data)
        _EXPECTED[key] = _state(path)
    finally:
        os.close(fd)


def append_text(path: Path, text: str, sync: bool = False) -> None:
    """Append ``text`` to a file of the run folder (claimed), whole or not at all, never through a link."""
    claim(path)
    _append(path, text, sync)


def _names(paths: list[Path]) -> str:
    return ", ".join(p.name for p in paths[:5]) + (f", ... ({len(paths)} in all)" if len(paths) > 5 else "")


def refuse_foreign(path: Path, is_ours: Callable[[Path], bool], option: str, force: bool = False) -> None:
    """Before replacing ``path``: FolderRefused, naming it, if it is there and not a file minecheck writes
    (``is_ours`` reads it), unless ``force``; a link is refused too, naming where it points."""
    if force:
        return
    if path.is_symlink():
        raise FolderRefused(f"{option} {path}: a link to {os.readlink(path)}; give the file itself, or add --force")
    if path.exists() and (not path.is_file() or not is_ours(path)):
        raise FolderRefused(f"{option} {path}: there already, and not a file minecheck wrote; minecheck replaces "
                            "only its own files: choose another name, or add --force to replace it")


def make_folder(path: Path, option: str) -> None:
    """Make the folder a run writes to, or say plainly why it cannot be (ValueError naming it)."""
    if path.is_symlink() and not path.exists():
        raise FolderRefused(f"{option} {path}: a link to {os.readlink(path)}, which does not exist")
    if path.is_symlink():
        raise FolderRefused(f"{option} {path}: a link to {os.readlink(path)}; give the folder itself "
                            f"({path.resolve()}), so that what minecheck writes and removes is plain")
    if path.exists() and not path.is_dir():
        raise FolderRefused(f"{option} {path}: a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise FolderRefused(f"{option} {path}: cannot make this folder ({err.strerror or err})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise FolderRefused(f"{option} {path}: not writable")


@contextmanager
def holding(path: Path, option: str = "--out") -> Iterator[None]:
    """The folder made and its lock held for the block (a block inside another one of this process
    holding it already changes nothing); ValueError naming the process that holds it otherwise."""
    make_folder(path, option)
    jail.hide(path)  # no program started from here on sees it
    took = path.resolve() not in _HELD
    if took:
        lock(path)
    try:
        yield
    finally:
        if took:
            release(path)


def lock(path: Path) -> None:
    """Take the folder's lock for this process; ValueError naming the process that holds it already."""
    path = path.resolve()
    fd = open_in(path / LOCK, os.O_RDWR | os.O_CREAT)
    try:  # a POSIX record lock: held by this process alone, not by the workers and sandboxes it forks
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno not in (errno.EACCES, errno.EAGAIN):
            os.close(fd)
            raise
        holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "another process"
        os.close(fd)
        raise FolderRefused(f"--out {path} is in use by another minecheck run (process {holder}); wait for it to end "
                         "or choose another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    _HELD[path] = fd


def release(path: Path) -> None:
    """Let go of the folder's lock (a run's end does it at exit anyway)."""
    fd = _HELD.pop(path.resolve(), None)
    if fd is not None:
        os.close(fd)


def run_files(path: Path) -> list[Path]:
    """The files a run left in the folder (results, findings, pages, reports), in name order."""
    found = {p for pattern in RUN_FILES for p in path.glob(pattern) if p.is_file()}
    return sorted(found)


def read_json_object(path: Path) -> dict:
    """A JSON file that must hold an object: ValueError naming the file and what is wrong otherwise."""
    try:
        data = json.loads(read_bytes(path) or b"")
    except UnicodeDecodeError:
        raise BadFile(f"{path}: not text") from None
    except json.JSONDecodeError as err:
        raise BadFile(f"{path}: not JSON ({err})") from None
    if not isinstance(data, dict):
        raise BadFile(f"{path}: holds a JSON {type(data).__name__}, not an object")
    return data


def option_differences(stored: dict, given: dict, ignored: Iterable[str] = ()) -> list[str]:
    """The options in which ``given`` differs from ``stored``, as 'name: stored -> given'."""
    stored, given = json.loads(json.dumps(stored)), json.loads(json.dumps(given))
    skip = set(ignored)
    return [f"{k}: {stored.get(k)!r} -> {given.get(k)!r}" for k in sorted(set(stored) | set(given))
            if k not in skip and stored.get(k) != given.get(k)]


def _json_lines(path: Path, warn: Warn | None = None) -> list[tuple[str, dict]]:
    """Each line of a JSON-lines file that holds a JSON object, with the object; ``warn`` hears of the others."""
    text = read_text(path)
    if text is None:
        return []
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = None
        if isinstance(row, dict):
            out.append((line, row))
        elif warn is not None and line.strip():
            warn(f"{path} line {n} is not a JSON object ({line[:40]!r}): skipped")
    return out


def _task(key: Key, row: dict) -> Hashable | None:
    try:
        return key(row)
    except (KeyError, TypeError):
        return None


def settle(path: Path, key: Callable[[dict], tuple]) -> None:
    """Rewrite a JSON-lines file in task order (stable): results land in the order workers finish,
    which depends on the load; settled, the same run gives the same file on any machine."""
    text = read_text(path)
    if text is None:
        return
    lines = [line for line in text.splitlines() if line.strip()]
    ordered = sorted(lines, key=lambda line: _order(key, line))
    if ordered != lines:
        replace_lines(path, ordered)


def replace_lines(path: Path, lines: list[str]) -> None:
    """Write the file anew through a temporary one: a kill leaves the old file or the new, never half."""
    write_text(path, "".join(line + "\n" for line in lines))


def _order(key: Callable[[dict], tuple], line: str) -> tuple:
    """A line's place in task order; a line that names no task goes last, as it stands."""
    try:
        return (0, key(json.loads(line)))
    except (ValueError, KeyError, TypeError, AttributeError):
        return (1,)
