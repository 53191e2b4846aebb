"""Shrunk findings kept in a run folder's shrunk.jsonl, keyed by the finding, so that a report
written again (or after more findings) shrinks only the new ones.  Fuzz campaigns and play runs
shrink through it alike."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import TypeVar

from minecheck.check.findings import Finding
from minecheck.running.runfolder import append_text

SHRUNK = "shrunk.jsonl"
A = TypeVar("A")  # what a shrink function takes beside the finding: its budget


def finding_key(f: Finding) -> str:
    """The key of a finding's shrunk result in shrunk.jsonl."""
    return hashlib.sha256(f.to_json().encode()).hexdigest()[:20]


def shrink_cached(out: Path, findings: list[Finding], numbers: list[int], shrink_one: Callable[[Finding, A], dict],
                  arg: A, pool: Executor | None = None) -> dict[int, dict]:
    """``shrink_one(finding, arg)`` for these finding numbers, each computed once: kept in out/shrunk.jsonl
    (keyed by the finding), so a report written again, or after more findings, shrinks only the new ones."""
    cache_path = out / SHRUNK
    cache = {}
    if cache_path.exists():
        for line in cache_path.read_text().splitlines():
            entry = json.loads(line)
            cache[entry["key"]] = entry
    work = [findings[n] for n in numbers if finding_key(findings[n]) not in cache]
    each = [arg] * len(work)
    results = pool.map(shrink_one, work, each) if pool else map(shrink_one, work, each)
    for entry in results:
        cache[entry["key"]] = entry
        append_text(cache_path, json.dumps(entry) + "\n")
    return {n: cache[finding_key(findings[n])] for n in numbers}
