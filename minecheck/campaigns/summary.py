"""A campaign's totals, as summary.json keeps them and ``fuzz --json`` prints them: what was checked, what was
found (by kind, by solver, by signature, and the bugs), the boards each solver was not judged on, how much
of it is shrunk, and where the time went."""

from __future__ import annotations

import json
from pathlib import Path

from minecheck.campaigns.bugs import bugs, groups
from minecheck.campaigns.publish import ordered
from minecheck.campaigns.shrinking import read_shrunk
from minecheck.check.certified import claims_tally, read_certificates
from minecheck.check.findings import read_findings
from minecheck.check.shrinkcache import finding_key
from minecheck.report.pages import page_name


def campaign_totals(out: Path, seconds: float, phases: dict[str, float], exit_code: int) -> dict:
    """The totals of the campaign in ``out`` (wall-clock ``seconds`` in all, and per phase)."""
    config = json.loads((out / "campaign.json").read_text())
    rows = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines() if line.strip()] \
        if (out / "boards.jsonl").exists() else []
    boards = len(rows)
    not_judged: dict[str, int] = {}  # solver -> boards it was not judged on (compare.not_judged): never findings
    for row in rows:
        for name in row.get("not_judged", {}):
            not_judged[name] = not_judged.get(name, 0) + 1
    findings = ordered(read_findings(out))
    shrunk = read_shrunk(out)
    by_kind: dict[str, int] = {}
    by_solver: dict[str, int] = {}
    signatures: dict[str, int] = {}
    for f in findings:
        by_kind[f.kind.value] = by_kind.get(f.kind.value, 0) + 1
        by_solver[f.subject] = by_solver.get(f.subject, 0) + 1
        name = " ".join((f.kind.value, f.subject, f.reference, f.mode.value))
        signatures[name] = signatures.get(name, 0) + 1
    small = [e for f in findings if (e := shrunk.get(finding_key(f))) is not None and "finding" in e]
    certified = read_certificates(out) + [json.loads(x) for e in shrunk.values() for x in e.get("certificates", ())]
    return {
        "schema": 1, "seed": config["seed"], "generator": config["generator"], "subjects": config["subjects"],
        "references": config["references"], "boards": boards, "findings": len(findings), "by_kind": by_kind,
        "by_solver": by_solver, "signatures": signatures, "not_judged": not_judged,
        "bugs": [{**b.to_json(), "page": page_name(b.first)} for b in bugs(findings, shrunk)],
        "bugs_before_merge": len(groups(findings)),
        "shrunk": {"findings": len(small), "cut_short": sum(1 for e in small if e["stats"].get("cut_short")),
                   "at_most_20_cells": sum(1 for e in small if e["stats"]["cells_after"] <= 20)},
        "certificates": {"lines": len(certified), "claims": claims_tally(r.get("claims", {}) for r in certified)},
        "seconds": round(seconds, 3), "phases": phases, "exit_code": exit_code,
        "files": {"findings": str(out / "findings.jsonl"), "report": str(out / "index.html")},
    }
