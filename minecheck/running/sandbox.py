"""Solvers run where they cannot take minecheck down, under budgets that do not depend on load.

A solver call runs in a *sandbox*: a child forked from the calling thread, kept for the next
call, in a process group of its own and a *subreaper* (PR_SET_CHILD_SUBREAPER): every process a
call starts stays below it, whatever it does (forks twice, moves to a session of its own, exits
leaving children), and all are killed and waited for when the call ends.  Its *tree* - the child,
what descends from it, its group - is what the call's ``Budget`` (``minecheck.model.budget``) applies
to.  Each call has:

* a CPU-time budget: the tree's CPU seconds, not wall-clock seconds, so a busy machine and a
  quiet one stop the same solvers (inside the child an ITIMER_PROF signal stops Python code at
  the budget; the watchdog in the caller kills the tree a little past it, for code that never
  returns to Python and for children computing; and the child dies with the thread that forked
  it, so none is left behind.  RLIMIT_CPU is not used: raised call after call in a long-lived
  process, Linux sent SIGXCPU seconds before the limit, stopping innocent runs);
* a memory limit: the address space the call may add (RLIMIT_AS in the child, so Python raises
  MemoryError), and the tree's resident memory for programs it starts;
* an idle stop: a solver whose tree uses no CPU for ``idle`` seconds is blocked or asleep, not
  computing, and is stopped (a load-independent answer too: a computing solver on a busy
  machine still gets some CPU in every window).

What stopped a call is part of its answer (``minecheck.running.stops``: a message that names the
budget and holds no measured time, so findings are the same on every run); the tree is read and killed
by ``minecheck.running.proctree``, watched by ``minecheck.running.watchdog``, and reaped as a subreaper
does (``minecheck.running.reaper``).  Each object (a solver, a batch runner) has a
sandbox of its own, so no solver's changes to its interpreter reach a reference or another solver.  A
stopped or dead sandbox is replaced by a new fork on the next call; nothing else the worker holds is lost.

Linux only (``/proc`` and ``fork``); elsewhere ``run`` calls in-process without limits.
"""

from __future__ import annotations

import os
import pickle
import select
import sys
import threading
import time
from dataclasses import replace

from minecheck.model.budget import Budget
from minecheck.running import forked, jail, jailed
from minecheck.running.messages import Channel, Stalled, Unreadable, decode_outcome
from minecheck.running.output import Tail
from minecheck.running.proctree import KILL_WAIT, Tree, adopting, ended, processes, reap_adopted
from minecheck.running.serving import flush, message_limit
from minecheck.running.stops import Outcome, Stop, describe_error, describe_status, stop_message
from minecheck.running.watchdog import watch

SUPPORTED = sys.platform.startswith("linux") and hasattr(os, "fork")


MAKE_CPU = 60.0  # CPU seconds a solver made in its sandbox may take to import its module and be made
MAKE_IDLE = 30.0  # seconds that making may wait (a disk, a licence server) before it is stopped


def preparing(budget: Budget) -> Budget:
    """The budget of making a solver in a fresh sandbox (``prepare``): the call's memory limit, and CPU and
    idle time of its own, so that an import never counts against a board's budget."""
    cpu = None if budget.cpu is None else max(budget.cpu, MAKE_CPU)
    return replace(budget, cpu=cpu, idle=max(budget.idle_after, MAKE_IDLE))


