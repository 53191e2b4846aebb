"""The Java example solver (examples/java/MineSolver.java) is right: a seeded campaign over the default board
mix, run one JVM per board and in persistent mode, finds nothing against the exact counter and brute force."""

from __future__ import annotations

import json
import shlex

import pytest
from javabuild import compile_java
from shared import ROOT

from minecheck.check.findings import read_findings
from minecheck.cli import main

pytestmark = pytest.mark.java

EXAMPLE = ROOT / "examples" / "java"
BOARDS = 21  # three rounds of the mix (two revealed sizes, edge boards, play at each level), both modes


@pytest.fixture(scope="module")
def command(tmp_path_factory) -> str:
    build = compile_java(EXAMPLE, tmp_path_factory.mktemp("example-java"), "the Java example solver")
    return "cmd:" + shlex.join(["java", "-cp", str(build), "MineSolver"])


@pytest.mark.parametrize("persistent", [[], ["--persistent"]], ids=["one-jvm-per-board", "persistent"])
def test_the_java_example_agrees_with_the_references_on_the_default_mix(command, persistent, tmp_path):
    out = tmp_path / "campaign"
    code = main(["fuzz", "--seed", "9", "--boards", str(BOARDS), "--generator", "mix", "--out", str(out),
                 "--solvers", "java-example=" + command, "--references", "exact,brute", "--jobs", "2",
                 "--timeout", "10", "--no-report", "--no-progress", *persistent])
    assert code == 0, read_findings(out)
    checked = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines()]
    assert len(checked) == BOARDS
    assert all("java-example" in board["solver_cpu_seconds"] for board in checked)


def test_the_java_example_really_answers_so_agreement_means_something(command, capsys):
    """Cells left out claim nothing: an example that answered nothing would pass the campaign vacuously."""
    code = main(["check", "4x2x2/HHHH/1221", "--solvers", "java-example=" + command, "--references", "exact",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["java-example"]["consistent"] is True
    assert [c["verdict"] for c in data["java-example"]["cells"]] == ["safe", "mine", "mine", "safe"]
