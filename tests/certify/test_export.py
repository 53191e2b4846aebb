"""Refutations and count certificates exported as files: plain DIMACS beside its DRUP proof, each pair checked by a
checker that reads only the files (dratify here, drat-trim where it is installed), count certificates checked by
check_counts.py, which imports nothing but the standard library; files named by content, none lost or replaced."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from dratify import check_proof, parse_dimacs

from minecheck.certify import check_counts
from minecheck.certify.certification import certify
from minecheck.certify.encoding import read_dimacs
from minecheck.certify.export import COUNTS, LOOP, export
from minecheck.model.answers import Mode
from minecheck.model.boardtext import parse_board
from minecheck.model.errors import FolderRefused
from minecheck.solvers.exact import ExactSolver

BOARDS = ["3x2/HHH/121", "5x3/01H1H/02H4H/01HHH", "1H0", "4x3x3/HHHH/H21H/HHHH",
          "10x3x9/HHHHHHHHHH/H2H2H2H2H2/HHHHHHHHHH", "6x3x4/HFHHHH/2HHH1H/HHHHHH"]


def _items():
    items = []
    for i, text in enumerate(BOARDS):
        b = parse_board(text.replace("/", "\n"))
        for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
            items.append((f"board {i}", certify(b, ExactSolver().solve(b, mode))))
    return items


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exported")
    written = export(_items(), folder)
    assert written.pairs == len(list(folder.glob("proof-*.cnf"))) == len(list(folder.glob("proof-*.drat"))) > 3
    assert written.counts == len(list(folder.glob("count-*.json"))) >= 8
    assert written.files == len(list(folder.iterdir())) and not written.skipped
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


def test_the_readme_gives_both_commands_and_what_each_file_proves(exported):
    text = (exported / "README.md").read_text()
    assert LOOP in text and COUNTS in text and "LRAT" in text
    for f in [*exported.glob("*.cnf"), *exported.glob("count-*.json")]:
        assert f"- `{f.stem if f.suffix == '.cnf' else f.name}`: " in text
    assert ": no layout keeps the digit 1 at r0c0, the digit 0 at r0c2; for board 2 (local) exact" in text


def test_lines_that_share_a_label_lose_no_pair():
    """A shrunk board's lines carry its original board's index: named by index, later pairs overwrote earlier."""
    items = [("board 7", cert) for _, cert in _items()]
    with_labels = export(_items(), Path(_fresh_dir("a")))
    same_label = export(items, Path(_fresh_dir("b")))
    assert same_label == with_labels


def _fresh_dir(name: str) -> str:
    import tempfile

    return str(Path(tempfile.mkdtemp(prefix="export-")) / name)


def test_an_export_replaces_no_file(tmp_path):
    (tmp_path / "README.md").write_text("mine")
    with pytest.raises(FolderRefused, match="not an empty folder"):
        export(_items()[:1], tmp_path)
    assert (tmp_path / "README.md").read_text() == "mine"


def _run_checker(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "check_counts.py", "."], cwd=folder, capture_output=True, text=True,
                          timeout=120)


def test_the_standalone_checker_proves_every_exported_count(exported):
    run = _run_checker(exported)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok count-" in run.stdout and "9,241 layouts (local), as claimed" in run.stdout
    assert "FAILED" not in run.stdout and "WRONG" not in run.stdout


def test_the_standalone_checker_proves_a_count_off_by_one_wrong(tmp_path):
    b = parse_board("10x3\nHHHHHHHHHH\nH2H2H2H2H2\nHHHHHHHHHH")
    right = ExactSolver().solve(b, Mode.LOCAL)
    export([("planted", certify(b, replace(right, layouts=9_242)))], tmp_path / "out")
    run = _run_checker(tmp_path / "out")
    assert run.returncode == 1 and "WRONG count-" in run.stdout
    assert "it proves 9,241 layouts (local), and the claim is 9,242" in run.stdout


def test_the_standalone_checker_refuses_a_count_whose_cnf_says_more_than_the_rules(tmp_path):
    b = parse_board("10x3\nHHHHHHHHHH\nH2H2H2H2H2\nHHHHHHHHHH")
    export([("x", certify(b, ExactSolver().solve(b, Mode.LOCAL)))], tmp_path / "out")
    (cnf,) = (tmp_path / "out").glob("proof-*.cnf")
    lines = cnf.read_text().splitlines()
    clauses = sum(1 for line in lines if line and line[0] not in "cp")
    head = [line if not line.startswith("p ") else f"p cnf {line.split()[2]} {clauses + 1}" for line in lines]
    cnf.write_text("\n".join(head + ["1 2 0"]) + "\n")  # "r0c0 or r0c1 a mine": no rule says it
    run = _run_checker(tmp_path / "out")
    assert run.returncode == 1 and "the clause 1 2 0" in run.stdout and "follows from no rule" in run.stdout


def test_the_standalone_checker_says_an_unlisted_component_is_not_proved(tmp_path):
    b = parse_board("10x3\nHHHHHHHHHH\nH2H2H2H2H2\nHHHHHHHHHH")
    cert = certify(b, ExactSolver().solve(b, Mode.LOCAL))
    (comp,) = cert.count.components
    hidden = replace(cert, count=replace(cert.count, components=(replace(comp, solutions=(), refutation=None),)))
    export([("x", hidden)], tmp_path / "out")
    run = _run_checker(tmp_path / "out")
    assert run.returncode == 1 and "component 0 is not listed: its count is not proved" in run.stdout


def test_the_standalone_checker_imports_the_standard_library_only():
    tree = ast.parse(Path(check_counts.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


@pytest.mark.parametrize("reader", ["minecheck", "standalone"])
def test_a_declared_size_past_the_file_is_refused(reader, tmp_path):
    text = "p cnf 2000000000 1\n1 0\n"
    if reader == "minecheck":
        with pytest.raises(ValueError, match="declares"):
            read_dimacs(text)
    else:
        with pytest.raises(ValueError, match="declares more than the file holds"):
            check_counts.read_cnf(text, 10)


def test_drat_trim_verifies_every_exported_pair(exported):
    if shutil.which("drat-trim") is None:
        pytest.skip("drat-trim is not installed (it is on neither PyPI nor Debian: build it from its C source)")
    for cnf in exported.glob("*.cnf"):
        run = subprocess.run(["drat-trim", str(cnf), str(cnf.with_suffix(".drat"))], capture_output=True, text=True,
                             timeout=60)
        assert "s VERIFIED" in run.stdout, (cnf.name, run.stdout[-500:])


def test_every_count_certificate_names_pairs_that_exist(exported):
    for f in exported.glob("count-*.json"):
        for comp in json.loads(f.read_text())["components"]:
            assert comp.get("unlisted") or (exported / comp["cnf"]).is_file()


def test_the_standalone_checker_recomputes_the_exact_counter_s_counts_and_probabilities(tmp_path):
    from minecheck.boards.generators import generate_board
    from minecheck.boards.small import small_count, small_recipe

    items = []
    for i in range(0, small_count(7), small_count(7) // 80):
        b = generate_board(small_recipe(7, i))
        for mode in (Mode.LOCAL, Mode.GLOBAL) if b.total_mines is not None else (Mode.LOCAL,):
            cert = certify(b, ExactSolver().solve(b, mode))
            if cert.count is not None:
                items.append((f"small {i}", cert))
    export(items + [("corridor", c) for _, c in _items()[8:]], tmp_path / "out")
    checked = 0
    for path in (tmp_path / "out").glob("count-*.json"):
        data = json.loads(path.read_text())
        n, parts, probs, problems = check_counts.check(path)
        b = parse_board(data["board"])
        right = ExactSolver().solve(b, Mode(data["mode"]))
        assert not problems and n == right.layouts, path.name
        assert all(probs[a.cell] == a.probability for a in right.cells), path.name
        checked += 1
    assert checked >= 20
