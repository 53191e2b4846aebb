"""The manifest of a run folder (``.minecheck-files``): the names of the files minecheck wrote there, noted as each is
made (``claim``), so that ``--overwrite`` removes those and nothing else, and a fresh run refuses a folder holding a
file it would write over.  ``write_text`` is how minecheck writes any file: noted here when it lies in a run folder,
written by ``files.write_whole`` (never through nor over a link)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from minecheck.model.errors import BadFile
from minecheck.running.files import open_in, read_text, write_whole

LOCK = ".lock"
MANIFEST = ".minecheck-files"  # the names of the files minecheck wrote in a run folder, one a line
DIGESTS = ".minecheck-digests"  # the appended files' sizes and SHA-256 as the run left them, for resume


_CLAIMED: dict[Path, set[str]] = {}  # run folder -> the names its manifest holds, as this process knows them


def _run_folder_of(path: Path) -> tuple[Path, str] | None:
    """The run folder ``path`` lies in (its own folder or the one above, holding a lock or a manifest) and the
    name in it that holds ``path``; None outside run folders (a baseline written anywhere claims nothing)."""
    for folder in (path.parent, path.parent.parent):
        if (folder / LOCK).exists() or (folder / MANIFEST).exists():
            return folder, path.relative_to(folder).parts[0]
    return None


def claim(path: Path) -> None:
    """Note in its run folder's manifest that minecheck made ``path`` (once per name and process)."""
    found = _run_folder_of(path)
    if found is None:
        return
    folder, name = found
    known = _CLAIMED.setdefault(folder.resolve(), set(_manifest(folder)))
    if name in known:
        return
    known.add(name)
    with os.fdopen(open_in(folder / MANIFEST, os.O_WRONLY | os.O_APPEND | os.O_CREAT), "a") as f:
        f.write(name + "\n")


def _manifest(folder: Path) -> list[str]:
    try:
        text = read_text(folder / MANIFEST) or ""
    except (OSError, BadFile):
        return []
    return [n for n in text.splitlines() if n and "/" not in n and n not in (".", "..")]


def forget(folder: Path) -> None:
    """The folder's manifest emptied (its files removed by ``overwrite``)."""
    (folder / MANIFEST).unlink(missing_ok=True)
    _CLAIMED.pop(folder.resolve(), None)


def claimed(folder: Path) -> list[Path]:
    """The files (and folders) in ``folder`` that its manifest says minecheck made, with their temporary files."""
    names = set(_manifest(folder))
    return [p for p in folder.iterdir() if p.name in names or p.name.removesuffix(".tmp") in names]


def foreign_files(folder: Path) -> list[Path]:
    """What ``folder`` holds that minecheck did not make there (not in its manifest), in name order."""
    ours = {p.name for p in claimed(folder)} | {LOCK, MANIFEST, DIGESTS}
    return sorted(p for p in folder.iterdir() if p.name not in ours)


def write_json(path: Path, data: object) -> None:
    """Write a JSON file through a temporary one: a kill or a full disk leaves the old file, never half; JSON
    that stays JSON (a NaN or an infinity is refused, never written as ``Infinity``)."""
    write_text(path, json.dumps(data, indent=2, allow_nan=False) + "\n")


def write_text(path: Path, text: str, sync: bool = True) -> None:
    """Write a file whole, never through nor over a link (``files.write_whole``), noted in its run folder's
    manifest when it lies in one."""
    claim(path)
    write_whole(path, text, sync)


