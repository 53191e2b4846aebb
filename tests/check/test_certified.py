"""The reference's side of a finding, certified: a summary on the finding, the certificates in
certificates.jsonl, and `minecheck verify` checking them again (and failing on one tampered with)."""

from __future__ import annotations

import json

from shared import board

from minecheck.check.certified import CERTIFICATES, certify_checks, read_certificates, verify_line, with_certificate
from minecheck.check.crosscheck import check_board
from minecheck.check.findings import Kind, read_findings
from minecheck.cli import main
from minecheck.model.answers import Mode


def verdict_check():
    (c,) = check_board(board("3x2/HHH/121"), ["dpll@seed"], [Mode.LOCAL], ["exact"])
    assert c.findings[0].kind is Kind.VERDICT
    return c


def test_a_findings_reference_is_certified_claim_by_claim_and_checked():
    c = verdict_check()
    made = certify_checks([c], 7)
    assert [m.certification.reference for m in made] == ["exact"]
    assert made[0].certification.certified and not made[0].problems
    f = with_certificate(c.findings[0], made)
    cert = f.extra["certificate"]
    assert cert["certified"] and cert["checked"] and cert["reference"] == "exact"
    # r0c0 is a mine: a layout with it a mine, and a refutation of it safe
    (first, *_) = cert["cells"]
    assert first["cell"] == 0 and first["claimed"] == "mine"
    assert first["mine"]["witness"] == [0, 2] and first["safe"]["refutation_steps"] >= 0


def test_a_tampered_certificate_fails_verification():
    c = verdict_check()
    (made,) = certify_checks([c], 0)
    row = json.loads(made.line())
    assert verify_line(row) == ()
    row["certification"]["witnesses"][0]["mines"] = [1]  # a layout that breaks the digits
    assert verify_line(row)


def test_a_campaigns_findings_carry_certificates_and_verify_checks_them_again(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["fuzz", "--seed", "3", "--boards", "4", "--solvers", "dpll@seed", "--references", "exact",
                 "--generator", "reveal", "--out", str(out), "--jobs", "1", "-q", "--no-report"])
    assert code == 1
    certified = [f for f in read_findings(out) if f.kind in (Kind.VERDICT, Kind.COUNT, Kind.PROBABILITY)]
    assert certified and all(f.extra["certificate"]["certified"] for f in certified)
    rows = read_certificates(out)
    assert rows and all(r["checked"] and r["certified"] for r in rows)
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    assert f"{len(rows)} certificates checked again, 0 failed" in capsys.readouterr().out
    tampered = json.loads((out / CERTIFICATES).read_text().splitlines()[0])
    tampered["certification"]["witnesses"][0]["mines"] = []
    lines = (out / CERTIFICATES).read_text().splitlines()
    (out / CERTIFICATES).write_text("\n".join([json.dumps(tampered)] + lines[1:]) + "\n")
    assert main(["verify", str(out)]) == 1
    assert "1 failed" in capsys.readouterr().out


def test_check_certify_certifies_every_reference(capsys):
    assert main(["check", "3x2/HHH/121", "--references", "exact,brute", "--certify"]) == 0
    text = capsys.readouterr().out
    assert "certificate: exact (local) certified: 3 verdicts" in text
    assert "certificate: brute (local) certified: 3 verdicts" in text
