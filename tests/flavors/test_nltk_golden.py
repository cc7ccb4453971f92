"""parbleu.flavors.nltk against NLTK 3.10.4's recorded outputs (golden data)."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import pytest
from flavor_support import (
    close,
    options,
    read_lines,
    records,
    ref_paths,
    requires_shared,
    smoothing,
)

from parbleu import _core
from parbleu.errors import FlavorError
from parbleu.flavors import nltk as pn

pytestmark = requires_shared


def _tokens(lines: list[str], how: str) -> list[Any]:
    if how == "split":
        return [line.split() for line in lines]
    if how == "13a-split":
        return [t.split() for t in _core.tokenize("13a", lines, False)]
    assert how == "raw"
    return list(lines)


def _inputs(rec: dict[str, Any]) -> tuple[list[Any], list[list[Any]]]:
    """Hypotheses and, per segment, references, tokenized as the record says."""
    how = options(rec)["preprocess"]
    hyps = _tokens(list(read_lines(rec["hyp"])), how)
    streams = [_tokens(list(read_lines(p)), how) for p in ref_paths(rec)]
    none_lines: dict[str, list[int]] = rec.get("refs_none_lines") or {}
    dropped = set()
    for key, idxs in none_lines.items():
        k = next(j for j, p in enumerate(ref_paths(rec)) if f"ref.{key}." in p)
        dropped.update((k, i) for i in idxs)
    refs = [
        [s[i] for k, s in enumerate(streams) if (k, i) not in dropped] for i in range(len(hyps))
    ]
    return hyps, refs


def _weights(w: Any) -> Any:
    if w and isinstance(w[0], list):
        return [tuple(x) for x in w]
    return tuple(w)


def _bleu_args(rec: dict[str, Any]) -> tuple[Any, Any, bool]:
    opts = options(rec)
    return (
        _weights(opts["weights"]),
        smoothing(opts.get("smoothing_function"), pn),
        bool(opts.get("auto_reweigh")),
    )


def _type_name(x: Any) -> str:
    if isinstance(x, list):
        return "list[" + ",".join(sorted({type(v).__name__ for v in x})) + "]"
    return type(x).__name__


def _warning_counts(caught: list[warnings.WarningMessage]) -> Counter[str]:
    return Counter(str(w.message) for w in caught)


def _expected_warnings(rec: dict[str, Any]) -> Counter[str]:
    return Counter({w["message"]: w["count"] for w in rec.get("py_warnings") or []})


def _check_error(exc: BaseException, err: dict[str, str]) -> None:
    assert isinstance(exc, FlavorError), exc
    assert type(exc).__mro__[2:].__contains__(getattr(__builtins__, err["type"], None)) or any(
        c.__name__ == err["type"] for c in type(exc).__mro__
    ), (type(exc), err)
    assert "nltk" in str(exc)


def _bleu_records(golden: str, level: str) -> list[dict[str, Any]]:
    """The records of a golden file, then NLTK's BLEU edge cases at that level."""
    edge = records("edge_cases/nltk.jsonl")
    return [*records(golden), *(r for r in edge if r["metric"] == "bleu" and r["level"] == level)]


@pytest.mark.parametrize(
    "rec", _bleu_records("nltk/bleu_corpus.jsonl", "corpus"), ids=lambda r: r["id"]
)
def test_corpus_bleu(rec: dict[str, Any]) -> None:
    hyps, refs = _inputs(rec)
    weights, sf, ar = _bleu_args(rec)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if "error" in rec:
            with pytest.raises(FlavorError) as ei:
                pn.corpus_bleu(refs, hyps, weights, sf, ar)
            _check_error(ei.value, rec["error"])
            return
        got = pn.corpus_bleu(refs, hyps, weights, sf, ar)
    assert close(got, rec["score"]), (got, rec["score"])
    assert _type_name(got) == rec["result_type"]
    if "py_warnings" in rec:
        assert _warning_counts(caught) == _expected_warnings(rec)
    stats = rec.get("stats")
    if stats and "p_numerators" in stats:
        n = len(stats["p_numerators"])
        assert [pn.modified_precision(refs[0], hyps[0], i + 1) for i in range(n)]  # callable
        assert pn.brevity_penalty(stats["closest_ref_len"], stats["hyp_len"]) == pytest.approx(
            stats["bp"], rel=1e-15
        )


@pytest.mark.parametrize(
    "rec", _bleu_records("nltk/bleu_sentence.jsonl", "sentence"), ids=lambda r: r["id"]
)
def test_sentence_bleu(rec: dict[str, Any]) -> None:
    hyps, refs = _inputs(rec)
    weights, sf, ar = _bleu_args(rec)
    errors = {e["segment"]: e for e in rec.get("errors") or []}
    ints = set((rec.get("non_float_results") or {}).get("int", []))
    segs = rec.get("segments")
    if segs:  # edge-case layout: one dict per segment
        for i, s in enumerate(segs):
            if "error" in s:
                errors[i] = s["error"]
            elif s.get("type") == "int":
                ints.add(i)
    want = rec["scores"]
    assert len(want) == len(hyps)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, (r, h) in enumerate(zip(refs, hyps)):
            if i in errors:
                with pytest.raises(FlavorError) as ei:
                    pn.sentence_bleu(r, h, weights, sf, ar)
                _check_error(ei.value, errors[i])
                continue
            got = pn.sentence_bleu(r, h, weights, sf, ar)
            assert close(got, want[i]), (i, got, want[i])
            assert isinstance(got, int) == (i in ints), (i, got)
    if "py_warnings" in rec:
        assert _warning_counts(caught) == _expected_warnings(rec)


