"""The ``parbleu`` command against SacreBLEU 2.6.0's recorded command lines.

Every record of ``golden/sacrebleu/cli/commands.jsonl`` is replayed through ``main()`` in-process,
from the shared root as recorded. Shell pipes and process substitutions of the recorded
commands are run with bash first (their output becomes standard input or a temporary file).

Successful records: standard output and standard error must be the recorded bytes after the
version field is rewritten, and the exit code the recorded one. Error records: parbleu must
fail with the same exit code, print nothing on standard output and exactly one line on
standard error (SacreBLEU's own messages are often several lines or a traceback).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cli_support import GOLDEN_CLI, SHARED, as_sacrebleu, requires_shared, run_main

import parbleu

pytestmark = requires_shared


def _records() -> list[dict[str, Any]]:
    path = GOLDEN_CLI / "commands.jsonl"
    if not path.is_file():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = _records()

#: Records SacreBLEU itself crashes on although the command is valid, and the record of the same
#: command in another format that the results are checked against instead.
SACREBLEU_CRASHES = {
    # SacreBLEU 2.6.0 crashes printing paired-test JSON (TypeError: Object of type float32 is
    # not JSON serializable); parbleu prints the JSON (docs/significance.md).
    "sb.cli.paired_bs.json": "sb.cli.paired_bs.latex",
}


def _bash(cmd: str) -> bytes:
    return subprocess.run(["bash", "-c", cmd], cwd=SHARED, capture_output=True, check=True).stdout


def _invocation(command: str, tmp_path: Path) -> tuple[list[str], bytes]:
    """``sacrebleu ...`` shell command -> (argv for main, standard input)."""
    n = 0

    def substitute(m: re.Match[str]) -> str:
        nonlocal n
        n += 1
        path = tmp_path / f"process-substitution-{n}"
        path.write_bytes(_bash(m.group(1)))
        return str(path)

    command = re.sub(r"<\(([^()]*)\)", substitute, command)
    stdin = b""
    if " | " in command:
        producer, command = command.split(" | ", 1)
        stdin = _bash(producer)
    argv = shlex.split(command)
    assert argv[0] == "sacrebleu", command
    return argv[1:], stdin


def _expected(rec: dict[str, Any], key: str) -> bytes:
    return (SHARED / str(rec[key])).read_bytes()


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_golden_command(
    rec: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv, stdin = _invocation(rec["command"], tmp_path)
    run = run_main(argv, monkeypatch, stdin=stdin, env=rec.get("env"))

    if rec["id"] in SACREBLEU_CRASHES:
        _check_paired_json(rec, run.out, run.err, run.code)
        return
    if rec["exit_code"] != 0:
        assert run.code == rec["exit_code"], run.err
        assert run.out == b""
        assert len(run.err_lines) == 1, run.err
        assert run.err_lines[0].startswith("parbleu: error: ")
        return

    expected_out = _expected(rec, "stdout_file")
    if rec["id"] == "sb.cli.version":
        assert expected_out == b"sacrebleu 2.6.0\n"
        assert run.out == f"parbleu {parbleu.__version__}\n".encode()
    else:
        assert as_sacrebleu(run.out) == expected_out
    assert as_sacrebleu(run.err) == _expected(rec, "stderr_file")
    assert run.code == 0


def _check_paired_json(rec: dict[str, Any], out: bytes, err: bytes, code: int) -> None:
    """Paired-test JSON SacreBLEU crashes on: its log lines, and the numbers of another format."""
    assert code == 0, err
    # SacreBLEU's standard error up to its traceback.
    expected_err = _expected(rec, "stderr_file").split(b"Traceback")[0]
    assert as_sacrebleu(err) == expected_err
    assert expected_err.count(b"\n") > 5
    other = next(r for r in RECORDS if r["id"] == SACREBLEU_CRASHES[rec["id"]])
    table = _expected(other, "stdout_file").decode("utf-8").splitlines()
    rows = json.loads(out)
    assert len(rows) == 3
    for k, row in enumerate(rows):
        line = next(x for x in table if x.strip().startswith(row["system"]))
        cells = [c.strip() for c in line.rstrip(" \\").split("&")[1:]]
        metrics = [m for m in row if m != "system"]
        assert metrics == ["BLEU", "chrF2"]
        for cell, name in zip(cells, metrics):
            v = row[name]
            want = f"{v['score']:.1f} ({v['mean']:.1f} ± {v['ci']:.1f})"
            if k == 0:
                assert v["p_value"] is None
            else:
                want += f" (p = {v['p_value']:.4f})"
            assert cell.rstrip("*").rstrip() == want, (name, cell, want)


def test_every_record_is_replayed() -> None:
    """The golden file is present and parsed (an empty parametrization would pass silently)."""
    assert len(RECORDS) >= 40
    assert {r["id"] for r in RECORDS} >= {"sb.cli.single.bleu.default", "sb.cli.multi.text"}
