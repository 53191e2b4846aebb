"""Solvers in any language: a program that speaks the protocol (``minecheck.running.protocol``), untrusted.

One board per run: the board's .mine text on standard input, ``MINECHECK_MODE`` and
``MINECHECK_SEED`` in the environment, one JSON answer on standard output.  Persistent mode
(for programs with a slow start, such as a JVM): the program is started once per worker and
given one JSON request per line, answering one JSON object per line.

The program may crash, hang, print garbage, flood its output or never start; each is an answer to
report (``Crash:``, ``Timeout:``, ``Protocol:`` errors, with the last lines of its standard error),
never a crash of minecheck.  Both pipes are drained as fast as the program writes, so a chatty
program is never blocked and taken for idle: standard error keeps only its last lines, standard
output past the budget's ``output_mib`` ends the run with a finding naming that limit.

On Linux the program runs under a *guardian* (``minecheck.running.guardian``, started by
``minecheck.running.spawning``), a subreaper that starts the program and outlives it, so that whatever
the program starts stays below it and ends with it.  The budget is that of every solver
(``minecheck.model.budget``), over the program's whole tree, its jail's /tmp counted in its memory.
It sees only the environment ``jail.environment`` allows (its table's ``env`` names the rest), and
``MINECHECK_MODE``, ``MINECHECK_SEED`` (or ``MINECHECK_PERSISTENT``).
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field, replace

from minecheck.model.answers import Answers, Failure, FailureKind, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import DEFAULT_BUDGET, Budget
from minecheck.model.errors import ProtocolError, UnknownSolver
from minecheck.running import jail
from minecheck.running.output import Tail
from minecheck.running.proctree import KILL_WAIT, ended
from minecheck.running.protocol import PROTOCOL_PREFIX, board_text, decode_declared, request_line, seed_for
from minecheck.running.sandbox import count_program_cpu
from minecheck.running.spawning import Process, close_pipe, end, spawn
from minecheck.running.stops import Stop, describe_status, stop_failure
from minecheck.running.watchdog import watch

ALL_ANSWERS = frozenset({Answers.VERDICTS, Answers.PROBABILITIES, Answers.COUNTS, Answers.CONSISTENCY})
BOTH_MODES = frozenset({Mode.LOCAL, Mode.GLOBAL})
READ_SIZE = 1 << 20  # bytes asked of a pipe at a time
DRAIN_READS = 16  # reads from one pipe before the other pipe and the watchdog get their turn


@dataclass(frozen=True)
class Program:
    """How to run an external solver: its command (split like a shell, no shell run) and what it answers."""

    command: tuple[str, ...]
    persistent: bool = False
    modes: frozenset[Mode] = BOTH_MODES
    answers: frozenset[Answers] = ALL_ANSWERS
    cwd: str | None = None
    tolerance: float | None = None  # the precision of its probabilities, declared for it (decimals = 5 ...)
    writable: tuple[str, ...] = ()  # paths the program may write in its sandbox (``minecheck.running.jail``)
    env: tuple[str, ...] = ()  # the variables of minecheck's environment it is given besides the allow-list

    @staticmethod
    def parse(command: str, **options) -> Program:
        words = tuple(shlex.split(command))
        if not words:
            raise UnknownSolver("an external solver needs a command: cmd:PROGRAM [ARGS...]")
        return Program(words, **options)


@dataclass
class _Run:
    """What a program printed, as it is read: its standard output (to ``limit`` bytes), the end of its
    standard error."""

    limit: int | None = None  # bytes of standard output read at most (None: no limit)
    out: bytearray = field(default_factory=bytearray)
    err: Tail = field(default_factory=Tail)  # the end of its standard error (the rest is read and dropped)
    overflow: bool = False  # more than ``limit`` bytes came on standard output

    def add_out(self, data: bytes) -> None:
        self.out += data
        if self.limit is not None and len(self.out) > self.limit:
            self.overflow = True
            del self.out[self.limit:]

    def add_err(self, data: bytes) -> None:
        self.err.add(data)

    def clear(self) -> None:
        self.out.clear()
        self.err.clear()

    def stderr_tail(self) -> str:
        """The last lines of its standard error (``output.Tail.text``)."""
        return self.err.text()

    def overflow_error(self) -> Failure:
        return Failure(FailureKind.CRASH, f"Crash: the program wrote more than {_size(self.limit)} to its standard "
                                          "output", budget="output")


def _size(count: int) -> str:
    return f"{count / 2**20:g} MiB" if count % 2**20 == 0 else f"{count} bytes"


class ExternalSolver:
    """A program behind the Solver protocol; it enforces the budget itself (``runs_own_process``)."""

    runs_own_process = True

    def __init__(self, name: str, program: Program):
        self.name = name
        self.program = program
        self.modes = program.modes
        self.answers = program.answers
        self._lock = threading.Lock()
        self._process: Process | None = None
        self._pending: _Run | None = None
        self._cpu = 0.0  # the program's CPU seconds on the call under way

    def solve(self, board: Board, mode: Mode) -> SolverResult:
        return self.solve_limited(board, mode, DEFAULT_BUDGET)

    def solve_limited(self, board: Board, mode: Mode, budget: Budget | None) -> SolverResult:
        budget = budget or DEFAULT_BUDGET
        with self._lock:
            self._cpu = 0.0
            result = self._ask(board, mode, budget) if self.program.persistent else self._run_once(board, mode, budget)
            count_program_cpu(self._cpu)  # a shrink's CPU budget counts the program's time
            return replace(result, cpu=self._cpu)  # the program's CPU, not this process's

    # -- one process per board ---------------------------------------------------------------------

    def _run_once(self, board: Board, mode: Mode, budget: Budget) -> SolverResult:
        env = {**self._environment(), "MINECHECK_MODE": mode.value, "MINECHECK_SEED": str(seed_for(board, mode))}
        process = self._start(env, budget)
        if isinstance(process, SolverResult):
            return replace(process, mode=mode)
        run = _Run(budget.output_bytes)
        stop = _exchange(process, board_text(board).encode(), run, budget, until_exit=True)
        status = end(process, grace=0.0 if stop is not None or run.overflow else KILL_WAIT)
        self._cpu = process.spent
        if stop is not None:
            return self._stopped(mode, stop, budget, run)
        if run.overflow:
            return self._failed(mode, run.overflow_error(), run)
        if status != 0:
            return self._failed(mode, _crash(_status_text(status, process.jailed)), run)
        return self._decode(bytes(run.out), board, mode, run)

    # -- one process per worker, a line per request ------------------------------------------------

    def _ask(self, board: Board, mode: Mode, budget: Budget) -> SolverResult:
        if self._process is not None and ended(self._process.pid):
            self.close()  # it ended between requests (and what it left running with it)
        if self._process is None:
            started = self._start({**self._environment(), "MINECHECK_PERSISTENT": "1"}, budget)
            if isinstance(started, SolverResult):
                return replace(started, mode=mode)
            self._process, self._pending = started, _Run(budget.output_bytes)
        process, run = self._process, self._pending
        assert run is not None
        run.clear()
        late = _pending_output(process)
        if late:  # printed after its last answer: it is out of step with its requests
            self.close()
            return self._failed(mode, _protocol(f"more than one line for one request (after the last answer it "
                                                f"printed {late[:80]!r}); started afresh"), run)
        before = process.tree.usage().cpu
        stop = _exchange(process, (request_line(board, mode) + "\n").encode(), run, budget, until_exit=False)
        self._cpu = max(0.0, process.tree.usage().cpu - before)
        if stop is not None or run.overflow:
            self.close()
            return self._stopped(mode, stop, budget, run) if stop else self._failed(mode, run.overflow_error(), run)
        if b"\n" not in run.out:  # the program ended instead of answering
            status = end(process, grace=KILL_WAIT)  # (one that closed its output and runs on is stopped)
            self._process = None
            return self._failed(mode, _crash(_status_text(status, process.jailed) + " (in persistent mode it must "
                                             "answer a line per request and keep running)"), run)
        line, _, rest = bytes(run.out).partition(b"\n")
        result = self._decode(line, board, mode, run)
        if result.error or rest.strip():  # out of step with its requests: start it afresh next time
            self.close()
            if rest.strip() and not result.error:
                return self._failed(mode, _protocol("more than one line for one request"), run)
        return result

    # -- shared ------------------------------------------------------------------------------------

    def _environment(self) -> dict[str, str]:
        """What it is given of minecheck's environment: the allow-list, and the names its table passes on."""
        return jail.environment(self.program.env, jailed=jail.status().active)

    def _start(self, env: dict, budget: Budget) -> Process | SolverResult:
        try:
            return spawn(self.program.command, env, self.program.cwd, self.program.writable, budget.memory_mib)
        except OSError as err:
            return SolverResult(self.name, Mode.LOCAL, failure=_crash(
                f"Crash: the program could not start: {shlex.join(self.program.command)}: {err.strerror or err}"))

    def _decode(self, data: bytes, board: Board, mode: Mode, run: _Run) -> SolverResult:
        try:
            result = decode_declared(data.decode("utf-8", "replace"), board, mode, self.name, self.answers)
        except ProtocolError as err:
            return self._failed(mode, _protocol(str(err)), run)
        if result.tolerance is None and self.program.tolerance is not None:  # declared in its definition
            result = replace(result, tolerance=self.program.tolerance)
        return result

    def _stopped(self, mode: Mode, stop: Stop, budget: Budget, run: _Run) -> SolverResult:
        return self._failed(mode, stop_failure(stop, budget), run)

    def _failed(self, mode: Mode, failure: Failure, run: _Run) -> SolverResult:
        return SolverResult(self.name, mode, failure=replace(failure, stderr=run.stderr_tail()))

    def close(self) -> None:
        """Stop the persistent program, if it runs, with everything it started."""
        if self._process is not None:
            end(self._process)
            self._process = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit anything may already be gone
            pass


