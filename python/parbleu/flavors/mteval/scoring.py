"""mteval's scoring: tokenization, BLEU and NIST at system, document and segment level."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ... import _core
from ...errors import InvalidOptionError
from .._common import has_py_only_space, perl_13a, perl_lc, perl_split, tokens

MAX_N = 9

Docs = Mapping[str, Mapping[str, str]]


def _flavor(version: str) -> str:
    return f"mteval-{version}"


def _die(version: str, what: str, line: int, exc: type[BaseException]) -> Exception:
    from .._common import flavor_error

    script = f"mteval-{version}.pl"
    return flavor_error(_flavor(version), f"{what} at {script} line {line}. (Perl dies)", exc)


def perl_number(x: float) -> str:
    """How Perl prints a number (``%.15g``)."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


# --- tokenization ------------------------------------------------------------------------------

_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _intl_pre(text: str, version: str, case_sensitive: bool) -> str:
    text = text.replace("<skipped>", "")
    if version == "v13a":
        text = text.replace("-\u2028", "")
    text = text.replace("\u2028", " ")
    if "&" in text:
        for a, b in (*_ENTITIES, ("&apos;", "'")):
            text = text.replace(a, b)
    return text if case_sensitive else perl_lc(text)


def _prep(international: bool, case_sensitive: bool) -> tuple[str, str, str]:
    if international:
        return ("mteval-intl", "keep", "perl-regex")
    return ("13a", "keep" if case_sensitive else "ascii", "perl")


def _prepare(
    texts: list[str], version: str, international: bool, case_sensitive: bool
) -> list[str]:
    if international:
        return [_intl_pre(t, version, case_sensitive) for t in texts]
    return texts


def tokenize(
    text: str, version: str = "v13a", international: bool = False, case_sensitive: bool = False
) -> list[str]:
    """Return the words mteval scores for one segment text (as its reader returns it)."""
    if not international and has_py_only_space(text):
        return perl_split(perl_13a(text, lower_ascii=not case_sensitive))
    pre = _prepare([text], version, international, case_sensitive)
    return tokens(pre, _prep(international, case_sensitive))[0]


# --- statistics --------------------------------------------------------------------------------


@dataclass
class _Seg:
    ref_length: int
    match: list[int]
    tst: list[int]
    ref: list[int]
    tst_info: list[float]
    ref_info: list[float]


@dataclass
class MtevalResult:
    """Everything mteval reports for one system (orders 1..9 in the lists)."""

    system: str
    bleu: float | None = None
    nist: float | None = None
    bleu_individual: list[float] = field(default_factory=lambda: [0.0] * MAX_N)
    bleu_cumulative: list[float] = field(default_factory=lambda: [0.0] * MAX_N)
    nist_individual: list[float] = field(default_factory=lambda: [0.0] * MAX_N)
    nist_cumulative: list[float] = field(default_factory=lambda: [0.0] * MAX_N)
    counts: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    ref_ngram_totals: list[int] = field(default_factory=list)
    tst_info: list[float] = field(default_factory=list)
    ref_info: list[float] = field(default_factory=list)
    sys_len: int = 0
    ref_len: int = 0
    length_ratio_line: str | None = None
    doc_bleu: dict[str, float] = field(default_factory=dict)
    doc_nist: dict[str, float] = field(default_factory=dict)
    #: ``{(docid, segid): score}`` in the script's order.
    seg_bleu: dict[tuple[str, str], float] = field(default_factory=dict)
    seg_nist: dict[tuple[str, str], float] = field(default_factory=dict)
    #: What the script prints as document info (``-x "document info"``), one entry per doc.
    doc_info: list[str] = field(default_factory=list)

    @property
    def score_line(self) -> str:
        """The line the script prints for this system."""
        if self.nist is not None and self.bleu is not None:
            return (
                f"NIST score = {self.nist:2.4f}  BLEU score = {self.bleu:.4f} "
                f'for system "{self.system}"'
            )
        if self.nist is not None:
            return f'NIST score = {self.nist:2.4f}  for system "{self.system}"'
        return f'BLEU score = {self.bleu:.4f} for system "{self.system}"'


