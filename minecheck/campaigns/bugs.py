"""A campaign's findings grouped into bugs: what an engine's author gets is a list of distinct bugs, each
small, none hidden behind another of the same kind.

Before shrinking, a bug is every finding of one solver with one fingerprint (``check.fingerprint.bug_key``);
its first finding in report order is shrunk (``shrinking.representatives``).  After shrinking, bugs whose
small boards show the same thing merge: the same solver, and the same fingerprint of the shrunk finding, or
two small boards each of which shows the other's fingerprint too (the shrink's entry lists every fingerprint
of its solver on the small board: one misread digit gives a wrong verdict, count and probability on one board).
The shrinker drops the flags and every cell a bug does not need, so a fault met on boards with and without
flags shrinks to one class of board, and its groups come together; a fault that needs the flags keeps them,
and stays apart (as Hypothesis keeps its distinct failures, and C-Reduce one interestingness test).  A
group whose shrink is missing (not done, failed) stays apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from minecheck.check.findings import Finding
from minecheck.check.fingerprint import Fingerprint, bug_id, bug_key, fingerprint
from minecheck.check.shrinkcache import finding_key


@dataclass(frozen=True)
class Bug:
    """One bug: its solver, what it shows (before and after shrinking), its small board, its findings."""

    id: str  # bug_id of its first group: stable across runs
    subject: str
    fingerprint: Fingerprint  # its first finding's, on the board it was found on
    findings: tuple[int, ...]  # the numbers (report order) of every finding it explains
    first: int  # the finding shrunk and drawn for it
    shrunk: Fingerprint | None = None  # the shrunk finding's, when its shrink is done
    board: str | None = None  # the shrunk board's text, when its shrink is done
    cut_short: bool = False  # the shrink's budget ran out before a 1-minimal board
    keys: tuple[str, ...] = ()  # the fingerprint keys of the groups it merges (its own first)

    @property
    def groups(self) -> tuple[str, ...]:
        """The ids of the groups it merges, its own first."""
        return tuple(bug_id(self.subject, k) for k in self.keys)

    @property
    def words(self) -> str:
        """What it shows in words: the small board's fingerprint when there is one."""
        return (self.shrunk or self.fingerprint).words

    def to_json(self) -> dict:
        return {"id": self.id, "subject": self.subject, "kind": self.fingerprint.kind, "fingerprint": self.words,
                "key": self.fingerprint.key, "shrunk_key": self.shrunk.key if self.shrunk else None,
                "findings": len(self.findings), "first": self.first, "board": self.board,
                "cut_short": self.cut_short, "groups": list(self.groups)}


def groups(findings: list[Finding]) -> dict[tuple[str, str], list[int]]:
    """Bug key -> the numbers of its findings, in report order (the findings are in report order)."""
    out: dict[tuple[str, str], list[int]] = {}
    for n, f in enumerate(findings):
        out.setdefault(bug_key(f), []).append(n)
    return out


def bugs(findings: list[Finding], shrunk: dict[str, dict]) -> list[Bug]:
    """The campaign's bugs, merged after shrinking, ordered by their first finding.

    ``shrunk``: shrunk.jsonl's entries by finding key; a group whose first finding has a finished entry is
    judged by its shrunk finding, and by every fingerprint its small board shows (``shows``)."""
    own: list[Bug] = []
    shows: list[set[str]] = []
    for (subject, key), numbers in groups(findings).items():
        first = numbers[0]
        entry = shrunk.get(finding_key(findings[first]))
        small = Finding.from_json(entry["finding"]) if entry is not None and "finding" in entry else None
        own.append(Bug(bug_id(subject, key), subject, fingerprint(findings[first]), tuple(numbers), first,
                       None if small is None else fingerprint(small), None if small is None else small.board,
                       bool(small is not None and entry["stats"].get("cut_short")), (key,)))
        shows.append(set(entry.get("shows", ())) if small is not None else set())
    parent = list(range(len(own)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(own):
        for j in range(i):
            b = own[j]
            if a.subject == b.subject and _same(a, shows[i], b, shows[j]):
                parent[max(root(i), root(j))] = min(root(i), root(j))  # the earlier group keeps its name
    merged: dict[int, Bug] = {}
    for i, b in enumerate(own):
        r = root(i)
        if r not in merged:
            merged[r] = b
        else:
            kept = merged[r]
            merged[r] = Bug(kept.id, kept.subject, kept.fingerprint, tuple(sorted(kept.findings + b.findings)),
                            kept.first, kept.shrunk, kept.board, kept.cut_short, kept.keys + b.keys)
    return sorted(merged.values(), key=lambda b: b.first)


def _same(a: Bug, a_shows: set[str], b: Bug, b_shows: set[str]) -> bool:
    """Whether two groups' small boards show the same thing: the same shrunk fingerprint, or each small board
    shows the other's fingerprint as well (one way only is two faults on one board: a rounding everywhere and
    a wrong density off the frontier both show on a board with cells off the frontier)."""
    a_key = a.shrunk.key if a.shrunk is not None else a.fingerprint.key
    b_key = b.shrunk.key if b.shrunk is not None else b.fingerprint.key
    same_small = a.shrunk is not None and b.shrunk is not None and a_key == b_key
    return same_small or (a_key in b_shows and b_key in a_shows)


def bug_of(found: list[Bug]) -> dict[int, Bug]:
    """Finding number -> the bug that explains it."""
    return {n: b for b in found for n in b.findings}
