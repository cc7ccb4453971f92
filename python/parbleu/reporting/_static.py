"""Static outputs of a report for papers: tables as Markdown and LaTeX, plots as PNG.

The plots need matplotlib (the ``report`` extra), imported only here; the tables need nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError

Table = tuple[list[str], list[list[str]]]

_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters in ``text``."""
    return "".join(_LATEX.get(c, c) for c in text)


def _f(x: float | None, width: int = 2) -> str:
    return "–" if x is None else f"{x:.{width}f}"


def _rank_range(r: Sequence[int]) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]}–{r[1]}"


def tables(data: dict[str, Any]) -> dict[str, Table]:
    """Return the report's tables as header and rows of text, by file stem.

    Parameters
    ----------
    data
        The report's data.

    Returns
    -------
    dict
        ``{"scores": (header, rows), "significance": ..., "clusters": ...,
        "length_buckets": ..., "freq_buckets": ..., "length_diff_buckets": ...,
        "flavors": ..., "agreement": ...}`` (only the sections the data has).
    """
    names = data["systems"]
    # The score table in the page's order: best first by the first metric (order="file":
    # as given); the other tables keep file order (their columns are systems).
    ranked = (
        list(data["by_score"])
        if data.get("order", "score") == "score" and data.get("by_score")
        else names
    )
    out: dict[str, Table] = {}
    head = ["System"]
    for m in data["scores"]:
        head += [m["metric"], "95% CI" if data["test"]["confidence"] == 0.95 else "CI"]
    rows = []
    for n in ranked:
        row = [n]
        for m in data["scores"]:
            ci = m["ci"].get(n)
            row += [_f(m["scores"][n]), f"[{_f(ci['low'])}, {_f(ci['high'])}]" if ci else "–"]
        rows.append(row)
    out["scores"] = (head, rows)
    if len(names) > 1:
        rows = [
            [m["metric"], p["a"], p["b"], _f(p["delta"]), f"{p['p']:.4f}", f"{p['p_holm']:.4f}",
             "yes" if p["significant"] else "no"]
            for m in data["scores"]
            for p in m["pairs"]
        ]  # fmt: skip
        out["significance"] = (["Metric", "A", "B", "Δ", "p", "p (Holm)", "significant"], rows)
        rows = [
            [m["metric"], str(c["rank"]), _rank_range(c["ranks"][n]), n, _f(m["scores"][n])]
            for m in data["scores"]
            for c in m.get("clusters", [])
            for n in c["systems"]
        ]
        if rows:
            out["clusters"] = (["Metric", "Cluster", "Rank range", "System", "Score"], rows)
    for key, label in (("length_buckets", "Reference length"), ("freq_buckets", "Frequency")):
        b = data[key]
        measure = "bleu" if b.get("bleu") else "f1"
        rows = [[lab] + [_f(b[measure][n][i]) for n in names] for i, lab in enumerate(b["labels"])]
        out[key] = ([f"{label} ({'BLEU' if measure == 'bleu' else 'word F1'})", *names], rows)
    diff = data.get("length_diff_buckets")
    if diff:
        rows = [
            [lab] + [str(diff["segments"][n][i]) for n in names]
            for i, lab in enumerate(diff["labels"])
        ]
        out["length_diff_buckets"] = (["Length difference (segments)", *names], rows)
    if data["flavors"]:
        rows = [[f["name"]] + [_f(f["scores"][n]) for n in names] for f in data["flavors"]]
        out["flavors"] = (["Flavor", *names], rows)
    agr = data.get("agreement")
    if agr:
        from ._html_agreement import agreement_columns

        cols = agreement_columns(agr)
        rows = [
            [m]
            + [
                str(agr[lv]["ranks"][m]) if key == "rank" else _f(agr[lv]["metrics"][m][key], 4)
                for lv, key, _ in cols
            ]
            for m in agr["metrics"]
        ]
        out["agreement"] = (["Metric", *(label for _, _, label in cols)], rows)
    return out


