"""The bucket sections of the report page: one table per measure, a bar behind each number."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ._markup import esc, num_td, sys_attr, table, th


def _bar(x: float | None, scale: tuple[float, float]) -> str:
    """Return a ``style`` attribute that draws ``x`` as a bar behind its cell (CSS only).

    The bar runs from ``scale[0]`` (empty) to ``scale[1]`` (the whole cell).
    """
    lo, hi = scale
    if x is None or hi <= lo:
        return ""
    return f' style="--w:{max(0.0, min(100.0, 100.0 * (x - lo) / (hi - lo))):.1f}%"'


def _nice_step(span: float) -> float:
    """Return a round step (1, 2 or 5 times a power of ten), about five over ``span``."""
    raw = span / 5
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def score_range(values: Iterable[float | None]) -> tuple[float, float]:
    """Return the bars' scale of scores: the data's range widened to round numbers.

    BLEU values of 22-33 against 0-100 were near-identical pale stripes; against 20-35 they
    differ at a glance. The lower end is one step below the smallest value, so that it still
    draws a bar; equal values (or one) are drawn from 0.

    Parameters
    ----------
    values
        The numbers of one table (``None`` skipped).

    Returns
    -------
    tuple of float
        ``(low, high)``: a value ``low`` draws no bar, ``high`` a full one.
    """
    xs = [x for x in values if x is not None and math.isfinite(x)]
    if not xs:
        return (0.0, 100.0)
    lo, hi = min(xs), max(xs)
    if hi - lo <= 1e-9:
        return (0.0, max(hi, 1e-9))
    step = _nice_step(hi - lo)
    low = max(0.0, (math.floor(lo / step) - 1) * step)
    high = math.ceil(hi / step) * step
    return (low, high)


_MEASURES = (
    ("bleu", "BLEU of the bucket's segments"),
    ("f1", "word F1"),
    ("precision", "word precision"),
    ("recall", "word recall"),
    ("length_ratio", "hypothesis/reference length"),
)


def _bucket_table(
    table_id: str,
    data: dict[str, Any],
    labels: Sequence[str],
    values: dict[str, list[Any]],
    width: int,
    scale: tuple[float, float],
    foot: tuple[str, Sequence[int]] | None,
) -> str:
    """One row per system, one column per bucket, each number drawn as a bar behind it.

    Systems are rows so that 50 systems make a long table, not a wide one; the bars make the
    table its own chart (no script, no matplotlib).
    """
    head = [th("System", num=False)] + [th(lab) for lab in labels]
    rows = []
    for n in data["systems"]:
        cells = [f'<td class="txt">{esc(n)}</td>']
        for x in values[n]:
            cells.append(num_td(x, width, ' class="b"' + _bar(x, scale)))
        rows.append(f'<tr{sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
    tfoot = ""
    if foot is not None:
        what, counts = foot
        tfoot = (
            f'<tr class="counts"><td class="txt">{esc(what)}</td>'
            + "".join(f'<td data-v="{c}">{c}</td>' for c in counts)
            + "</tr>"
        )
    return table(table_id, head, rows, foot=tfoot)


def _scale(values: dict[str, list[Any]], raw: bool) -> tuple[float, float]:
    """Scores: their range (:func:`score_range`); a count or ratio: 0 to its largest."""
    flat = [x for v in values.values() for x in v]
    if not raw:
        return score_range(flat)
    return (0.0, max((x for x in flat if x is not None), default=0.0))


def _scale_note(scale: tuple[float, float]) -> str:
    lo, hi = scale
    return f'<p class="note scale">Bars: {lo:g} (empty) to {hi:g} (full), the data\'s range.</p>'


def _measure_views(
    data: dict[str, Any],
    key: str,
    measures: Sequence[tuple[str, str]],
    raw: tuple[str, int],
    foot: tuple[str, Sequence[int]] | None,
) -> tuple[str, str]:
    """Return the measure menu's options and the tables of ``data[key]``, one view a measure.

    Measures the section lacks are left out. Scores (0-100) show 2 decimals and bars over
    the data's range (:func:`score_range`); the measure ``raw[0]`` (a ratio, a count) shows
    ``raw[1]`` decimals and bars against its largest value. Each table says its scale.
    """
    b = data[key]
    shown = [(k, t) for k, t in measures if b.get(k)]
    options = "".join(f'<option value="{k}">{esc(t)}</option>' for k, t in shown)
    views = []
    for k, _t in shown:
        is_raw = k == raw[0]
        width = raw[1] if is_raw else 2
        scale = _scale(b[k], is_raw)
        views.append(
            f'<div class="{key}-view" data-key="{k}">'
            + _bucket_table(f"{key}-{k}", data, b["labels"], b[k], width, scale, foot)
            + ("" if is_raw else _scale_note(scale))
            + "</div>"
        )
    return options, "".join(views)


def bucket_section(data: dict[str, Any], key: str, title: str, label: str) -> str:
    b = data[key]
    if key == "freq_buckets":
        note = (
            f"Words of the first reference and of each system, bucketed by their frequency in "
            f"the {esc(b['source'])}; precision, recall and F1 of clipped word matches, per "
            "bucket (compare-mt's word accuracy)."
            + (
                ""
                if b.get("zero_bucket", True)
                else " Every word of the references occurs in them, so there is no bucket "
                "0; hypothesis words absent from the references match nothing and are left out."
            )
        )
    else:
        note = (
            "Segments bucketed by the first reference's length in tokens; BLEU of each "
            "bucket's segments (statistics of the score table), and word precision/recall/F1."
        )
    counts = b["segments"] if key == "length_buckets" else b["ref_tokens"]
    what = "segments" if key == "length_buckets" else "ref words"
    options, tables = _measure_views(data, key, _MEASURES, ("length_ratio", 3), (what, counts))
    return (
        f'<section id="{key}"><h2>{esc(title)}</h2><p class="note">{note} '
        f"{esc(label)} across, systems down; the bars draw each number over the range "
        "written under its table (the length ratio against the largest).</p>"
        f'<label>Measure: <select class="pick" data-target=".{key}-view">{options}</select>'
        f"</label>{tables}</section>"
    )


def diff_bucket_section(data: dict[str, Any]) -> str:
    b = data.get("length_diff_buckets")
    if not b:
        return ""
    measures = [("segments", "segments"), ("bleu", "BLEU of the bucket's segments")]
    options, tables = _measure_views(data, "length_diff_buckets", measures, ("segments", 0), None)
    return (
        '<section id="length_diff_buckets"><h2>By length difference</h2><p class="note">'
        "Segments bucketed by the system's length minus the first reference's, in BLEU's "
        "tokens (compare-mt's <code>lengthdiff</code> buckets): how many segments are that much "
        "shorter (negative) or longer, and the BLEU of those segments. The bars draw each "
        "count against the largest, or BLEU over the range written under its table.</p>"
        '<label>Measure: <select class="pick" data-target=".length_diff_buckets-view">'
        f"{options}</select></label>{tables}</section>"
    )
