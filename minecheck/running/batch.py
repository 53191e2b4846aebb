"""Many small calls of one solver in one sandboxed run, with the guarantees of one run per call.

A board of a few cells takes a solver microseconds; sending it to the sandbox and back takes far longer.
``run_batch`` sends a solver a batch of (board, mode) items in one call.  Inside the sandbox each item
runs as a call of its own would (``serving.run_limited``: its CPU budget, its memory limit, an exception
its answer), so a solver that raises costs one crash on its item and the batch goes on.  What no item can
survive in the process that ran it, the batch cannot either:

* a stop inside the sandbox (CPU budget, MemoryError): the batch ends at that item with its stop, and
  the items after it run in a fresh sandbox;
* a stop from outside (the watchdog: stuck in C, idle, resident memory) or a death (a signal,
  ``os._exit``): the call's answer is lost, but the batch runner marks in memory it shares with the
  caller which item it is on, so that item gets the stop or the death, as its own call would have, and
  every other item of the batch runs again in a fresh sandbox (its answer is the same: it is the same
  item, run the same way).

A whole batch has the CPU budget of all its items together, so a solver stuck in C with no return to
Python is stopped later than alone (after the budgets of the items left, not its own); every other stop
comes at the item's own budget.  Solvers that run programs of their own (``runs_own_process``) are run
one call at a time, as they enforce the budget themselves.
"""

from __future__ import annotations

import mmap
import os
import resource
import struct
import threading
from collections.abc import Sequence
from dataclasses import replace

from minecheck.model.answers import Failure, FailureKind, Mode, SolverResult
from minecheck.model.board import Board
from minecheck.model.budget import Budget
from minecheck.model.solver import Solver
from minecheck.running import sandbox
from minecheck.running.serving import run_limited
from minecheck.running.stops import Outcome, Stop, stop_failure

Item = tuple[Board, Mode]


class BatchRunner:
    """Runs one solver's items one after another inside the sandbox, each under the item's budget, and
    says in shared memory which item it is on."""

    def __init__(self, solver: Solver):
        self.solver = solver
        # shared memory: the sandbox (forked from here, or served from the jail, which is handed the file) writes,
        # the caller reads
        self.fd = os.memfd_create("minecheck-batch-mark") if hasattr(os, "memfd_create") else -1
        if self.fd >= 0:
            os.ftruncate(self.fd, 8)
        self.mark = mmap.mmap(self.fd, 8)

    @property
    def untrusted(self) -> bool:
        return bool(getattr(self.solver, "untrusted", False))

    @property
    def writable(self) -> tuple[str, ...]:
        return tuple(getattr(self.solver, "writable", ()))

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(getattr(self.solver, "reads", ()))

    @property
    def env(self) -> tuple[str, ...]:
        return tuple(getattr(self.solver, "env", ()))

    @property
    def shared_fds(self) -> tuple[int, ...]:
        """The descriptors a sandbox served from the jail must be handed (``running.sandbox``)."""
        return (self.fd,) if self.fd >= 0 else ()

    def __getstate__(self) -> dict:
        return {"solver": self.solver, "fd": self.fd}

    def __setstate__(self, state: dict) -> None:  # in the jail: the same shared memory, by the handed descriptor
        self.solver, self.fd = state["solver"], state["fd"]
        self.mark = mmap.mmap(self.fd, 8)

    def prepare(self) -> None:
        """Make a solver that is made in its sandbox (``running.hosted``), once, when the sandbox is forked."""
        prepare = getattr(self.solver, "prepare", None)
        if prepare is not None:
            prepare()

    def current(self) -> int:
        return struct.unpack_from("<q", self.mark)[0]

    def run(self, items: Sequence[Item], budget: Budget) -> list[Outcome]:
        """Each item's outcome, in order; the list ends early at an item that was stopped."""
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        out = []
        for k, (board, mode) in enumerate(items):
            struct.pack_into("<q", self.mark, 0, k)
            outcome = run_limited(self.solver.solve, (board, mode), budget, hard)
            out.append(outcome)
            if outcome.stop is not None:
                break  # after a stop the heap may be in any state: the caller goes on in a fresh sandbox
        struct.pack_into("<q", self.mark, 0, len(items))
        return out


_local = threading.local()  # a thread's runners: threads of a dask worker each have a sandbox, and a mark, of their own


