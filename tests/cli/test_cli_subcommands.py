"""What ``compare``, ``report`` and ``distributed`` share (cli/_subcommands.py, cli/arguments.py).

One table per shared piece, over every command that uses it: the same input gets the same
message and exit code wherever it is given.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run_main

from parbleu.cli.errors import ExitCode


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "ref").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "one").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "two").write_text("a b c\nd e\n", encoding="utf-8")
    (tmp_path / "empty").write_bytes(b"")
    return tmp_path


MISALIGNED = (
    "hypothesis file 'one' has 1 line but the references have 2; the files must be aligned "
    "line by line"
)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # read_systems: every system aligned with the references, in -i order.
        (["compare", "ref", "-i", "two", "one"], MISALIGNED),
        (["report", "ref", "-i", "two", "one", "-o", "r.html"], MISALIGNED),
        # compare refuses empty input first; report only checks the alignment.
        (
            ["compare", "ref", "-i", "two", "empty"],
            "hypothesis file 'empty' is empty: there is nothing to score",
        ),
        (
            ["compare", "empty", "-i", "two", "one"],
            "the references are empty: there is nothing to score against",
        ),
        (
            ["report", "ref", "-i", "two", "empty", "-o", "r.html"],
            "hypothesis file 'empty' has 0 lines but the references have 2; the files must be "
            "aligned line by line",
        ),
        # check_metric_options: -l, then -e, as in the main command.
        (
            ["compare", "ref", "-i", "two", "one", "-l", "de"],
            "-l/--language-pair: expected SRC-TRG such as en-de, got 'de'",
        ),
        (
            ["report", "ref", "-i", "two", "-l", "de", "-o", "r.html"],
            "-l/--language-pair: expected SRC-TRG such as en-de, got 'de'",
        ),
        (["ref", "-i", "two", "-l", "de"], "-l/--language-pair: expected SRC-TRG such as en-de"),
        (
            ["compare", "ref", "-i", "two", "one", "-e", "nope"],
            "--encoding: unknown encoding 'nope'",
        ),
        (
            ["report", "ref", "-i", "two", "-e", "nope", "-o", "r.html"],
            "--encoding: unknown encoding 'nope'",
        ),
        (["ref", "-i", "two", "-e", "nope"], "--encoding: unknown encoding 'nope'"),
    ],
)
def test_shared_checks_say_the_same(
    argv: list[str], message: str, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_main(argv, monkeypatch, cwd=files)
    assert run.code == ExitCode.ERROR, run.err
    assert run.out == b""
    assert run.err_lines == [run.err_lines[0]] and message in run.err_lines[0], run.err
    assert not (files / "r.html").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["ref", "-i", "two"],
        ["compare", "ref", "-i", "two", "one"],
        ["distributed", "--hyp", "two", "--ref", "ref"],
    ],
)
@pytest.mark.parametrize(("width", "ok"), [("100", True), ("101", False), ("-1", False)])
def test_width_is_checked_alike(
    argv: list[str], width: str, ok: bool, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # add_width: 0 to MAX_WIDTH everywhere; parse the arguments only (--help after them).
    run = run_main([*argv, "-w", width, "--help"], monkeypatch, cwd=files)
    if ok:
        assert run.code == ExitCode.OK and run.out.startswith(b"usage: parbleu"), run.err
    else:
        assert run.code == ExitCode.USAGE, run.err
        assert b"-w" in run.err and b"expected an integer" in run.err, run.err


@pytest.mark.parametrize("command", ["compare", "report", "distributed"])
def test_help_and_usage_errors_print_nothing_else(
    command: str, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # run_subcommand: --help is exit 0 with the usage on stdout, a usage error exit 2.
    help_run = run_main([command, "--help"], monkeypatch, cwd=files)
    assert help_run.code == ExitCode.OK and help_run.err == b""
    assert help_run.out.startswith(f"usage: parbleu {command}".encode())
    bad = run_main([command, "--no-such-option"], monkeypatch, cwd=files)
    assert bad.code == ExitCode.USAGE and bad.out == b""
    assert f"parbleu {command}: error: ".encode() in bad.err, bad.err