def _seg_order(keys: Sequence[str], version: str) -> list[str]:
    if version == "v13a":
        return sorted(keys, key=_perl_num)
    return sorted(keys, key=_natural_key)


def _perl_num(s: str) -> float:
    m = re.match(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)", s)
    return float(m.group(0)) if m else 0.0


def _natural_key(s: str) -> list[Any]:
    return [(0, int(t)) if t.isdigit() else (1, t.lower()) for t in re.split(r"(\d+)", s) if t]


class _Scorer:
    def __init__(
        self,
        refs: Mapping[str, Docs],
        version: str,
        international: bool,
        case_sensitive: bool,
        brevity_penalty: str,
        smoothing: bool,
        workers: int | None,
    ) -> None:
        self.version = version
        self.intl = international
        self.cs = case_sensitive
        self.bp = brevity_penalty
        self.smoothing = smoothing
        self.workers = workers
        self.ref_ids = sorted(refs)
        self.refs = refs
        self.ref_words: dict[str, dict[str, dict[str, list[str]]]] = {}
        for rid in self.ref_ids:
            self.ref_words[rid] = {
                d: dict(zip(segs, self._tok(list(segs.values())))) for d, segs in refs[rid].items()
            }

    def _tok(self, texts: list[str]) -> list[list[str]]:
        pre = _prepare(texts, self.version, self.intl, self.cs)
        out = tokens(pre, _prep(self.intl, self.cs))
        if not self.intl:
            for i, t in enumerate(texts):
                if has_py_only_space(t):
                    out[i] = perl_split(perl_13a(t, lower_ascii=not self.cs))
        return out

    def segments(
        self,
        words: Mapping[str, Mapping[str, list[str]]],
        order: Mapping[str, list[str]],
        orders: int = MAX_N,
    ) -> dict[tuple[str, str], _Seg]:
        """Statistics of every segment of one system (``words[doc][seg]``), in ``order``.

        Only orders ``1..orders`` are counted; the others are 0.
        """
        keys = [(d, s) for d in order for s in order[d]]
        hyps = [words[d][s] for d, s in keys]
        refs = [[self.ref_words[rid][d][s] for rid in self.ref_ids] for d, s in keys]
        ints, tinfo, rinfo = _core.flavor_mteval_stats(hyps, refs, orders)
        m, t, r, _h, off = (memoryview(b).cast("q").tolist() for b in ints)
        ti = memoryview(tinfo).cast("d").tolist()
        ri = memoryview(rinfo).cast("d").tolist()
        out: dict[tuple[str, str], _Seg] = {}
        tlen = [len(h) for h in hyps]
        pad, padf = [0] * (MAX_N - orders), [0.0] * (MAX_N - orders)
        for i, key in enumerate(keys):
            a, b = i * orders, (i + 1) * orders
            lens = [len(x) for x in refs[i]]
            out[key] = _Seg(
                self._ref_length(lens, tlen[i]),
                [0, *m[a:b], *pad],
                [0, *t[a:b], *pad],
                [0, *r[a:b], *pad],
                [0.0, *ti[a:b], *padf],
                [0.0, *ri[a:b], *padf],
            )
        del off
        return out

    def _ref_length(self, lens: Sequence[int], t: int) -> int:
        ref_length: int | None = None
        for n in lens:
            if ref_length is None:
                ref_length = n
            elif self.bp == "closest":
                if abs(t - n) <= abs(t - ref_length):
                    if abs(t - n) == abs(t - ref_length):
                        if ref_length > n:
                            ref_length = n
                    else:
                        ref_length = n
            else:
                ref_length = n if n < ref_length else ref_length
        return ref_length or 0


