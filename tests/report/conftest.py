"""The browser the report's page tests draw with (browser.py): found once a module, or the module skipped."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import require_chromium


@pytest.fixture(scope="module")
def chromium() -> Path:
    return require_chromium()