# -- talking to a program -----------------------------------------------------------------------------

def _exchange(process: Process, request: bytes, run: _Run, budget: Budget, until_exit: bool) -> Stop | None:
    """Send the request and read the answer - all output until the program's tree ends, or one line - within
    the budget (a stop ends the program; so does more output than ``run.limit``).

    Between two looks of the watchdog at the tree's usage, both pipes are read as fast as the program
    fills them: a program blocked on a full pipe uses no CPU, and would be stopped as idle.
    """
    selector = selectors.DefaultSelector()
    assert process.stdin and process.stdout and process.stderr
    for stream in (process.stdout, process.stderr):
        os.set_blocking(stream.fileno(), False)
        selector.register(stream, selectors.EVENT_READ)
    state = {"pending": memoryview(request), "closed": set()}
    if request:
        os.set_blocking(process.stdin.fileno(), False)
        selector.register(process.stdin, selectors.EVENT_WRITE)

    def done() -> bool:
        if run.overflow:
            return True
        if until_exit and len(state["closed"]) == 2:
            return ended(process.pid)
        if until_exit and process.guarded and ended(process.pid):
            # the guardian ends after the program's whole tree: no more output can come (the pipes may
            # not reach their end: a process forked elsewhere, e.g. by a library, could hold them open)
            for key in list(selector.get_map().values()):
                if key.fileobj is not process.stdin:
                    _drain(process, key, selector, state, run, until_empty=True)
            return True
        return not until_exit and (b"\n" in run.out or process.stdout in state["closed"] or ended(process.pid))

    def answered(seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not selector.get_map():  # both pipes closed: only the program's end is awaited
                ended(process.pid, left)
                continue
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    _write_some(process, selector, state, until_exit)
                else:
                    _drain(process, key, selector, state, run)
        return True

    try:
        stop = watch(process.pid, budget, answered, resident_cap_mib=budget.memory_mib, usage=process.tree.usage)
        # what it wrote to stderr before it ended or was stopped is read now, before the process is gone: a
        # line answered, stdout closed or the end seen first left a traceback in the pipe (an empty tail)
        for key in [k for k in selector.get_map().values() if k.fileobj is process.stderr]:
            _drain(process, key, selector, state, run)
    finally:
        selector.close()
    return stop


def _drain(process: Process, key: selectors.SelectorKey, selector, state: dict, run: _Run,
           until_empty: bool = False) -> None:
    """Read what a pipe holds until it is empty (DRAIN_READS reads at most, to let the rest have a turn,
    unless ``until_empty``)."""
    reads = 0
    while until_empty or reads < DRAIN_READS:
        reads += 1
        try:
            data = os.read(key.fd, READ_SIZE)
        except BlockingIOError:
            return
        if not data:
            selector.unregister(key.fileobj)
            state["closed"].add(key.fileobj)
            return
        if key.fileobj is process.stdout:
            run.add_out(data)
            if run.overflow:
                return
        else:
            run.add_err(data)


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
            close_pipe(process.stdin)
        else:
            os.set_blocking(process.stdin.fileno(), True)


def _crash(message: str) -> Failure:
    return Failure(FailureKind.CRASH, message)


def _protocol(what: str) -> Failure:
    """An answer that breaks the schema; its message starts with PROTOCOL_PREFIX, as people read it."""
    return Failure(FailureKind.PROTOCOL, f"{PROTOCOL_PREFIX}: {what}")


def _status_text(status: int, jailed: bool = False) -> str:
    """A program's exit code as the error of a crash (Popen gives -N for a signal; bwrap, as a shell does,
    128 + N for a program it ran)."""
    if jailed and jail.signal_of(status) is not None:
        status = -jail.signal_of(status)
    if status < 0:
        return "Crash: " + describe_status(-status & 0x7F).replace("the solver's process", "the program")
    return f"Crash: the program exited with status {status}"
