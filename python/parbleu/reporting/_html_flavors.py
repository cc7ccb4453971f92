"""The flavors section of the report page: scores, what each flavor does, why they differ."""

from __future__ import annotations

from typing import Any

from ._markup import esc, num_td, sys_attr, table, th


def flavor_section(data: dict[str, Any]) -> str:
    if not data["flavors"]:
        return ""
    flavors = data["flavors"]
    # Systems down, flavors across: 12 narrow columns fit the window, 50 systems do not.
    head = [th("System", num=False)] + [th(f["name"]) for f in flavors]
    rows = []
    for n in data["systems"]:
        cells = [f'<td class="txt">{esc(n)}</td>']
        for f in flavors:
            err = f["errors"].get(n)
            title = f' title="{esc(err)}"' if err else ""
            cells.append(num_td(f["scores"][n], 2, title))
        rows.append(f'<tr{sys_attr(n)} data-name="{esc(n)}">{"".join(cells)}</tr>')
    about_head = [
        th(x, num=False)
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
                f"{num_td(s['score'], 4)}</tr>"
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
        + table("flavor-table", head, rows)
        + "<h3>What each flavor does</h3>"
        + table("flavor-about", about_head, about, cls="")
        + (
            f"<h3>Why they differ (baseline, {esc(base)}, step by step)</h3>" + "".join(explain)
            if explain
            else ""
        )
        + "</section>"
    )
