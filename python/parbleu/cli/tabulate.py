"""A subset of tabulate 0.9's ``tabulate``: the tables SacreBLEU prints, byte for byte.

SacreBLEU renders its multi-system tables with ``tabulate`` (0.9/0.10, without the optional
``wcwidth``: a character is one column); parbleu depends on numpy only, so the part those calls
use is reproduced here for string cells: its column-type detection (a column whose cells all
parse as numbers is re-formatted with ``floatfmt``), ANSI-aware widths, multi-line cells,
centring (extra space on the right) and LaTeX escaping (``fancy_grid``, ``latex_booktabs``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Callable

__all__ = ["tabulate"]

# tabulate's _ansi_codes: what it does not count in widths.
_ESC = r"\x1b"
_TAB_ANSI = re.compile(
    rf"""
    (
        {_ESC}\[ [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]
    |
        {_ESC}\]8; (\w+=\w+:?)* ; ([^{_ESC}]+) {_ESC}\\ ([^{_ESC}]+) {_ESC}\]8;;{_ESC}\\
    )
    """,
    re.VERBOSE,
)
_TAB_MULTILINE = re.compile(r"\r|\n|\r\n")
_TAB_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")
_TAB_COLORED_INT = re.compile(r"(\\[xX]+[0-9a-fA-F]+\[\d+[mM]+)([0-9.]+)(\\.*)$")
_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}
_MIN_PADDING = 2
_NONE = type(None)
_GENERALITY: dict[type, int] = {_NONE: 0, bool: 1, int: 2, float: 3, bytes: 4, str: 5}


def _strip_ansi(s: str) -> str:
    return _TAB_ANSI.sub(r"\4", s)


def _visible_width(s: str) -> int:
    return len(_strip_ansi(s))


def _convertible(conv: Callable[[str], Any], s: str) -> bool:
    try:
        conv(s)
    except (ValueError, TypeError):
        return False
    return True


def _isnumber(s: str) -> bool:
    if not _convertible(float, s):
        return False
    f = float(s)
    return not (f != f or f in (float("inf"), float("-inf"))) or s.lower() in (
        "inf",
        "-inf",
        "nan",
    )


def _cell_type(s: str) -> type:
    # tabulate's _type for a string cell (ANSI codes ignored, numbers parsed).
    s = _strip_ansi(s)
    if not s:
        return _NONE
    if s in ("True", "False"):
        return bool
    if _convertible(int, s) or (_TAB_THOUSANDS.match(s) and "." not in s):
        return int
    if _isnumber(s) or _TAB_THOUSANDS.match(s):
        return float
    return str


def _column_type(cells: Sequence[str]) -> type:
    # tabulate's _column_type: the most generic cell type, starting from bool.
    result: type = bool
    for c in cells:
        t = _cell_type(c)
        if _GENERALITY.get(t, 5) > _GENERALITY.get(result, 5):
            result = t
    return result


def _format_cell(val: str, valtype: type, floatfmt: str, has_invisible: bool) -> str:
    # tabulate's _format for a string cell.
    if not val:
        return ""
    if valtype is int:
        escaped = val.encode("unicode_escape").decode("utf-8")
        colored = _TAB_COLORED_INT.search(escaped)
        if colored and colored.group(2).isdigit():
            val = (
                (colored.group(1) + format(int(colored.group(2)), "") + colored.group(3))
                .encode("utf-8")
                .decode("unicode_escape")
            )
        return val
    if valtype is float:
        if has_invisible:
            raw = _strip_ansi(val)
            try:
                formatted = format(float(raw), floatfmt)
            except (ValueError, TypeError):
                return val
            return val.replace(raw, formatted)
        if "," in val:
            val = val.replace(",", "")
        try:
            return format(float(val), floatfmt)
        except (ValueError, TypeError):
            return val
    return val


def _pad(align: str, width: int, s: str) -> str:
    if align == "right":
        return f"{s:>{width}}"
    if align == "center":
        return f"{s:^{width}}"
    return f"{s:<{width}}"


def _align_column(
    strings: list[str], align: str, minwidth: int, has_invisible: bool, is_multiline: bool
) -> list[str]:
    strings = [s.strip() for s in strings]
    line_width = _visible_width if has_invisible else len
    if is_multiline:
        widths = [[line_width(x) for x in re.split("[\r\n]", s)] for s in strings]
        maxwidth = max(max(w for ws in widths for w in ws), minwidth)
        if not has_invisible:
            return ["\n".join(_pad(align, maxwidth, x) for x in s.splitlines()) for s in strings]
        out = []
        for s, ws in zip(strings, widths):
            lens = [len(x) for x in re.split("[\r\n]", s)]
            vis = [maxwidth - (w - n) for w, n in zip(ws, lens)]
            parts: Sequence[str] = s.splitlines() or s
            out.append("\n".join(_pad(align, w, x) for x, w in zip(parts, vis)))
        return out
    single = [line_width(s) for s in strings]
    maxwidth = max(max(single), minwidth)
    if not has_invisible:
        return [_pad(align, maxwidth, s) for s in strings]
    return [_pad(align, maxwidth - (w - len(s)), s) for s, w in zip(strings, single)]


def _align_header(
    header: str,
    align: str,
    width: int,
    is_multiline: bool,
    width_fn: Callable[[str], int],
) -> str:
    if is_multiline:
        return "\n".join(
            _align_header(h, align, width, False, width_fn) for h in _TAB_MULTILINE.split(header)
        )
    return _pad(align, width + len(header) - width_fn(header), header)


def _latex_row(cells: list[str]) -> str:
    escaped = ["".join(_LATEX_ESCAPES.get(c, c) for c in cell) for cell in cells]
    return ("&".join(escaped) + "\\\\").rstrip()


def _grid_line(widths: list[int], begin: str, fill: str, sep: str, end: str) -> str:
    return (begin + sep.join(fill * w for w in widths) + end).rstrip()


def _grid_rows(cells: list[str], widths: list[int], multiline: bool) -> list[str]:
    # One table row (several text lines for multi-line cells), fancy_grid's "│" separators.
    if not multiline:
        return [("│" + "│".join(f" {c} " for c in cells) + "│").rstrip()]
    cell_lines = [c.splitlines() for c in cells]
    nlines = max(len(x) for x in cell_lines)
    padded = [x + [" " * (w - 2)] * (nlines - len(x)) for x, w in zip(cell_lines, widths)]
    return [("│" + "│".join(f" {col[i]} " for col in padded) + "│").rstrip() for i in range(nlines)]


def tabulate(columns: dict[str, list[str]], tablefmt: str, floatfmt: str) -> str:
    """Render columns as ``tabulate(columns, headers="keys", ...)`` does in SacreBLEU.

    Parameters
    ----------
    columns
        ``{header: cells}``, all strings, every column as long as the first; the first column
        is right-aligned, the others centred.
    tablefmt
        ``fancy_grid`` or ``latex_booktabs``.
    floatfmt
        Format of cells in all-numeric columns (``.1f`` for ``-w 1``).

    Returns
    -------
    str
        The table without a final newline.
    """
    headers = list(columns)
    cols = [list(v) for v in columns.values()]
    plain = "\t".join(headers + [c for col in cols for c in col])
    has_invisible = _TAB_ANSI.search(plain) is not None
    is_multiline = tablefmt == "fancy_grid" and _TAB_MULTILINE.search(plain) is not None
    line_width = _visible_width if has_invisible else len

    def width_fn(s: str) -> int:
        if is_multiline:
            return max(line_width(x) for x in re.split("[\r\n]", s))
        return line_width(s)

    coltypes = [_column_type(col) for col in cols]
    cols = [
        [_format_cell(v, t, floatfmt, has_invisible) for v in col] for col, t in zip(cols, coltypes)
    ]
    aligns = ["right"] + ["center"] * (len(cols) - 1)
    minwidths = [width_fn(h) + _MIN_PADDING for h in headers]
    cols = [
        _align_column(col, a, mw, has_invisible, is_multiline)
        for col, a, mw in zip(cols, aligns, minwidths)
    ]
    widths = [max(mw, max(width_fn(c) for c in col)) for mw, col in zip(minwidths, cols)]
    headers = [
        _align_header(h, a, w, is_multiline, width_fn) for h, a, w in zip(headers, aligns, widths)
    ]
    rows = [list(r) for r in zip(*cols)]
    padded_widths = [w + 2 for w in widths]

    lines: list[str] = []
    if tablefmt == "latex_booktabs":
        spec = "".join("r" if a == "right" else "c" for a in aligns)
        lines.append("\\begin{tabular}{" + spec + "}\n\\toprule")
        lines.append(_latex_row([f" {h} " for h in headers]))
        lines.append("\\midrule")
        lines += [_latex_row([f" {c} " for c in row]) for row in rows]
        lines.append("\\bottomrule\n\\end{tabular}")
        return "\n".join(lines)

    lines.append(_grid_line(padded_widths, "╒", "═", "╤", "╕"))
    lines += _grid_rows(headers, padded_widths, is_multiline)
    lines.append(_grid_line(padded_widths, "╞", "═", "╪", "╡"))
    for i, row in enumerate(rows):
        if i:
            lines.append(_grid_line(padded_widths, "├", "─", "┼", "┤"))
        lines += _grid_rows(row, padded_widths, is_multiline)
    lines.append(_grid_line(padded_widths, "╘", "═", "╧", "╛"))
    return "\n".join(lines)
