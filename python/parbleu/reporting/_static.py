"""Static outputs of a report for papers: tables as Markdown and LaTeX, plots as PNG.

The plots need matplotlib (the ``report`` extra), imported only here; the tables need nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ParbleuError

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


def tables(data: dict[str, Any]) -> dict[str, Table]:
    """Return the report's tables as header and rows of text, by file stem.

    Parameters
    ----------
    data
        The report's data.

    Returns
    -------
    dict
        ``{"scores": (header, rows), "significance": ..., "length_buckets": ...,
        "freq_buckets": ..., "length_diff_buckets": ..., "flavors": ...}`` (only the
        sections the data has).
    """
    names = data["systems"]
    out: dict[str, Table] = {}
    head = ["System"]
    for m in data["scores"]:
        head += [m["metric"], "95% CI" if data["test"]["confidence"] == 0.95 else "CI"]
    rows = []
    for n in names:
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
    return out


def markdown(table: Table) -> str:
    """Render a table as GitHub Markdown (``|`` in cells escaped)."""
    head, rows = table

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    sep = "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"
    return "\n".join([line(head), sep, *(line(r) for r in rows)]) + "\n"


def latex(table: Table) -> str:
    """Render a table as a LaTeX ``tabular`` (booktabs rules; cells escaped)."""
    head, rows = table
    spec = "l" + "r" * (len(head) - 1)
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


def write_plots(data: dict[str, Any], directory: Path) -> list[Path]:
    """Write the plots as PNG: sentence-score histograms, differences, bucket charts.

    Raises
    ------
    ParbleuError
        When matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ParbleuError(
            "PNG plots need matplotlib: pip install 'parbleu[report]' (the tables were "
            "written without it)"
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

    for k, m in enumerate(data["sentence"]):
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for n in names:
            ax.hist(
                m["scores"][n], bins=20, range=(0, 100), histtype="step", label=n, color=color[n]
            )
        ax.set_xlabel(f"sentence {m['metric']}")
        ax.set_ylabel("segments")
        legend(ax)
        save(fig, f"sentence_{k}_distribution")
        base = np.asarray(m["scores"][data["baseline"]])
        if len(names) > 1:
            fig, ax = plt.subplots(figsize=(6, 3.5))
            for n in names:
                if n != data["baseline"]:
                    d = np.asarray(m["scores"][n]) - base
                    ax.hist(d, bins=40, range=(-100, 100), histtype="step", label=n, color=color[n])
            ax.set_xlabel(f"sentence {m['metric']} minus {data['baseline']}")
            ax.set_ylabel("segments")
            legend(ax)
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
