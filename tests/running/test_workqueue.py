"""The work queue's settling: results written in the order workers finished, rewritten in task order."""

from __future__ import annotations

import json
import random

from minecheck.running.runfolder import settle


def test_settle_puts_lines_in_task_order_keeping_each_tasks_lines_in_their_order(tmp_path):
    rows = [{"index": i, "n": n} for i in range(30) for n in range(3)]
    finished = [rows[3 * i:3 * i + 3] for i in range(30)]
    random.Random(4).shuffle(finished)  # tasks finish in any order; a task's own lines stay together, in order
    path = tmp_path / "findings.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for task in finished for r in task))
    settle(path, lambda row: (row["index"],))
    assert [json.loads(line) for line in path.read_text().splitlines()] == rows
    assert not list(tmp_path.glob("*.tmp")), "the rewrite goes through a temporary file, renamed over the old one"


def test_settle_leaves_a_missing_file_missing(tmp_path):
    settle(tmp_path / "none.jsonl", lambda row: (row["index"],))
    assert not (tmp_path / "none.jsonl").exists()
