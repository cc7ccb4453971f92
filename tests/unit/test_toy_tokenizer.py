"""A toy tokenizer added through the registry appears wherever a built-in one does.

This is the proof of docs/architecture.md's "Add a tokenizer" checklist: registering one entry
is all the API and the command line need, and the checklist lists at most 3 files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import parbleu
from parbleu import _core
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.tokenizers import (
    PythonTokenizer,
    TokenizerEntry,
    get_tokenizer,
    register_tokenizer,
    tokenizer_names,
    unregister_tokenizer,
)

ROOT = Path(__file__).resolve().parents[2]


class ToyTokenizer(PythonTokenizer):
    """Splits every character apart except spaces: ``ab c`` -> ``a b c``."""

    def signature(self) -> str:
        return "toy-1"

    def __call__(self, line: str) -> str:
        return " ".join(ch for ch in line if not ch.isspace())


@pytest.fixture
def toy() -> Iterator[str]:
    register_tokenizer(
        TokenizerEntry("toy", lambda name: ToyTokenizer(), "toy-1", "a toy for the tests")
    )
    try:
        yield "toy"
    finally:
        unregister_tokenizer("toy")
    assert "toy" not in tokenizer_names()


HYP = ["abcd efg", "xyz"]
REF = ["abcd egf", "xzy"]


def test_toy_in_the_api(toy: str) -> None:
    assert toy in tokenizer_names()
    assert toy in parbleu.BLEU.TOKENIZERS
    assert get_tokenizer(toy)("ab c") == "a b c"
    bleu = parbleu.BLEU(tokenize=toy)
    score = bleu.corpus_score(HYP, [REF])
    # Character unigrams all match (10 of 10); the order changes cost the higher n-grams.
    assert score.counts[0] == score.totals[0] == 10
    assert "tok:toy-1" in str(bleu.get_signature())
    # The same text under 13a (whole words) scores differently: the toy really tokenized.
    assert score.score != parbleu.BLEU().corpus_score(HYP, [REF]).score


def test_toy_on_the_command_line(
    toy: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    assert main([str(ref), "-i", str(hyp), "-tok", toy, "-b"]) == 0
    cli_score = float(capsys.readouterr().out)
    assert cli_score == round(parbleu.BLEU(tokenize=toy).corpus_score(HYP, [REF]).score, 1)
    assert main([str(ref), "-i", str(hyp), "-tok", toy]) == 0
    assert "tok:toy-1" in json.loads(capsys.readouterr().out)["signature"]


def test_toy_in_help_and_errors(toy: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\{none,[^}]*,toy\}", out)
    flat = " ".join(out.split())
    assert "toy (a toy for the tests)" in flat
    assert "ja-mecab (Japanese, MeCab with ipadic; pip install 'parbleu[ja]')" in flat
    with pytest.raises(InvalidOptionError, match=r"expected one of none, .*, toy$"):
        get_tokenizer("bogus")
    with pytest.raises(InvalidOptionError, match="toy"):
        parbleu.BLEU(tokenize="bogus")
    assert main(["-", "-tok", "bogus"]) == 2
    assert "'toy'" in capsys.readouterr().err


def test_unregistered_toy_is_unknown() -> None:
    with pytest.raises(InvalidOptionError, match="tokenize='toy'"):
        get_tokenizer("toy")


def test_core_entries_are_the_cores() -> None:
    """The registry's core tokenizers are ``_core.TOKENIZERS``, in its order."""
    from parbleu.tokenizers import RUST_TOKENIZERS

    assert tuple(_core.TOKENIZERS) == RUST_TOKENIZERS


def test_checklist_lists_at_most_three_files() -> None:
    """docs/architecture.md's "Add a tokenizer" lists the files one touches (goal: <= 3)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Add a tokenizer", 1)[1].split("\n### ", 1)[0]
    items = re.findall(r"^\d+\. `([^`]+)`", section, flags=re.M)
    assert 1 <= len(items) <= 3, items
    for item in items:
        # Every listed file exists (``<name>`` stands for the new tokenizer's module).
        if "<name>" in item:
            assert (ROOT / item).parent.is_dir(), item
        else:
            assert (ROOT / item).is_file(), item