def _gleu_chrf_records(metric: str) -> list[dict[str, Any]]:
    out = [r for r in records(f"nltk/{metric}.jsonl")]
    out += [r for r in records("edge_cases/nltk.jsonl") if r["metric"] == metric]
    return out


@pytest.mark.parametrize("rec", _gleu_chrf_records("gleu"), ids=lambda r: r["id"])
def test_gleu(rec: dict[str, Any]) -> None:
    hyps, refs = _inputs(rec)
    opts = options(rec)
    kw = {"min_len": opts["min_len"], "max_len": opts["max_len"]}
    if rec["level"] == "corpus":
        got = pn.corpus_gleu(refs, hyps, **kw)
        assert close(got, rec["score"]) and type(got).__name__ == rec["result_type"]
    else:
        got_all = [pn.sentence_gleu(r, h, **kw) for r, h in zip(refs, hyps)]
        assert close(got_all, rec["scores"])


@pytest.mark.parametrize("rec", _gleu_chrf_records("chrf"), ids=lambda r: r["id"])
def test_chrf(rec: dict[str, Any]) -> None:
    hyps, refs = _inputs(rec)
    opts = options(rec)
    first = [r[0] for r in refs]  # NLTK's chrF takes one reference
    kw = {k: opts[k] for k in ("min_len", "max_len", "beta", "ignore_whitespace")}
    if rec["level"] == "corpus":
        if "error" in rec:
            with pytest.raises(FlavorError):
                pn.corpus_chrf(first, hyps, **kw)
            return
        got = pn.corpus_chrf(first, hyps, **kw)
        assert close(got, rec["score"]) and type(got).__name__ == rec["result_type"]
    else:
        got_all = [pn.sentence_chrf(r, h, **kw) for r, h in zip(first, hyps)]
        assert close(got_all, rec["scores"])


def _inline(rec: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = rec["inputs_inline"]
    return out


@pytest.mark.parametrize(
    "rec", list(records("edge_cases/errors_nltk.jsonl")), ids=lambda r: r["id"]
)
def test_errors_and_corner_cases(rec: dict[str, Any]) -> None:
    inp = _inline(rec)
    rid = rec["id"]
    kw: dict[str, Any] = {}
    if rid.endswith("empty_weights"):
        kw["weights"] = ()
    elif rid.endswith("method6_short"):
        kw["smoothing_function"] = pn.SmoothingFunction().method6
    elif rid.endswith("method4_len1"):
        kw["smoothing_function"] = pn.SmoothingFunction().method4
    elif rid.endswith("weights_not_normalised"):
        kw["weights"] = (0.5, 0.5, 0.5, 0.5)
    elif rid.endswith("auto_reweigh_list_weights"):
        kw["weights"] = [0.25, 0.25, 0.25, 0.25]
        kw["auto_reweigh"] = True
    elif rid.endswith("auto_reweigh_tuple"):
        kw["auto_reweigh"] = True
    metric = rec["metric"]
    if metric == "bleu":
        fn: Any = pn.corpus_bleu if "list_of_references" in inp else pn.sentence_bleu
    elif metric == "gleu":
        fn = pn.corpus_gleu if "list_of_references" in inp else pn.sentence_gleu
    else:
        fn = pn.corpus_chrf if "hypotheses" in inp else pn.sentence_chrf
    args = list(inp.values())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if rec["raised"]:
            with pytest.raises(FlavorError) as ei:
                fn(*args, **kw)
            _check_error(ei.value, rec["error"])
            return
        got = fn(*args, **kw)
    assert close(got, rec["result"]), (got, rec["result"])
    assert type(got).__name__ == rec["result_type"]
    if "py_warnings" in rec:
        assert _warning_counts(caught) == _expected_warnings(rec)


@pytest.mark.parametrize(
    "rec",
    [r for r in records("edge_cases/differences.jsonl") if r["metric"] == "bleu"],
    ids=lambda r: r["id"],
)
def test_differences_nltk_side(rec: dict[str, Any]) -> None:
    inp = _inline(rec)
    hyps = [h.split() for h in inp["hyps"]]
    refs = [[s[i].split() for s in inp["refs"]] for i in range(len(hyps))]
    call = rec["nltk_call"]
    kw: dict[str, Any] = {}
    for k in range(8):
        if f"method{k}" in call:
            kw["smoothing_function"] = getattr(pn.SmoothingFunction(), f"method{k}")
    if "auto_reweigh=True" in call:
        kw["auto_reweigh"] = True
    fn: Any = pn.sentence_bleu if call.startswith("sentence_bleu") else pn.corpus_bleu
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = fn(refs[0], hyps[0], **kw) if fn is pn.sentence_bleu else fn(refs, hyps, **kw)
        assert close(got, rec["nltk"]["value"]) and type(got).__name__ == rec["nltk"]["type"]
        if "nltk_alt" in rec:
            alt = rec["nltk_alt_inputs"]
            h2 = [h.split() for h in alt["hyps"]]
            r2 = [[s[i].split() for s in alt["refs"]] for i in range(len(h2))]
            assert close(fn(r2, h2, **kw), rec["nltk_alt"]["value"])
