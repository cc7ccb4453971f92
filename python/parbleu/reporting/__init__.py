"""``parbleu.report``: a self-contained HTML analysis of one or more systems.

compare-mt's analyses (by sentence length, word frequency, n-gram; the sentences that changed
most) next to parbleu's exact scores, intervals and all-pairs significance table, in one HTML
file that loads nothing from anywhere (inline CSS, script and SVG), opened from disk::

    import parbleu
    rep = parbleu.report(refs, {"base": hyps1, "new": hyps2})
    rep.write("report.html")

The command line is ``parbleu report REF... -i SYS... -o report.html`` (``docs/report.md``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..metrics.base import Metric
from ..progress import ProgressArg
from ._options import FREQ_EDGES, LENGTH_DIFF_EDGES, LENGTH_EDGES, Options

__all__ = ["Report", "report"]


@dataclass
class Report:
    """A computed report.

    Attributes
    ----------
    data
        Everything the page shows, as plain data (also embedded in the page as JSON).
    title
        The page title.
    files
        ``{system name: file name}`` listed in the page, or ``None``.
    seconds
        Time spent computing the data (``analysis``); :meth:`html` adds ``render``.
    """

    data: dict[str, Any]
    title: str = "parbleu report"
    files: dict[str, str] | None = None
    seconds: dict[str, float] = field(default_factory=dict)

    def html(self) -> str:
        """Render the self-contained HTML page."""
        from ._html import render

        t0 = time.perf_counter()
        page = render(self.data, self.title, self.files)
        self.seconds["render"] = time.perf_counter() - t0
        return page

    def write(self, path: str | Path) -> Path:
        """Write the HTML page to ``path`` (UTF-8) and return the path."""
        p = Path(path)
        p.write_text(self.html(), encoding="utf-8")
        return p

    def to_json(self, indent: int | None = 2) -> str:
        """Return the report's data as JSON."""
        return json.dumps(self.data, indent=indent, ensure_ascii=False, allow_nan=False)

    def write_tables(self, directory: str | Path) -> list[Path]:
        """Write every table as Markdown (``.md``) and LaTeX (``.tex``) into ``directory``."""
        from ._static import write_tables

        return write_tables(self.data, Path(directory))

    def write_plots(self, directory: str | Path) -> list[Path]:
        """Write the plots as PNG into ``directory`` (needs matplotlib, extra ``report``)."""
        from ._static import write_plots

        t0 = time.perf_counter()
        out = write_plots(self.data, Path(directory))
        self.seconds["plots"] = time.perf_counter() - t0
        return out


