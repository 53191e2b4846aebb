"""Tasks fed to a pool of workers that may die, each task's result handed back exactly once.

Campaigns (boards) and play runs (games) share it.  A worker that dies (killed by the kernel, a
native crash in a solver) breaks the whole pool and fails every task in flight, and which of them
killed it is unknown: they all become *suspects*, a new pool is started, and a suspect runs alone,
so a death with one task in flight is that task's, recorded through ``died`` and never retried.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

from minecheck.model.errors import BadOption
from minecheck.running.proctree import processes
from minecheck.running.reaper import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, end_descendants, prctl

T = TypeVar("T")  # a task: a board index, a (player, game) pair
R = TypeVar("R")  # what a task gives: an outcome, a game record

Submit = Callable[[Executor, T], Future]


def pool_worker_start(parent: int) -> None:
    """Make this process (a campaign's pool worker) end with ``parent``, its sandboxes and programs with it.

    ``parent``'s death, even by SIGKILL, sends SIGTERM here (PR_SET_PDEATHSIG, checked at once against a
    parent already gone); SIGTERM, from there or from the pool, kills every process below and exits.
    A subreaper, the worker keeps below it what a dying sandbox leaves, so that nothing escapes that.
    (PR_SET_PDEATHSIG fires when the *thread* that forked the worker ends: the pool's workers are
    forked by the thread that submits to it, which outlives the pool.)
    """
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _end_worker)
    # Ctrl-C reaches the whole process group: the coordinator alone hears it and ends the workers (SIGTERM);
    # a worker raising it would finish its task as a crash and go on to the next one
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if prctl(PR_SET_PDEATHSIG, signal.SIGTERM) and os.getppid() != parent:
        _end_worker(signal.SIGTERM, None)


def _end_worker(signum, frame) -> None:
    """SIGTERM in a pool worker: kill and reap everything below it, then end (whatever it was doing)."""
    end_descendants()
    os._exit(128 + signal.SIGTERM)


@contextmanager
def executor(jobs: int, scheduler: str | None) -> Iterator[Executor]:
    """Local processes, or a dask.distributed cluster's executor when a scheduler address is given."""
    if scheduler:
        from distributed import Client

        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as err:
            raise BadOption(f"--scheduler {scheduler}: cannot reach it ({err})") from None
        with client:
            yield client.get_executor()
        return
    # each worker ends with this process, even one killed with SIGKILL, and takes its sandboxes along
    with ProcessPoolExecutor(max_workers=jobs, initializer=pool_worker_start, initargs=(os.getpid(),)) as pool, \
            _heard_ctrl_c():
        try:
            yield pool
        except KeyboardInterrupt:
            end_now(pool)
            raise


_CTRL_C = threading.Event()  # set by SIGINT while a pool runs: _drive raises it again at its next look
_FORKING = threading.Event()  # set while this process forks: a KeyboardInterrupt raised in the fork's handlers
# (logging's lock, ...) is printed as "Exception ignored" with a traceback, and lost
os.register_at_fork(before=_FORKING.set, after_in_parent=_FORKING.clear, after_in_child=_FORKING.clear)


@contextmanager
def _heard_ctrl_c() -> Iterator[None]:
    """While the block runs, remember a Ctrl-C as well as raise it: one that landed while a worker was forked
    was raised inside the fork's handlers, where Python printed "Exception ignored" and the run went on."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # a job in the background: Ctrl-C is not its
        yield
        return
    _CTRL_C.clear()

    def heard(signum, frame):
        _CTRL_C.set()
        if not _FORKING.is_set():  # else raised at _drive's next look, within LOOK_EVERY
            raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, heard)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def end_now(pool: ProcessPoolExecutor) -> None:
    """Ctrl-C: drop the tasks not started and end the workers at once (SIGTERM: each kills its sandboxes and
    programs), rather than wait, as leaving the pool does, for every task already handed to it."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the pool has no public way to them
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        try:
            worker.terminate()
        except (OSError, ValueError):
            pass
    for worker in workers:
        worker.join(timeout=2.0)


