"""Metric construction and scoring for the command line, metric-generic like SacreBLEU's.

A metric named ``x`` on the command line (``-m x``) is the metric registry's entry ``x``
(``parbleu.metrics.registry``). Its factory receives every parsed option whose destination
starts with the entry's ``option_prefix`` (prefix stripped), its sentence-level defaults
under ``--sentence-level``, the target language of ``-l`` if it takes one, and the references.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from ..errors import ParbleuError
from ..metrics.base import Metric
from ..metrics.registry import MetricEntry, get_metric
from .errors import CliError

__all__ = [
    "AnyMetric",
    "build_metrics",
    "metric_class",
    "metric_options",
    "plain_columns",
    "render_scores",
    "sentence_lines",
    "system_scores",
    "system_table",
]

#: A metric object of any score type.
AnyMetric = Metric[Any]


def metric_class(name: str) -> Any:
    """Return the factory of a metric named on the command line (any case).

    Parameters
    ----------
    name
        A registered metric name (``BLEU``, ``chrf``, ...).

    Returns
    -------
    callable
        The metric class (or factory) of its registry entry.
    """
    return get_metric(name, "-m").metric_class()


def metric_options(args: argparse.Namespace, entry: MetricEntry) -> dict[str, Any]:
    """Return the parsed options of one metric: its ``<prefix>*`` values, prefix stripped.

    Parameters
    ----------
    args
        Parsed command line.
    entry
        The metric's registry entry.

    Returns
    -------
    dict
        ``{constructor option: value}``.
    """
    prefix = entry.option_prefix
    return {k[len(prefix) :]: v for k, v in vars(args).items() if k.startswith(prefix)}


def build_metrics(
    args: argparse.Namespace,
    refs: list[list[str]],
    trg_lang: str | None,
    sentence_level: bool,
) -> dict[str, AnyMetric]:
    """Construct the requested metrics with the references cached.

    Parameters
    ----------
    args
        Parsed command line.
    refs
        Reference streams.
    trg_lang
        Target language from ``-l SRC-TRG`` (BLEU's tokenizer default), or ``None``.
    sentence_level
        ``--sentence-level``: the metrics' sentence-level defaults (BLEU: effective order),
        as in SacreBLEU.

    Returns
    -------
    dict
        ``{upper-case name: metric}``, in command-line order (a repeated name counts once).
    """
    metrics: dict[str, AnyMetric] = {}
    for lower in args.metrics:
        entry = get_metric(lower, "-m")
        kwargs = metric_options(args, entry)
        if entry.language_option is not None and trg_lang is not None:
            kwargs[entry.language_option] = trg_lang
        kwargs["references"] = refs
        try:
            metrics[lower.upper()] = entry.create(sentence=sentence_level, **kwargs)
        except ParbleuError as e:
            raise CliError(f"-m {lower}: {e}") from None
    return metrics


def sentence_lines(
    metric: AnyMetric,
    system: list[str],
    refs: list[list[str]],
    width: int,
    score_only: bool,
    short: bool,
) -> Iterator[str]:
    """One output line per segment (``--sentence-level``).

    Parameters
    ----------
    metric
        The one metric.
    system
        Hypotheses.
    refs
        Reference streams.
    width
        Decimal places.
    score_only
        Print only the number.
    short
        Short signatures.

    Yields
    ------
    str
        ``Score.format(width, score_only, signature)`` for each segment.
    """
    for hypothesis, *references in zip(system, *refs):
        score = metric.sentence_score(hypothesis, references)
        sig = metric.get_signature().format(short)
        yield score.format(width, score_only, sig)


def system_scores(
    metrics: dict[str, AnyMetric], system: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Corpus scores of one system, with the confidence interval of ``--confidence``.

    Parameters
    ----------
    metrics
        The metrics (scored in sorted name order, as SacreBLEU).
    system
        Hypotheses.
    args
        Parsed command line (``--confidence``, ``--confidence-n``).

    Returns
    -------
    dict
        ``{name: score}`` (render them with :func:`render_scores`).
    """
    n_bootstrap = 1
    if args.confidence:
        n_bootstrap = args.confidence_n
        from .._options import MAX_RESAMPLES

        if not 0 <= n_bootstrap <= MAX_RESAMPLES:
            # The metric would refuse it too, but under its API name (n_bootstrap).
            raise CliError(
                f"--confidence-n/-cin {n_bootstrap}: expected an integer from 0 to "
                f"{MAX_RESAMPLES:,}"
            )
    return {
        name: metrics[name].corpus_score(system, None, n_bootstrap=n_bootstrap)
        for name in sorted(metrics)
    }


def plain_columns(metrics: dict[str, AnyMetric]) -> dict[str, AnyMetric]:
    """Replace each metric printing several scores (``plain_columns``) by its columns.

    Parameters
    ----------
    metrics
        The metrics, keyed by name.

    Returns
    -------
    dict
        The same, a metric with ``plain_columns`` (``bleu-coco``) replaced by its columns
        (``BLEU-COCO/1`` .. ``/4``, which sort in order), the others kept.
    """
    out: dict[str, AnyMetric] = {}
    for name, metric in metrics.items():
        cols = metric.columns() if getattr(metric, "plain_columns", False) else [metric]
        if len(cols) == 1:
            out[name] = metric
        else:
            out.update({f"{name}/{k}": c for k, c in enumerate(cols, 1)})
    return out


def render_scores(
    metrics: dict[str, AnyMetric], scores: dict[str, Any], args: argparse.Namespace, fmt: str
) -> list[str]:
    """Render one system's corpus scores as SacreBLEU renders them, in sorted name order.

    Parameters
    ----------
    metrics
        The metrics, for their signatures.
    scores
        ``{name: score}``, the names of ``metrics``.
    args
        Parsed command line (width, score-only, short).
    fmt
        Output format (``json`` renders JSON objects with long signatures).

    Returns
    -------
    list of str
        One rendered score per metric.
    """
    results = []
    for name in sorted(metrics):
        sig = metrics[name].get_signature().format(args.short if fmt != "json" else False)
        results.append(scores[name].format(args.width, args.score_only, sig, fmt == "json"))
    return results


def system_table(
    metrics: dict[str, AnyMetric],
    named_systems: list[tuple[str, list[str]]],
    args: argparse.Namespace,
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """Corpus scores of several systems for the results table, paired-tested with -pbs/-par.

    Parameters
    ----------
    metrics
        The metrics (sorted name order).
    named_systems
        ``(name, hypotheses)`` pairs, the baseline first with ``--paired-bs``/``--paired-ar``.
    args
        Parsed command line (width, short, the paired test's options).

    Returns
    -------
    tuple
        ``({score name: signature}, {"System": names, score name: [result, ...]})``: score
        strings, or the paired test's results.
    """
    if args.paired_bs or args.paired_ar:
        return _paired_test(metrics, named_systems, args)
    sigs: dict[str, str] = {}
    scores: dict[str, list[Any]] = {"System": [n for n, _ in named_systems]}
    systems = [system for _, system in named_systems]
    for name in sorted(metrics):
        metric = metrics[name]
        # One call for all systems: chrF scores each segment's references for every system
        # while they are in the cache.
        for score in metric.corpus_scores(systems, None):
            sigs[score.name] = metric.get_signature().format(args.short)
            scores.setdefault(score.name, []).append(score.format(args.width, True))
    return sigs, scores


def _paired_test(
    metrics: dict[str, AnyMetric],
    named_systems: list[tuple[str, list[str]]],
    args: argparse.Namespace,
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """Paired significance tests through ``parbleu.significance.PairedTest`` (SacreBLEU's API)."""
    from ..significance import PairedTest

    # One test per reported column (ROUGE: one per rouge type), in the metrics' order.
    columns = {}
    for k in metrics:
        cols = metrics[k].columns()
        for c in cols:
            columns[k if len(cols) == 1 else c.title] = c
    ps = PairedTest(
        named_systems,
        columns,
        references=None,
        test_type="bs" if args.paired_bs else "ar",
        n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n,
        n_jobs=args.paired_jobs,
    )
    sigs, scores = ps()
    return {k: v.format(args.short) for k, v in sigs.items()}, scores
