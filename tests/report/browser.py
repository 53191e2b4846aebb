"""Debian's Chromium, headless, as the browser tests open a report page: the one way to draw a page, whole or in a
frame of a phone's or a desktop's width, and to read back what a script in the page measured and what was painted.

A page is measured in a frame of the window's size because Chromium lays a window out at least 500 px wide: a copy of
the page (the report itself has no script), beside it so that its links resolve the same, carries the script, which
posts its measure to the frame; the frame writes it into its DOM, which Chromium dumps.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

CHROMIUM = Path("/usr/bin/chromium")
# without the background-networking flags Chromium hangs on a closed network
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MISSING = f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)"
REQUIRED = os.environ.get("MINECHECK_REQUIRE_BROWSER") == "1"  # .ci/run sets it: there a missing browser fails
PHONE, DESKTOP = (390, 844), (1280, 900)
ORANGE = (255, 122, 0)  # the outline of a highlighted cell: .cell.bad in base.html.j2
FRAME = ('<html><body style="margin:0"><iframe src="{src}" style="width:{w}px;height:{h}px;border:0"></iframe>'
         "<script>window.addEventListener('message', function (e) {{ "
         "document.body.setAttribute('data-scroll-width', e.data); }});</script></body></html>")


def require_chromium() -> Path:
    """Debian's Chromium, never a browser a test tool downloads: skipped with the reason when it is
    missing (the README's test command on a fresh machine), a failure when CI requires it."""
    if not CHROMIUM.is_file():
        if REQUIRED:
            pytest.fail(MISSING + " (MINECHECK_REQUIRE_BROWSER=1: the browser tests are required here)")
        pytest.skip(MISSING + "; the browser tests are skipped here and required in CI")
    return CHROMIUM


def drawn(chromium: Path, url: str, png: Path, size: tuple[int, int]) -> tuple[str, np.ndarray]:
    """Open ``url`` in a fresh profile in a window of ``size``: the DOM after loading, and the screenshot's pixels
    (height x width x RGB, as int16 so that differences do not wrap), kept as ``png``."""
    command = [str(chromium), *FLAGS, f"--user-data-dir={png.parent / ('profile-' + png.stem)}",
               f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=5000", f"--screenshot={png}",
               "--dump-dom", url]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"Chromium did not finish opening {url} within 120 s")
    assert run.returncode == 0 and png.is_file(), f"Chromium failed on {url}:\n{run.stderr[-2000:]}"
    return run.stdout, np.asarray(Image.open(png).convert("RGB"), dtype=np.int16)


def framed(chromium: Path, page: Path, script: str, png: Path, window: tuple[int, int]) -> tuple[str, np.ndarray]:
    """The page in a frame of the window's size: what ``script`` (a ``<script>`` that ends in
    ``parent.postMessage(TEXT, '*')``) posted, and the frame's pixels, kept as ``png`` (its stem names the copies)."""
    copy = page.parent / f"shown-{png.stem}.html"
    copy.write_text(page.read_text().replace("</body>", script + "</body>"))
    frame = page.parent / f"frame-{png.stem}.html"
    frame.write_text(FRAME.format(src=copy.name, w=window[0], h=window[1]))
    try:
        dom, pixels = drawn(chromium, frame.as_uri(), png, (max(500, window[0]), window[1]))
    finally:
        copy.unlink()
        frame.unlink()
    return html.unescape(re.search(r'data-scroll-width="([^"]*)"', dom).group(1)), pixels[:window[1], :window[0]]


def painted(pixels: np.ndarray, rgb: tuple[int, int, int], tolerance: int = 0) -> int:
    """How many pixels have this colour (each channel within tolerance)."""
    return int((np.abs(pixels - np.array(rgb, dtype=np.int16)) <= tolerance).all(axis=-1).sum())
