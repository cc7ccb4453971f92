"""Render a report's data as one self-contained HTML page.

Every table is rendered here (the page reads without JavaScript); the inline script
(:mod:`._assets`) adds sorting, the choice of systems and baseline, and the histograms, from
the same data embedded as JSON. Every piece of user text goes through :func:`esc` (element
text and attribute values) or :func:`json_for_script` (the embedded data), so a system output
containing ``<script>`` shows as text.

The cells and tables are :mod:`._markup`'s; the bucket, side-by-side and flavors sections are
in :mod:`._html_buckets`, :mod:`._html_pairs` and :mod:`._html_flavors`.
"""

from __future__ import annotations

from typing import Any

from .._text import plural
from .._version import __version__
from ._assets import CSS, JS, ranged_js
from ._html_agreement import agreement_section
from ._html_buckets import bucket_section, diff_bucket_section
from ._html_flavors import flavor_section
from ._html_pairs import pair_section
from ._markup import SHOW_CHARS, esc, json_for_script, num_td, p_td, sys_attr, table, th

# ``SHOW_CHARS``, ``esc`` and ``json_for_script`` are also read from here (tests/report).
__all__ = ["SHOW_CHARS", "esc", "json_for_script", "render"]

#: The page may load nothing: no network, no other file (scripts and styles are inline).
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


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
        # Only with human scores: a page without them keeps its bytes.
        *([agreement_section(data)] if "agreement" in data else []),
        _sentence(data),
        bucket_section(data, "length_buckets", "By reference length", "Reference length (tokens)"),
        bucket_section(data, "freq_buckets", "By word frequency", "Word frequency"),
        diff_bucket_section(data),
        pair_section(data),
        flavor_section(data),
        '<script type="application/json" id="parbleu-data">',
        json_for_script(data),
        "</script>",
        f"<script>{_script(data)}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _script(data: dict[str, Any]) -> str:
    """Return the page's script: histograms over a metric's own range where one has it."""
    return ranged_js() if any("range" in m for m in data["sentence"]) else JS


def baseline_rule(data: dict[str, Any]) -> str:
    """Which rule chose the baseline, as the page says it (plain text)."""
    rule = data.get("baseline_rule") or {"rule": "given"}
    base = data["baseline"]
    if len(data["systems"]) < 2:
        return ""
    if rule["rule"] == "best":
        return (
            f"Baseline: {base}, the best system by {rule['metric']} (the default; "
            "--baseline / baseline= chooses another)."
        )
    return f"Baseline: {base}, chosen with --baseline / baseline=."


def _meta(data: dict[str, Any], files: dict[str, str] | None) -> str:
    refs = plural(data["n_references"], "reference stream")
    out = [
        f'<p class="meta">{plural(data["n_segments"], "segment")}, {refs}, '
        f"{plural(len(data['systems']), 'system')}; made by parbleu {esc(__version__)}.</p>"
    ]
    rule = baseline_rule(data)
    if rule:
        out.append(f'<p class="meta" id="baseline-rule">{esc(rule)}</p>')
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
    head = [th("System", num=False)]
    for m in data["scores"]:
        head.append(th(m["metric"]))
        head.append(th(f"{m['metric']} CI low"))
        head.append(th(f"{m['metric']} CI high"))
    ratio = next((m["length_ratio"] for m in data["scores"] if m.get("length_ratio")), None)
    if ratio is not None:
        head.append(th("length ratio"))
    rows = []
    for n in score_order(data):
        cells = [f'<td class="txt">{esc(n)}</td>']
        for m in data["scores"]:
            ci = m["ci"].get(n)
            cells.append(num_td(m["scores"][n], extra=' class="score"'))
            cells.append(num_td(ci["low"] if ci else None))
            cells.append(num_td(ci["high"] if ci else None))
        if ratio is not None:
            cells.append(num_td(ratio[n], 3, ' class="ratio"'))
        rows.append(f'<tr{sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
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
            f"Confidence intervals: {conf:g}% bootstrap intervals, "
            f"{esc(plural(test['n'], 'resample'))}, "
            f"seed {esc(test['seed'])} (parbleu's exact path)."
        )
    else:
        ci_note = "No confidence intervals: approximate randomization gives none."
    toggle = ""
    if len(data["systems"]) > 1:
        by_score = data.get("order", "score") == "score"
        label = "show in file order" if by_score else "show best first"
        what = f"Best first by {data['scores'][0]['metric']}." if by_score else "In file order."
        toggle = (
            f'<p class="note" id="order-note"><span id="order-what">{esc(what)}</span>'
            f'<button type="button" class="toggle" id="order-toggle">{label}</button></p>'
        )
    return (
        '<section id="scores"><h2>Scores</h2>'
        + toggle
        + table("score-table", head, rows)
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


def score_order(data: dict[str, Any]) -> list[str]:
    """Return the systems in the score table's order: best first (default) or as given."""
    if data.get("order", "score") == "score" and data.get("by_score"):
        return list(data["by_score"])
    return list(data["systems"])


def _sig_clusters(k: int, m: dict[str, Any]) -> str:
    head = [
        th("cluster", num=False),
        th("rank range", num=False),
        th("System", num=False),
        th(m["metric"]),
    ]
    rows = []
    for c in m["clusters"]:
        for j, name in enumerate(c["systems"]):
            lo, hi = c["ranks"][name]
            first = ' class="cluster-first"' if j == 0 and c["rank"] > 1 else ""
            rows.append(
                f"<tr{sys_attr(name)}{first}>"
                f'<td class="rank">{c["rank"] if j == 0 else ""}</td>'
                f'<td class="txt">{lo if lo == hi else f"{lo}–{hi}"}</td>'
                f'<td class="txt">{esc(name)}</td>{num_td(m["scores"][name])}</tr>'
            )
    return table(f"cluster-table-{k}", head, rows, cls="clusters")


def _sig_pairs(k: int, m: dict[str, Any]) -> str:
    head = [
        th("A", num=False),
        th("B", num=False),
        th("Δ (A − B)"),
        th("p"),
        th("p (Holm)"),
        th("significant", num=False),
    ]
    rows = []
    for p in m["pairs"]:
        rows.append(
            f'<tr{sys_attr(p["a"], p["b"])} class="sig-{"yes" if p["significant"] else "no"}">'
            f'<td class="txt">{esc(p["a"])}</td><td class="txt">{esc(p["b"])}</td>'
            f"{num_td(p['delta'])}{p_td(p['p'])}{p_td(p['p_holm'])}"
            f'<td class="sigcell">{"yes" if p["significant"] else "no"}</td></tr>'
        )
    n_sig = sum(1 for p in m["pairs"] if p["significant"])
    return (
        f'<details class="all-pairs" id="all-pairs-{k}"><summary>'
        + ("The pair" if len(m["pairs"]) == 1 else f"All {len(m['pairs'])} pairs")
        + f" of {esc(m['metric'])} ({n_sig} significant): difference, p-value, Holm-adjusted "
        f"p-value</summary>{table(f'sig-table-{k}', head, rows)}"
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
