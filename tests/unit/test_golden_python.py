"""The golden records name the interpreter that computed them: the one tests/conftest.py makes the
golden tests sum floats as (``helpers.GOLDEN_PYTHON``)."""

from __future__ import annotations

import json

from helpers import GOLDEN, GOLDEN_PYTHON


def test_every_golden_record_names_golden_python() -> None:
    seen = set()
    for path in sorted(GOLDEN.rglob("*.jsonl")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                env = json.loads(line).get("env") if line.strip() else None
                if isinstance(env, dict) and "python" in env:
                    seen.add(tuple(int(x) for x in env["python"].split(".")[:2]))
    assert seen == {GOLDEN_PYTHON}, seen
