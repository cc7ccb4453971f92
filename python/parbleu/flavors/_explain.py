"""Why SacreBLEU and another BLEU implementation disagree on your data, one factor at a time.

:func:`explain` starts from SacreBLEU's default BLEU, then changes one factor after another to
the other flavor's (tokenization, casing, reference length rule, n-gram denominators,
smoothing, n-gram order and weights, float precision), scoring after each change, and ends with
the flavor's own exact number. All intermediate scores are on the 0-100 scale.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..errors import FlavorError, InvalidOptionError
from ..metrics.registry import make_metric
from ._common import SegStats, closest_ref_lens, shortest_ref_lens, token_stats, tokens
from .registry import ExplainProfile as _Config
from .registry import get_flavor

__all__ = ["Explanation", "Step", "explain"]

Tok = Callable[[Sequence[str]], list[list[str]]]


def _prep_tok(prep: tuple[str, str, str], before: Callable[[str], str] | None = None) -> Tok:
    def run(lines: Sequence[str]) -> list[list[str]]:
        src = [before(x) for x in lines] if before else list(lines)
        return tokens(src, prep)

    return run


def _escape(line: str) -> str:
    return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _perl_lc(s: str) -> str:
    from ._common import perl_lc

    return perl_lc(s)


def _ascii_lc(s: str) -> str:
    from ._common import ascii_lower

    return ascii_lower(s)


def _tokenizer(tok: str, case: str) -> Tok:
    lower: Callable[[str], str] | None = {
        "mixed": None,
        "python": str.lower,
        "ascii": _ascii_lc,
        "perl": _perl_lc,
    }[case]
    if tok == "13a":
        return _prep_tok(("13a", "keep", "python"), lower)
    if tok == "split":
        return _prep_tok(("none", "keep", "python"), lower)
    if tok == "bytes-split":
        return _prep_tok(("none", "keep", "ascii"), lower)
    if tok == "13a-perl":
        return _prep_tok(("13a", "keep", "perl"), lower)
    if tok == "13a-sgml":

        def sgml(lines: Sequence[str]) -> list[list[str]]:
            src = [_escape(x) for x in lines]
            if lower is not None:
                src = [lower(x) for x in src]
            return tokens(src, ("13a", "keep", "perl"))

        return sgml
    if tok == "t2t":
        return _prep_tok(("t2t", "keep", "python"), lower)
    raise InvalidOptionError(f"unknown tokenization {tok!r}")


_TOK_LABELS = {
    "13a": "SacreBLEU 13a",
    "split": "str.split()",
    "bytes-split": "ASCII whitespace (bytes)",
    "13a-perl": "mteval 13a, Perl whitespace",
    "13a-sgml": "mteval 13a after SGML escaping (a literal &amp; stays & amp ;)",
    "t2t": "t2t bleu_tokenize (Unicode P/S)",
}
_CASE_LABELS = {
    "mixed": "case kept",
    "python": "lower-cased (Python lower())",
    "ascii": "lower-cased, ASCII letters only",
    "perl": "lower-cased (Perl lc)",
}
_REF_LABELS = {
    "closest": "closest reference length, ties to the shorter",
    "closest-first": "closest reference length, ties to the first",
    "shortest": "shortest reference",
    "first": "first reference only",
}
_SMOOTH_LABELS = {
    "sacre-exp": "SacreBLEU exp smoothing (an order without n-grams scores 0)",
    "none": "no smoothing (any zero precision gives 0)",
    "nltk-m0": "NLTK method0 (zero precision -> sys.float_info.min)",
    "mteval-exp": "mteval exp smoothing (an order without n-grams counts as precision 1)",
    "coco": "pycocoevalcap constants (+1e-15 / +1e-9, BP even at equal lengths)",
    "add1-all": "add one to every order (tensorflow/nmt smooth)",
}

#: SacreBLEU's default BLEU, where every explanation starts.
_BASE = _Config()


def _ref_lens(st: SegStats, rule: str) -> int:
    if len(st) == 0:
        return 0
    if rule == "closest":
        return int(closest_ref_lens(st).sum())
    if rule == "closest-first":
        return int(closest_ref_lens(st, ties="first").sum())
    if rule == "shortest":
        return int(shortest_ref_lens(st).sum())
    return int(st.ref_lens[st.ref_offsets[:-1]].sum())


def _generic(st: SegStats, cfg: _Config) -> float:
    """BLEU on the 0-100 scale under ``cfg`` (a composite of the flavors' rules)."""
    n = len(cfg.weights)
    m = [int(x) for x in st.matches[:, :n].sum(axis=0)] if len(st) else [0] * n
    tot = st.totals[:, :n]
    t = [int(x) for x in (np.maximum(tot, 1) if cfg.denom == "floor1" else tot).sum(axis=0)]
    if not len(st):
        t = [0] * n
    c = int(st.hyp_lens.sum()) if len(st) else 0
    r = _ref_lens(st, cfg.ref)
    if cfg.smooth == "coco":
        tiny, small = 1e-15, 1e-9
        b = 1.0
        for k in range(n):
            b *= (m[k] + tiny) / (t[k] + small)
        score = float(b ** (1.0 / n))
        ratio = (c + tiny) / (r + small)
        if ratio < 1:
            score *= math.exp(1 - 1 / ratio)
        return 100 * score
    if c == 0:
        return 0.0
    bp = 1.0 if c >= r else math.exp(1 - r / c)
    logs: list[float] = []
    smooth = 1.0
    for k in range(n):
        if cfg.smooth == "add1-all":
            p = (m[k] + 1.0) / (t[k] + 1.0)
        elif t[k] == 0:
            if cfg.smooth == "mteval-exp":
                logs.append(0.0)
                continue
            if cfg.smooth == "nltk-m0":
                p = sys.float_info.min
            else:
                return 0.0
        elif m[k] == 0:
            if cfg.smooth in ("sacre-exp", "mteval-exp"):
                smooth *= 2
                p = 1 / (smooth * t[k])
            elif cfg.smooth == "nltk-m0":
                if k == 0:
                    return 0.0
                p = sys.float_info.min
            else:
                return 0.0
        else:
            p = m[k] / t[k]
        logs.append(cfg.weights[k] * math.log(p))
    score = 100 * bp * math.exp(math.fsum(logs))
    if cfg.float32:
        score = float(np.float32(score))
    return score


@dataclass
class Step:
    """One change of factor and the score after it (0-100 scale)."""

    factor: str
    change: str
    score: float
    note: str = ""


@dataclass
class Explanation:
    """The steps from SacreBLEU's score to the flavor's, and tokenization examples."""

    flavor: str
    base_score: float
    flavor_score: float
    flavor_native: float
    steps: list[Step] = field(default_factory=list)
    #: Hypothesis and reference token counts: (base, flavor).
    hyp_tokens: tuple[int, int] = (0, 0)
    ref_tokens: tuple[int, int] = (0, 0)
    #: A few segments whose hypothesis tokens differ: (index, base tokens, flavor tokens).
    examples: list[tuple[int, list[str], list[str]]] = field(default_factory=list)

    def render(self) -> str:
        """Format the explanation as a text report."""
        lines = [
            f"SacreBLEU (13a, case kept, closest reference, exp smoothing): {self.base_score:.4f}",
            f"{self.flavor}: {self.flavor_native!r} (= {self.flavor_score:.4f} on the 0-100 scale)",
            "",
            f"{'step':<4} {'factor':<22} {'score':>10} {'change':>9}  what",
        ]
        prev = self.base_score
        lines.append(f"{'0':<4} {'SacreBLEU default':<22} {self.base_score:>10.4f} {'':>9}")
        for i, s in enumerate(self.steps, 1):
            delta = s.score - prev
            lines.append(f"{i:<4} {s.factor:<22} {s.score:>10.4f} {delta:>+9.4f}  {s.change}")
            if s.note:
                lines.append(f"{'':<38}  {s.note}")
            prev = s.score
        lines.append("")
        lines.append(
            f"tokens: hypotheses {self.hyp_tokens[0]} -> {self.hyp_tokens[1]}, "
            f"references {self.ref_tokens[0]} -> {self.ref_tokens[1]}"
        )
        for i, a, b in self.examples:
            lines.append(f"  segment {i}:")
            lines.append(f"    13a:    {' '.join(a)}")
            lines.append(
                f"    {self.flavor}: {' | '.join(b) if any(' ' in x for x in b) else ' '.join(b)}"
            )
        return "\n".join(lines)


def explain(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    flavor: str = "nltk",
    base: str = "sacrebleu",
    examples: int = 3,
) -> Explanation:
    """Decompose the gap between SacreBLEU's BLEU and ``flavor``'s on these inputs.

    Parameters
    ----------
    hypotheses
        Hypothesis lines (raw text).
    references
        Reference streams (``references[k][i]`` is reference ``k`` of line ``i``).
    flavor
        A flavor name (``parbleu.flavors.flavor_names()``) with its default options; the
        token-list APIs (NLTK, tensorflow/nmt, ...) get ``str.split()`` tokens.
    base
        The starting point; only ``"sacrebleu"`` (default BLEU) is supported.
    examples
        How many segments with differing tokens to show.

    Returns
    -------
    Explanation
        Scores after each step; :meth:`Explanation.render` formats them.
    """
    if base != "sacrebleu":
        raise InvalidOptionError(f"base={base!r}: only 'sacrebleu' is supported")
    info = get_flavor(flavor)
    target = info.profile
    hyps = list(hypotheses)
    streams = [list(s) for s in references]
    segs = [[s[i] for s in streams if i < len(s)] for i in range(len(hyps))]

    cache: dict[tuple[str, str], tuple[list[list[str]], list[list[list[str]]]]] = {}

    def toks(cfg: _Config) -> tuple[list[list[str]], list[list[list[str]]]]:
        key = (cfg.tok, cfg.case)
        if key not in cache:
            fn = _tokenizer(cfg.tok, cfg.case)
            h = fn(hyps)
            flat = fn([r for rs in segs for r in rs])
            it = iter(flat)
            cache[key] = (h, [[next(it) for _ in rs] for rs in segs])
        return cache[key]

    def score(cfg: _Config) -> float:
        h, r = toks(cfg)
        if cfg.ref == "first":
            r = [rs[:1] for rs in r]
        st = token_stats(h, r, len(cfg.weights), workers=None)
        return _generic(st, cfg)

    bleu = make_metric("bleu")  # SacreBLEU's default BLEU, through the metrics' API
    assert bleu is not None
    base_score = bleu.corpus_score(hyps, streams).score
    try:
        native = info.score(hyps, streams)
    except FlavorError as e:
        raise FlavorError(
            flavor, f"cannot explain: the original fails on this input ({e.reason})"
        ) from e
    flavor_score = float(native) * info.to_percent

    out = Explanation(flavor, base_score, flavor_score, native)

    def labelled(labels: dict[str, str], attr: str) -> str:
        return f"{labels[getattr(_BASE, attr)]} -> {labels[getattr(target, attr)]}"

    # The factors in the order they are applied: name, the profile's field, the change in words.
    plan = [
        ("tokenization", "tok", labelled(_TOK_LABELS, "tok")),
        ("casing", "case", labelled(_CASE_LABELS, "case")),
        ("reference length", "ref", labelled(_REF_LABELS, "ref")),
        ("n-gram denominators", "denom", "per-segment denominators floored at 1 (max(1, count))"),
        ("smoothing", "smooth", labelled(_SMOOTH_LABELS, "smooth")),
        ("n-gram order/weights", "weights", f"{_BASE.weights} -> {target.weights}"),
        ("float precision", "float32", "float64 -> float32"),
    ]
    cfg = _BASE
    for factor, attr, change in plan:
        new = replace(cfg, **{attr: getattr(target, attr)})
        if new == cfg:
            continue
        cfg = new
        out.steps.append(Step(factor, change, score(cfg)))
    out.steps.append(
        Step(
            "exact arithmetic",
            f"{info.original}: {info.api}",
            flavor_score,
            f"reported as {native!r} ({info.scale})",
        )
    )

    h0, r0 = toks(_BASE)
    h1, r1 = toks(replace(_BASE, tok=target.tok, case=target.case))
    out.hyp_tokens = (sum(map(len, h0)), sum(map(len, h1)))
    out.ref_tokens = (
        sum(len(x) for rs in r0 for x in rs),
        sum(len(x) for rs in r1 for x in rs),
    )
    for i, (a, b) in enumerate(zip(h0, h1)):
        if len(out.examples) >= examples:
            break
        if a != b:
            out.examples.append((i, a, b))
    return out
