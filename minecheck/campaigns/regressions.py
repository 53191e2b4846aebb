"""Regression fixtures: shrunk findings kept as files, so that every defect ever found is replayed by the tests.

A campaign saves one fixture per bug (``campaigns.bugs``, after merging): its first finding, shrunk.

One finding per file, ``<kind>-<subject>-<mode>-<hash>.json``, holding the finding's JSON (board
text, subject, reference, mode, kind, what each side said).  The hash is of what the finding
*is* (kind, solvers, mode, board), so saving the same shrunk defect twice writes one file.
"""

from __future__ import annotations

import json
from concurrent.futures import Executor
from pathlib import Path

from minecheck.campaigns.bugs import bugs
from minecheck.campaigns.fuzz import stored_budget, stored_judging
from minecheck.campaigns.publish import job_for, ordered, shrink_representatives
from minecheck.campaigns.shrink_limits import PER_SIGNATURE
from minecheck.campaigns.shrinking import keep, read_shrunk, run_job
from minecheck.check.findings import REGRESSIONS, WHOLE_BOARD, Finding, Kind, file_name, read_findings
from minecheck.check.shrink import has_board
from minecheck.check.shrinkcache import finding_key
from minecheck.model.errors import BadFile, BadOption, MinecheckError
from minecheck.running.rundata import check_value, loads
from minecheck.running.runfolder import make_folder, refuse_foreign, write_text


def why_not_replayable(finding: Finding) -> str | None:
    """Why a finding cannot be kept as a quick regression test, or None when it can."""
    if not has_board(finding):
        return "a finding on a general random LP has no board"
    if finding.detail == WHOLE_BOARD:
        return "the whole board check failed (a worker died): it cannot be replayed in the test process"
    if finding.kind is Kind.TIMEOUT:
        return "a timeout finding takes the whole timeout to replay"
    return None


def save(finding: Finding, directory: Path = REGRESSIONS, force: bool = False) -> Path:
    """Write the finding into ``directory`` (made if missing); the path written.  A file of that name that is
    not a finding is not replaced unless ``force``."""
    why = why_not_replayable(finding)
    if why:
        raise BadOption(f"not saved as a regression: {why}")
    make_folder(directory, "--to")
    path = directory / file_name(finding)
    refuse_foreign(path, _is_finding, "--to", force)
    write_text(path, json.dumps(json.loads(finding.to_json()), indent=2, sort_keys=True) + "\n")
    return path


def _is_finding(path: Path) -> bool:
    try:
        load(path)
    except (OSError, ValueError, KeyError, TypeError, MinecheckError):
        return False
    return True


def load(path: Path) -> Finding:
    """A saved finding, checked before use (depth, types: running/rundata.py): BadFile naming the file and the
    field otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise BadFile(f"{path}: not UTF-8 text (byte {err.start})") from None
    try:
        data = loads(text, str(path))
    except BadFile:
        raise
    except ValueError as err:
        raise BadFile(f"{path}: not JSON ({err})") from None
    check_value(data, "finding", str(path))
    try:
        return Finding.from_json(text)
    except (ValueError, KeyError, TypeError) as err:
        raise BadFile(f"{path}: not a minecheck regression file ({type(err).__name__}: {err})") from None


def save_shrunk(out: Path, directory: Path, per_signature: int = PER_SIGNATURE,
                pool: Executor | None = None) -> list[Path]:
    """Save the shrunk finding of each bug of a campaign (shrunk as the report shrinks them; cached)."""
    findings = [f for f in ordered(read_findings(out)) if why_not_replayable(f) is None]
    shrunk = shrink_representatives(out, findings, per_signature, pool)
    firsts = {b.first for b in bugs(findings, read_shrunk(out))}
    paths = {save(Finding.from_json(entry["finding"]), directory) for n, entry in shrunk.items()
             if "finding" in entry and n in firsts}
    return sorted(paths)


def save_numbered(out: Path, number: int, directory: Path, force: bool = False) -> Path:
    """Shrink finding ``number`` of a campaign (numbered as on its report pages) and save it."""
    findings = ordered(read_findings(out))
    if not 0 <= number < len(findings):
        raise BadOption(f"{out} has findings 0 .. {len(findings) - 1}, not {number}")
    finding = findings[number]
    why = why_not_replayable(finding)
    if why:
        raise BadOption(f"finding {number} is not saved as a regression: {why}")
    entry = read_shrunk(out).get(finding_key(finding))
    if entry is None or "finding" not in entry:  # not shrunk by the campaign: shrunk now, and kept
        rows = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines() if line.strip()]
        row = next((r for r in rows if r.get("index") == finding.index), {})
        entry = run_job(job_for(finding, stored_budget(out), row, judge_undeclared=stored_judging(out)))
        keep(out, entry)
    return save(Finding.from_json(entry["finding"]), directory, force)
