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

import dataclasses
import enum
import faulthandler
import io
import os
import pickle
import resource
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from minecheck.model.budget import Budget
from minecheck.running import jail, namespace
from minecheck.running.proctree import FORK_LOCK, KILL_WAIT, Tree, adopting, ended, processes, reap_adopted
from minecheck.running.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, end_descendants, prctl
from minecheck.running.stops import CpuBudget, Outcome, Stop, describe_error, describe_status, stop_message
from minecheck.running.watchdog import watch

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
SUPPORTED = sys.platform.startswith("linux") and hasattr(os, "fork")


class Channel:
    """One end of a pair of pipes carrying pickled messages, each prefixed by its length.

    The caller's end reads what a solver's sandbox sends: untrusted, so it is unpickled by ``AnswerUnpickler``
    (a pickle can call anything it names).  (multiprocessing.connection would do, at the price of importing
    sockets and temporary files on every start of the command line.)
    """

    def __init__(self, read_fd: int, write_fd: int, untrusted: bool = False):
        self.read_fd, self.write_fd = read_fd, write_fd
        self.untrusted = untrusted

    def send(self, message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(struct.pack("<Q", len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def recv(self) -> Any:
        (size,) = struct.unpack("<Q", self._read(8))
        data = self._read(size)
        return AnswerUnpickler(io.BytesIO(data)).load() if self.untrusted else pickle.loads(data)

    def _read(self, size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(self.read_fd, min(left, 1 << 20))
            if not chunk:
                raise EOFError("the other end closed the channel")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def poll(self, seconds: float) -> bool:
        return bool(select.select([self.read_fd], [], [], seconds)[0])

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass


SAFE_BUILTINS = frozenset({"int", "float", "complex", "str", "bytes", "bytearray", "bool", "tuple", "list", "dict",
                           "set", "frozenset", "slice", "range"})
SAFE_CLASSES = {("fractions", "Fraction"), ("decimal", "Decimal"), ("collections", "OrderedDict")}


class AnswerUnpickler(pickle.Unpickler):
    """Reads back what a sandbox answers, admitting only plain data: builtin values, exact numbers, and minecheck's
    own dataclasses and enums (an answer, an outcome, a declaration).  Any other name in the pickle - os.system,
    a function, a class with effects - is refused (``pickle.UnpicklingError``), so a solver's answer can never
    run code in the process that checks it."""

    def find_class(self, module: str, name: str):
        if module == "builtins" and name in SAFE_BUILTINS or (module, name) in SAFE_CLASSES:
            return super().find_class(module, name)
        if module.split(".")[0] == "minecheck" and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not an answer minecheck takes from a sandbox")


MAKE_CPU = 60.0  # CPU seconds a solver made in its sandbox may take to import its module and be made
MAKE_IDLE = 30.0  # seconds that making may wait (a disk, a licence server) before it is stopped


def preparing(budget: Budget) -> Budget:
    """The budget of making a solver in a fresh sandbox (``prepare``): the call's memory limit, and CPU and
    idle time of its own, so that an import never counts against a board's budget."""
    cpu = None if budget.cpu is None else max(budget.cpu, MAKE_CPU)
    return replace(budget, cpu=cpu, idle=max(budget.idle_after, MAKE_IDLE))


def channel_pair() -> tuple[Channel, Channel]:
    down_read, down_write = os.pipe()
    up_read, up_write = os.pipe()
    return Channel(up_read, down_write, untrusted=True), Channel(down_read, up_write)


class Sandbox:
    """A forked child that runs the calls of one object (a solver, a batch runner) one at a time, for the
    thread that made it.

    The object is not sent to the child: the child inherits it when it is forked, and a call names its
    method.  One object per child: whatever a solver changes in its interpreter (a patched module, a
    global cache, the recursion limit) stays in its own child, never seen by a reference or another
    solver (in a campaign: a child per solver and worker, forked on the first board, and again after a stop).
    """

    def __init__(self, owner: object) -> None:
        self.owner = owner  # kept alive, so that its id is not reused while this sandbox is known by it
        self.pid: int | None = None
        self.conn: Channel | None = None
        self.reaped = 0.0  # CPU seconds of the children this sandbox has waited for (and of theirs)
        self.tree: Tree | None = None  # the live child's processes
        self.jailed = False  # served from bubblewrap's jail (``_start_jailed``), not a forked child

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
            self._fork()
            if hasattr(owner, "prepare"):  # a solver made in its sandbox (running.hosted): not under the call's budget
                made = self._exchange("prepare", (), preparing(budget))
                if made.error is not None:
                    self.close()  # the next call forks afresh and tries again
                    return replace(made, error=f"{made.error} (while the solver was made in its sandbox)")
        return self._exchange(method, args, budget)

    def _exchange(self, method: str, args: tuple, budget: Budget) -> Outcome:
        assert self.conn is not None and self.pid is not None
        start = time.perf_counter()
        try:
            self.conn.send((method, args, budget))
        except (BrokenPipeError, ConnectionResetError, OSError):
            return self._died(start, budget)
        seen: list[str] = []
        assert self.tree is not None
        stop = watch(self.pid, budget, self._ready, seen=seen, usage=self.tree.usage)
        if stop is not None:
            self.close()
            return Outcome(error=stop_message(stop, budget), stop=stop, cpu=budget.cpu or 0.0,
                           wall=time.perf_counter() - start, how=f"the watchdog outside: {' '.join(seen)}")
        try:
            reply: Outcome = self.conn.recv()
        except (EOFError, ConnectionResetError, OSError):
            return self._died(start, budget)
        except Exception as err:  # noqa: BLE001 - an answer that cannot be read back (refused, torn) is the solver's
            self.close()  # what else it sent is in the pipe: start afresh
            return Outcome(error=f"UnreadableAnswer: {describe_error(err)}", wall=time.perf_counter() - start)
        if not isinstance(reply, Outcome):
            self.close()
            return Outcome(error=f"UnreadableAnswer: the sandbox sent {type(reply).__name__}, not an outcome",
                           wall=time.perf_counter() - start)
        if reply.stop is not None:  # the child stopped itself (CPU budget, MemoryError): start afresh
            self.close()
        return replace(reply, wall=time.perf_counter() - start) if reply.stop is Stop.CPU else reply

    def _ready(self, seconds: float) -> bool:
        assert self.conn is not None
        try:
            return self.conn.poll(seconds)
        except (EOFError, OSError):
            return True  # the child is gone: recv() will say so

    def _fork(self) -> None:
        self.close()
        for stream in (sys.stdout, sys.stderr):  # else the child would print the caller's pending output again
            _flush(stream)
        if getattr(self.owner, "untrusted", False) and self._start_jailed():
            return
        caller = os.getpid()
        with FORK_LOCK:  # no other thread's child is forked holding this child's end of the channel
            fenced = namespace.enter_allowed()
            parent, child = channel_pair()
            pid = os.fork()
            if pid != 0:
                child.close()
        if pid == 0:  # the child: serve calls until the caller goes away
            parent.close()
            code = 0
            try:
                if fenced and namespace.enter():
                    _serve_in_namespace(child, self.owner, caller)
                else:
                    serve(child, self.owner, caller)
            except BaseException:  # noqa: BLE001 - nothing may escape a forked child
                code = 70
            finally:
                os._exit(code)
        try:
            os.setpgid(pid, pid)  # also done in the child; whichever runs first wins the race
        except (ProcessLookupError, PermissionError):
            pass
        self.pid, self.conn, self.jailed = pid, parent, False
        self.tree = Tree(pid, quiet_depth=2)  # the child and the namespace's init only wait: not their memory

    def _start_jailed(self) -> bool:
        """Serve an untrusted owner (code not minecheck's) from a process bubblewrap starts (``running.jailed``):
        False, starting nothing, where there is no jail (``running.jail`` has said why, once)."""
        parent, child = channel_pair()
        fds = (child.read_fd, child.write_fd, *getattr(self.owner, "shared_fds", ()))
        argv = jail.python_command(fds, tuple(getattr(self.owner, "writable", ())),
                                   tuple(getattr(self.owner, "reads", ())))
        if argv is None:
            parent.close()
            child.close()
            return False
        caller = os.getpid()
        with FORK_LOCK:
            pid = os.fork()
        if pid == 0:  # bubblewrap, with only the channel and the shared memory open
            try:
                os.setpgid(0, 0)
                _die_with_parent(caller)
                for fd in fds:
                    os.set_inheritable(fd, True)
                os.closerange(3, min(fds))
                for low, high in zip(sorted(fds), sorted(fds)[1:] + [os.sysconf("SC_OPEN_MAX")]):
                    os.closerange(low + 1, high)
                os.execv(argv[0], argv)
            finally:
                os._exit(70)
        child.close()
        try:
            os.setpgid(pid, pid)
        except (ProcessLookupError, PermissionError):
            pass
        self.pid, self.conn, self.jailed = pid, parent, True
        self.tree = Tree(pid, quiet_depth=2)  # bubblewrap and its init only wait: not their memory
        try:
            parent.send(list(sys.path))
            parent.send(self.owner)
        except OSError:
            pass  # the first call finds the channel closed, and says how the process ended
        return True

    def _died(self, start: float, budget: Budget) -> Outcome:
        detail = self._exit_status()
        self.close()
        return Outcome(error=stop_message(Stop.DIED, budget, detail), stop=Stop.DIED,
                       wall=time.perf_counter() - start, how=detail)

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


def _die_with_parent(parent: int | None) -> None:
    """Ask Linux to kill this child when the thread that forked it ends (PR_SET_PDEATHSIG), so that no
    sandbox outlives its caller, even one stuck in C when the caller is killed (``parent`` None: in a
    namespace, where the parent has no number to check)."""
    if not prctl(PR_SET_PDEATHSIG, signal.SIGKILL):
        return
    if parent is not None and os.getppid() != parent:  # the caller was gone before the request took effect
        os._exit(0)


def _serve_in_namespace(conn: Channel, owner: object, caller: int) -> None:
    """The sandbox's child, its children in a PID namespace of their own (``minecheck.running.namespace``):
    fork the namespace's init, which forks the process that serves the calls; end as that one ends."""
    _die_with_parent(caller)
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init = os.fork()
    if init == 0:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the namespace (and all in it) ends with this child
        namespace.mount_proc()
        server = os.fork()
        if server == 0:
            serve(conn, owner, None)
            os._exit(0)
        conn.close()
        namespace.run_init(server)
    conn.close()  # only the serving process holds the channel: its end is the channel's end
    namespace.exit_as(namespace.wait_for(init))


def serve(conn: Channel, owner: object, parent: int | None) -> None:
    """The child's loop: receive (method, args, budget), answer an Outcome, until the pipe closes.

    The child is a subreaper: whatever a call starts stays below it, however it forks, changes its
    session or exits, and is killed and waited for when the call ends (``end_descendants``).  A solver
    that wants a program to outlive its calls is a ``cmd:`` solver in persistent mode.
    """
    _die_with_parent(parent)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    os.setpgid(0, 0)
    os.dup2(2, 1)  # a solver's prints go to stderr: the caller's stdout may be JSON
    faulthandler.disable()  # a native crash is reported as the signal that ended the child, not a dump
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle; it kills this group

    def spent(signum, frame):
        raise CpuBudget()

    signal.signal(signal.SIGPROF, spent)
    memory_soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            method, args, budget = conn.recv()
        except (EOFError, OSError):
            end_descendants()
            return
        children = _children_cpu()
        outcome = _run_limited(getattr(owner, method), args, budget, memory_soft)
        end_descendants()  # nothing a call started outlives it
        outcome = replace(outcome, cpu=outcome.cpu + _children_cpu() - children)
        for stream in (sys.stdout, sys.stderr):
            _flush(stream)
        try:
            conn.send(outcome)
        except Exception as err:  # noqa: BLE001 - an answer that cannot be sent back is an answer too
            conn.send(Outcome(error=f"UnpicklableAnswer: {describe_error(err)}", cpu=outcome.cpu, wall=outcome.wall))
        if outcome.stop is not None:
            return  # after a stop the heap may be in any state: the caller forks afresh


def _children_cpu() -> float:
    """CPU seconds of the processes this one has waited for (and of theirs)."""
    times = os.times()
    return times.children_user + times.children_system


def _flush(stream) -> None:
    try:
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _run_limited(fn: Callable, args: tuple, budget: Budget, memory_soft: int) -> Outcome:
    """One call under the budget; the budget's signal may land anywhere, even in the finally clause."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    stop, error, value = None, None, None
    try:
        try:
            _set_limits(budget)
            value = fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            _restore_memory_limit(memory_soft)
    except CpuBudget:
        stop = Stop.CPU
    except MemoryError as err:
        stop, error = Stop.MEMORY, describe_error(err)
    except RecursionError as err:
        error = f"RecursionError: {err}"
    except BaseException as err:  # noqa: BLE001 - whatever the solver raised is its answer
        error = describe_error(err)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if stop is not None:
        return Outcome(error=stop_message(stop, budget, "" if stop is Stop.CPU else _short(error)), stop=stop,
                       cpu=cpu, wall=wall, how=f"inside the sandbox: {cpu:.2f} s CPU in {wall:.2f} s of wall "
                                               f"(from {cpu0:.2f} s CPU)")
    return Outcome(value=value, error=error, cpu=cpu, wall=wall)


def _short(error: str | None) -> str:
    return (error or "").split(" (at ")[0].removeprefix("MemoryError: ").removeprefix("MemoryError")


def _set_limits(budget: Budget) -> None:
    if budget.cpu is not None:
        signal.setitimer(signal.ITIMER_PROF, budget.cpu)
    if budget.memory_mib is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        soft = _address_space() + budget.memory_mib * 2**20
        if hard == resource.RLIM_INFINITY or soft <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _restore_memory_limit(soft: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * _PAGE


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
