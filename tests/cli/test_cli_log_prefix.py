"""Log lines: SacreBLEU's ``sacreBLEU:`` prefix for byte-identity, else ``parbleu:``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from parbleu.cli import OWN_LOG, main

PERIOD_WARNING = "That's 100 lines that end in a tokenized period ('.')"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # 120 lines ending in " .": BLEU's tokenized-period warning fires.
    (tmp_path / "ref").write_text("a b c .\n" * 120, encoding="utf-8")
    (tmp_path / "h1").write_text("a b c .\n" * 120, encoding="utf-8")
    (tmp_path / "h2").write_text("a b d .\n" * 120, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_scoring_command_keeps_sacrebleus_prefix(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ref", "-i", "h1", "h2", "-m", "bleu"]) == 0
    err = capsys.readouterr().err
    assert "sacreBLEU: Found 2 systems.\n" in err
    assert f"sacreBLEU: {PERIOD_WARNING}\n" in err
    assert "parbleu: " not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "ref", "-i", "h1", "h2", "-m", "bleu"],
        ["report", "ref", "-i", "h1", "h2", "-o", "out.html"],
        ["explain", "ref", "-i", "h1", "--flavor", "nltk"],
    ],
)
def test_subcommands_use_parbleus_prefix(
    files: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Regression: parbleu's own subcommands printed their warnings as "sacreBLEU: ...".
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"parbleu: {PERIOD_WARNING}\n" in err
    assert "sacreBLEU" not in err


def test_own_records_in_the_scoring_command_say_parbleu(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A parbleu-only note (e.g. spm's "could not record the SHA-256") inside the
    # SacreBLEU-compatible command: SacreBLEU never prints it, so it is not given its prefix.
    import parbleu.cli as cli

    build = cli.build_metrics

    def noisy(*args: Any, **kwargs: Any) -> Any:
        logging.getLogger("parbleu.tokenizers").warning("own note", extra=OWN_LOG)
        return build(*args, **kwargs)

    monkeypatch.setattr(cli, "build_metrics", noisy)
    assert main(["ref", "-i", "h1", "-m", "bleu", "--force"]) == 0
    err = capsys.readouterr().err
    assert "parbleu: own note\n" in err
    assert main(["ref", "-i", "h1", "-m", "bleu", "--force", "-q"]) == 0
    assert capsys.readouterr().err == "own note\n"


def test_parbleu_only_metric_notes_say_parbleu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Regression (issue 34): ROUGE's tokenizer warning printed "sacreBLEU: ROUGE: ..." in the
    # SacreBLEU-compatible command; SacreBLEU has no ROUGE.
    pytest.importorskip("parbleu.metrics.rouge")
    (tmp_path / "ref.zh").write_text("我们今天去公园散步。\n", encoding="utf-8")
    (tmp_path / "hyp.zh").write_text("我们今天去公园。\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["ref.zh", "-i", "hyp.zh", "-m", "rouge"]) == 0
    err = capsys.readouterr().err
    assert "parbleu: ROUGE: the default tokenizer" in err
    assert "sacreBLEU" not in err


def test_scheduler_note_says_parbleu(caplog: pytest.LogCaptureFixture) -> None:
    from parbleu.distributed.cluster import local_workers

    with caplog.at_level(logging.INFO, logger="parbleu"):
        local_workers("local:99999999", "99999999")
    assert [getattr(r, "parbleu_own", False) for r in caplog.records] == [True]
