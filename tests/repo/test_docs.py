"""The documentation does what it says: the README's five-minute tutorial runs as written (its files saved, its
commands run in order, their output as shown), every other documented ``minecheck`` command parses with the
command line's own parser, the README keeps its two set-up commands and stays short, and every link between the
pages leads somewhere."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from shared import ROOT

from minecheck.cli import _parser

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS, *sorted((ROOT / "examples").glob("*/README.md"))]
MINECHECK = Path(sys.executable).parent / "minecheck"
SET_UP = [  # the two commands a fresh machine runs: they stay as they are
    "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e . && minecheck fuzz --seed 1 --boards 40 "
    "--out reports/demo",
    'python3 -m venv .venv && . .venv/bin/activate && pip install -q -e ".[test]" && ruff check . && python -m pytest',
]


def code_blocks(text: str) -> list[tuple[str, list[str]]]:
    """Each block indented by four spaces, as (the prose just before it, its lines without the indent)."""
    out, prose, block = [], [], []
    for line in text.split("\n") + [""]:
        if line.startswith("    ") or (block and not line.strip()):
            block.append(line[4:])
            continue
        if block:
            while block and not block[-1].strip():
                block.pop()
            out.append((" ".join(prose[-6:]), block))
            block, prose = [], []
        prose.append(line)
    return out


@dataclass
class Step:
    """A file the tutorial saves, or a command it runs with the output it shows."""

    file: str | None = None
    text: str = ""
    command: str | None = None
    shown: list[str] = field(default_factory=list)
    before: str = ""  # the prose before it


def tutorial_steps() -> list[Step]:
    text = README.read_text()
    tutorial = text[text.index("## Five minutes"):text.index("\n## ", text.index("## Five minutes") + 5)]
    steps = []
    for prose, lines in code_blocks(tutorial):
        first = next((i for i, line in enumerate(lines) if line.startswith("$ ")), len(lines))
        if first:
            names = re.findall(r"as\s+`([\w.]+\.(?:py|mine))`", prose)
            assert names, f"a file block without a name before it: {lines[0]!r}"
            steps.append(Step(file=names[-1], text="\n".join(lines[:first]).rstrip() + "\n", before=prose))
        for line in lines[first:]:
            if line.startswith("$ "):
                steps.append(Step(command=line[2:], before=prose))
            elif line.strip():
                steps[-1].shown.append(line)
    return steps


def shows(output: str, shown: list[str]) -> bool:
    """Whether the output holds the shown lines in order, '...' standing for anything (and a line of it alone
    for any lines)."""
    pattern = ".*".join(re.escape(line.strip()).replace(re.escape("..."), ".*") for line in shown if line.strip())
    return re.search(pattern, output, re.S) is not None


def run(command: str, folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{MINECHECK.parent}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "200"}
    env.pop("MINECHECK_PAGES", None)
    return subprocess.run(command, shell=True, cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def test_the_readme_keeps_its_set_up_commands_and_stays_under_300_lines():
    text = README.read_text()
    for command in SET_UP:
        assert f"\n    {command}\n" in text
    assert len(text.splitlines()) <= 300
    for page in DOCS:
        assert f"(docs/{page.name})" in text, f"{page.name} is missing from the README's map"


def test_the_tutorial_runs_as_written(tmp_path):
    """Save its files, run its commands in order; the planted bug is found and shrunk, the fix makes it agree."""
    steps = tutorial_steps()
    assert [s.file for s in steps if s.file] == ["mysolver.py", "board.mine", "test_mysolver.py", "mysolver_cli.py"]
    fix = re.search(r"\(`(missing = [^`]+)`\)", README.read_text()).group(1)
    fixed = False
    for step in steps:
        if step.file:
            (tmp_path / step.file).write_text(step.text)
            continue
        if "Subtract the flags" in step.before and not fixed:  # step 5: the fix the prose describes
            solver = tmp_path / "mysolver.py"
            buggy = solver.read_text()
            solver.write_text(re.sub(r"missing = .*# the bug.*", fix, buggy))
            assert solver.read_text() != buggy
            fixed = True
        result = run(step.command, tmp_path)
        assert result.returncode in (0, 1), f"{step.command}\n{result.stderr}"
        assert shows(result.stdout, step.shown), f"{step.command} printed:\n{result.stdout}\nnot:\n{step.shown}"
        if "fuzz" in step.command and not fixed:  # the report's shrunk board is the one the prose names
            index = (tmp_path / "reports" / "mine" / "index.html").read_text()
            assert "<pre>2x2x1\n1H\n1F\n</pre>" in index and 'class="board"' in index
    assert fixed


def test_the_tutorial_property_test_fails_on_the_bug_with_a_shrunk_board_and_passes_on_the_fix(tmp_path):
    steps = {s.file: s.text for s in tutorial_steps() if s.file}
    for name in ("mysolver.py", "test_mysolver.py"):
        (tmp_path / name).write_text(steps[name])
    # the seed fixed: hypothesis draws at random, and one seed in six misses the bug in 100 boards
    pytest_run = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider --hypothesis-seed=0 test_mysolver.py"
    failed = run(pytest_run, tmp_path)
    assert failed.returncode == 1 and "board=parse_board('" in failed.stdout
    assert "replay: minecheck check" in failed.stdout
    fix = re.search(r"\(`(missing = [^`]+)`\)", README.read_text()).group(1)
    (tmp_path / "mysolver.py").write_text(re.sub(r"missing = .*# the bug.*", fix, steps["mysolver.py"]))
    passed = run(pytest_run, tmp_path)
    assert passed.returncode == 0, passed.stdout


def documented_commands() -> list[tuple[str, str]]:
    """Every ``minecheck ...`` line in a code block of the README, the docs pages and the examples' READMEs (a
    trailing backslash continues it), but synopses: lines with [OPTIONAL] parts or NAMES to fill in."""
    return [(page, line) for page, line, inline in mentions() if not inline and "[" not in line
            and not re.search(r"\b[A-Z]{3,}\b", line)]


def mentions() -> list[tuple[str, str, bool]]:
    """Every ``minecheck SUBCOMMAND ...`` the pages show, in code blocks and inline: (page, text, inline)."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for _, lines in code_blocks(text):
            for line in "\n".join(lines).replace("\\\n", " ").split("\n"):
                for part in line.strip().removeprefix("$ ").split("&&"):
                    if part.strip().startswith("minecheck "):
                        found.append((page.name, part.strip(), False))
        found += [(page.name, m, True) for m in re.findall(r"`(minecheck [^`]+)`", text.replace("\n", " "))]
    return found


