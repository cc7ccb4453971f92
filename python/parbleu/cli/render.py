"""Rendering results byte for byte as SacreBLEU 2.6's command line prints them.

SacreBLEU formats multi-system tables with ``tabulate`` (``fancy_grid`` for text,
``latex_booktabs`` for LaTeX, ``colalign=("right",)``, ``stralign="center"``,
``numalign="center"``, ``floatfmt=".<width>f"``). parbleu depends on numpy only, so the part of
``tabulate`` that those calls use is reproduced in :mod:`.tabulate`.

Colours follow ``colorama``: SacreBLEU always inserts colour codes unless ``NO_COLOR`` or
``--no-color``, and ``colorama`` strips them again when standard output is not a terminal.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "RESET_ALL",
    "colorama_strip",
    "colorize",
    "format_score_lines",
    "paired_test_notes",
    "results_json",
    "results_lines",
    "results_table",
    "signature_lines",
    "single_results",
]

_FORE = {
    "red": "\x1b[31m",
    "green": "\x1b[32m",
    "yellow": "\x1b[33m",
    "cyan": "\x1b[36m",
}
#: ``colorama.Style.RESET_ALL``; also written once at exit to a terminal (colorama's atexit).
RESET_ALL = "\x1b[0m"

# colorama's AnsiToWin32.ANSI_CSI_RE / ANSI_OSC_RE: what it strips from a non-terminal stream.
_COLORAMA_CSI = re.compile("\001?\033\\[((?:\\d|;)*)([a-zA-Z])\002?")
_COLORAMA_OSC = re.compile("\001?\033\\]([^\a]*)(\a)\002?")

_CONFIDENCE = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")


# --- colours --------------------------------------------------------------------------------
def colorize(msg: str, color: str, enabled: bool) -> str:
    """Wrap ``msg`` in a colour code as SacreBLEU's ``Color.format``.

    Parameters
    ----------
    msg
        Text.
    color
        ``red``, ``green``, ``yellow`` or ``cyan``.
    enabled
        Whether colours are on (``NO_COLOR`` and ``--no-color`` turn them off).

    Returns
    -------
    str
        The coloured (or unchanged) text.
    """
    if not enabled:
        return msg
    return f"{_FORE[color]}{msg}{RESET_ALL}"


def colorama_strip(text: str) -> str:
    """Remove what ``colorama`` removes from text written to a non-terminal stream.

    Parameters
    ----------
    text
        Text about to be written.

    Returns
    -------
    str
        The text without ANSI CSI and OSC sequences.
    """
    if "\033" not in text:
        return text
    return _COLORAMA_CSI.sub("", _COLORAMA_OSC.sub("", text))


# --- single system --------------------------------------------------------------------------
def single_results(results: list[str], fmt: str, colors: bool) -> list[str]:
    """Lines SacreBLEU's ``print_single_results`` prints for one system.

    Parameters
    ----------
    results
        One ``Score.format(...)`` string per metric, in metric order.
    fmt
        ``json``, ``text`` or ``latex`` (``latex`` prints as ``text``).
    colors
        Whether colours are on.

    Returns
    -------
    list of str
        The lines to print (without newlines; a JSON object spans several).
    """
    if fmt == "json":
        if len(results) > 1:
            return ["[\n" + ",\n".join(results) + "\n]"]
        return [results[0]]

    results = list(results)
    if "μ" in results[0]:
        for idx in range(len(results)):
            results[idx] = _CONFIDENCE.sub(
                lambda m: colorize(m.group(), "cyan", colors), results[idx]
            )

    if len(results) == 1:
        return [results[0]]

    # Align on the first "=" (the one after the signature); score-only lines have none and are
    # printed first, as they come.
    out: list[str] = []
    lens: list[int] = []
    for line in results:
        pos = line.find("=")
        if pos < 0:
            out.append(line)
        else:
            lens.append(pos - 1)
    if lens:
        w = max(lens)
        for n, line in zip(lens, results):
            left, right = line[:n], line[n:]
            out.append(f"{left:>{w}}{right}")
    return out


# --- multiple systems -----------------------------------------------------------------------
def format_score_lines(
    scores: dict[str, list[Any]], width: int, multiline: bool, colors: bool
) -> dict[str, list[str]]:
    """Turn paired-test results into cell strings, as SacreBLEU's ``_format_score_lines``.

    Parameters
    ----------
    scores
        ``{"System": names, metric name: [str or result, ...], ...}``; a result has ``score``,
        ``mean``, ``ci`` and ``p_value`` attributes (``None`` when absent).
    width
        Decimal places.
    multiline
        Put the p-value on its own line (text tables) instead of after a space.
    colors
        Whether colours are on.

    Returns
    -------
    dict
        The same columns, every cell a string; headers gain `` (μ ± 95% CI)`` for bootstrap.
    """
    new_scores: dict[str, list[str]] = {"System": list(scores["System"])}
    brk = "\n" if multiline else " "
    is_bootstrap = False
    for metric, vals in scores.items():
        if metric == "System":
            continue
        cells: list[str] = []
        for result in vals:
            if isinstance(result, str):
                cells.append(result)
                continue
            cell = f"{result.score:.{width}f}"
            if result.mean is not None:
                is_bootstrap = True
                cell += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
            if result.p_value is not None:
                p = f"(p = {result.p_value:.4f})"
                cell += brk + (colorize(p, "red", colors) if result.p_value > 0.05 else p + "*")
            cells.append(cell)
        if is_bootstrap:
            metric += " (μ ± 95% CI)"
        new_scores[metric] = cells
    return new_scores


def results_json(scores: dict[str, list[Any]]) -> str:
    """Render several systems as SacreBLEU's JSON (a list of per-system objects).

    Parameters
    ----------
    scores
        ``{"System": names, metric name: [cell, ...], ...}``; a non-string cell is written as
        its attribute dictionary.

    Returns
    -------
    str
        ``json.dumps(..., indent=4)`` (ASCII-escaped, as SacreBLEU).
    """
    keys = list(scores)
    rows = []
    for i, name in enumerate(scores["System"]):
        row: dict[str, Any] = {"system": name}
        for key in keys[1:]:
            cell = scores[key][i]
            row[key] = cell if isinstance(cell, str) else _json_fields(cell)
        rows.append(row)
    import json  # only for several systems' JSON (a plain score needs none)

    return json.dumps(rows, indent=4)


def _json_fields(result: Any) -> dict[str, Any]:
    # A result's attributes; numpy scalars become Python floats (SacreBLEU 2.6 crashes on its
    # own float32 values here).
    return {
        k: float(v) if hasattr(v, "__float__") and not isinstance(v, (bool, int, float)) else v
        for k, v in vars(result).items()
    }


def results_table(scores: dict[str, list[Any]], fmt: str, width: int, colors: bool) -> str:
    """Render several systems as SacreBLEU's text or LaTeX table.

    Parameters
    ----------
    scores
        ``{"System": names, metric name: [cell, ...], ...}`` (cells: strings or paired-test
        results).
    fmt
        ``text`` (``fancy_grid``) or ``latex`` (``latex_booktabs``).
    width
        Decimal places.
    colors
        Whether colours are on.

    Returns
    -------
    str
        The table, without a final newline.
    """
    tablefmt = "fancy_grid" if fmt == "text" else "latex_booktabs"
    cells = format_score_lines(scores, width, tablefmt == "fancy_grid", colors)
    columns: dict[str, list[str]] = {}
    has_baseline = False
    for name, vals in cells.items():
        if vals and (vals[0].startswith("Baseline:") or has_baseline):
            has_baseline = True
            vals[0] = colorize(vals[0], "yellow", colors)
        columns[colorize(name, "cyan", colors)] = vals
    from .tabulate import tabulate  # only for several systems' table

    return tabulate(columns, tablefmt, f".{width}f")


def paired_test_notes(
    paired_bs: bool, n_samples: int, baseline_name: str, colors: bool
) -> list[str]:
    """Return the explanation SacreBLEU prints under a paired-test table.

    Parameters
    ----------
    paired_bs
        Bootstrap resampling (else approximate randomization).
    n_samples
        Resamples or trials, as given on the command line.
    baseline_name
        The baseline's row label (``Baseline: <name>``).
    colors
        Whether colours are on.

    Returns
    -------
    list of str
        The lines (some empty).
    """
    test_type = "bootstrap resampling" if paired_bs else "approximate randomization"
    sample_type = "resampling trials" if paired_bs else "trials"
    msg = f"Paired {test_type} test with {n_samples} {sample_type}"
    bline = colorize("baseline", "yellow", colors)
    bline_name = colorize(baseline_name, "yellow", colors)
    null_hyp = colorize("Null hypothesis", "green", colors)
    pval_color = colorize("highlighted in red", "red", colors)
    lines = ["-" * len(msg), msg, "-" * len(msg)]
    lines.append(f" - Each system is pairwise compared to {bline_name}.")
    if paired_bs:
        lines.append(
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
            "each metric."
        )
    else:
        lines.append("   Actual system score is provided for each metric.")
    lines += [
        "",
        f" - {null_hyp}: the system and the {bline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the "
        f"{null_hyp.lower()} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        f'   to chance, hence the system is significantly "different" than the {bline}.',
        f"   Otherwise, the p-values are {pval_color}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {bline} '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return lines


def signature_lines(signatures: dict[str, str]) -> list[str]:
    """Return the ``Metric signatures`` block under a multi-system table.

    Parameters
    ----------
    signatures
        ``{score name: rendered signature}``.

    Returns
    -------
    list of str
        The lines.
    """
    lines = ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {sig}" for name, sig in signatures.items()]
    return lines


def results_lines(
    scores: dict[str, list[Any]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
    colors: bool,
    paired: tuple[bool, int] | None = None,
) -> list[str]:
    """Render several systems as SacreBLEU's ``print_results_table``.

    Parameters
    ----------
    scores
        ``{"System": row labels, score name: [cell, ...], ...}``; cells are score strings, or
        paired-test results (``score``, ``mean``, ``ci``, ``p_value`` attributes).
    signatures
        ``{score name: rendered signature}``.
    fmt
        ``json``, ``text`` or ``latex``.
    width
        Decimal places.
    colors
        Whether colours are on.
    paired
        ``(bootstrap?, resamples or trials)`` for a paired test, else ``None``.

    Returns
    -------
    list of str
        The lines to print (the JSON document is one item).
    """
    if fmt == "json":
        return [results_json(scores)]
    lines = [results_table(scores, fmt, width, colors), ""]
    if paired is not None:
        labels = scores["System"]
        baseline = next((x for x in labels[:1] if x.startswith("Baseline:")), "")
        lines += paired_test_notes(paired[0], paired[1], baseline, colors)
    return lines + signature_lines(signatures)