def _bleu(
    ref_length: float,
    match: Sequence[int],
    tst: Sequence[int],
    smoothing: bool,
    version: str,
    report: bool,
) -> tuple[float, list[float], list[float], str | None]:
    ind = [0.0] * (MAX_N + 1)
    cum = [0.0] * (MAX_N + 1)
    line = None
    if smoothing:
        score = 0.0
        exp_len_score = 0.0
        if tst[1] > 0:
            exp_len_score = math.exp(min(0.0, 1 - ref_length / tst[1]))
        if report:
            if ref_length == 0:
                raise _die(version, "Illegal division by zero", 854, ZeroDivisionError)
            if exp_len_score == 0:
                raise _die(version, "Can't take log of 0", 854, ValueError)
            line = (
                f"length ratio: {perl_number(tst[1] / ref_length)} "
                f"({tst[1]}/{perl_number(ref_length)}), "
                f"penalty (log): {perl_number(math.log(exp_len_score))}"
            )
        smooth = 1.0
        for j in range(1, MAX_N + 1):
            if tst[j] == 0:
                iscore = 0.0
            elif match[j] == 0:
                smooth *= 2
                iscore = math.log(1 / (smooth * tst[j]))
            else:
                iscore = math.log(match[j] / tst[j])
            ind[j] = math.exp(iscore)
            score += iscore
            cum[j] = math.exp(score / j) * exp_len_score
    else:
        score = 0.0
        for j in range(1, MAX_N + 1):
            if match[j] == 0:
                cum[j] = 0.0
            else:
                len_score = min(0.0, 1 - ref_length / tst[1])
                score += math.log(match[j] / tst[j])
                cum[j] = math.exp(score / j + len_score)
                ind[j] = math.exp(math.log(match[j] / tst[j]))
    return cum[4], ind[1:], cum[1:], line


def _nist_penalty(ratio: float) -> float:
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    ratio_x = 1.5
    score_x = 0.5
    beta = -math.log(score_x) / math.log(ratio_x) / math.log(ratio_x)
    return math.exp(-beta * math.log(ratio) * math.log(ratio))


def _nist(
    nsys: int, tst: Sequence[int], ref: Sequence[int], tst_info: Sequence[float], version: str
) -> tuple[float, list[float], list[float]]:
    ind = [0.0] * (MAX_N + 1)
    cum = [0.0] * (MAX_N + 1)
    score = 0.0
    line = 889 if version == "v13a" else 898
    if ref[1] == 0:
        raise _die(version, "Illegal division by zero", line, ZeroDivisionError)
    pen = _nist_penalty(tst[1] / (ref[1] / nsys))
    for n in range(1, MAX_N + 1):
        score += tst_info[n] / max(tst[n], 1)
        cum[n] = score * pen
        ind[n] = tst_info[n] / max(tst[n], 1) * pen
    return cum[5], ind[1:], cum[1:]


class _NgramInfo:
    """The information weight of every reference n-gram, as ``compute_ngram_info`` (``-d 3``)."""

    def __init__(self, scorer: _Scorer) -> None:
        self.counts: Counter[tuple[str, ...]] = Counter()
        self.total = 0
        for rid in scorer.ref_ids:
            for segs in scorer.ref_words[rid].values():
                for w in segs.values():
                    self.total += len(w)
                    self.counts.update(_ngrams(w))

    def weight(self, ngram: tuple[str, ...]) -> float:
        head = ngram[:-1]
        # Perl tests the joined prefix for truth: a prefix "0" counts as absent.
        if head and head != ("0",):
            ratio = self.counts[ngram] / self.counts[head]
        else:
            ratio = self.counts[ngram] / self.total
        return -math.log(ratio) / math.log(2)

    def emit(self, hyp: list[str], refs: list[list[str]], say: Callable[[str], None]) -> None:
        ref_max: Counter[tuple[str, ...]] = Counter()
        for r in refs:
            ref_max |= _ngrams(r)
        for ngram, n in _ngrams(hyp).items():
            if ngram in ref_max:
                count = min(n, ref_max[ngram])
                say(
                    f"{self.weight(ngram):.2f} info for each of {count} {len(ngram)}-grams = "
                    f"'{' '.join(ngram)}'"
                )


def _ngrams(words: list[str]) -> Counter[tuple[str, ...]]:
    return Counter(
        tuple(words[i : i + n])
        for i in range(len(words))
        for n in range(1, MAX_N + 1)
        if i + n <= len(words)
    )