def report(
    references: Sequence[Sequence[str | None]],
    systems: Mapping[str, Sequence[str]],
    *,
    metrics: Sequence[Metric[Any]] | None = None,
    baseline: str | None = None,
    test: str = "bootstrap",
    n: int | None = None,
    seed: int = 12345,
    alpha: float = 0.05,
    confidence: float = 0.95,
    word_counts: Mapping[str, int] | None = None,
    length_edges: Sequence[int] = LENGTH_EDGES,
    freq_edges: Sequence[int] = FREQ_EDGES,
    length_diff_edges: Sequence[int] = LENGTH_DIFF_EDGES,
    max_order: int = 4,
    top_ngrams: int = 10,
    top_segments: int = 5,
    all_pairs_up_to: int = 8,
    flavors: Sequence[str] | None = None,
    flavor_systems: int | None = None,
    explain: bool = False,
    title: str = "parbleu report",
    files: Mapping[str, str] | None = None,
    workers: int | None = None,
    names: Sequence[str] | None = None,
    src: Sequence[str] | None = None,
    order: str = "score",
    progress: ProgressArg = None,
    human_seg: Mapping[str, Sequence[float | None]] | None = None,
    human_sys: Mapping[str, float] | None = None,
    human_k: int = 0,
) -> Report:
    """Analyse systems against references for an HTML report.

    Parameters
    ----------
    references
        Reference streams (``references[k][i]``: reference ``k`` of segment ``i``).
    systems
        ``{name: hypotheses}``, one or more systems, in the order to show them. The page
        shows the names without their common prefix and suffix (``newstest2021.en-de.hyp.``
        and ``.de`` of WMT file names); ``names`` sets them.
    metrics
        Metric objects for the score and significance tables; default ``BLEU()``,
        ``CHRF()``, ``TER()``. Word-level analyses tokenize as the first BLEU does.
    baseline
        The system that differences are taken against, by its key in ``systems`` or its
        shown name; default: the best system by the first metric (ties: the first of them in
        order), which the page says.
    test
        ``"bootstrap"`` (paired bootstrap, which also gives the intervals) or ``"ar"``.
    n
        Resamples or trials per pair. ``None`` (default): 1000 for bootstrap, 10000 for AR,
        or, with more pairs than these resolve, the smallest count that brings the smallest
        reachable Holm-adjusted p-value (pairs / (n + 1)) to ``alpha / 5`` or below (16
        systems: 11,999). A count given is used as given; the page warns when it is too
        small. With fewer than 50 segments the bootstrap is not run: no p-values, no
        intervals, a note instead (``docs/report.md``, "Significance").
    seed
        Seed of the resampling (any integer in ``[0, 2**64)``).
    alpha
        Family-wise significance level per metric (Holm-Bonferroni).
    confidence
        Coverage of the intervals.
    word_counts
        ``{word: count}`` of a training corpus for the word-frequency buckets; ``None`` to
        count words in the first reference stream.
    length_edges, freq_edges
        Bucket starts (increasing integers >= 1).
    length_diff_edges
        Bucket starts of the length-difference buckets (hypothesis minus reference tokens;
        increasing integers; default compare-mt's, -20 ... 20).
    max_order
        Longest n-gram of the n-gram analysis and of the highlighting.
    top_ngrams, top_segments
        How many n-grams and segments to show per pair and direction.
    all_pairs_up_to
        With at most this many systems, every pair gets a side-by-side section; with more,
        the pairs of the baseline.
    flavors
        Flavor names for the flavors table (``parbleu.flavors.flavor_names()``); ``None`` for
        all, ``()`` for none.
    flavor_systems
        How many systems the flavors table scores: the baseline, then the others in order;
        the other rows show a dash. ``None`` (the default): every system. Each flavor scores
        each system from the raw text (about 0.25 s of CPU per system for the 12 flavors at
        1,000 segments), so a smaller number saves time on many systems.
    explain
        Add each flavor's step-by-step explanation of the gap between SacreBLEU's score and
        the flavor's for the baseline (:func:`parbleu.flavors.explain`; about as costly as the
        rest of a 20-system report, so off by default).
    title
        Page title.
    files
        ``{system name: file name}`` to list in the page.
    workers
        Threads: 1 serial, -1 all cores, ``None`` the library default.
    names
        The names to show, one per system in order (non-empty, all different); ``None`` for
        the keys of ``systems`` without their common prefix and suffix.
    src
        Source sentences, one per segment, shown with the example segments.
    order
        Order of the systems in the score table and the exported tables: ``"score"`` (best
        first by the first metric; the page has a toggle back) or ``"file"`` (as given).
    progress
        ``True``: a progress bar on standard error; a callable: ``progress(done, total)``
        after each step of the analysis (statistics, significance, sentence scores, words,
        pairs, flavors).
    human_seg
        Human segment scores, ``{system: [score or None, ...]}`` (one per segment; ``None``:
        not judged), keyed by the keys of ``systems`` or the shown names: adds the section
        "Agreement with human judgements" (``data["agreement"]``), every metric against them
        with ``parbleu meta``'s statistics (``docs/meta-evaluation.md``). Systems without
        human scores are left out of it, and named.
    human_sys
        Human system scores, ``{system: score}``; ``None``: the mean of each system's judged
        segments. Given alone, only system-level agreement.
    human_k
        PERM-BOTH draws per metric pair for rank clusters in that section (0: no clusters;
        ``seed`` and ``alpha`` as for the significance tests).

    Returns
    -------
    Report
        ``.write(path)`` writes the page; ``.data`` holds the numbers.
    """
    from .._names import display_names
    from ..metrics.registry import get_metric, make_metric, metric_names
    from ._analysis import analyze
    from ._inputs import check_inputs, check_source

    t0 = time.perf_counter()
    streams, sys_lines = check_inputs(references, systems)
    keys = list(sys_lines)
    shown = display_names(keys, names)
    sys_lines = {s: sys_lines[k] for s, k in zip(shown, keys)}
    if baseline is not None and baseline not in sys_lines and baseline in keys:
        baseline = shown[keys.index(baseline)]
    source = check_source(src, len(streams[0]))
    metric_list: list[Metric[Any]] = (
        [make_metric(n) for n in metric_names() if get_metric(n).profile.in_report_default]
        if metrics is None
        else list(metrics)
    )
    for m in metric_list:  # histograms and examples are sentence scores: checked first
        m.require("sentence_scores", "report")
    opts = Options(
        baseline=baseline,
        test=test,
        n=n,
        seed=seed,
        alpha=alpha,
        confidence=confidence,
        max_order=max_order,
        length_edges=tuple(length_edges),
        freq_edges=tuple(freq_edges),
        length_diff_edges=tuple(length_diff_edges),
        top_ngrams=top_ngrams,
        top_segments=top_segments,
        all_pairs_up_to=all_pairs_up_to,
        flavors=None if flavors is None else tuple(flavors),
        flavor_systems=flavor_systems,
        explain=explain,
        workers=workers,
        order=order,
    )
    from ..progress import make_progress
    from ._analysis import analysis_steps

    tick, bar = make_progress(progress, analysis_steps(len(metric_list)), "steps", "report")
    try:
        data = analyze(streams, sys_lines, metric_list, opts, word_counts, source, tick)
    finally:
        if bar is not None:
            bar.close(clear=True)
    renamed = dict(zip(keys, shown))
    if human_seg is not None or human_sys is not None:
        from ._agreement import HumanScores, agreement

        data["agreement"] = agreement(
            data, HumanScores(human_seg, human_sys, human_k), renamed, seed, alpha
        )
    return Report(
        data=data,
        title=title,
        files=(
            None
            if files is None
            else {renamed.get(str(k), str(k)): str(v) for k, v in files.items()}
        ),
        seconds={"analysis": time.perf_counter() - t0},
    )