_MARKDOWN = {
    "\\": "\\\\",
    "|": "\\|",
    # Markdown renders raw HTML: a system named <img onerror=...> must stay text.
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "\n": " ",
    "\r": " ",
}


def markdown_escape(text: str) -> str:
    r"""Escape a table cell for Markdown: ``|``, ``\``, HTML's ``<>&``, line breaks."""
    return "".join(_MARKDOWN.get(c, c) for c in text)


#: A cell that reads as a number: a score, an interval, a p-value, a rank range, a dash.
_NUMERIC = re.compile(r"^[\s\d.,+\-−–\[\]]*$")
#: Columns of names whatever the names look like (a system called "1.5").
_TEXT_HEADS = frozenset({"System", "A", "B", "Metric", "Flavor", "significant"})


def text_columns(table: Table) -> list[bool]:
    """Which columns hold text (left-aligned): the first, and any with a non-numeric cell."""
    head, rows = table
    return [
        i == 0
        or head[i] in _TEXT_HEADS
        or any(i < len(r) and not _NUMERIC.match(r[i]) for r in rows)
        for i in range(len(head))
    ]


def markdown(table: Table) -> str:
    """Render a table as GitHub Markdown (cells escaped as :func:`markdown_escape` does).

    Text columns (system names, metric names, yes/no) are left-aligned, numbers right-aligned.
    """
    head, rows = table

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(markdown_escape(c) for c in cells) + " |"

    sep = "|" + "|".join("---" if t else "---:" for t in text_columns(table)) + "|"
    return "\n".join([line(head), sep, *(line(r) for r in rows)]) + "\n"


def latex(table: Table) -> str:
    """Render a table as a LaTeX ``tabular`` (booktabs rules; cells escaped)."""
    head, rows = table
    spec = "".join("l" if t else "r" for t in text_columns(table))
    body = [" & ".join(latex_escape(c) for c in r) + r" \\" for r in rows]
    return (
        "\n".join(
            [
                rf"\begin{{tabular}}{{{spec}}}",
                r"\toprule",
                " & ".join(latex_escape(c) for c in head) + r" \\",
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
            ]
        )
        + "\n"
    )


def write_tables(data: dict[str, Any], directory: Path) -> list[Path]:
    """Write every table as ``NAME.md`` and ``NAME.tex`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, table in tables(data).items():
        for suffix, text in ((".md", markdown(table)), (".tex", latex(table))):
            path = directory / f"{stem}{suffix}"
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def fold_into(values: Sequence[float], lo: float, hi: float) -> tuple[Any, int]:
    """Values clipped into ``[lo, hi]``, and how many lay outside it (beyond rounding).

    matplotlib's ``hist(range=...)`` drops what lies outside: a perfect sentence BLEU
    (100.00000000000004, as SacreBLEU computes it) and sentence TER above 100 vanished from
    the PNG histograms. Clipped, they are drawn at the ends, and the axis label counts them.
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    outside = int(np.sum((v < lo - 1e-9) | (v > hi + 1e-9)))
    return np.clip(v, lo, hi), outside


