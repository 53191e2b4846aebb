"""``minecheck check``: readable text, the documented JSON shape, exit codes 0 and 2."""

from __future__ import annotations

import json
import shlex
import sys

from shared import FIXTURES, PROGRAMS

from minecheck.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_json_shape_with_fraction_strings(capsys):
    code, out, _ = run(capsys, "check", "HHH/H1H/HHH", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"exact", "cbc", "minisat", "brute", "findings", "not_judged", "not_comparable"}
    assert data["findings"] == [] and data["not_judged"] == {} and data["not_comparable"] == {}
    exact = data["exact"]
    assert exact["consistent"] is True and exact["layouts"] == 8
    corner = {"row": 0, "col": 0, "verdict": "unknown", "probability": "1/8", "probability_float": 0.125}
    assert corner in exact["cells"]


def test_check_text_draws_the_grid(capsys):
    code, out, _ = run(capsys, "check", str(FIXTURES / "boards" / "one_two_one.mine"))
    assert code == 0
    assert "consistent layouts: 1" in out
    assert "   S   *   S   *   S" in out


def test_check_inconsistent_board_is_a_result_not_a_crash(capsys):
    code, out, _ = run(capsys, "check", "1H0", "--json")
    data = json.loads(out)["exact"]
    assert code == 0 and data["consistent"] is False and "r0c0" in data["reason"]


def test_bad_board_exits_2_naming_the_place(capsys):
    code, _, err = run(capsys, "check", "HHQ/121")
    assert code == 2 and "line 1, column 3" in err and "unknown character 'Q'" in err


def test_unknown_solver_exits_2(capsys):
    code, _, err = run(capsys, "check", "H1", "--solvers", "nope")
    assert code == 2 and "unknown solver 'nope'" in err


def test_global_mode_without_total_exits_2(capsys):
    code, _, err = run(capsys, "check", "H1", "--mode", "global")
    assert code == 2 and "needs the total mine count" in err


def test_check_works_on_a_1000x1000_board(capsys, tmp_path):
    rows = ["0" * 1000 for _ in range(1000)]
    rows[499] = rows[501] = "0" * 499 + "111" + "0" * 498
    rows[500] = "0" * 499 + "1H1" + "0" * 498
    path = tmp_path / "big.mine"
    path.write_text("1000x1000x1\n" + "\n".join(rows) + "\n")
    code, out, _ = run(capsys, "check", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["findings"] == []
    for name in ("exact", "cbc", "minisat"):
        assert [(c["row"], c["col"], c["verdict"]) for c in data[name]["cells"]] == [(500, 500, "mine")]


def test_an_internal_value_error_is_minechecks_fault_exit_3_not_the_users(capsys, monkeypatch):
    from minecheck.engine import counter

    def broken(*args, **kwargs):
        raise ValueError("an internal slip")

    monkeypatch.setattr(counter, "default_mode", broken)
    code, out, err = run(capsys, "check", "HHH/121")
    assert code == 3 and out == "" and "internal error (ValueError: an internal slip)" in err
    assert "Traceback" not in err


def test_bad_input_is_exit_2_with_one_line(capsys):
    code, out, err = run(capsys, "check", "HHH/12")
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("minecheck: ")


def test_a_crash_on_an_impossible_board_is_not_judged_for_a_solver_without_consistency_unless_asked(capsys):
    program = shlex.join([sys.executable, str(PROGRAMS / "protocol_program.py"), "--misbehave", "crash"])
    noisy = f"noisy={{command = {json.dumps(program)}, answers = [\"verdicts\"]}}"
    code, out, _ = run(capsys, "check", "3H", "--solvers", noisy, "--references", "exact", "--json")
    data = json.loads(out)
    assert code == 0 and data["findings"] == [] and "failed there: crash" in data["not_judged"]["noisy"]
    code, out, _ = run(capsys, "check", "3H", "--solvers", noisy, "--references", "exact", "--json",
                       "--judge-undeclared")
    data = json.loads(out)
    assert code == 1 and [f["kind"] for f in data["findings"]] == ["crash"] and data["not_judged"] == {}


def test_a_verdict_on_a_cell_no_digit_touches_is_a_finding_in_local_mode_and_its_probability_not_comparable(capsys):
    code, out, _ = run(capsys, "check", "H1HHH", "--solvers", "liar:solve", "--mode", "local", "--references", "exact",
                       "--json")
    data = json.loads(out)
    (finding,) = data["findings"]
    assert code == 1 and finding["kind"] == "verdict" and finding["cells"] == [3, 4]
    assert finding["subject_says"] == "mine, mine" and finding["reference_says"] == "unknown, unknown"
    (apart,) = data["not_comparable"]["liar:solve"]
    assert apart["cells"] == ["r0c3", "r0c4"] and "no probability to compare with" in apart["why"]
    assert "no probability to compare with" in finding["extra"]["not_comparable"]  # on the finding's page too
    code, out, _ = run(capsys, "check", "H1HHH", "--solvers", "liar:solve", "--mode", "local", "--references", "exact")
    assert code == 1 and "not comparable: liar:solve: r0c3, r0c4" in out