def runner(solver: Solver) -> BatchRunner:
    """This thread's runner for the solver (kept, so that its sandbox forks once for it)."""
    runners = getattr(_local, "runners", None)
    if runners is None or getattr(_local, "pid", None) != os.getpid():  # a forked worker makes its own
        runners = _local.runners = {}
        _local.pid = os.getpid()
    made = runners.get(id(solver))
    if made is None or made.solver is not solver:
        made = runners[id(solver)] = BatchRunner(solver)
    return made


def batch_budget(budget: Budget, items: int) -> Budget:
    """The whole call's budget: the items' CPU budgets and outputs together (its answer holds theirs); memory and
    idle as for one item."""
    return replace(budget, cpu=None if budget.cpu is None else budget.cpu * items,
                   output_mib=None if budget.output_mib is None else budget.output_mib * items)


def run_batch(solver: Solver, items: Sequence[Item], budget: Budget | None) -> list[Outcome]:
    """Every item's outcome, as ``sandbox.run(solver, "solve", item, budget)`` would give it, in one sandboxed
    call where possible (in-process, one by one, when ``budget`` is None or the solver runs its own process)."""
    outcomes: list[Outcome | None] = [None] * len(items)
    if budget is None or not sandbox.SUPPORTED or getattr(solver, "runs_own_process", False):
        for i, item in enumerate(items):
            if outcomes[i] is None:
                outcomes[i] = _one(solver, item, budget)
                _skip_hung_board(solver, items, outcomes, i, range(len(items)))
        return [o for o in outcomes if o is not None]
    pending = list(range(len(items)))
    batch = runner(solver)
    while pending:
        pending = [i for i in pending if outcomes[i] is None]  # a board it hung on is not run in its other mode
        if not pending:
            break
        struct.pack_into("<q", batch.mark, 0, -1)
        call = sandbox.run(batch, "run", ([items[i] for i in pending], budget), batch_budget(budget, len(pending)))
        if call.error is None and isinstance(call.value, list):
            for i, outcome in zip(pending, call.value):
                outcomes[i] = outcome
            if call.value and call.value[-1].stop is not None:
                sandbox.sandbox(batch).close()
                _skip_hung_board(solver, items, outcomes, pending[len(call.value) - 1], pending)
            pending = pending[len(call.value):]
            continue
        k = batch.current()
        if call.stop is None or not 0 <= k < len(pending):
            # not stopped on an item (an answer that could not be sent back, a death after the last item):
            # what is left runs one call at a time, as it would have alone
            for i in pending:
                if outcomes[i] is None:
                    outcomes[i] = _one(solver, items[i], budget)
                    _skip_hung_board(solver, items, outcomes, i, pending)
            break
        outcomes[pending[k]] = _blamed(call, budget)
        _skip_hung_board(solver, items, outcomes, pending[k], pending)
        pending = pending[:k] + pending[k + 1:]
    answered = [o for o in outcomes if o is not None]
    assert len(answered) == len(items), "every item of a batch gets an outcome"
    return answered


HUNG = (Stop.CPU, Stop.IDLE)


def _skip_hung_board(solver: Solver, items: Sequence[Item], outcomes: list[Outcome | None], hung: int,
                     others: Sequence[int]) -> None:
    """After a timeout on item ``hung``, the solver's other items on the same board (its other mode) are declined,
    not run: a hang costs one finding on its board (docs/checking.md), and one budget, not two."""
    outcome = outcomes[hung]
    if outcome is None or outcome.stop not in HUNG:
        return
    board, mode = items[hung]
    for i in others:
        if outcomes[i] is None and items[i][0] is board:
            outcomes[i] = Outcome(value=SolverResult(solver.name, items[i][1], declined=(
                f"not run: stopped on this board in the {mode.value} mode (a hang costs one finding)")))


def _one(solver: Solver, item: Item, budget: Budget | None) -> Outcome:
    if getattr(solver, "runs_own_process", False):
        return sandbox.run(solver, "solve_limited", (*item, budget), None)
    return sandbox.run(solver, "solve", item, budget)


def _blamed(call: Outcome, budget: Budget) -> Outcome:
    """The outcome of the item a whole batch call was lost on: the stop or death, in the words the item's own
    call would have had (its own budget, not the batch's)."""
    if call.stop is not None and call.stop is not Stop.DIED:
        failure = stop_failure(call.stop, budget)
        return Outcome(error=failure.message, stop=call.stop, cpu=call.cpu, wall=call.wall, how=call.how)
    failure = call.failure or Failure(FailureKind.CRASH, "Died: the solver's process ended without answering")
    return Outcome(error=failure.message, stop=call.stop, cpu=call.cpu, wall=call.wall, how=call.how)