def write_plots(data: dict[str, Any], directory: Path) -> list[Path]:
    """Write the plots as PNG: sentence-score histograms, differences, bucket charts.

    Raises
    ------
    MissingDependencyError
        When matplotlib is not installed (the page and the tables need nothing).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # `parbleu report --png` has written the page and the tables when this is raised.
        raise MissingDependencyError(
            "PNG plots (--png, Report.write_plots) need matplotlib, which is not installed (pip "
            "install 'parbleu[report]'); the HTML page and the Markdown/LaTeX tables need nothing"
        ) from None
    import numpy as np

    directory.mkdir(parents=True, exist_ok=True)
    names = data["systems"]
    written = []

    # The legend goes to the right of the plot, never over the bars (one column per 16
    # systems); the saved image grows to hold it (bbox_inches="tight").
    ncol = max(1, -(-len(names) // 16))
    # matplotlib's default cycle repeats after 10 colours: 20 for up to 20 systems.
    cmap = plt.get_cmap("tab10" if len(names) <= 10 else "tab20")
    color = {n: cmap(i % cmap.N) for i, n in enumerate(names)}

    def legend(ax: Any) -> None:
        ax.legend(
            fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
            ncol=ncol, frameon=False,
        )  # fmt: skip

    def save(fig: Any, stem: str) -> None:
        path = directory / f"{stem}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=150, bbox_inches="tight")
        plt.close(fig)
        written.append(path)

    folded = fold_into

    def outside_note(count: int, lo: float, hi: float) -> str:
        return f" ({count} outside [{lo:g}, {hi:g}], drawn at its ends)" if count else ""

    for k, m in enumerate(data["sentence"]):
        fig, ax = plt.subplots(figsize=(6, 3.5))
        out = 0
        # 0-100, or the metric's own range (imported scores: COMET near 0-1).
        lo, hi = m.get("range", (0, 100))
        span = hi - lo
        for n in names:
            v, c = folded(m["scores"][n], lo, hi)
            out += c
            ax.hist(v, bins=20, range=(lo, hi), histtype="step", label=n, color=color[n])
        ax.set_xlabel(f"sentence {m['metric']}" + outside_note(out, lo, hi))
        ax.set_ylabel("segments")
        legend(ax)
        save(fig, f"sentence_{k}_distribution")
        base = np.asarray(m["scores"][data["baseline"]])
        others = [n for n in names if n != data["baseline"]]
        if others:
            # Small multiples, one panel a system against the baseline: 15 step histograms
            # overlaid in one axis (16 systems) were an unreadable tangle.
            ncols = min(4, len(others))
            nrows = -(-len(others) // ncols)
            fig, axes = plt.subplots(
                nrows, ncols, figsize=(2.6 * ncols, 1.9 * nrows + 0.6), sharex=True,
                sharey=True, squeeze=False,
            )  # fmt: skip
            out = 0
            for ax, n in zip(axes.flat, others):
                d, c = folded(np.asarray(m["scores"][n]) - base, -span, span)
                out += c
                ax.hist(d, bins=40, range=(-span, span), color=color[n])
                ax.axvline(0, color="black", linewidth=0.6)
                ax.set_title(n, fontsize="small")
            for ax in list(axes.flat)[len(others) :]:
                ax.set_visible(False)
            fig.supxlabel(
                f"sentence {m['metric']} minus the baseline's ({data['baseline']})"
                + outside_note(out, -span, span),
                fontsize="small",
            )
            fig.supylabel("segments", fontsize="small")
            save(fig, f"sentence_{k}_differences")
    for key in ("length_buckets", "freq_buckets"):
        b = data[key]
        measure = "bleu" if b.get("bleu") else "f1"
        fig, ax = plt.subplots(figsize=(6, 3.5))
        x = np.arange(len(b["labels"]))
        w = 0.8 / max(len(names), 1)
        for j, n in enumerate(names):
            vals = [np.nan if v is None else v for v in b[measure][n]]
            ax.bar(x + j * w - 0.4 + w / 2, vals, w, label=n, color=color[n])
        ax.set_xticks(x)
        ax.set_xticklabels(b["labels"])
        ax.set_ylabel("BLEU" if measure == "bleu" else "word F1")
        legend(ax)
        save(fig, key)
    diff = data.get("length_diff_buckets")
    if diff:
        # One line per system: 16 buckets of 14-50 systems would be a wall of thin bars.
        fig, ax = plt.subplots(figsize=(6, 3.5))
        x = np.arange(len(diff["labels"]))
        for n in names:
            ax.plot(x, diff["segments"][n], marker=".", label=n, color=color[n])
        ax.set_xticks(x)
        ax.set_xticklabels(diff["labels"], rotation=45, ha="right", fontsize="small")
        ax.set_xlabel("hypothesis minus reference length (tokens)")
        ax.set_ylabel("segments")
        legend(ax)
        save(fig, "length_diff_buckets")
    return written
