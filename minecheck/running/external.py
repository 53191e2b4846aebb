"""Solvers in any language: a program that speaks the protocol (``minecheck.running.protocol``), untrusted.

One board per run: the board's .mine text on standard input, ``MINECHECK_MODE`` and
``MINECHECK_SEED`` in the environment, one JSON answer on standard output.  Persistent mode
(for programs with a slow start, such as a JVM): the program is started once per worker and
given one JSON request per line, answering one JSON object per line.

The program may crash, hang, print garbage or never start; each is an answer to report
(``Crash:``, ``Timeout:``, ``Protocol:`` errors, with the last lines of its standard error),
never a crash of minecheck.  It runs in a session of its own, so a stop kills its children too,
under the same CPU-time, memory and idle limits as every solver (``minecheck.running.sandbox``).
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import threading
from collections import deque
from dataclasses import dataclass, field, replace

from minecheck.model.answers import Answers, Failure, FailureKind, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.running.protocol import PROTOCOL_PREFIX, ProtocolError, board_text, decode_answer, request_line, seed_for
from minecheck.running.sandbox import Limits, Stop, describe_status, kill_group, stop_failure, watch

ALL_ANSWERS = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
BOTH_MODES = frozenset({Mode.LOCAL, Mode.GLOBAL})
STDERR_LINES = 20  # the last lines of a program's standard error kept with its failure
STDERR_CHARS = 4000
ANSWER_LIMIT = 64 * 2**20  # bytes of standard output read at most: more is garbage, not an answer
DEFAULT_LIMITS = Limits()  # when a program is run without limits (``solve`` rather than ``solve_limited``)


@dataclass(frozen=True)
class Program:
    """How to run an external solver: its command (split like a shell, no shell run) and what it answers."""

    command: tuple[str, ...]
    persistent: bool = False
    modes: frozenset[Mode] = BOTH_MODES
    answers: frozenset[Answers] = ALL_ANSWERS
    cwd: str | None = None

    @staticmethod
    def parse(command: str, **options) -> Program:
        words = tuple(shlex.split(command))
        if not words:
            raise ValueError("an external solver needs a command: cmd:PROGRAM [ARGS...]")
        return Program(words, **options)


@dataclass
class _Run:
    """What a program printed, as it is read."""

    out: bytearray = field(default_factory=bytearray)
    err: deque = field(default_factory=lambda: deque(maxlen=STDERR_LINES))
    partial_err: bytearray = field(default_factory=bytearray)

    def add_err(self, data: bytes) -> None:
        self.partial_err += data
        *lines, rest = self.partial_err.split(b"\n")
        self.err.extend(line.decode("utf-8", "replace") for line in lines)
        self.partial_err = bytearray(rest[-STDERR_CHARS:])

    def stderr_tail(self) -> str:
        lines = list(self.err) + ([self.partial_err.decode("utf-8", "replace")] if self.partial_err else [])
        return "\n".join(lines)[-STDERR_CHARS:]


class ExternalSolver:
    """A program behind the Solver protocol; it enforces the limits itself (``runs_own_process``)."""

    runs_own_process = True

    def __init__(self, name: str, program: Program):
        self.name = name
        self.program = program
        self.modes = program.modes
        self.answers = program.answers
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._pending: _Run | None = None

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return self.solve_limited(board, mode, DEFAULT_LIMITS)

    def solve_limited(self, board: Board, mode: Mode, limits: Limits | None) -> SolverResult:
        limits = limits or DEFAULT_LIMITS
        with self._lock:
            if self.program.persistent:
                return self._ask(board, mode, limits)
            return self._run_once(board, mode, limits)

    # -- one process per board ---------------------------------------------------------------------

    def _run_once(self, board: Board, mode: Mode, limits: Limits) -> SolverResult:
        env = {**os.environ, "MINECHECK_MODE": mode.value, "MINECHECK_SEED": str(seed_for(board, mode))}
        process = self._start(env)
        if isinstance(process, SolverResult):
            return replace(process, mode=mode)
        run = _Run()
        stop = _exchange(process, board_text(board).encode(), run, limits, until_exit=True)
        if stop is not None:
            return self._stopped(mode, stop, limits, run)
        status = process.wait()
        if status != 0:
            return self._failed(mode, _crash(_status_text(status)), run)
        return self._decode(bytes(run.out), board, mode, run)

    # -- one process per worker, a line per request ------------------------------------------------

    def _ask(self, board: Board, mode: Mode, limits: Limits) -> SolverResult:
        if self._process is None or self._process.poll() is not None:
            started = self._start({**os.environ, "MINECHECK_PERSISTENT": "1"})
            if isinstance(started, SolverResult):
                return replace(started, mode=mode)
            self._process, self._pending = started, _Run()
        process, run = self._process, self._pending
        assert run is not None
        run.out.clear()
        run.err.clear()
        late = _pending_output(process)
        if late:  # printed after its last answer: it is out of step with its requests
            self.close()
            return self._failed(mode, _protocol(f"more than one line for one request (after the last answer it "
                                                f"printed {late[:80]!r}); started afresh"), run)
        stop = _exchange(process, (request_line(board, mode) + "\n").encode(), run, limits, until_exit=False)
        if stop is not None:
            self.close()
            return self._stopped(mode, stop, limits, run)
        if b"\n" not in run.out:  # the program ended instead of answering
            status = process.wait()
            self.close()
            return self._failed(mode, _crash(_status_text(status) + " (in persistent mode it must answer a line "
                                             "per request and keep running)"), run)
        line, _, rest = bytes(run.out).partition(b"\n")
        result = self._decode(line, board, mode, run)
        if result.error or rest.strip():  # out of step with its requests: start it afresh next time
            self.close()
            if rest.strip() and not result.error:
                return self._failed(mode, _protocol("more than one line for one request"), run)
        return result

    # -- shared ------------------------------------------------------------------------------------

    def _start(self, env: dict) -> subprocess.Popen | SolverResult:
        try:
            return subprocess.Popen(self.program.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=env, cwd=self.program.cwd, start_new_session=True)
        except OSError as err:
            return SolverResult(self.name, Mode.LOCAL, failure=_crash(
                f"Crash: the program could not start: {shlex.join(self.program.command)}: {err.strerror or err}"))

    def _decode(self, data: bytes, board: Board, mode: Mode, run: _Run) -> SolverResult:
        try:
            return decode_answer(data.decode("utf-8", "replace"), board, mode, self.name)
        except ProtocolError as err:
            return self._failed(mode, _protocol(str(err)), run)

    def _stopped(self, mode: Mode, stop: Stop, limits: Limits, run: _Run) -> SolverResult:
        return self._failed(mode, stop_failure(stop, limits), run)

    def _failed(self, mode: Mode, failure: Failure, run: _Run) -> SolverResult:
        return SolverResult(self.name, mode, failure=replace(failure, stderr=run.stderr_tail()))

    def close(self) -> None:
        """Stop the persistent program, if it runs (and anything it started)."""
        if self._process is not None:
            _end(self._process)
            self._process = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit anything may already be gone
            pass


def _exchange(process: subprocess.Popen, request: bytes, run: _Run, limits: Limits, until_exit: bool) -> Stop | None:
    """Send the request and read the answer - all output until the program ends, or one line - within the limits."""
    selector = selectors.DefaultSelector()
    assert process.stdin and process.stdout and process.stderr
    for stream in (process.stdout, process.stderr):
        os.set_blocking(stream.fileno(), False)
        selector.register(stream, selectors.EVENT_READ)
    state = {"pending": memoryview(request), "closed": set()}
    if request:
        os.set_blocking(process.stdin.fileno(), False)
        selector.register(process.stdin, selectors.EVENT_WRITE)

    def answered(seconds: float) -> bool:
        for key, _ in selector.select(seconds) if selector.get_map() else ():
            if key.fileobj is process.stdin:
                _write_some(process, selector, state, until_exit)
                continue
            try:
                data = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                selector.unregister(key.fileobj)
                state["closed"].add(key.fileobj)
            elif key.fileobj is process.stdout:
                run.out += data
            else:
                run.add_err(data)
        if not selector.get_map():
            process_ended(seconds)
        if len(run.out) > ANSWER_LIMIT:
            return True
        if until_exit:
            return len(state["closed"]) == 2 and process.poll() is not None
        return b"\n" in run.out or process.stdout in state["closed"] or process.poll() is not None

    def process_ended(seconds: float) -> None:
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            pass

    try:
        stop = watch(process.pid, limits, answered, resident_cap_mib=limits.memory_mib)
    finally:
        selector.close()
    if stop is not None:
        _end(process)
    elif len(run.out) > ANSWER_LIMIT:
        _end(process)
        run.out[:] = b"<more than 64 MiB of output>"
    return stop


def _pending_output(process: subprocess.Popen) -> bytes:
    """Whatever a persistent program printed since its last answer was read (nothing, if it is in step)."""
    assert process.stdout is not None
    os.set_blocking(process.stdout.fileno(), False)
    try:
        return os.read(process.stdout.fileno(), 1 << 16) or b""
    except BlockingIOError:
        return b""


def _write_some(process: subprocess.Popen, selector, state: dict, close_after: bool) -> None:
    pending = state["pending"]
    try:
        written = os.write(process.stdin.fileno(), pending)
    except BlockingIOError:
        return
    except (BrokenPipeError, OSError):  # the program stopped reading: its answer (or exit) tells the rest
        written = len(pending)
    state["pending"] = pending = pending[written:]
    if not pending:
        selector.unregister(process.stdin)
        if close_after:
            process.stdin.close()
        else:
            os.set_blocking(process.stdin.fileno(), True)


def _end(process: subprocess.Popen) -> None:
    kill_group(process.pid)
    try:
        process.kill()
    except ProcessLookupError:
        pass
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


def _crash(message: str) -> Failure:
    return Failure(FailureKind.CRASH, message)


def _protocol(what: str) -> Failure:
    """An answer that breaks the schema; its message starts with PROTOCOL_PREFIX, as people read it."""
    return Failure(FailureKind.PROTOCOL, f"{PROTOCOL_PREFIX}: {what}")


def _status_text(status: int) -> str:
    """A program's exit code as the error of a crash (Popen gives -N for a signal)."""
    if status < 0:
        return "Crash: " + describe_status(-status & 0x7F).replace("the solver's process", "the program")
    return f"Crash: the program exited with status {status}"

