"""The bucket sections of the report page: one table per measure, a bar behind each number."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._markup import esc, num_td, sys_attr, table, th


def _bar(x: float | None, scale: float) -> str:
    """Return a ``style`` attribute that draws ``x`` as a bar behind its cell (CSS only)."""
    if x is None or scale <= 0:
        return ""
    return f' style="--w:{max(0.0, min(100.0, 100.0 * x / scale)):.1f}%"'


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
    scale: float,
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


def _scale(values: dict[str, list[Any]], fixed: float | None) -> float:
    if fixed is not None:
        return fixed
    return max((x for v in values.values() for x in v if x is not None), default=0.0)


def _measure_views(
    data: dict[str, Any],
    key: str,
    measures: Sequence[tuple[str, str]],
    raw: tuple[str, int],
    foot: tuple[str, Sequence[int]] | None,
) -> tuple[str, str]:
    """Return the measure menu's options and the tables of ``data[key]``, one view a measure.

    Measures the section lacks are left out. Scores (0-100) show 2 decimals and bars against
    100; the measure ``raw[0]`` (a ratio, a count) shows ``raw[1]`` decimals and bars against
    its largest value.
    """
    b = data[key]
    shown = [(k, t) for k, t in measures if b.get(k)]
    options = "".join(f'<option value="{k}">{esc(t)}</option>' for k, t in shown)
    views = []
    for k, _t in shown:
        width, fixed = (raw[1], None) if k == raw[0] else (2, 100.0)
        views.append(
            f'<div class="{key}-view" data-key="{k}">'
            + _bucket_table(f"{key}-{k}", data, b["labels"], b[k], width, _scale(b[k], fixed), foot)
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
        f"{esc(label)} across, systems down; the bars draw each number (0-100; the length "
        "ratio against the largest).</p>"
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
        "count against the largest, or BLEU 0-100.</p>"
        '<label>Measure: <select class="pick" data-target=".length_diff_buckets-view">'
        f"{options}</select></label>{tables}</section>"
    )
