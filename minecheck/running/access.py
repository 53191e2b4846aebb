"""Whether an unprivileged user may read or write a path, told from its mode bits and those of the folders above
it: where minecheck runs as root, a jailed solver starts as such a user only when everything it needs is open
to it (``jail``).  Access lists are not read: a path they open is taken for closed, which only keeps root's
rights for that solver (and says so), never lets it read more."""

from __future__ import annotations

import os
import stat


def _allows(st: os.stat_result, uid: int, bits: int) -> bool:
    """Whether the mode grants ``bits`` (of r=4, w=2, x=1) to ``uid`` (in the group of the same number)."""
    if st.st_uid == uid:
        shift = 6
    elif st.st_gid == uid:
        shift = 3
    else:
        shift = 0
    return (st.st_mode >> shift) & bits == bits


def reaches(path: str, uid: int) -> bool:
    """Whether ``uid`` can walk to ``path`` (search rights on every folder above it)."""
    parts = os.path.realpath(path).split(os.sep)
    folder = os.sep
    for part in parts[1:-1]:
        folder = os.path.join(folder, part)
        try:
            if not _allows(os.stat(folder), uid, 1):
                return False
        except OSError:
            return False
    return True


def readable(path: str, uid: int) -> bool:
    """Whether ``uid`` can read ``path`` (and list it, a folder): reached, and its own mode allows it."""
    try:
        st = os.stat(path)
    except OSError:
        return True  # nothing there: nothing to be refused
    wanted = 5 if stat.S_ISDIR(st.st_mode) else 4
    return reaches(path, uid) and _allows(st, uid, wanted)


def writable(path: str, uid: int) -> bool:
    """Whether ``uid`` can write ``path`` (a file, or in a folder)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    wanted = 3 if stat.S_ISDIR(st.st_mode) else 2
    return reaches(path, uid) and _allows(st, uid, wanted)


def closed(reads: list[str], writes: tuple[str, ...], uid: int) -> str | None:
    """The first path of ``reads`` that ``uid`` cannot read, or of ``writes`` it cannot write; None if all open."""
    for path in reads:
        if not readable(path, uid):
            return path
    for path in writes:
        if not writable(path, uid):
            return path
    return None
