"""Compile an article's Java for the tests that compare a port with it; fail (never skip) without a JDK."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def compile_java(sources: Path, out: Path, what: str) -> Path:
    """javac every .java below ``sources`` into ``out``; ``what`` names the port, for the failure message."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if not javac or not java:
        pytest.fail(f"javac and java (JDK 17) are needed to check {what} against the article's Java")
    files = [str(p) for p in sources.rglob("*.java")]
    done = subprocess.run([javac, "-encoding", "UTF-8", "-d", str(out), *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out
