"""A toy metric registered through the metric registry is found wherever a real one is.

It is the proof of docs/architecture.md's "Add a metric" checklist: registering one entry
(``parbleu.metrics.registry.register_metric``) makes the metric a ``-m`` choice with its own
options in ``parbleu --help``, scores it on the command line and through the name-taking APIs
(``pairwise``, ``score_files``, ``report``), and lists it in the unknown-name messages.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import parbleu
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.metrics import CHRF, CHRFScore
from parbleu.metrics.registry import (
    Capabilities,
    MetricEntry,
    MetricProfile,
    get_metric,
    make_metric,
    metric_names,
    register_metric,
    unregister_metric,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "python" / "parbleu" / "sample"
HYPS = (SAMPLE / "Online-W.de").read_text(encoding="utf-8").splitlines()[:40]
REFS = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()[:40]


class Toy(CHRF):
    """chrF over character 3-grams under a name of its own (score ``Toy``)."""

    metric_name = "toy"

    def __init__(
        self, char_order: int = 3, references: Sequence[Sequence[str | None]] | None = None
    ) -> None:
        super().__init__(char_order=char_order, references=references)

    def _score_row(self, row: Sequence[Any]) -> CHRFScore:
        score = super()._score_row(row)
        score.name = "Toy"
        return score


def _add_toy_arguments(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("Toy related arguments")
    group.add_argument("--toy-char-order", type=int, default=3, metavar="N", help="Toy order.")


@pytest.fixture
def toy() -> Iterator[MetricEntry]:
    entry = MetricEntry(
        name="toy",
        factory=Toy,
        help="a toy metric",
        profile=MetricProfile(higher_is_better=True, title="Toy"),
        add_arguments=_add_toy_arguments,
        capabilities=Capabilities(resample=True, pairwise=True),
    )
    register_metric(entry)
    yield entry
    unregister_metric("toy")


def _files(tmp_path: Path) -> tuple[str, str]:
    ref, hyp = tmp_path / "ref.de", tmp_path / "hyp.de"
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    return str(ref), str(hyp)


def _expected(char_order: int = 3) -> float:
    return CHRF(char_order=char_order).corpus_score(HYPS, [REFS]).score


def test_the_toy_is_registered_and_removed(toy: MetricEntry) -> None:
    assert metric_names() == ("bleu", "chrf", "ter", "rouge", "toy")
    assert get_metric("TOY") is toy
    with pytest.raises(InvalidOptionError, match="already the name"):
        register_metric(toy)


def test_the_fixture_leaves_the_builtins() -> None:
    assert metric_names() == ("bleu", "chrf", "ter", "rouge")


def test_help_lists_the_toy_and_its_options(
    toy: MetricEntry, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\{bleu,chrf,ter,rouge,toy\}", out)
    assert "Toy related arguments" in out and "--toy-char-order N" in out


def test_the_command_line_scores_the_toy(
    toy: MetricEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = _files(tmp_path)
    assert main([ref, "-i", hyp, "-m", "toy", "-b", "-w", "6"]) == 0
    assert float(capsys.readouterr().out) == round(_expected(), 6)
    # Its own option reaches its constructor (prefix "toy_" stripped).
    assert main([ref, "-i", hyp, "-m", "toy", "--toy-char-order", "2", "-b", "-w", "6"]) == 0
    assert float(capsys.readouterr().out) == round(_expected(2), 6)
    assert main([ref, "-i", hyp, "-m", "toy", "bleu", "-f", "json"]) == 0
    assert [s["name"] for s in json.loads(capsys.readouterr().out)] == ["BLEU", "Toy"]


def test_unknown_names_list_the_toy(
    toy: MetricEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = _files(tmp_path)
    assert main([ref, "-i", hyp, "-m", "nope"]) == 2
    assert "'toy'" in capsys.readouterr().err
    with pytest.raises(InvalidOptionError, match=r"expected one of bleu, .*, toy$"):
        get_metric("nope")
    with pytest.raises(InvalidOptionError, match="'toy'"):
        parbleu.pairwise(HYPS[:2], REFS[:2], "nope")
    with pytest.raises(InvalidOptionError, match="'toy'"):
        parbleu.score_files(hyp, ref, ["nope"])


def test_the_apis_take_the_toy_by_name(toy: MetricEntry, tmp_path: Path) -> None:
    ref, hyp = _files(tmp_path)
    got = parbleu.pairwise(HYPS[:3], REFS[:2], "toy")
    want = [[Toy().sentence_score(h, [r]).score for r in REFS[:2]] for h in HYPS[:3]]
    assert got.tolist() == want
    streamed = parbleu.score_files(hyp, ref, ["toy"])
    assert streamed["toy"].score == _expected()
    assert isinstance(make_metric("toy"), Toy)


def test_the_report_takes_the_toy(
    toy: MetricEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = _files(tmp_path)
    other = tmp_path / "other.de"
    other.write_text("\n".join(REFS[::-1]) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    argv = ["report", ref, "-i", hyp, str(other), "-o", str(out), "--n", "20", "--flavors",
            "--metrics", "toy", "-q"]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    data = re.search(r'<script[^>]*id="parbleu-data"[^>]*>(.*?)</script>', page, re.S)
    assert data is not None
    assert [m["metric"] for m in json.loads(data.group(1))["scores"]] == ["Toy"]


def _checklist_files() -> list[str]:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Add a metric", 1)[1].split("\n#", 1)[0]
    return sorted(set(re.findall(r"^\d+\. `([^`]+)`", section, re.M)))


def test_the_checklist_lists_at_most_eight_files() -> None:
    files = _checklist_files()
    assert 1 <= len(files) <= 8, files
    # Each file the checklist names exists (a <name> placeholder: its directory does).
    for f in files:
        assert (REPO / f.split("<name>")[0]).exists(), f