class Sandbox:
    """A child that runs the calls of one object (a solver, a batch runner) one at a time, for the thread that
    made it: forked from it (``forked``), or served from bubblewrap's jail for code not minecheck's own
    (``jailed``).

    The object is not sent to a forked child: the child inherits it when it is forked, and a call names its
    method.  One object per child: whatever a solver changes in its interpreter (a patched module, a
    global cache, the recursion limit) stays in its own child, never seen by a reference or another
    solver (in a campaign: a child per solver and worker, forked on the first board, and again after a stop).
    What comes back is read as data (``messages``), within the call's output budget.
    """

    def __init__(self, owner: object) -> None:
        self.owner = owner  # kept alive, so that its id is not reused while this sandbox is known by it
        self.pid: int | None = None
        self.conn: Channel | None = None
        self.reaped = 0.0  # CPU seconds of the children this sandbox has waited for (and of theirs)
        self.tree: Tree | None = None  # the live child's processes
        self.jailed = False  # served from bubblewrap's jail (``jailed``), not a forked child
        self.output: int | None = None  # the read end of an untrusted child's standard output and error
        self.written = Tail()  # what it wrote there during the call under way
        self.base_mib: float | None = None  # a jailed child's resident memory once it served its first call

    def cpu(self, table: dict | None = None) -> float:
        """CPU seconds its children have spent so far, the live one's included, with what they started
        (os.times() counts a child only once it is waited for, whatever caller it worked for; ``table``: the
        processes, read once for many sandboxes)."""
        live = self.tree is not None and self.pid is not None
        return self.reaped + (self.tree.usage(table).cpu if live else 0.0)

    def call(self, owner: object, method: str, args: tuple, budget: Budget) -> Outcome:
        outcome = self._call(owner, method, args, budget)
        if outcome.stop is Stop.CPU and budget.cpu and outcome.wall * (os.cpu_count() or 1) < budget.cpu:
            # a CPU budget cannot run out faster than the cores can spend it: whatever stopped this
            # run, it was not the solver's computing.  Once more in a fresh sandbox, so that a finding
            # never rests on it; a solver that really runs out runs out again.
            first = outcome.how
            outcome = self._call(owner, method, args, budget)
            outcome = replace(outcome, how=f"{outcome.how} (run again: the first stop, after {first}, came "
                                           "sooner than the cores could spend the budget)".strip())
        return outcome

    def _call(self, owner: object, method: str, args: tuple, budget: Budget) -> Outcome:
        assert owner is self.owner, "a sandbox serves the one object it was made for"
        if self.pid is None:
            self._start(budget)
            if hasattr(owner, "prepare"):  # a solver made in its sandbox (running.hosted): not under the call's budget
                made = self._exchange("prepare", (), preparing(budget))
                if made.error is not None:
                    self.close()  # the next call forks afresh and tries again
                    return replace(made, error=f"{made.error} (while the solver was made in its sandbox)")
        return self._exchange(method, args, budget)

    def _exchange(self, method: str, args: tuple, budget: Budget) -> Outcome:
        assert self.conn is not None and self.pid is not None
        start = time.perf_counter()
        self.written = Tail(budget.output_bytes)
        try:
            self.conn.send(pickle.dumps((method, args, budget), protocol=pickle.HIGHEST_PROTOCOL))
        except (BrokenPipeError, ConnectionResetError, OSError):
            return self._died(start, budget)
        seen: list[str] = []
        assert self.tree is not None
        stop = watch(self.pid, budget, self._ready, seen=seen, usage=self.tree.usage,
                     resident_cap_mib=self._cap(budget))
        if stop is None and self.written.over:
            stop, seen = Stop.OUTPUT, [f"{self.written.seen} bytes on its standard output and error"]
        if stop is not None:
            self.close()
            detail = WROTE if stop is Stop.OUTPUT else ""
            return self._with_output(Outcome(error=stop_message(stop, budget, detail), stop=stop, cpu=budget.cpu or 0.0,
                                             wall=time.perf_counter() - start,
                                             how=f"the watchdog outside: {' '.join(seen)}"))
        try:
            untrusted = bool(getattr(self.owner, "untrusted", False))
            reply = decode_outcome(self.conn.recv(message_limit(budget, untrusted), budget.idle_after))
        except (EOFError, ConnectionResetError, OSError):
            return self._died(start, budget)
        except Stalled as err:
            self.close()
            return Outcome(error=stop_message(Stop.IDLE, budget), stop=Stop.IDLE, wall=time.perf_counter() - start,
                           how=f"the channel: {err}")
        except Unreadable as err:  # not an outcome minecheck takes (torn, forged, too long): the solver's own
            self.close()  # what else it sent is in the pipe: start afresh
            return self._with_output(Outcome(error=f"UnreadableAnswer: {err}", wall=time.perf_counter() - start))
        self._drain()
        if self.written.over:  # what it wrote came in before its answer: over the budget all the same
            self.close()
            return self._with_output(Outcome(error=stop_message(Stop.OUTPUT, budget, WROTE), stop=Stop.OUTPUT,
                                             cpu=reply.cpu, wall=time.perf_counter() - start,
                                             how=f"{self.written.seen} bytes on its standard output and error"))
        if reply.stop is not None:  # the child stopped itself (CPU budget, MemoryError): start afresh
            self.close()
        elif self.jailed and self.base_mib is None:
            self.base_mib = self.tree.usage().rss_mib
        reply = self._with_output(reply)
        return replace(reply, wall=time.perf_counter() - start) if reply.stop is Stop.CPU else reply

    def _cap(self, budget: Budget) -> float | None:
        """The resident memory (its /tmp counted) that stops a jailed child: the budget over what it held once it
        served its first call (a fresh Python, not a copy of the caller); None (the watchdog's default: the budget
        over the caller's own size) for a forked child, and until then."""
        if not self.jailed or budget.memory_mib is None or self.base_mib is None:
            return None
        return budget.memory_mib + self.base_mib

    def _ready(self, seconds: float) -> bool:
        """Whether the answer is there, within ``seconds``; meanwhile what the child writes is read (and, past its
        output budget, the call is over)."""
        assert self.conn is not None
        if self.output is None:
            try:
                return self.conn.poll(seconds)
            except (EOFError, OSError):
                return True  # the child is gone: recv() will say so
        deadline = time.monotonic() + seconds
        while True:
            try:
                left = max(0.0, deadline - time.monotonic())
                ready = select.select([self.conn.read_fd, self.output], [], [], left)[0]
            except (OSError, ValueError):
                return True
            if self.output in ready and self._drain():
                os.close(self.output)  # its writers are gone: the answer, or the end, is what is left
                self.output = None
                return self._ready(max(0.0, deadline - time.monotonic()))
            if self.conn.read_fd in ready or self.written.over:
                return True
            if time.monotonic() >= deadline:
                return False

    def _drain(self) -> bool:
        """Read what the child wrote (all the pipe holds, or up to its budget); True when its output's pipe ended."""
        return self.output is not None and self.written.drain(self.output, reads=None)

    def _with_output(self, outcome: Outcome) -> Outcome:
        """A failed call keeps the last lines its child wrote (as a program's failure keeps its standard error):
        after an error or a death, when all it wrote has come; not after a stop from outside, whose lines would
        depend on how far the load let it get."""
        if outcome.error is None or not self.written.seen or outcome.stop not in (None, Stop.DIED):
            return outcome
        return replace(outcome, stderr=self.written.text())

    def _start(self, budget: Budget) -> None:
        """Start the child: in the jail for an untrusted owner where there is one, else forked."""
        self.close()
        for stream in (sys.stdout, sys.stderr):  # else the child would print the caller's pending output again
            flush(stream)
        untrusted = bool(getattr(self.owner, "untrusted", False))
        started = jailed.start(self.owner, budget.memory_mib) if untrusted else None
        self.jailed = started is not None
        if started is None:
            environment = jail.environment(tuple(getattr(self.owner, "env", ())), jailed=False) if untrusted else None
            started = forked.start(self.owner, environment)
        self.pid, self.conn, self.output = started
        self.base_mib = None
        # bubblewrap and its init (or a forked child and its namespace's init) only wait: not their memory
        self.tree = Tree(self.pid, quiet_depth=2, scratch="/tmp" if self.jailed else None)

    def _died(self, start: float, budget: Budget) -> Outcome:
        detail = self._exit_status()
        self.close()
        return self._with_output(Outcome(error=stop_message(Stop.DIED, budget, detail), stop=Stop.DIED,
                                         wall=time.perf_counter() - start, how=detail))

    def _exit_status(self) -> str:
        """How the child ended (it closed its end of the channel), once what it left running is killed."""
        if self.pid is None:
            return ""
        assert self.tree is not None
        if not ended(self.pid, KILL_WAIT):  # it closed the channel and lives on: no answer will come
            self.close()
            return "the solver's process closed its channel to minecheck without answering"
        # its zombie still holds its id, so the tree's root cannot be another process yet
        seen = self.tree.usage().cpu
        reap_adopted(self.tree.kill(include_root=False))
        self._drain()
        try:
            status = self._reap(seen)
        except ChildProcessError:
            return "the solver's process ended without answering"
        self.pid = None
        signalled = jail.signal_of(os.WEXITSTATUS(status)) if self.jailed and os.WIFEXITED(status) else None
        if signalled is not None:
            status = signalled  # "killed by signal N", as a wait status
        return describe_status(status)

    def _reap(self, seen: float = 0.0) -> int:
        """Wait for the child; its wait status, its CPU added to ``reaped`` (at least ``seen``, the tree's CPU
        last read alive: processes killed in the namespace are waited for by no one who reports them)."""
        assert self.pid is not None
        _, status, usage = os.wait4(self.pid, 0)
        self.reaped += max(usage.ru_utime + usage.ru_stime, seen)
        return status

    def close(self) -> None:
        """Stop the child and every process it started (``kill_tree``), wait for them, and forget them."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.output is not None:
            os.close(self.output)
            self.output = None
        if self.pid is not None:
            assert self.tree is not None
            seen = self.tree.usage().cpu
            with adopting():  # the killed child's zombies come here, not to an init that may not reap
                killed = self.tree.kill()
                try:
                    self._reap(seen)
                except ChildProcessError:
                    pass
                reap_adopted(killed)
            self.pid = None


WROTE = "it wrote to its standard output and error"  # as the output stop says it


_local = threading.local()


LIVE_SANDBOXES = 32  # a thread's sandboxes kept; past that the one used longest ago is ended (its CPU still counted)


def _boxes() -> dict[int, Sandbox]:
    """This thread's sandboxes by the id of the object each serves, the one used last at the end (threads of
    a dask worker each have theirs)."""
    boxes = getattr(_local, "boxes", None)
    if boxes is None or getattr(_local, "pid", None) != os.getpid():  # a forked worker makes its own, too
        boxes = _local.boxes = {}
        _local.pid, _local.ended_cpu = os.getpid(), 0.0
    return boxes


def sandbox(owner: object) -> Sandbox:
    """This thread's sandbox for ``owner``: a child of its own, holding no other solver."""
    boxes = _boxes()
    box = boxes.pop(id(owner), None)
    if box is None or box.owner is not owner:
        if box is not None:
            _end(box)
        box = Sandbox(owner)
    boxes[id(owner)] = box
    while len(boxes) > LIVE_SANDBOXES:  # objects made call after call (a test's probes) leave no child each
        _end(boxes.pop(next(iter(boxes))))
    return box


