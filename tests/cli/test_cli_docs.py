"""docs/cli.md is generated from the parser and must be up to date."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from cli_support import REPO

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
