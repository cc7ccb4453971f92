"""The pieces every section of the report page is built of: escaped text, cells, tables.

Every piece of user text goes through :func:`esc` (element text and attribute values) or
:func:`json_for_script` (the embedded data).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any


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


def sys_attr(*names: str) -> str:
    return f' data-sys="{esc(json.dumps(list(names), ensure_ascii=False))}"'


def num_td(x: float | None, width: int = 2, extra: str = "") -> str:
    if x is None:
        return f'<td data-v=""{extra}>–</td>'
    return f'<td data-v="{x!r}"{extra}>{x:.{width}f}</td>'


def p_td(x: float) -> str:
    return f'<td data-v="{x!r}">{x:.4f}</td>'


def th(label: str, num: bool = True, cls: str = "") -> str:
    cls = cls or ("" if num else "txt")
    c = f' class="{cls}"' if cls else ""
    return f"<th{' data-num' if num else ''}{c}>{esc(label)}</th>"


def table(
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


def more(rest: str, n_chars: int) -> str:
    """Fold the rest of a clipped text away: one click shows it (no script needed)."""
    return f'<details class="more"><summary>… {n_chars:,} more characters</summary>{rest}</details>'


def clip_text(text: str, limit: int = SHOW_CHARS) -> str:
    """Escape ``text``, showing its first ``limit`` characters and the rest behind a click."""
    if len(text) <= limit:
        return esc(text)
    return esc(text[:limit]) + more(esc(text[limit:]), len(text) - limit)
