"""The page's section "Agreement with human judgements" (only with human scores)."""

from __future__ import annotations

from typing import Any

from .._text import plural
from ._markup import esc, num_td, table, th

__all__ = ["AGREEMENT_COLUMNS", "agreement_section"]

#: ``(level, key, header)`` of the agreement table, system level then segment level.
AGREEMENT_COLUMNS = (
    ("sys", "pearson", "sys Pearson"),
    ("sys", "spearman", "sys Spearman"),
    ("sys", "kendall_b", "sys Kendall τb"),
    ("sys", "accuracy", "sys pairwise accuracy"),
    ("seg", "pearson", "seg Pearson"),
    ("seg", "kendall_b_none", "seg τb (no grouping)"),
    ("seg", "kendall_b_item", "seg τb (item)"),
    ("seg", "kendall_b_sys", "seg τb (system)"),
    ("seg", "acc23_item", "seg acc23 (item)"),
    ("seg", "acc23_epsilon", "acc23 ε"),
)


def agreement_columns(agr: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Return the columns the section has (a level without human scores has none)."""
    cols = [c for c in AGREEMENT_COLUMNS if c[0] in agr]
    if agr["k"] > 0:
        cols += [(level, "rank", f"{level} rank") for level in ("sys", "seg") if level in agr]
    return cols


def agreement_section(data: dict[str, Any]) -> str:
    """Render ``data["agreement"]``: one row per metric, system and segment level side by side."""
    agr = data["agreement"]
    cols = agreement_columns(agr)
    head = [th("Metric", num=False)] + [th(label) for _, _, label in cols]
    rows = []
    for m in agr["metrics"]:
        cells = [f'<td class="txt">{esc(m)}</td>']
        for level, key, _ in cols:
            if key == "rank":
                cells.append(f'<td data-v="{agr[level]["ranks"][m]}">{agr[level]["ranks"][m]}</td>')
            else:
                cells.append(num_td(agr[level]["metrics"][m][key], 4))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    notes = [
        f"{plural(len(agr['systems']), 'system')} with human scores: "
        f"{esc(', '.join(agr['systems']))}."
    ]
    if agr["left_out"]["report"]:
        notes.append(
            f"Without human scores, left out here: {esc(', '.join(agr['left_out']['report']))}."
        )
    if agr["left_out"]["human"]:
        notes.append(
            "Human scores of systems not in this report, left out: "
            f"{esc(', '.join(agr['left_out']['human']))}."
        )
    if agr["oriented"]:
        notes.append(
            f"Negated so that higher is better, as MTME expects: {esc(', '.join(agr['oriented']))}."
        )
    ranks = (
        f" Ranks: PERM-BOTH clusters ({agr['k']} draws per pair, seed {agr['seed']})."
        if agr["k"] > 0
        else ""
    )
    return (
        '<section id="agreement"><h2>Agreement with human judgements</h2>'
        '<p class="note">How well each metric agrees with the human scores, with MTME\'s '
        "statistics (the numbers of <code>parbleu meta</code> on the same scores). System "
        "level: the metric's corpus score of each system against its human score (Pearson, "
        "Spearman, Kendall τb; pairwise accuracy: the share of system pairs both order alike). "
        "Segment level: sentence scores against segment judgements, Kendall τb over all "
        "segments (no grouping), within each segment across systems (item) and within each "
        "system (system), and tie-calibrated pairwise accuracy (acc23, Deutsch et al. 2023) "
        f"with its optimised tie threshold ε.{ranks}</p>"
        + table("agreement-table", head, rows)
        + f'<p class="note" id="agreement-note">{" ".join(notes)}</p></section>'
    )
