"""Every file minecheck writes, and every file it reads back from a run folder: one way each, links never followed.

Writing (``write_whole``): a file is written through a temporary one made new beside it (``O_EXCL``,
``O_NOFOLLOW``) and a rename, both relative to its folder's descriptor, so a kill or a full disk leaves the last
good file; a link at the temporary name, or at the name itself, is refused (RunDisturbed naming it): nothing is
written through it, and it is not replaced (minecheck writes no links, so one there is another's).  Appending
(``open_in``) opens without following a link either.  Run folders, report pages, baselines, fixtures and
``verify --export`` all write this way.

Reading back (``read_text``): a regular file of bounded size, opened without following a link and without
waiting (a FIFO is refused, not waited on); anything else - a link, a FIFO, a device, a folder, a file past the
bound - is BadFile naming it (exit 2).
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import suppress
from pathlib import Path

from minecheck.model.errors import BadFile, RunDisturbed

MAX_READ = 2**30  # bytes of one run-folder file read back at most (its lines are bounded apart: rundata.MAX_LINE)


def open_in(path: Path, flags: int, mode: int = 0o644) -> int:
    """``path`` opened relative to its folder's descriptor, without following a link at its name: a link planted
    there (``NAME.tmp -> a user's file``) is RunDisturbed naming it, and nothing is written through it."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return os.open(path.name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise planted(path, folder) from None
        raise
    finally:
        os.close(folder)


def planted(path: Path, folder: int) -> RunDisturbed:
    try:
        target = os.readlink(path.name, dir_fd=folder)
    except OSError:
        target = "somewhere"
    return RunDisturbed(path, f"a link to {target} where minecheck writes its own file (another program put it "
                        "there): refused, nothing written through it nor over it; remove the link and run again "
                        "(a run: with --resume)")


def read_bytes(path: Path, limit: int = MAX_READ) -> bytes | None:
    """The file's bytes, read without following a link at its name nor waiting on a FIFO; None if it is not there;
    BadFile naming it when it is a link, no regular file, or past ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            check_kind(path, limit)  # says where the link points
        raise
    with os.fdopen(fd, "rb") as f:
        _check_stat(path, os.fstat(f.fileno()), limit)
        return f.read(limit + 1)



def _refuse_link(path: Path, folder: int) -> None:
    try:
        if stat.S_ISLNK(os.stat(path.name, dir_fd=folder, follow_symlinks=False).st_mode):
            raise planted(path, folder)
    except FileNotFoundError:
        pass


def read_text(path: Path, limit: int = MAX_READ) -> str | None:
    """A run-folder file minecheck wrote, read back as UTF-8 text (errors replaced); None if it is not there;
    BadFile naming it when it is a link, not a regular file (a FIFO, a device, a folder), or past ``limit``."""
    data = read_bytes(path, limit)
    return None if data is None else data.decode("utf-8", "replace")


def check_kind(path: Path, limit: int = MAX_READ) -> None:
    """BadFile naming ``path`` unless it is absent or a regular file (not a link) of at most ``limit`` bytes."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return
    _check_stat(path, st, limit)


def _check_stat(path: Path, st: os.stat_result, limit: int) -> None:
    if stat.S_ISLNK(st.st_mode):
        raise BadFile(f"{path}: a link to {os.readlink(path)}, not a file minecheck wrote: it reads back only its "
                      "own files (move the link away)")
    if not stat.S_ISREG(st.st_mode):
        kind = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFDIR: "a folder",
                stat.S_IFSOCK: "a socket"}.get(stat.S_IFMT(st.st_mode), "not a regular file")
        raise BadFile(f"{path}: {kind}, not a file minecheck wrote (it reads back only regular files)")
    if st.st_size > limit:
        raise BadFile(f"{path}: {st.st_size} bytes, more than the {limit} minecheck reads back")


def write_whole(path: Path, text: str, sync: bool = True) -> None:
    """Write a file whole, through a temporary one made new beside it and a rename, both relative to the
    folder's descriptor: a kill or a full disk (the OSError still raised) leaves the last good file and no
    temporary one; a link at the temporary name or at the name itself is RunDisturbed, neither written through
    nor replaced."""
    tmp = path.name + ".tmp"
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _refuse_link(path, folder)
        fd = _create(path.with_name(tmp), folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                if sync:
                    os.fsync(f.fileno())
            _refuse_link(path, folder)  # put there while this was written
            os.replace(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    finally:
        os.close(folder)


def _create(path: Path, folder: int) -> int:
    """A new file at ``path`` (in ``folder``'s descriptor): a leftover of a killed run is removed first, a link
    is refused (RunDisturbed)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(path.name, flags, 0o644, dir_fd=folder)
    except FileExistsError:
        if stat.S_ISLNK(os.stat(path.name, dir_fd=folder, follow_symlinks=False).st_mode):
            raise planted(path, folder) from None
        os.unlink(path.name, dir_fd=folder)
        return os.open(path.name, flags, 0o644, dir_fd=folder)
