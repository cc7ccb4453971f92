"""Report rows belong to metric instances, not classes: two BLEUs are two metrics.

The report used to key statistics by ``type(metric).__name__``: with
``metrics=[BLEU(), BLEU(tokenize="char")]`` the second one's rows replaced the first's, and
the length buckets showed character BLEU (about 65) under the word-BLEU heading.
"""

from __future__ import annotations

from pathlib import Path

import parbleu

SAMPLE = Path(parbleu.__file__).parent / "sample"
N = 120


def _lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").splitlines()[:N]


def _data(metrics: list[parbleu.BLEU]) -> dict[str, object]:
    refs = [_lines("ref.A.de")]
    systems = {"Online-W": _lines("Online-W.de"), "Facebook-AI": _lines("Facebook-AI.de")}
    return parbleu.report(refs, systems, metrics=metrics, n=50, flavors=[]).data


def test_length_buckets_use_the_first_word_metric_rows() -> None:
    alone = _data([parbleu.BLEU()])
    both = _data([parbleu.BLEU(), parbleu.BLEU(tokenize="char")])
    assert both["length_buckets"] == alone["length_buckets"]  # type: ignore[index]
    assert both["length_diff_buckets"] == alone["length_diff_buckets"]  # type: ignore[index]
    # And the test can fail: character BLEU's buckets differ from word BLEU's.
    char = _data([parbleu.BLEU(tokenize="char")])
    assert char["length_buckets"] != alone["length_buckets"]  # type: ignore[index]


def test_two_metrics_of_one_class_get_two_labels_and_their_own_scores() -> None:
    word, char = parbleu.BLEU(), parbleu.BLEU(tokenize="char")
    data = _data([word, char])
    scores = data["scores"]
    assert [s["metric"] for s in scores] == ["BLEU", "BLEU #2"]  # type: ignore[index]
    hyps = _lines("Online-W.de")
    refs = [_lines("ref.A.de")]
    assert scores[0]["scores"]["Online-W"] == word.corpus_score(hyps, refs).score  # type: ignore[index]
    assert scores[1]["scores"]["Online-W"] == char.corpus_score(hyps, refs).score  # type: ignore[index]
    assert [s["metric"] for s in data["sentence"]] == ["BLEU", "BLEU #2"]  # type: ignore[index]
