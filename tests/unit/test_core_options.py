"""Each metric builds its typed ``_core`` options object once and rebuilds it when options change.

The object is cached on the metric (``Metric.core_options``); a copy whose options differ
(``BLEU.sentence_metric``) must not reuse a stale one, and a metric that used it must still
pickle (``parbleu.distributed`` sends metrics to workers).
"""

from __future__ import annotations

import pickle

import parbleu
from parbleu import _core

HYPS = ["the cat sat on the mat", "a dog barked"]
REFS = [["the cat sat on a mat", "the dog barked"]]


def test_options_object_is_built_once_per_metric() -> None:
    for m in (parbleu.BLEU(), parbleu.CHRF(word_order=2), parbleu.TER(normalized=True)):
        first = m.core_options()
        assert m.core_options() is first
        m.corpus_score(HYPS, REFS)
        assert m.core_options() is first
    assert isinstance(parbleu.BLEU().core_options(), _core.BleuOptions)
    assert isinstance(parbleu.CHRF().core_options(), _core.ChrfOptions)
    assert isinstance(parbleu.TER().core_options(), _core.TerOptions)


def test_changed_options_rebuild_the_object() -> None:
    m = parbleu.BLEU()
    plain = m.core_options()
    s = m.sentence_metric()  # a copy with effective order
    assert s is not m
    assert "effective_order: true" in repr(s.core_options())
    assert "effective_order: false" in repr(m.core_options())
    assert m.core_options() is plain
    m.effective_order = True  # options are plain attributes: the cache follows their values
    assert "effective_order: true" in repr(m.core_options())
    m.effective_order = False
    # The copy's scores are those of a BLEU made with effective order from the start.
    want = parbleu.BLEU(effective_order=True).sentence_scores(HYPS, REFS).tolist()
    assert s.sentence_scores(HYPS, REFS).tolist() == want


def test_metrics_pickle_after_using_their_options() -> None:
    for m in (parbleu.BLEU(), parbleu.CHRF(), parbleu.TER(case_sensitive=True)):
        want = m.corpus_score(HYPS, REFS).score
        back = pickle.loads(pickle.dumps(m))
        assert back.corpus_score(HYPS, REFS).score == want
        assert back.core_options() is not m.core_options()
