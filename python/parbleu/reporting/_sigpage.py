"""The page's significance section: which test ran, clusters per metric, all pairs on demand.

Per metric, a WMT-style table of clusters (systems not significantly different share a
cluster; each system has its rank range), then the flat list of every pair behind a collapsed
``<details>`` (it runs to screens at 16 systems). Rendered as HTML (readable without the
script); :mod:`._html` places it.
"""

from __future__ import annotations

from typing import Any

from ._html import _num_td, _p_td, _sys_attr, _table, _th, esc

#: Styles of this section (appended to the page's stylesheet).
CSS = """
tr.cluster-first td{border-top:2px solid var(--fg)}
table.clusters td.rank{font-weight:600}
.warn{color:var(--bad);font-weight:600}
details.all-pairs>summary{cursor:pointer;color:var(--acc)}
"""


def _test_notes(data: dict[str, Any]) -> list[str]:
    """Return the paragraphs on which test ran, with how many resamples, and the warnings."""
    test = data["test"]
    out = []
    for note in test.get("notes", []):
        out.append(f'<p class="note warn">{esc(note)}.</p>')
    if test.get("skipped"):
        return out
    out.append(f'<p class="note" id="sig-test">{esc(test.get("description", ""))}</p>')
    seed = f"seed {esc(test['seed'])}"
    out.append(
        f'<p class="note" id="sig-count">{esc(test.get("n_why", ""))} {seed}. A pair is '
        f"significant when its Holm-adjusted p-value is at most {test['alpha']:g}.</p>"
    )
    return out


def _cluster_table(k: int, m: dict[str, Any]) -> str:
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


def _pairs_table(k: int, m: dict[str, Any]) -> str:
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


def section(data: dict[str, Any]) -> str:
    """Render the significance section (empty with one system)."""
    if len(data["systems"]) < 2:
        return ""
    out = ['<section id="significance"><h2>Significance</h2>', *_test_notes(data)]
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
            out.append(_cluster_table(k, m))
            out.append(_pairs_table(k, m))
    out.append("</section>")
    return "\n".join(out)
