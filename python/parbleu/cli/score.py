"""Metric construction and scoring for the command line, metric-generic like SacreBLEU's.

A metric named ``X`` on the command line (``-m x``) is the class ``parbleu.X``, looked up when
it is used: a metric this build lacks is a one-line "not implemented" error, and a metric
class added later works without touching the command line. Its constructor receives every
parsed option whose destination starts with ``x_`` (prefix stripped), plus the references.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from .._version import __version__
from ..errors import ParbleuError
from .errors import CliError, ExitCode

__all__ = [
    "METRIC_CLASSES",
    "Metric",
    "build_metrics",
    "metric_class",
    "multi_system_scores",
    "paired_test",
    "require_significance",
    "sentence_lines",
    "single_system_results",
]

#: Command-line metric name (upper case, SacreBLEU's ``METRICS`` keys) -> ``parbleu`` attribute.
METRIC_CLASSES = {"BLEU": "BLEU", "CHRF": "CHRF", "TER": "TER"}


class Metric(Protocol):
    """What the command line uses of a metric (SacreBLEU's ``Metric`` API)."""

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> Any:
        """Score a corpus."""

    def corpus_scores(
        self, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str | None]] | None
    ) -> list[Any]:
        """Score several systems' corpora."""

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Any:
        """Score one segment."""

    def get_signature(self) -> Any:
        """Return the metric's signature."""


def metric_class(name: str) -> Any:
    """Return the ``parbleu`` class of a metric, or fail with "not implemented".

    Parameters
    ----------
    name
        Upper-case metric name (``BLEU``, ``CHRF``, ``TER``).

    Returns
    -------
    type
        The metric class.
    """
    import parbleu

    cls = getattr(parbleu, METRIC_CLASSES[name], None)
    if cls is None:
        raise CliError(
            f"-m {name.lower()}: parbleu {__version__} does not provide "
            f"parbleu.{METRIC_CLASSES[name]} yet",
            ExitCode.NOT_IMPLEMENTED,
        )
    return cls


def require_significance(attr: str, flag: str) -> Any:
    """Return an attribute of ``parbleu.significance``, or fail with "not implemented".

    Parameters
    ----------
    attr
        The function or class needed.
    flag
        The command-line flag that needs it, for the message.

    Returns
    -------
    object
        ``parbleu.significance.<attr>``.
    """
    try:
        module: Any = importlib.import_module("parbleu.significance")
    except ModuleNotFoundError as e:
        if e.name != "parbleu.significance":
            raise
        module = None
    found = getattr(module, attr, None)
    if found is None:
        raise CliError(
            f"{flag}: significance testing is not implemented yet in parbleu {__version__}",
            ExitCode.NOT_IMPLEMENTED,
        )
    return found


def _metric_options(args: argparse.Namespace, name: str) -> dict[str, Any]:
    prefix = name.lower() + "_"
    return {k[len(prefix) :]: v for k, v in vars(args).items() if k.startswith(prefix)}


def build_metrics(
    args: argparse.Namespace,
    refs: list[list[str]],
    trg_lang: str | None,
    sentence_level: bool,
) -> dict[str, Metric]:
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
        ``--sentence-level``: BLEU then uses effective order, as in SacreBLEU.

    Returns
    -------
    dict
        ``{upper-case name: metric}``, in command-line order (a repeated name counts once).
    """
    metrics: dict[str, Metric] = {}
    for lower in args.metrics:
        name = lower.upper()
        cls = metric_class(name)
        kwargs = _metric_options(args, name)
        if name == "BLEU":
            if trg_lang is not None:
                kwargs["trg_lang"] = trg_lang
            if sentence_level:
                kwargs["effective_order"] = True
        kwargs["references"] = refs
        try:
            metrics[name] = cls(**kwargs)
        except ParbleuError as e:
            raise CliError(f"-m {lower}: {e}") from None
    return metrics


def sentence_lines(
    metric: Metric,
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


def single_system_results(
    metrics: dict[str, Metric], system: list[str], args: argparse.Namespace, fmt: str
) -> list[str]:
    """Corpus scores of one system, each rendered as SacreBLEU renders it.

    Parameters
    ----------
    metrics
        The metrics (scored in sorted name order, as SacreBLEU).
    system
        Hypotheses.
    args
        Parsed command line (width, score-only, short, confidence).
    fmt
        Output format (``json`` renders JSON objects with long signatures).

    Returns
    -------
    list of str
        One rendered score per metric.
    """
    n_bootstrap = 1
    if args.confidence:
        require_significance("bootstrap_ci", "--confidence")
        n_bootstrap = args.confidence_n
        from .._options import MAX_RESAMPLES

        if not 0 <= n_bootstrap <= MAX_RESAMPLES:
            # The metric would refuse it too, but under its API name (n_bootstrap).
            raise CliError(
                f"--confidence-n/-cin {n_bootstrap}: expected an integer from 0 to "
                f"{MAX_RESAMPLES:,}"
            )
    results = []
    for name in sorted(metrics):
        metric = metrics[name]
        score = metric.corpus_score(system, None, n_bootstrap=n_bootstrap)
        sig = metric.get_signature().format(args.short if fmt != "json" else False)
        results.append(score.format(args.width, args.score_only, sig, fmt == "json"))
    return results


def multi_system_scores(
    metrics: dict[str, Metric],
    named_systems: list[tuple[str, list[str]]],
    args: argparse.Namespace,
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """Corpus scores of several systems for the results table.

    Parameters
    ----------
    metrics
        The metrics (sorted name order).
    named_systems
        ``(name, hypotheses)`` pairs.
    args
        Parsed command line (width, short).

    Returns
    -------
    tuple
        ``({score name: signature}, {"System": names, score name: [score string, ...]})``.
    """
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


def paired_test(
    metrics: dict[str, Metric],
    named_systems: list[tuple[str, list[str]]],
    args: argparse.Namespace,
) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """Paired significance tests through ``parbleu.significance.PairedTest``.

    The class is expected to follow SacreBLEU's ``PairedTest`` API (constructor arguments,
    ``__call__`` returning signatures and per-metric result lists).

    Parameters
    ----------
    metrics
        The metrics.
    named_systems
        ``(name, hypotheses)`` pairs, the baseline first.
    args
        Parsed command line.

    Returns
    -------
    tuple
        ``({score name: signature}, {"System": names, score name: [result, ...]})``.
    """
    paired_cls = require_significance(
        "PairedTest", "--paired-bs" if args.paired_bs else "--paired-ar"
    )
    ps = paired_cls(
        named_systems,
        metrics,
        references=None,
        test_type="bs" if args.paired_bs else "ar",
        n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n,
        n_jobs=args.paired_jobs,
    )
    sigs, scores = ps()
    return {k: v.format(args.short) for k, v in sigs.items()}, scores
