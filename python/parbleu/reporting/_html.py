"""Render a report's data as one self-contained HTML page.

Every table is rendered here (the page reads without JavaScript); the inline script
(:mod:`._assets`) adds sorting, the choice of systems and baseline, and the histograms, from
the same data embedded as JSON. Every piece of user text goes through :func:`esc` (element
text and attribute values) or :func:`json_for_script` (the embedded data), so a system output
containing ``<script>`` shows as text.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from .._version import __version__
from ._assets import CSS, JS

#: The page may load nothing: no network, no other file (scripts and styles are inline).
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def esc(text: object) -> str:
    """Escape text for HTML element content and quoted attribute values."""
    return html.escape(str(text), quote=True)


def json_for_script(data: Any) -> str:
    r"""JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` etc. (so no ``</script>`` or ``<!--``
    can end or change the element), and U+2028/U+2029 escaped; ``JSON.parse`` reads the same
    data back. Only strings can hold these characters, where the escapes are valid JSON.
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for ch, rep in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, rep)
    return text


def _sys_attr(*names: str) -> str:
    return f' data-sys="{esc(json.dumps(list(names), ensure_ascii=False))}"'


def _num_td(x: float | None, width: int = 2, extra: str = "") -> str:
    if x is None:
        return f'<td data-v=""{extra}>–</td>'
    return f'<td data-v="{x!r}"{extra}>{x:.{width}f}</td>'


def _p_td(x: float) -> str:
    return f'<td data-v="{x!r}">{x:.4f}</td>'


def _th(label: str, num: bool = True, cls: str = "") -> str:
    cls = cls or ("" if num else "txt")
    c = f' class="{cls}"' if cls else ""
    return f"<th{' data-num' if num else ''}{c}>{esc(label)}</th>"


def _table(
    table_id: str,
    head: Sequence[str],
    rows: Iterable[str],
    cls: str = "sortable",
    foot: str = "",
) -> str:
    # Each table scrolls sideways inside its own box: the page itself never does, whatever
    # the number of systems (issue 24: 2,105 px at 14 systems, 8,456 px at 50).
    tfoot = f"<tfoot>{foot}</tfoot>" if foot else ""
    return (
        f'<div class="tbl"><table id="{esc(table_id)}" class="{cls}"><thead><tr>'
        f"{''.join(head)}</tr></thead><tbody>{''.join(rows)}</tbody>{tfoot}</table></div>"
    )


#: Characters of a segment (reference, source, output) shown before "show more".
SHOW_CHARS = 400
#: Characters of an n-gram shown in the n-gram tables.
SHOW_NGRAM = 80


def _more(rest: str, n_chars: int) -> str:
    """Fold the rest of a clipped text away: one click shows it (no script needed)."""
    return f'<details class="more"><summary>… {n_chars:,} more characters</summary>{rest}</details>'


def clip_text(text: str, limit: int = SHOW_CHARS) -> str:
    """Escape ``text``, showing its first ``limit`` characters and the rest behind a click."""
    if len(text) <= limit:
        return esc(text)
    return esc(text[:limit]) + _more(esc(text[limit:]), len(text) - limit)


def _bar(x: float | None, scale: float) -> str:
    """Return a ``style`` attribute that draws ``x`` as a bar behind its cell (CSS only)."""
    if x is None or scale <= 0:
        return ""
    return f' style="--w:{max(0.0, min(100.0, 100.0 * x / scale)):.1f}%"'


def render(data: dict[str, Any], title: str, files: dict[str, str] | None = None) -> str:
    """Return the report page.

    Parameters
    ----------
    data
        The report's data (:func:`._analysis.analyze`).
    title
        Page title (escaped).
    files
        ``{system name: file name}`` to list (escaped), or ``None``.

    Returns
    -------
    str
        A complete HTML document.
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="parbleu {esc(__version__)}">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        _meta(data, files),
        _controls(data),
        _scores(data),
        _significance(data),
        _sentence(data),
        _buckets(data, "length_buckets", "By reference length", "Reference length (tokens)"),
        _buckets(data, "freq_buckets", "By word frequency", "Word frequency"),
        _diff_buckets(data),
        _pairs(data),
        _flavors(data),
        '<script type="application/json" id="parbleu-data">',
        json_for_script(data),
        "</script>",
        f"<script>{JS}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _meta(data: dict[str, Any], files: dict[str, str] | None) -> str:
    out = [
        f'<p class="meta">{data["n_segments"]} segments, {data["n_references"]} reference '
        f"stream(s), {len(data['systems'])} system(s); made by parbleu {esc(__version__)}.</p>"
    ]
    if files:
        items = "".join(
            f"<li><b>{esc(n)}</b>: <code>{esc(f)}</code></li>" for n, f in files.items()
        )
        out.append(f'<details><summary>Files</summary><ul id="files">{items}</ul></details>')
    return "\n".join(out)


#: Up to this many systems the check boxes are open; with more they fold (14-50 boxes would
#: fill the sticky bar, which stays on screen).
OPEN_SYSTEMS = 8


def _controls(data: dict[str, Any]) -> str:
    names = data["systems"]
    boxes = "".join(
        f'<label><input type="checkbox" class="syspick" data-i="{i}" checked> {esc(n)}</label>'
        for i, n in enumerate(names)
    )
    options = "".join(
        f'<option value="{i}"{" selected" if n == data["baseline"] else ""}>{esc(n)}</option>'
        for i, n in enumerate(names)
    )
    opened = " open" if len(names) <= OPEN_SYSTEMS else ""
    return (
        f'<div class="controls"><details id="syslist"{opened}><summary>Systems '
        f'(<span id="sys-count">{len(names)} of {len(names)}</span> shown)</summary>'
        f'<div class="boxes">{boxes}</div></details>'
        f'<label>Baseline: <select id="baseline">{options}</select></label></div>'
    )


def _scores(data: dict[str, Any]) -> str:
    head = [_th("System", num=False)]
    for m in data["scores"]:
        head.append(_th(m["metric"]))
        head.append(_th(f"{m['metric']} CI low"))
        head.append(_th(f"{m['metric']} CI high"))
    ratio = next((m["length_ratio"] for m in data["scores"] if m.get("length_ratio")), None)
    if ratio is not None:
        head.append(_th("length ratio"))
    rows = []
    for n in data["systems"]:
        cells = [f'<td class="txt">{esc(n)}</td>']
        for m in data["scores"]:
            ci = m["ci"].get(n)
            cells.append(_num_td(m["scores"][n], extra=' class="score"'))
            cells.append(_num_td(ci["low"] if ci else None))
            cells.append(_num_td(ci["high"] if ci else None))
        if ratio is not None:
            cells.append(_num_td(ratio[n], 3, ' class="ratio"'))
        rows.append(f'<tr{_sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
    test = data["test"]
    sigs = "".join(
        f'<li>{esc(m["metric"])}: <code class="sig">{esc(m["signature"])}</code></li>'
        for m in data["scores"]
    )
    conf = round(100 * test["confidence"], 6)
    if test.get("skipped"):
        ci_note = f"No confidence intervals: {esc(test['skipped'])}."
    elif test["name"] == "bootstrap":
        ci_note = (
            f"Confidence intervals: {conf:g}% bootstrap intervals, {esc(test['n'])} resamples, "
            f"seed {esc(test['seed'])} (parbleu's exact path)."
        )
    else:
        ci_note = "No confidence intervals: approximate randomization gives none."
    return (
        '<section id="scores"><h2>Scores</h2>'
        + _table("score-table", head, rows)
        + f'<p class="note" id="ci-note">{ci_note} '
        "Length ratio: hypothesis/reference length in BLEU's tokens (SacreBLEU's "
        "ratio; below 1 the brevity penalty applies). Click a header to sort.</p>"
        + f"<h3>Signatures</h3><ul>{sigs}</ul></section>"
    )


# --- significance: which test ran, clusters per metric, all pairs behind a toggle ---------
# Per metric a WMT-style table of clusters (systems not significantly different share one;
# each system has its rank range), then the flat list of every pair in a collapsed
# <details> (it runs to screens at 16 systems).
def _sig_notes(data: dict[str, Any]) -> list[str]:
    """Return the paragraphs on which test ran, with how many resamples, and the warnings."""
    test = data["test"]
    out = []
    for note in test.get("notes", []):  # the command line prints them after "parbleu: "
        out.append(f'<p class="note warn">{esc(note[:1].upper() + note[1:])}.</p>')
    if test.get("skipped"):
        return out
    out.append(f'<p class="note" id="sig-test">{esc(test.get("description", ""))}</p>')
    seed = f"Seed {esc(test['seed'])}"
    out.append(
        f'<p class="note" id="sig-count">{esc(test.get("n_why", ""))} {seed}. A pair is '
        f"significant when its Holm-adjusted p-value is at most {test['alpha']:g}.</p>"
    )
    return out


def _sig_clusters(k: int, m: dict[str, Any]) -> str:
    head = [
        _th("cluster", num=False),
        _th("rank range", num=False),
        _th("System", num=False),
        _th(m["metric"]),
    ]
    rows = []
    for c in m["clusters"]:
        for j, name in enumerate(c["systems"]):
            lo, hi = c["ranks"][name]
            first = ' class="cluster-first"' if j == 0 and c["rank"] > 1 else ""
            rows.append(
                f"<tr{_sys_attr(name)}{first}>"
                f'<td class="rank">{c["rank"] if j == 0 else ""}</td>'
                f'<td class="txt">{lo if lo == hi else f"{lo}–{hi}"}</td>'
                f'<td class="txt">{esc(name)}</td>{_num_td(m["scores"][name])}</tr>'
            )
    return _table(f"cluster-table-{k}", head, rows, cls="clusters")


def _sig_pairs(k: int, m: dict[str, Any]) -> str:
    head = [
        _th("A", num=False),
        _th("B", num=False),
        _th("Δ (A − B)"),
        _th("p"),
        _th("p (Holm)"),
        _th("significant", num=False),
    ]
    rows = []
    for p in m["pairs"]:
        rows.append(
            f'<tr{_sys_attr(p["a"], p["b"])} class="sig-{"yes" if p["significant"] else "no"}">'
            f'<td class="txt">{esc(p["a"])}</td><td class="txt">{esc(p["b"])}</td>'
            f"{_num_td(p['delta'])}{_p_td(p['p'])}{_p_td(p['p_holm'])}"
            f'<td class="sigcell">{"yes" if p["significant"] else "no"}</td></tr>'
        )
    n_sig = sum(1 for p in m["pairs"] if p["significant"])
    return (
        f'<details class="all-pairs" id="all-pairs-{k}"><summary>All {len(m["pairs"])} pairs '
        f"of {esc(m['metric'])} ({n_sig} significant): difference, p-value, Holm-adjusted "
        f"p-value</summary>{_table(f'sig-table-{k}', head, rows)}"
        + (
            f'<p><code class="sig">{esc(m["test_signature"])}</code></p>'
            if m["test_signature"]
            else ""
        )
        + "</details>"
    )


def _significance(data: dict[str, Any]) -> str:
    """Render the significance section (empty with one system)."""
    if len(data["systems"]) < 2:
        return ""
    out = ['<section id="significance"><h2>Significance</h2>', *_sig_notes(data)]
    if not data["test"].get("skipped"):
        out.append(
            '<p class="note">Clusters, per metric, as WMT ranks systems: a line separates two '
            "clusters when every system above it is significantly better than every system "
            "below it; systems of one cluster are not told apart. A rank range runs from 1 + "
            "the number of systems significantly better to N − the number significantly "
            "worse. The first system of a pair ranks higher.</p>"
        )
        for k, m in enumerate(data["scores"]):
            out.append(f"<h3>{esc(m['metric'])}</h3>")
            out.append(_sig_clusters(k, m))
            out.append(_sig_pairs(k, m))
    out.append("</section>")
    return "\n".join(out)


def _sentence(data: dict[str, Any]) -> str:
    if not data["sentence"]:
        return ""
    options = "".join(
        f'<option value="{i}">{esc(m["metric"])}</option>' for i, m in enumerate(data["sentence"])
    )
    return (
        '<section id="sentence"><h2>Sentence-level scores</h2>'
        f'<label>Metric: <select id="sent-metric">{options}</select></label>'
        '<p class="note">Each segment scored alone with the metric chosen (sentence BLEU with '
        "effective order, as <code>sentence_bleu</code>); sentence TER can exceed 100. "
        "Histograms are drawn by the page's script.</p>"
        '<h3>Distribution per system</h3><div id="dist-charts" class="charts"></div>'
        + (
            '<h3>Differences against the baseline</h3><p class="note" id="diff-caption"></p>'
            '<div id="diff-charts" class="charts"></div>'
            if len(data["systems"]) > 1
            else ""  # one system: nothing to take differences against
        )
        + "</section>"
    )


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
    head = [_th("System", num=False)] + [_th(lab) for lab in labels]
    rows = []
    for n in data["systems"]:
        cells = [f'<td class="txt">{esc(n)}</td>']
        for x in values[n]:
            cells.append(_num_td(x, width, ' class="b"' + _bar(x, scale)))
        rows.append(f'<tr{_sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
    tfoot = ""
    if foot is not None:
        what, counts = foot
        tfoot = (
            f'<tr class="counts"><td class="txt">{esc(what)}</td>'
            + "".join(f'<td data-v="{c}">{c}</td>' for c in counts)
            + "</tr>"
        )
    return _table(table_id, head, rows, foot=tfoot)


def _scale(values: dict[str, list[Any]], fixed: float | None) -> float:
    if fixed is not None:
        return fixed
    return max((x for v in values.values() for x in v if x is not None), default=0.0)


def _buckets(data: dict[str, Any], key: str, title: str, label: str) -> str:
    b = data[key]
    measures = [(k, t) for k, t in _MEASURES if b.get(k)]
    options = "".join(f'<option value="{k}">{esc(t)}</option>' for k, t in measures)
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
    tables = []
    for k, _t in measures:
        width = 3 if k == "length_ratio" else 2
        scale = _scale(b[k], None if k == "length_ratio" else 100.0)
        tables.append(
            f'<div class="{key}-view" data-key="{k}">'
            + _bucket_table(f"{key}-{k}", data, b["labels"], b[k], width, scale, (what, counts))
            + "</div>"
        )
    return (
        f'<section id="{key}"><h2>{esc(title)}</h2><p class="note">{note} '
        f"{esc(label)} across, systems down; the bars draw each number (0-100; the length "
        "ratio against the largest).</p>"
        f'<label>Measure: <select class="pick" data-target=".{key}-view">{options}</select>'
        f"</label>{''.join(tables)}</section>"
    )


def _diff_buckets(data: dict[str, Any]) -> str:
    b = data.get("length_diff_buckets")
    if not b:
        return ""
    measures = [("segments", "segments"), ("bleu", "BLEU of the bucket's segments")]
    measures = [(k, t) for k, t in measures if b.get(k)]
    options = "".join(f'<option value="{k}">{esc(t)}</option>' for k, t in measures)
    tables = []
    for k, _t in measures:
        width = 0 if k == "segments" else 2
        scale = _scale(b[k], None if k == "segments" else 100.0)
        tables.append(
            f'<div class="length_diff_buckets-view" data-key="{k}">'
            + _bucket_table(f"length_diff_buckets-{k}", data, b["labels"], b[k], width, scale, None)
            + "</div>"
        )
    return (
        '<section id="length_diff_buckets"><h2>By length difference</h2><p class="note">'
        "Segments bucketed by the system's length minus the first reference's, in BLEU's "
        "tokens (compare-mt's <code>lengthdiff</code> buckets): how many segments are that much "
        "shorter (negative) or longer, and the BLEU of those segments. The bars draw each "
        "count against the largest, or BLEU 0-100.</p>"
        '<label>Measure: <select class="pick" data-target=".length_diff_buckets-view">'
        f"{options}</select></label>{''.join(tables)}</section>"
    )


def _repeats(seg: dict[str, Any]) -> str:
    """`` (also #12, #40: the same texts)`` for a segment shown once for its copies."""
    n = seg.get("n_repeats", 0)
    if not n:
        return ""
    listed = ", ".join(f"#{i + 1}" for i in seg["repeats"])
    more = f" and {n - len(seg['repeats'])} more" if n > len(seg["repeats"]) else ""
    return f" (also {listed}{more}: the same reference and outputs)"


def _marked(pieces: Sequence[tuple[str, int]]) -> str:
    return " ".join(
        f'<span class="tok m{lv}">{esc(t)}</span>' if lv else esc(t) for t, lv in pieces
    )


def _tokens(tokens: Sequence[str], levels: Sequence[int], limit: int = SHOW_CHARS) -> str:
    """Tokens with their match level; past ``limit`` characters the rest folds away."""
    shown: list[tuple[str, int]] = []
    rest: list[tuple[str, int]] = []
    used = 0
    for t, lv in zip(tokens, levels):
        if used >= limit:
            rest.append((t, lv))
        elif used + len(t) > limit:  # the token that crosses the limit is split there
            shown.append((t[: limit - used], lv))
            rest.append((t[limit - used :], lv))
            used = limit
        else:
            shown.append((t, lv))
            used += len(t) + 1
    if not rest:
        return _marked(shown)
    hidden = sum(len(t) for t, _ in rest) + len(rest) - 1
    return _marked(shown) + " " + _more(_marked(rest), hidden)


def _pairs(data: dict[str, Any]) -> str:
    if not data["pairs"]:
        return ""
    options = "".join(
        f'<option value="{i}">{esc(p["a"])} vs {esc(p["b"])}</option>'
        for i, p in enumerate(data["pairs"])
    )
    blocks = []
    for i, p in enumerate(data["pairs"]):
        a, b = p["a"], p["b"]
        parts = [f'<div class="pair-view" data-key="{i}"{_sys_attr(a, b)}>']
        for side, mine, other in (("ngrams_a", a, b), ("ngrams_b", b, a)):
            head = [
                _th("n-gram", num=False),
                _th("n"),
                _th(f"{mine}"),
                _th(f"{other}"),
                _th("in ref"),
            ]
            rows = [
                f'<tr><td class="txt">{clip_text(g["ngram"], SHOW_NGRAM)}</td>'
                f'<td data-v="{g["n"]}">{g["n"]}</td>'
                f'<td data-v="{g["mine"]}">{g["mine"]}</td>'
                f'<td data-v="{g["other"]}">{g["other"]}</td>'
                f'<td data-v="{g["ref"]}">{g["ref"]}</td></tr>'
                for g in p[side]
            ]
            parts.append(f"<h3>n-grams {esc(mine)} matches more often than {esc(other)}</h3>")
            parts.append(_table(f"ngrams-{i}-{side[-1]}", head, rows))
        parts.append(
            f"<h3>Segments where they differ most (sentence {esc(p['metric'] or '')})</h3>"
        )
        for s in p["segments"]:
            wa = " win" if s["winner"] == a else ""
            wb = " win" if s["winner"] == b else ""
            src = s.get("src")
            parts.append(
                f'<div class="seg" data-index="{s["index"]}">'
                + (
                    f'<div class="src">#{s["index"] + 1} source: {clip_text(src)}</div>'
                    if src is not None
                    else ""
                )
                + f'<div class="ref">#{s["index"] + 1}{_repeats(s)} reference: '
                f"{clip_text(s['ref'])}</div>"
                f'<div class="head{wa}">{esc(a)}: '
                f'<span class="sent-score" data-v="{s["a_score"]!r}">'
                f"{s['a_score']:.2f}</span></div>"
                f'<div class="head{wb}">{esc(b)}: '
                f'<span class="sent-score" data-v="{s["b_score"]!r}">'
                f"{s['b_score']:.2f}</span></div>"
                f'<div class="hyp">{_tokens(s["a_tokens"], s["a_match"])}</div>'
                f'<div class="hyp">{_tokens(s["b_tokens"], s["b_match"])}</div></div>'
            )
        parts.append("</div>")
        blocks.append("".join(parts))
    scope = (
        "every pair of systems"
        if data.get("pair_scope") == "all"
        else f"the pairs of the baseline, {esc(data['baseline'])} (more systems than "
        f"<code>all_pairs_up_to</code>; <code>--baseline NAME</code> computes another's)"
    )
    return (
        '<section id="pairs"><h2>Two systems side by side</h2>'
        f'<p class="note">Computed for {scope}. '
        "n-grams of the first reference ranked by (matches of one + 1) / "
        "(matches of both + 2), as compare-mt does; highlighted tokens belong to an n-gram of "
        f"the reference (darker: longer, up to {data['max_order']}). Word-level analyses use "
        f"the first reference, tokenized as BLEU does ({esc(data['word_tokenizer'])}). "
        f"Texts longer than {SHOW_CHARS} characters are cut; click to see the rest.</p>"
        f'<label>Pair: <select id="pair-pick" class="pick" data-target=".pair-view">{options}'
        f'</select></label><p class="note" id="pair-note"></p>{"".join(blocks)}</section>'
    )


def _flavors(data: dict[str, Any]) -> str:
    if not data["flavors"]:
        return ""
    flavors = data["flavors"]
    # Systems down, flavors across: 12 narrow columns fit the window, 50 systems do not.
    head = [_th("System", num=False)] + [_th(f["name"]) for f in flavors]
    rows = []
    for n in data["systems"]:
        cells = [f'<td class="txt">{esc(n)}</td>']
        for f in flavors:
            err = f["errors"].get(n)
            title = f' title="{esc(err)}"' if err else ""
            cells.append(_num_td(f["scores"][n], 2, title))
        rows.append(f'<tr{_sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
    about_head = [
        _th(x, num=False)
        for x in ("flavor", "original", "tokenization", "case", "reference length", "smoothing")
    ]
    about = [
        "<tr>"
        + "".join(
            f'<td class="txt">{esc(f[k])}</td>'
            for k in ("name", "original", "tokenization", "case", "ref_length", "smoothing")
        )
        + "</tr>"
        for f in flavors
    ]
    explain = []
    for f in flavors:
        if f["explain"]:
            steps = "".join(
                f'<tr><td class="txt">{esc(s["factor"])}</td>'
                f'<td class="txt">{esc(s["change"])}</td>'
                f"{_num_td(s['score'], 4)}</tr>"
                for s in f["explain"]
            )
            explain.append(
                f"<details><summary>{esc(f['name'])}: from SacreBLEU's score to the flavor's "
                f'</summary><div class="tbl"><table><thead><tr><th>factor</th>'
                f'<th class="txt">change</th><th>score</th></tr></thead><tbody>{steps}</tbody>'
                "</table></div></details>"
            )
    base = data["baseline"]
    return (
        '<section id="flavors"><h2>Flavors: the same data under other BLEU implementations</h2>'
        '<p class="note">BLEU (0-100) as each reproduced implementation reports it with its '
        "default options (token-list APIs get whitespace tokens), one row per system; a dash "
        "is a system not scored (<code>flavor_systems</code>, <code>--flavor-systems</code>) "
        "or an input the original fails on (hover for the reason).</p>"
        + _table("flavor-table", head, rows)
        + "<h3>What each flavor does</h3>"
        + _table("flavor-about", about_head, about, cls="")
        + (
            f"<h3>Why they differ (baseline, {esc(base)}, step by step)</h3>" + "".join(explain)
            if explain
            else ""
        )
        + "</section>"
    )
