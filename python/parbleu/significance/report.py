"""Text rendering of an all-pairs :class:`~parbleu.significance.results.Comparison`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .results import Comparison


def _grid(rows: list[list[str]], aligns: str) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [
            cell.rjust(w) if a == "r" else cell.center(w) if a == "c" else cell.ljust(w)
            for cell, w, a in zip(r, widths, aligns)
        ]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def render_comparison(c: Comparison, width: int) -> str:
    """Render ``Comparison.table``: per metric, the ranking, every pair, the pair matrix.

    Parameters
    ----------
    c
        The comparison.
    width
        Decimal places of scores.

    Returns
    -------
    str
        The report (no final newline).
    """
    test = (
        f"paired bootstrap resampling, {c.n} resamples"
        if c.test == "bootstrap"
        else f"approximate randomization, {c.n} trials per pair"
    )
    k = len(c.systems)
    m = k * (k - 1) // 2
    lines = [
        f"All-pairs comparison of {k} systems: {test}, seed {c.seed}.",
        f"Holm-Bonferroni correction over the {m} pairs of each metric; "
        f"* = significantly different (adjusted p <= {c.alpha:g}).",
    ]
    for mc in c.metrics:
        better = "higher" if mc.higher_is_better else "lower"
        lines += ["", f"{mc.metric} ({better} is better)  {mc.signature}", ""]
        head = ["rank", "system", mc.metric]
        if mc.intervals:
            head.append(f"{c.confidence:.0%} CI")
        rows = [head]
        for r, nm in enumerate(mc.ranking, 1):
            row = [str(r), nm, f"{mc.scores[nm]:.{width}f}"]
            if mc.intervals:
                iv = mc.intervals[nm]
                row.append(f"[{iv.low:.{width}f}, {iv.high:.{width}f}]")
            rows.append(row)
        lines += _grid(rows, "rlrl")
        lines.append("")
        prow = [["system A", "system B", "delta", "p-value", "Holm p", ""]]
        for p in mc.pairs:
            prow.append(
                [p.system_a, p.system_b, f"{p.delta:+.{width}f}", f"{p.p_value:.4f}",
                 f"{p.p_holm:.4f}", "*" if p.significant else ""]
            )  # fmt: skip
        lines += _grid(prow, "llrrrl")
        lines.append("")
        rank = {nm: r for r, nm in enumerate(mc.ranking, 1)}
        mat = [["", *(str(rank[b]) for b in mc.ranking)]]
        for a in mc.ranking:
            row = [str(rank[a])]
            for b in mc.ranking:
                if a == b:
                    row.append(".")
                    continue
                pr = mc.pair(a, b)
                row.append((">" if pr.system_a == a else "<") if pr.significant else "=")
            mat.append(row)
        lines += _grid(mat, "r" + "c" * len(mc.ranking))
        lines.append(
            "  (by rank) > row significantly better than column, < worse, = no significant "
            "difference"
        )
    return "\n".join(lines)