_programs = threading.local()  # CPU seconds of the programs (cmd: solvers) this thread ran, as they ended


def count_program_cpu(seconds: float) -> None:
    """Add a program's CPU seconds to this thread's (``thread_cpu``): a program runs outside the sandboxes."""
    _programs.cpu = getattr(_programs, "cpu", 0.0) + seconds


def _end(box: Sandbox) -> None:
    box.close()
    _local.ended_cpu += box.cpu()


def close_all() -> None:
    """Stop every sandbox of this thread (their CPU stays counted by ``thread_cpu``)."""
    for box in _boxes().values():
        box.close()


def thread_cpu() -> float:
    """CPU seconds of this thread, of the solver runs its sandboxes made, live or ended, and of the programs
    it ran: a budget that other threads' work, and solver runs ended later for earlier callers, do not eat."""
    boxes = _boxes()
    table = processes() if any(box.pid is not None for box in boxes.values()) else {}  # one look for all
    return (time.thread_time() + _local.ended_cpu + sum(box.cpu(table) for box in boxes.values())
            + getattr(_programs, "cpu", 0.0))


def run(owner: object, method: str, args: tuple, budget: Budget | None) -> Outcome:
    """Call owner.method(*args) within the budget in this thread's sandbox (in-process when budget is None)."""
    if budget is None or not SUPPORTED:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        try:
            value, error = getattr(owner, method)(*args), None
        except RecursionError as err:
            value, error = None, f"RecursionError: {err}"
        except Exception as err:  # noqa: BLE001 - whatever the solver raised is its answer
            value, error = None, describe_error(err)
        return Outcome(value=value, error=error, cpu=time.process_time() - cpu0, wall=time.perf_counter() - wall0)
    return sandbox(owner).call(owner, method, args, budget)