LOOK_EVERY = 1.0  # seconds between two looks at the workers while tasks run
STOPPED_FOR = 5.0  # seconds a worker may stay stopped (SIGSTOP, from a program below it) before it is killed


class _Stopped:
    """This process's children (the pool's workers) found stopped, and since when: one stopped past STOPPED_FOR
    is killed, so that its pool breaks and its tasks are run again or recorded, never waited for forever (a
    program can reach the worker that runs it: only Python solvers run in a PID namespace of their own)."""

    def __init__(self) -> None:
        self.since: dict[int, float] = {}

    def kill_long_stopped(self) -> None:
        now = time.monotonic()
        seen = set(_stopped_children())
        self.since = {pid: self.since.get(pid, now) for pid in seen}
        for pid, since in self.since.items():
            if now - since >= STOPPED_FOR:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass


def _stopped_children() -> list[int]:
    """The children of this process in the stopped state (none where there is no /proc)."""
    me = os.getpid()
    return [p.pid for p in processes().values() if p.ppid == me and p.stopped]


def run_tasks(todo: Iterator[T], submit: Submit, finish: Callable[[R], None], died: Callable[[T, str], R],
              jobs: int, scheduler: str | None = None, keep_going: Callable[[], bool] = lambda: True,
              split: Callable[[T], list[T]] | None = None) -> None:
    """Run every task of ``todo`` (until ``keep_going`` says no more are started), ``finish`` each result.

    A task whose worker raised, or whose worker died while it ran alone, finishes with
    ``died(task, why)``: it is recorded, never lost, and the run goes on.  Tasks lost together run again one
    at a time; a task that killed its worker alone and that ``split`` cuts into parts (a batch into its
    boards, a board into one part per subject) becomes those parts, each run alone, so that the death is
    the one part's that caused it and the others' results are kept.
    """
    suspects: list[T] = []
    while True:
        with executor(jobs, scheduler) as pool:
            broken = _drive(pool, todo, submit, finish, died, jobs, suspects, keep_going, split)
        if not broken:
            return


def _drive(pool: Executor, todo: Iterator[T], submit: Submit, finish: Callable[[R], None],
           died: Callable[[T, str], R], jobs: int, suspects: list[T], keep_going: Callable[[], bool],
           split: Callable[[T], list[T]] | None = None) -> bool:
    """Feed the pool until done; True if the pool broke (a worker died) and must be replaced."""
    running: dict[Future, T] = {}
    stopped = _Stopped()
    while True:
        while len(running) < 2 * jobs and keep_going():
            if suspects and running:
                break  # a suspect runs alone
            alone = bool(suspects)
            task = suspects.pop(0) if suspects else next(todo, None)
            if task is None:
                break
            try:
                running[submit(pool, task)] = task
            except BrokenExecutor:  # broken since the last wait: its tasks fail below, this one waits
                suspects.append(task)
                if not running:
                    return True
                break
            if alone:
                break
        if not running:
            return False
        finished: set[Future] = set()
        while not finished:
            if _CTRL_C.is_set():
                raise KeyboardInterrupt
            finished, _ = wait(running, timeout=LOOK_EVERY, return_when=FIRST_COMPLETED)
            if not finished:
                stopped.kill_long_stopped()
        lost = []
        for fut in finished:
            task = running.pop(fut)
            try:
                result = fut.result()
            except BrokenExecutor:
                lost.append(task)
                continue
            except Exception as err:  # noqa: BLE001 - anything a worker raises is recorded, never lost
                result = died(task, f"{type(err).__name__}: {err}")
            finish(result)
        if lost:
            lost += running.values()  # every task in flight went down with the worker
            if len(lost) == 1:  # it was alone: it killed the worker, or one of its parts did
                parts = split(lost[0]) if split is not None else lost
                if len(parts) == 1:
                    finish(died(parts[0], "the worker process died during this task"))
                else:
                    suspects.extend(parts)
            else:
                suspects.extend(sorted(lost, key=repr))  # each runs alone next; of different kinds: a fixed order
            return True
