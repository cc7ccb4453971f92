"""The numbers of a report, computed with parbleu's public APIs, as plain JSON-ready data.

Scores, signatures, intervals and the all-pairs table come from ``Metric.extract_stats``,
``Metric.score_from_stats`` and :func:`parbleu.significance.compare_all` (statistics are
extracted once per metric and system, and reused by every table); sentence scores from
``Metric.sentence_scores``; the flavors table from :mod:`parbleu.flavors`. Word-level
analyses (buckets, n-grams, highlighted segments) use the first reference stream, tokenized as
BLEU tokenizes (:mod:`._words`).

One module a section: :mod:`._inputs` (checks), :mod:`._scoring` (scores, intervals, pairs,
sentence scores), :mod:`._buckets`, :mod:`._pairs` (two systems side by side) and
:mod:`._flavor_table`; this module puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy.typing as npt

from .._options import MAX_RESAMPLES
from ..errors import InvalidOptionError
from ..metrics import Metric, word_tokenization
from . import _significance as _sig
from . import _words
from ._buckets import bucket_labels, freq_buckets, length_buckets, length_diff_buckets
from ._flavor_table import flavor_rows
from ._inputs import check_edges, check_max_order, check_test_options
from ._options import Options
from ._pairs import pair_sections
from ._scoring import score_section, sentence_scores, test_section

# ``bucket_labels`` is also read from here (tests/report).
__all__ = ["analyze", "bucket_labels"]


def analyze(
    streams: list[list[str | None]],
    systems: dict[str, list[str]],
    metrics: Sequence[Metric[Any]],
    opts: Options,
    word_counts: Mapping[str, int] | None = None,
    src: list[str] | None = None,
) -> dict[str, Any]:
    """Compute every section of a report.

    Parameters
    ----------
    streams
        Reference streams.
    systems
        ``{name: hypotheses}``, in order.
    metrics
        Metric objects (BLEU, CHRF, TER), scored in this order.
    opts
        What to compute.
    word_counts
        Word frequencies for the frequency buckets (a training-data word list); ``None`` to
        count words in the references.
    src
        Source sentences (one per segment) shown with the examples, or ``None``.

    Returns
    -------
    dict
        The report's data (JSON-serializable; :mod:`._html` renders it).
    """
    # One column per reported score: ROUGE's types each get scores, intervals and pairs.
    metrics = [c for m in metrics for c in m.columns()]
    names = list(systems)
    if opts.baseline is not None and opts.baseline not in systems:
        raise InvalidOptionError(
            f"baseline={opts.baseline!r}: not a system name; expected one of {names!r}"
        )
    baseline = opts.baseline if opts.baseline is not None else names[0]
    length_edges = check_edges("length_edges", opts.length_edges)
    freq_edges = check_edges("freq_edges", opts.freq_edges)
    diff_edges = check_edges("length_diff_edges", opts.length_diff_edges, low=None)
    check_max_order(opts.max_order)
    check_test_options(opts)  # also when too few segments skip the tests that check them
    plan = _sig.plan(opts.test, opts.n, len(names), len(streams[0]), opts.alpha, MAX_RESAMPLES)
    # Rows are kept per metric *instance*, in order: two metrics of one class (BLEU and
    # BLEU(tokenize="char")) are two entries, never one name overwriting the other.
    metric_rows: list[dict[str, npt.NDArray[Any]]] = []
    scores_out = []
    for metric in metrics:
        # One call for all systems (chrF probes each segment's references with every system).
        many = metric.extract_stats_many(
            {n: systems[n] for n in names}, streams, workers=opts.workers
        )
        rows = dict(zip(names, many))
        metric_rows.append(rows)
        scores_out.append(score_section(metric, rows, names, opts, plan))

    sentence = sentence_scores(metrics, metric_rows, systems, streams, opts)
    _distinct_labels(scores_out, sentence)
    # Word-level analysis: tokens as the first metric counting words tokenizes (BLEU), and
    # that same metric's rows for the buckets' scores.
    first = next((k for k, m in enumerate(metrics) if m.word_ngram_stats), None)
    bleu = metrics[first] if first is not None else None
    tokenizer, lowercase = word_tokenization(metrics)
    bleu_rows = metric_rows[first] if first is not None else None
    ref1 = ["" if r is None else r for r in streams[0]]
    words = _words.word_stats(
        ref1, [systems[n] for n in names], tokenizer, lowercase, opts.max_order, opts.workers
    )

    data: dict[str, Any] = {
        "systems": names,
        "baseline": baseline,
        "n_segments": len(ref1),
        "n_references": len(streams),
        "test": test_section(opts, plan),
        "scores": scores_out,
        "sentence": sentence,
        "length_buckets": length_buckets(words, names, length_edges, bleu_rows, bleu),
        "freq_buckets": freq_buckets(words, names, freq_edges, word_counts),
        "length_diff_buckets": length_diff_buckets(words, names, diff_edges, bleu_rows, bleu),
        "has_src": src is not None,
        "word_tokenizer": (
            f"{getattr(tokenizer, 'signature', lambda: '13a')()}"
            + (" lowercased" if lowercase else "")
        ),
        "max_order": opts.max_order,
    }
    data["pairs"] = pair_sections(words, names, baseline, sentence, ref1, src, opts)
    data["pair_scope"] = "all" if len(names) <= opts.all_pairs_up_to else "baseline"
    data["flavors"] = flavor_rows(streams, systems, names, baseline, opts)
    return data


def _distinct_labels(scores: list[dict[str, Any]], sentence: list[dict[str, Any]]) -> None:
    """Label repeated metric names (``BLEU``, ``BLEU #2``) so each column is told apart.

    A name that appears once is left as it is (the page of distinct metrics is unchanged).
    """
    seen: dict[str, int] = {}
    for sec, sen in zip(scores, sentence):
        name = sec["metric"]
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            label = f"{name} #{seen[name]}"
            sec["metric"] = label
            sen["metric"] = label
