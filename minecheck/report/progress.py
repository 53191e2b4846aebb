"""What a long run shows while it goes: its phase (boards, shrinking, report), how far, and what it found.

Always on standard error, so that standard output stays the run's answer (``--json``, a pipe).  On a
terminal it is a live bar (rich); without one (a log, CI) it is a plain line at each change of phase and
every few seconds in between, never a bar drawn into a file.  Quiet, it shows nothing.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

PLAIN_EVERY = 5.0  # seconds between two plain lines of the same phase


class Progress:
    """The progress of one run: ``phase`` starts a phase, ``update`` says how far it is, ``note`` prints a line
    above it (a finding, with -v)."""

    def __init__(self, run: str, stream: TextIO | None = None, quiet: bool = False, live: bool | None = None,
                 every: float = PLAIN_EVERY):
        self.run, self.stream, self.quiet, self.every = run, stream or sys.stderr, quiet, every
        self.live = (not quiet) and (self.stream.isatty() if live is None else live)
        self.name, self.total, self.done, self.fields = "", None, 0, {}
        self.started = self.phase_started = time.perf_counter()
        self.shown_at = 0.0
        self._bar = self._task = None

    def __enter__(self) -> Progress:
        if self.live:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[said]}"), TimeElapsedColumn(),
                            console=Console(file=self.stream), transient=False)
            self._bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
            self._bar = None
        elif not self.quiet and self.name:
            self._plain()  # the last state of the last phase

    def phase(self, name: str, total: int | None = None) -> None:
        """A new phase: its name ("boards", "shrinking", "report") and how many steps it has (None: unknown)."""
        if not self.quiet and self._bar is None and self.name:
            self._plain()
        self.name, self.total, self.done = name, total, 0
        self.phase_started = time.perf_counter()
        if self._bar is not None:
            if self._task is not None:
                self._bar.update(self._task, visible=True)
            self._task = self._bar.add_task(f"{self.run} {name}", total=total, said=self._said())
        elif not self.quiet:
            self._plain()

    def update(self, done: int, **fields: object) -> None:
        """How far the phase is, and the figures shown beside it (findings=3, ...)."""
        self.done = done
        self.fields.update(fields)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, said=self._said())
        elif not self.quiet and time.perf_counter() - self.shown_at >= self.every:
            self._plain()

    def note(self, line: str) -> None:
        """A line of its own (printed above a live bar)."""
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False)
        else:
            print(line, file=self.stream, flush=True)

    def _said(self) -> str:
        rate = ""
        elapsed = time.perf_counter() - self.phase_started
        if self.name in ("boards", "games") and self.done and elapsed > 0:
            rate = f"{self.done / elapsed:.1f} {self.name}/s"
        return ", ".join([rate] * bool(rate) + [f"{v} {k}" for k, v in self.fields.items()])

    def _plain(self) -> None:
        self.shown_at = time.perf_counter()
        count = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
        said = self._said()
        print(f"{self.run}: {self.name} {count}" + (f", {said}" if said else "")
              + f", {self.shown_at - self.started:.0f} s", file=self.stream, flush=True)
