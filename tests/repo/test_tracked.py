"""The repository holds source, fixtures and docs: never what a run wrote (a run folder, a page)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from shared import ROOT

RUN_FILES = {"campaign.json", "boards.jsonl", "findings.jsonl", "shrunk.jsonl", "summary.json", "play.json",
             "games.jsonl", "decisions.jsonl", "junit.xml", "index.html"}  # what fuzz and play write in --out


def tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


def test_no_run_folder_or_page_is_tracked():
    written = [p for p in tracked() if p.rsplit("/", 1)[-1] in RUN_FILES or p.endswith(".html")
               or p.startswith((".minecheck/", "reports/")) and p != "reports/.gitkeep"]
    assert written == []


def test_what_runs_write_in_the_working_tree_is_ignored():
    tracked()  # skips outside a checkout
    probes = [".minecheck/findings/finding-00001.html", "reports/demo/index.html", ".venv/bin/python"]
    ignored = subprocess.run(["git", "check-ignore", *probes], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert ignored == probes
