"""A finding as a line of findings.jsonl: JSON that any reader takes, whatever numbers it carries."""

from __future__ import annotations

import json

import pytest

from minecheck.check.findings import Finding, Kind
from minecheck.model.answers import Mode


def _strict(line: str) -> dict:
    """Read as a strict JSON reader does: Infinity and NaN are not JSON."""
    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not JSON")
    return json.loads(line, parse_constant=refuse)


@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_a_non_finite_number_in_a_finding_is_written_as_text_and_the_line_stays_json(number):
    finding = Finding(Kind.PROBABILITY, "gibbs@seed", "exact", Mode.GLOBAL, (0,), "1.0000", "0.0000", "1x2\n1H\n",
                      "z = inf", extra={"z": [number, 1.5], "nested": {"z": number}})
    data = _strict(finding.to_json())
    assert data["extra"] == {"z": [repr(number), 1.5], "nested": {"z": repr(number)}}


def test_a_finding_of_finite_numbers_reads_back_as_it_was():
    finding = Finding(Kind.VERDICT, "dpll@seed", "exact", Mode.LOCAL, (1, 2), "mine", "safe", "1x3\n1HH\n",
                      extra={"cpu": 0.25})
    assert Finding.from_json(finding.to_json()) == finding and _strict(finding.to_json())["extra"] == {"cpu": 0.25}
