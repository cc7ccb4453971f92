"""docs/cli.md is generated from the parser and must be up to date."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from cli_support import REPO

import parbleu
from parbleu.cli.errors import EXIT_CODE_HELP, ExitCode
from parbleu.cli.parser import build_parser


def _generator() -> ModuleType:
    path = REPO / "tools" / "gen_cli_docs.py"
    spec = importlib.util.spec_from_file_location("gen_cli_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_cli_md_is_up_to_date() -> None:
    assert _generator().main(["--check"]) == 0, "run: python tools/gen_cli_docs.py"


def test_check_fails_on_stale_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gen = _generator()
    stale = tmp_path / "cli.md"
    stale.write_text(gen.render().replace("--chrf-beta", "--chrf-alpha"), encoding="utf-8")
    monkeypatch.setattr(gen, "DOC", stale)
    assert gen.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err


def test_docs_cover_every_option_and_exit_code() -> None:
    text = _generator().render()
    for action in build_parser()._actions:
        for flag in action.option_strings:
            assert f"`{flag}`" in text
    assert set(EXIT_CODE_HELP) == set(ExitCode)
    for code in ExitCode:
        assert f"\n| {int(code)} | " in text


def test_docs_do_not_call_supported_features_missing() -> None:
    # Regression (issue 28): the differences section still listed -t, --echo, ... and the
    # SentencePiece tokenizers as "Not provided (exit code 3)" long after they were.
    text = _generator().render()
    section = text[text.index("## Differences from SacreBLEU") :]
    for bullet in section.split("\n- ")[1:]:
        if "exit code 3" in bullet or "Not provided" in bullet:
            for feature in ("`-t`", "`--echo`", "`--origlang`", "spm", "flores200"):
                assert feature not in bullet, bullet
    parser = build_parser()
    assert "flores200" in next(a for a in parser._actions if "-tok" in a.option_strings).choices
    assert any("--echo" in a.option_strings for a in parser._actions)


def test_examples_are_real_runs() -> None:
    # Regression: the `-f text` example had placeholder numbers and one leading space where
    # the command prints two. Every "$ parbleu ..." block must be what the installed command
    # prints (run as a separate process, in the sample folder), version aside.
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n\$ parbleu ([^\n]*)\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    sample = Path(parbleu.__file__).parent / "sample"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SACREBLEU_", "PARBLEU_"))}
    for argv, shown in blocks:
        run = subprocess.run(
            [sys.executable, "-m", "parbleu", *shlex.split(argv)],
            cwd=sample,
            capture_output=True,
            env={**env, "NO_COLOR": "1"},
            check=True,
        )
        out = run.stdout.decode().replace(f"parbleu-{parbleu.__version__}", "parbleu-<version>")
        assert out == shown, argv


def test_help_lists_every_subcommand() -> None:
    # Regression: `parbleu --help` named compare and distributed but not report or explain.
    import inspect

    import parbleu.cli as cli
    from parbleu.cli.parser import SUBCOMMANDS

    dispatched = set(re.findall(r'argv\[:1\] == \["(\w+)"\]', inspect.getsource(cli.main)))
    assert dispatched == set(SUBCOMMANDS)
    text = build_parser().format_help()
    for name in SUBCOMMANDS:
        assert re.search(rf"^    {name} +\S", text, re.M), name
        out = subprocess.run(
            [sys.executable, "-m", "parbleu", name, "--help"], capture_output=True, text=True
        )
        assert out.returncode == 0 and out.stdout.startswith(f"usage: parbleu {name}"), name
