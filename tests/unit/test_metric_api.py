"""What other modules ask of a metric (``Metric``'s core objects and capabilities), checked
against SacreBLEU and against the metric's own scoring paths."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import parbleu
from parbleu.errors import InvalidOptionError
from parbleu.metrics import Metric
from parbleu.metrics.registry import get_metric, make_metric, metric_aliases, metric_names
from parbleu.significance import confidence_interval

sb_metrics = pytest.importorskip("sacrebleu.metrics")

HYPS = ["The cat sat on the mat .", "a dog barks", "", "Hello , world !"]
REFS = [["The cat is on the mat.", "a dog barked", "nothing", "Hello world!"]]


def test_names_make_the_metrics_sacrebleu_names() -> None:
    # SacreBLEU's three first, in its order; then parbleu's additions (issue 27: ROUGE; issue
    # 33: COCO's caption metrics).
    caption = ("cider", "rouge-l", "meteor", "bleu-coco")
    assert metric_names() == ("bleu", "chrf", "ter", "rouge", *caption)
    assert metric_aliases() == ("bleu", "chrf", "chrf++", "chrfpp", "ter", "rouge", *caption)
    for name in metric_aliases():
        m = make_metric(name.upper())
        assert isinstance(m, Metric)
        # The profile's direction is the class's: the report and docs read the profile.
        assert get_metric(name).profile.higher_is_better == m.higher_is_better
    assert make_metric("chrfpp").word_order == 2  # type: ignore[attr-defined]
    assert make_metric("chrf").word_order == 0  # type: ignore[attr-defined]
    assert make_metric("bleu", sentence=True).effective_order  # type: ignore[attr-defined]
    assert not make_metric("bleu").effective_order  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="unknown metric 'meteors'; expected one of bleu"):
        get_metric("meteors")


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (parbleu.BLEU(), sb_metrics.BLEU()),
        (parbleu.CHRF(word_order=2), sb_metrics.CHRF(word_order=2)),
        (parbleu.TER(), sb_metrics.TER()),
    ],
)
def test_prepared_rows_score_rows_and_add_rows(ours: Metric[Any], theirs: Any) -> None:
    prepared = ours.prepare(REFS, len(HYPS))
    rows = ours.extract_prepared(prepared, ours.check_hypotheses(HYPS))
    assert np.array_equal(rows, ours.extract_stats(HYPS, REFS))
    # add_rows block by block equals SacreBLEU's corpus score
    total = None
    for a in range(0, len(rows), 3):
        total = ours.add_rows(total, rows[a : a + 3])
    assert total is not None
    assert ours.score_row(total).score == theirs.corpus_score(HYPS, REFS).score
    sentence = [theirs.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS)]
    if not isinstance(ours, parbleu.BLEU):  # BLEU's sentence scores use effective order
        assert ours.score_rows(rows).tolist() == sentence
    assert ours.higher_is_better == (not isinstance(ours, parbleu.TER))


def test_core_scorer_scores_what_score_row_scores() -> None:
    for m in (parbleu.BLEU(), parbleu.CHRF(), parbleu.TER()):
        rows = m.extract_stats(HYPS, REFS)
        c = confidence_interval(m, rows, n=20, seed=1)
        assert c.score == m.score_from_stats(rows).score
        assert m.core_scorer().width == m.stats_width


def test_a_metric_without_core_objects_is_refused_by_name() -> None:
    class Plain(parbleu.BLEU):
        def core_scorer(self) -> Any:
            return Metric.core_scorer(self)

        def pair_table(self, strings: list[str], workers: int) -> Any:
            return Metric.pair_table(self, strings, workers)

    # It still says BLEU's capabilities (the registry's), so the refusal says what is wrong.
    with pytest.raises(
        InvalidOptionError,
        match=r"^parbleu\.significance: metric BLEU declares the 'resample' capability but",
    ):
        confidence_interval(Plain(), HYPS, REFS, n=10)
    with pytest.raises(InvalidOptionError, match="declares the 'pairwise' capability"):
        parbleu.pairwise(["a b"], ["a b"], Plain())


def test_tokenized_period_check_is_bleu_unforced_only() -> None:
    assert parbleu.BLEU().checks_tokenized_period
    assert not parbleu.BLEU(force=True).checks_tokenized_period
    assert not parbleu.CHRF().checks_tokenized_period
    assert not parbleu.TER().checks_tokenized_period
    m = parbleu.BLEU()
    m.checks_tokenized_period = False
    assert m._force


def test_sentence_metric_and_word_tokenization() -> None:
    b = parbleu.BLEU(lowercase=True)
    s = b.sentence_metric()
    assert s is not b and s.effective_order and not b.effective_order  # type: ignore[attr-defined]
    tok, lc = parbleu.metrics.word_tokenization([parbleu.TER(), b])
    assert lc and tok("a,b") == "a , b"
    with pytest.raises(InvalidOptionError, match="does not count word n-grams"):
        parbleu.CHRF().word_tokenization()


@pytest.mark.parametrize("n", [0, -1, 2**63, 1.5, float("nan"), "2", True])
def test_prepare_refuses_absurd_segment_counts(n: object) -> None:
    with pytest.raises(InvalidOptionError, match="n_segments"):
        parbleu.BLEU().prepare([["a b"]], n)  # type: ignore[arg-type]
