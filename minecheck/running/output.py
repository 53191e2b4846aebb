"""What an untrusted process writes on a pipe minecheck reads: counted against its output budget as it comes, and
only its last lines kept (with its failure, for people).  A ``cmd:`` program's standard error, and a Python
solver's standard output and error in its sandbox, are such pipes: never minecheck's own descriptors, so a
solver can neither flood the user's terminal or log nor truncate it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

LINES = 20  # the last lines kept with a failure
CHARS = 4000
KEEP = 16 * CHARS  # bytes kept as they come (the rest is read and dropped)
READ_SIZE = 1 << 20  # bytes asked of a pipe at a time


@dataclass
class Tail:
    """The end of what came on a pipe, and how many bytes came in all (``limit``: past it, ``over``)."""

    limit: int | None = None
    seen: int = 0
    kept: bytearray = field(default_factory=bytearray)

    @property
    def over(self) -> bool:
        return self.limit is not None and self.seen > self.limit

    def add(self, data: bytes) -> None:
        self.seen += len(data)
        self.kept += memoryview(data)[-KEEP:]
        del self.kept[:-KEEP]

    def clear(self) -> None:
        self.seen = 0
        self.kept.clear()

    def text(self) -> str:
        """The last LINES lines (and an unfinished one), at most CHARS characters."""
        lines = self.kept.decode("utf-8", "replace").split("\n")
        partial = lines.pop()
        return "\n".join(lines[-LINES:] + ([partial] if partial else []))[-CHARS:]

    def drain(self, fd: int, reads: int | None = 16) -> bool:
        """Read what the (non-blocking) pipe holds, ``reads`` reads at most (None: until it is empty, or past the
        limit); True once its writers are all gone."""
        done = 0
        while reads is None or done < reads:
            done += 1
            try:
                data = os.read(fd, READ_SIZE)
            except BlockingIOError:
                return False
            except OSError:
                return True
            if not data:
                return True
            self.add(data)
            if self.over:
                return False
        return False
