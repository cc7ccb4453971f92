"""Plain-text lines scored as mteval scores a one-document SGML/XML file; the report's fast path."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ... import _core
from ...errors import InvalidOptionError
from .scoring import MAX_N, MtevalResult, _bleu, _Scorer, evaluate

# --- plain text -------------------------------------------------------------------------------


def _escape(line: str) -> str:
    return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_SGML_SPACE = re.compile(
    "[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
)


def _wrap(
    lines: Sequence[str], input_format: str, docsize: int | None
) -> dict[str, dict[str, str]]:
    if docsize is None:
        chunks = [("doc1", list(lines))]
    else:
        chunks = [
            (f"doc{k // docsize + 1:03d}", list(lines[k : k + docsize]))
            for k in range(0, len(lines), docsize)
        ]
    docs: dict[str, dict[str, str]] = {}
    for docid, seg_lines in chunks:
        segs: dict[str, str] = {}
        for i, line in enumerate(seg_lines):
            if input_format == "sgm":
                segs[str(i + 1)] = _SGML_SPACE.sub(" ", _escape(line))
            else:
                segs[str(i + 1)] = line
        docs[docid] = segs
    return docs


def score_lines(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    version: str = "v13a",
    case_sensitive: bool = False,
    international: bool = False,
    brevity_penalty: str = "closest",
    smoothing: bool = True,
    method: str = "both",
    input_format: str = "sgm",
    docsize: int | None = None,
    system: str = "system",
    orders: int = MAX_N,
) -> MtevalResult:
    """Mteval on plain-text lines, wrapped as WMT's SGML (or XML) files.

    Each line is XML-escaped (``&``, ``<``, ``>``) into a ``<seg>`` of one document (``doc1``),
    or of documents of ``docsize`` segments (``doc001``, ``doc002``, ...). ``orders`` as in
    :func:`evaluate`.
    """
    if input_format not in ("sgm", "xml"):
        raise InvalidOptionError(f"input_format={input_format!r}: expected 'sgm' or 'xml'")
    test = {system: _wrap(hypotheses, input_format, docsize)}
    refs = {f"ref{k}": _wrap(r, input_format, docsize) for k, r in enumerate(references)}
    return evaluate(
        test,
        refs,
        version,
        case_sensitive,
        international,
        brevity_penalty,
        smoothing,
        method,
        source=test[system],
        orders=orders,
    )[system]


# The report's flavors table scores many systems against one reference set: their tokens are
# kept for the next call (one set: the last one asked for).
_REF_CACHE: list[tuple[tuple[str, tuple[tuple[str, ...], ...]], list[list[list[str]]]]] = []


def system_bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], version: str = "v13a"
) -> float:
    """Return the system BLEU of :func:`score_lines` (``method="bleu"``), to the same bits.

    What :func:`score_lines` computes besides (document and segment scores, their lines) is
    skipped, and the references' tokens are reused while the same references come again, as
    for every system of a report. Integer sums do not depend on the order of the segments, so
    the score is the script's; inputs the script refuses go through :func:`score_lines`,
    which raises as it does.

    Parameters
    ----------
    hypotheses
        One line per segment.
    references
        Reference streams, each with one line per segment.
    version
        ``"v13a"`` or ``"v14"``.

    Returns
    -------
    float
        BLEU as the script prints it (0-1).
    """
    n = len(hypotheses)
    if version not in ("v13a", "v14") or not references or any(len(r) != n for r in references):
        r = score_lines(hypotheses, references, version=version, method="bleu", orders=4)
        return float(r.bleu or 0.0)
    scorer = _Scorer({}, version, False, False, "closest", True, None)
    key = (version, tuple(tuple(r) for r in references))
    kept = _REF_CACHE[0] if _REF_CACHE else None  # one read: another thread may replace it
    if kept is not None and kept[0] == key:
        ref_words = kept[1]
    else:
        ref_words = [scorer._tok(list(_wrap(r, "sgm", None)["doc1"].values())) for r in references]
        _REF_CACHE[:] = [(key, ref_words)]
    hyps = scorer._tok(list(_wrap(hypotheses, "sgm", None)["doc1"].values()))
    per_seg = [[rw[i] for rw in ref_words] for i in range(n)]
    ints, _tinfo, _rinfo = _core.flavor_mteval_stats(hyps, per_seg, 4)
    m, t = (memoryview(b).cast("q").tolist() for b in ints[:2])
    ref_length = sum(
        scorer._ref_length([len(x) for x in per_seg[i]], len(hyps[i])) for i in range(n)
    )
    match = [0, *(sum(m[j::4]) for j in range(4)), *([0] * (MAX_N - 4))]
    tst = [0, *(sum(t[j::4]) for j in range(4)), *([0] * (MAX_N - 4))]
    return _bleu(ref_length, match, tst, True, version, version == "v13a")[0]