def evaluate(
    test: Mapping[str, Docs],
    refs: Mapping[str, Docs],
    version: str = "v13a",
    case_sensitive: bool = False,
    international: bool = False,
    brevity_penalty: str = "closest",
    smoothing: bool = True,
    method: str = "both",
    workers: int | None = None,
    source: Docs | None = None,
    *,
    detail: int = 0,
    document_info: bool = False,
    emit: Callable[[str], None] | None = None,
    orders: int = MAX_N,
) -> dict[str, MtevalResult]:
    """Score every system of ``test`` (``{sysid: {docid: {segid: text}}}``) against ``refs``.

    Texts are what the SGML/XML reader returns for a ``<seg>``. ``method`` is ``"both"``,
    ``"bleu"`` (``-b``) or ``"nist"`` (``-n``). ``source`` gives the documents and segment counts
    every system and reference must have (default: the first reference's).

    ``emit`` receives, one line at a time and in the script's order, what the script prints
    while scoring: the ``-d detail`` document (1), segment (2) and n-gram (3) lines, the
    ``-x "document info"`` lines (``document_info``) and v13a's length-ratio line. At ``-d 3`` the
    n-gram lines of a segment come in first-occurrence order where Perl uses its (randomized)
    hash order.

    ``orders`` (1-9) is how many n-gram orders are counted, 9 as the script does; the BLEU
    score needs 4 (NIST 5), and the per-order lists are 0 above ``orders``.
    """
    if version not in ("v13a", "v14"):
        raise InvalidOptionError(f"version={version!r}: expected 'v13a' or 'v14'")
    if brevity_penalty not in ("closest", "shortest"):
        raise _die(version, "Incorrect value supplied for 'brevity_penalty'", 211, ValueError)
    if not refs:
        raise _die(version, "no reference translations", 0, ValueError)
    if isinstance(orders, bool) or not isinstance(orders, int) or not 1 <= orders <= MAX_N:
        raise InvalidOptionError(f"orders={orders!r}: expected an integer from 1 to {MAX_N}")
    src_docs = source if source is not None else refs[sorted(refs)[0]]
    _check_data(test, refs, src_docs, version)
    scorer = _Scorer(
        refs, version, international, case_sensitive, brevity_penalty, smoothing, workers
    )
    nsys = len(scorer.ref_ids)
    say = emit if emit is not None else (lambda line: None)
    info = _NgramInfo(scorer) if emit is not None and detail >= 3 else None
    out: dict[str, MtevalResult] = {}
    eval_docs = sorted(src_docs.keys())
    for sysid in sorted(test):
        res = MtevalResult(sysid)
        docs = test[sysid]
        words = {d: dict(zip(docs[d], scorer._tok(list(docs[d].values())))) for d in eval_docs}
        order = {d: _seg_order(list(docs[d]), version) for d in eval_docs}
        stats = scorer.segments(words, order, orders)
        segs = {d: {s: stats[(d, s)] for s in order[d]} for d in eval_docs}
        methods = ["NIST", "BLEU"] if method == "both" else [method.upper()]
        for m in methods:
            named = 5 if m == "NIST" else 4  # the orders the -d lines name
            cum_ref_length = 0
            cum = {k: [0] * (MAX_N + 1) for k in ("match", "tst", "ref")}
            cumf = {k: [0.0] * (MAX_N + 1) for k in ("tst_info", "ref_info")}
            for d in eval_docs:
                dl = 0
                dc = {k: [0] * (MAX_N + 1) for k in ("match", "tst", "ref")}
                df = {k: [0.0] * (MAX_N + 1) for k in ("tst_info", "ref_info")}
                for s, seg in segs[d].items():
                    if info is not None:
                        ref_words = [scorer.ref_words[rid][d][s] for rid in scorer.ref_ids]
                        for rid, rw in zip(scorer.ref_ids, ref_words):
                            say(f"ref '{rid}', seg {s}: {' '.join(rw)}")
                        say(f"sys '{sysid}', seg {s}: {' '.join(words[d][s])}")
                        info.emit(words[d][s], ref_words, say)
                    if m == "BLEU":
                        v = _bleu(seg.ref_length, seg.match, seg.tst, smoothing, version, False)[0]
                        res.seg_bleu[(d, s)] = v
                    else:
                        v = _nist(nsys, seg.tst, seg.ref, seg.tst_info, version)[0]
                        res.seg_nist[(d, s)] = v
                    if detail >= 2:
                        say(
                            f"  {m} score using {named}-grams = {v:.4f} for system "
                            f'"{sysid}" on segment {s} of document "{d}" ({seg.tst[1]} words)'
                        )
                    dl += seg.ref_length
                    for j in range(1, MAX_N + 1):
                        dc["match"][j] += seg.match[j]
                        dc["tst"][j] += seg.tst[j]
                        dc["ref"][j] += seg.ref[j]
                        df["tst_info"][j] += seg.tst_info[j]
                        df["ref_info"][j] += seg.ref_info[j]
                if m == "NIST":
                    v = _nist(nsys, dc["tst"], dc["ref"], df["tst_info"], version)[0]
                    res.doc_nist[d] = v
                else:
                    v = _bleu(dl, dc["match"], dc["tst"], smoothing, version, False)[0]
                    res.doc_bleu[d] = v
                if detail >= 1:
                    say(
                        f"{m} score using   {named}-grams = {v:.4f} for system "
                        f'"{sysid}" on document "{d}" ({len(segs[d])} segments, '
                        f"{dc['tst'][1]} words)"
                    )
                cum_ref_length += dl
                for j in range(1, MAX_N + 1):
                    for k in ("match", "tst", "ref"):
                        cum[k][j] += dc[k][j]
                    for k in ("tst_info", "ref_info"):
                        cumf[k][j] += df[k][j]
                    line = (
                        f"document info: {sysid} {d} {j}-gram {dc['match'][j]} {dc['tst'][j]} "
                        f"{dc['ref'][j]} {df['tst_info'][j]:9.4f} {df['ref_info'][j]:9.4f}"
                    )
                    res.doc_info.append(line)
                    if document_info:
                        say(line)
            if m == "BLEU":
                res.bleu, res.bleu_individual, res.bleu_cumulative, res.length_ratio_line = _bleu(
                    cum_ref_length, cum["match"], cum["tst"], smoothing, version, version == "v13a"
                )
                if res.length_ratio_line is not None:
                    say(res.length_ratio_line)
                if not smoothing and cum["tst"][1] == 0:
                    res.bleu_individual = [0.0] * MAX_N
            else:
                res.nist, res.nist_individual, res.nist_cumulative = _nist(
                    nsys, cum["tst"], cum["ref"], cumf["tst_info"], version
                )
            res.counts = cum["match"][1:]
            res.totals = cum["tst"][1:]
            res.ref_ngram_totals = cum["ref"][1:]
            res.tst_info = cumf["tst_info"][1:]
            res.ref_info = cumf["ref_info"][1:]
            res.sys_len = cum["tst"][1]
            res.ref_len = cum_ref_length
        out[sysid] = res
    return out


def _check_data(
    test: Mapping[str, Docs], refs: Mapping[str, Docs], src_docs: Docs, version: str
) -> None:
    for doc in sorted(src_docs):
        n_src = len(src_docs[doc])
        for kind, data in (("system", test), ("reference", refs)):
            for sysid in sorted(data):
                if doc not in data[sysid]:
                    raise _die(
                        version,
                        f"FATAL ERROR:  no document '{doc}' for {kind} '{sysid}'",
                        0,
                        ValueError,
                    )
                n = len(data[sysid][doc])
                if n != n_src:
                    raise _die(
                        version,
                        "FATAL ERROR:  translated documents must contain the same # of segments "
                        f"as the source, but document '{doc}' for system '{sysid}' contains {n} "
                        f"segments, while the source document contains {n_src} segments.",
                        0,
                        ValueError,
                    )
