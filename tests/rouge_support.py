"""Summary-like test data for ROUGE's surfaces, made from the WMT21 text in tests/data.

A "summary" is a run of consecutive lines joined by newlines (rougeLsum's sentences): the
hypotheses are a system's output, the references the official references of the same lines.
"""

from __future__ import annotations

from helpers import read_lines

WMT = "data/wmt21"

#: (language pair, system, reference ids): English, then scripts rouge-score drops.
SETS = {
    "en": ("de-en", "Online-W", "AB"),
    "cs": ("en-cs", "Online-W", "AB"),
    "ru": ("en-ru", "Online-W", "AB"),
    "zh": ("en-zh", "Online-W", "AB"),
}


def summaries(lang: str = "en", n: int = 100, per: int = 3) -> tuple[list[str], list[list[str]]]:
    """``n`` hypothesis summaries of ``per`` sentences and, per summary, its references.

    Returns
    -------
    tuple
        ``(predictions, references)``: ``references[i]`` lists the reference summaries of
        ``predictions[i]`` (the hub modules' and torchmetrics' layout).
    """
    pair, system, ids = SETS[lang]
    trg = pair.split("-")[1]
    hyp = read_lines(f"{WMT}/system-outputs/newstest2021.{pair}.hyp.{system}.{trg}")
    refs = [read_lines(f"{WMT}/references/newstest2021.{pair}.ref.{x}.{trg}") for x in ids]

    def group(lines: tuple[str, ...], i: int) -> str:
        return "\n".join(lines[i * per : (i + 1) * per])

    preds = [group(hyp, i) for i in range(n)]
    return preds, [[group(r, i) for r in refs] for i in range(n)]


def streams(references: list[list[str]]) -> list[list[str]]:
    """References per prediction -> SacreBLEU's reference streams (equal counts)."""
    return [list(s) for s in zip(*references)]
