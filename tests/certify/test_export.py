"""Refutations exported as the standard files: plain DIMACS beside its DRUP proof, each pair checked by a checker
that reads only the files (dratify here, drat-trim where it is installed), and a README saying what each proves."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from dratify import check_proof, parse_dimacs

from minecheck.certify.certification import certify
from minecheck.certify.export import LOOP, export
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.solvers.exact import ExactSolver

BOARDS = ["3x2/HHH/121", "5x3/01H1H/02H4H/01HHH", "1H0", "4x3x3/HHHH/H21H/HHHH"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exported")
    items = []
    for i, text in enumerate(BOARDS):
        b = parse_board(text.replace("/", "\n"))
        for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
            items.append((f"b{i}-{mode.value}", certify(b, ExactSolver().solve(b, mode))))
    written = export(items, folder)
    assert written == len(list(folder.glob("*.cnf"))) > 3
    return folder


def test_each_cnf_is_plain_dimacs_with_its_proof_beside_it(exported):
    for cnf in exported.glob("*.cnf"):
        lines = cnf.read_text().splitlines()
        p = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
        assert all(line.startswith("c") for line in lines[:p]) and not any(line.startswith("c") for line in lines[p:])
        assert cnf.with_suffix(".drat").is_file()


def test_every_exported_pair_checks_from_the_files_alone(exported):
    for cnf in exported.glob("*.cnf"):
        result = check_proof(parse_dimacs(cnf.read_text()), cnf.with_suffix(".drat").read_text(), check_rat=False,
                             engine="python")
        assert result.ok and result.reached_empty, cnf.name


def test_the_readme_gives_the_drat_trim_loop_and_what_each_pair_proves(exported):
    text = (exported / "README.md").read_text()
    assert LOOP in text and "LRAT" in text
    for cnf in exported.glob("*.cnf"):
        assert f"- `{cnf.stem}`: " in text
    assert "- `b2-local-r0`: b2-local (local): no layout keeps the digit 1 at r0c0" in text  # 1H0: impossible


def test_drat_trim_verifies_every_exported_pair(exported):
    if shutil.which("drat-trim") is None:
        pytest.skip("drat-trim is not installed (it is on neither PyPI nor Debian: build it from its C source)")
    for cnf in exported.glob("*.cnf"):
        run = subprocess.run(["drat-trim", str(cnf), str(cnf.with_suffix(".drat"))], capture_output=True, text=True,
                             timeout=60)
        assert "s VERIFIED" in run.stdout, (cnf.name, run.stdout[-500:])
