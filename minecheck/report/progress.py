"""A campaign's progress bar: boards done, boards/s and findings so far (rich)."""

from __future__ import annotations

from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@contextmanager
def progress_bar(boards: int | None, seconds: float | None, disabled: bool = False):
    """Yield a callback(outcome, progress) that advances the bar; total is boards, or unknown for a time budget."""
    columns = [TextColumn("fuzz"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]} boards/s"),
               TextColumn("[bold]{task.fields[findings]} findings"), TimeElapsedColumn()]
    with Progress(*columns, disable=disabled, transient=False) as bar:
        task = bar.add_task("fuzz", total=boards, rate="-", findings=0)

        def update(outcome, progress) -> None:
            elapsed = max(bar.tasks[task].elapsed or 0.0, 1e-9)
            bar.update(task, completed=progress.boards, findings=progress.findings,
                       rate=f"{progress.boards / elapsed:.1f}")

        yield update
