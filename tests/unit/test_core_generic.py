"""The binding's generic classes: one ``Scorer``, ``PairTable`` and ``Refs`` for every metric.

Each is built from the metric's typed options object; a wrong object, or a method the metric
does not have, is an ``InvalidOptionError`` naming the choices or the metric.
"""

from __future__ import annotations

import numpy as np
import pytest

from parbleu import _core
from parbleu.errors import InvalidOptionError

BLEU = _core.BleuOptions("13a", False, 4, "exp", None, False)
CHRF = _core.ChrfOptions(6, 2, 4.0, 5.0, False, False, False)
TER = _core.TerOptions(False, False, False, True)
MEAN = _core.MeanOptions(3, 1, 100.0)


def _rows(scores: np.ndarray) -> np.ndarray:
    count = np.ones((scores.shape[0], 1))
    return np.ascontiguousarray(np.hstack([scores, count]), dtype=np.float64)


def test_one_scorer_and_pair_table_class_from_any_options_object() -> None:
    bleu, chrf, ter, mean = BLEU, CHRF, TER, MEAN
    widths = [_core.Scorer(o).width for o in (bleu, chrf, ter, mean)]
    assert widths == [10, 24, 2, 3]
    assert [_core.Scorer(o).float_rows for o in (bleu, chrf, ter, mean)] == [
        False,
        False,
        True,
        True,
    ]
    rows = _rows(np.array([[0.0, 0.25], [1.0, 0.5]]))
    ident = np.arange(2, dtype=np.int64).reshape(1, -1)
    via_options = _core.sig_bootstrap_indices(_core.Scorer(mean), [rows], 2, ident, 1)
    via_mean = _core.sig_bootstrap_indices(_core.Scorer.mean(3, 1, 100.0), [rows], 2, ident, 1)
    assert via_options == via_mean and np.frombuffer(via_mean, "<f8").tolist() == [37.5]
    rouge = _core.RougeOptions("rougeL", "default", False, "fmeasure")
    for opts in (bleu, chrf, ter, rouge):
        assert len(_core.PairTable(["a b", "c d"], opts, 1)) == 2
    assert _core.Scorer(rouge).width == 4 and _core.Scorer(rouge).float_rows
    with pytest.raises(InvalidOptionError, match="mean metric has no pair table"):
        _core.PairTable(["a"], mean, 1)
    for bad in ("bleu", None, 3):
        with pytest.raises(InvalidOptionError, match="BleuOptions, ChrfOptions, TerOptions"):
            _core.Scorer(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="column"):
        _core.MeanOptions(3, 2)


def test_one_refs_class_dispatches_to_the_metric() -> None:
    streams = [["a b c .", "d e f"], ["a b", None]]
    hyps = ["a b c .", "d e"]
    bleu, chrf, ter = (_core.Refs(streams, o, 1) for o in (BLEU, CHRF, TER))
    for r in (bleu, chrf, ter):
        assert len(r) == 2 and r.ref_counts() == [1, 2] and r.first_segment_without_refs() is None
    rows, periods = bleu.extract(hyps, 1)
    assert periods == 1 and len(rows) == 2 * 10 * 8
    rows, periods = chrf.extract(hyps, 1)
    assert periods == 0 and len(rows) == 2 * 24 * 8
    rows, periods = ter.extract(hyps, 1)
    assert periods == 0 and np.frombuffer(rows, "<f8").shape == (4,)
    scores, periods = bleu.sentence_scores(hyps, BLEU, 1)
    assert periods == 1 and np.frombuffer(scores, "<f8")[0] == pytest.approx(100.0)
    scores, periods = chrf.sentence_scores(hyps, CHRF, 1)
    assert periods == 0 and np.frombuffer(scores, "<f8")[0] == pytest.approx(100.0)
    assert len(chrf.extract_many([hyps, hyps], 1, True)) == 2 * 24 * 8
    with pytest.raises(InvalidOptionError, match=r"TER: .*no sentence_scores"):
        ter.sentence_scores(hyps, TER, 1)
    with pytest.raises(InvalidOptionError, match=r"BLEU: .*no extract_many"):
        bleu.extract_many([hyps], 1, False)
    with pytest.raises(InvalidOptionError, match="options of BLEU"):
        bleu.sentence_scores(hyps, CHRF, 1)
    with pytest.raises(InvalidOptionError, match="mean metric has no prepared references"):
        _core.Refs(streams, MEAN, 1)
    with pytest.raises(InvalidOptionError, match="BleuOptions, ChrfOptions, TerOptions"):
        _core.Refs(streams, "bleu", 1)  # type: ignore[arg-type]


def test_pairwise_metrics_declare_what_their_core_tables_declare() -> None:
    """A metric's ``symmetric_pairs``/``aggregates_references`` are its core kind's modes."""
    from parbleu.metrics.registry import get_metric, make_metric, metric_names

    names = [n for n in metric_names() if get_metric(n).capabilities.pairwise]
    assert {"bleu", "chrf", "ter", "rouge"} <= set(names)
    for name in names:
        m = make_metric(name, sentence=True)
        table = m.pair_table(["a b c", "a c"], 1)
        assert (m.symmetric_pairs, m.aggregates_references) == (table.symmetric, table.aggregates)
    with pytest.raises(InvalidOptionError, match="measure"):
        _core.RougeOptions("rouge1", "default", False, "f1")
