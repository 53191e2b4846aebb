"""The JavaScript example solver (examples/js/solver.js) is right: a seeded campaign over the default board mix, one
process per board and persistent, finds nothing against the exact counter and brute force, counts included; and its
count of a fully covered Expert board, past 2^53, arrives exact as a decimal string."""

from __future__ import annotations

import json
import math
import shlex
import shutil

import pytest
from shared import ROOT

from minecheck.check.findings import read_findings
from minecheck.cli import main

SOLVER = ROOT / "examples" / "js" / "solver.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript example needs Node 18+")
BOARDS = 16  # two rounds of the mix: revealed, edge, contradicting and played boards, both modes


@pytest.fixture(scope="module")
def command() -> str:
    return "cmd:" + shlex.join([NODE or "node", str(SOLVER)])


@pytest.mark.parametrize("persistent", [[], ["--persistent"]], ids=["one-process-per-board", "persistent"])
def test_the_js_example_agrees_with_the_references_on_the_default_mix(command, persistent, tmp_path):
    out = tmp_path / "campaign"
    code = main(["fuzz", "--seed", "9", "--boards", str(BOARDS), "--out", str(out), "--solvers", "js=" + command,
                 "--references", "exact,brute", "--jobs", "2", "--timeout", "10", "--no-report", "--no-progress",
                 *persistent])
    assert code == 0, read_findings(out)
    checked = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines()]
    assert len(checked) == BOARDS and all("js" in board["solver_cpu_seconds"] for board in checked)


def test_the_js_example_answers_everything_so_agreement_means_something(command, capsys):
    code = main(["check", "4x2x2/HHHH/1221", "--solvers", "js=" + command, "--references", "exact", "--json"])
    data = json.loads(capsys.readouterr().out)["js"]
    assert code == 0 and data["consistent"] is True and data["layouts"] == 1
    assert [(c["verdict"], c["probability"]) for c in data["cells"]] == [
        ("safe", "0"), ("mine", "1"), ("mine", "1"), ("safe", "0")]


def test_a_count_past_2_to_the_53_arrives_exact(command, capsys):
    expert = "30x16x99/" + "/".join(["H" * 30] * 16)
    code = main(["check", expert, "--solvers", "js=" + command, "--references", "exact", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["findings"] == []
    assert data["js"]["layouts"] == math.comb(480, 99) > 2**53