def test_every_documented_command_parses():
    commands = documented_commands()
    assert len(commands) >= 10  # the pages hold commands; an empty list would pass anything
    parser = _parser()
    for page, command in commands:
        try:
            args = parser.parse_args(shlex.split(command)[1:])
        except SystemExit as exit:
            pytest.fail(f"{page}: `{command}` does not parse (exit {exit.code})")
        assert callable(args.run), command


def test_every_option_the_pages_name_is_an_option_of_its_command():
    """Synopses and commands mentioned in passing cannot run as they stand; their options must still exist."""
    parser = _parser()
    commands = next(a for a in parser._actions if a.choices and "check" in a.choices).choices
    checked = 0
    for page, text, _ in mentions():
        words = text.split()
        if len(words) < 2 or words[1] not in commands:
            continue  # `minecheck COMMAND --help`, `minecheck --version`
        known = {o for a in commands[words[1]]._actions for o in a.option_strings}
        unquoted = re.sub(r"'[^']*'", "", text)  # a quoted argument (cmd:PROGRAM ...) holds the program's options
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", unquoted):
            assert option in known, f"{page}: `{text}` names {option}, which minecheck {words[1]} does not take"
            checked += 1
    assert checked >= 40


def test_every_link_between_the_pages_leads_to_a_page_that_is_there():
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}: not there"
