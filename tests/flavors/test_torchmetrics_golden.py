"""torchmetrics' BLEU against recorded outputs: float32 scores must be equal as float32.

torch's CPU ``log``/``exp`` are Intel MKL's (see the module docstring of
``parbleu.flavors.torchmetrics``). With the ``mkl`` wheel installed (extra
``torchmetrics-exact``), parbleu calls the same functions and every golden score is bit-exact
(:func:`test_float32_arithmetic_with_mkl_log_exp_is_exact`). Without torch or MKL, parbleu's
``log``/``exp`` are correctly rounded: those scores may differ in the last bit or two, and how
many do is pinned by :func:`test_without_torch_last_bit_differences`. With torch installed,
:func:`test_float32_arithmetic_with_torch_log_exp_is_exact` shows that everything but
``log``/``exp`` is bit-exact, and a property test compares with torchmetrics itself.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from flavor_support import options, read_lines, records, requires_shared, with_edge_cases
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tfnmt_t2t_golden import api_inputs

from helpers import is_required
from parbleu.errors import FlavorError
from parbleu.flavors import _mkl
from parbleu.flavors import torchmetrics as tm

pytestmark = requires_shared


HAVE_TORCH = tm._torch() is not None
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
#: MKL from the ``mkl`` wheel (extra ``torchmetrics-exact``). Where CI installed it
#: (``PARBLEU_REQUIRE=torchmetrics-exact``) on a platform with wheels it must load: a skip there
#: would hide a broken install.
MKL = _mkl.load()
MKL_WHEELS = (sys.platform == "linux" and platform.machine() == "x86_64") or (
    sys.platform == "win32" and platform.machine() == "AMD64"
)
if is_required("torchmetrics-exact", "mkl") and MKL_WHEELS and MKL is None:
    raise RuntimeError(
        "PARBLEU_REQUIRE: the mkl wheel (extra torchmetrics-exact) did not load; "
        "see parbleu.flavors._mkl"
    )
needs_mkl = pytest.mark.skipif(
    MKL is None, reason="the mkl wheel is not installed (pip install -e '.[torchmetrics-exact]')"
)
#: Scores of the public API are bit-exact with torch's own log/exp or MKL's.
EXACT = HAVE_TORCH or MKL is not None
#: Golden float32 comparisons that differ without torch (torch's CPU log/exp are MKL's, not
#: correctly rounded); 3,525 comparisons in all.
WITHOUT_TORCH_DIFFER = 134


def ulps(got: np.float32, want: float) -> int:
    """Distance in float32 ulps (same-sign values)."""
    g = int(np.array(got, dtype=np.float32).view(np.int32))
    return abs(g - int(np.array(np.float32(want)).view(np.int32)))


def same_f32(got: np.float32, want: float) -> bool:
    """Equal as float32; without torch or MKL, up to two float32 ulps apart (counted elsewhere)."""
    if got == np.float32(want):
        return True
    return not EXACT and ulps(got, want) <= 2


def _kwargs(opts: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if k not in ("tokenizer", "api")}


def _corpus() -> list[dict[str, Any]]:
    return with_edge_cases(records("torchmetrics/corpus.jsonl"), ".torchmetrics.")


def _score(rec: dict[str, Any], hyps: list[str], refs: list[list[str]]) -> np.float32:
    opts = options(rec)
    api = rec.get("api") or opts.get("api", "")
    kw = _kwargs(opts)
    if api.startswith("torchmetrics.text.SacreBLEUScore"):
        m: tm.BLEUScore = tm.SacreBLEUScore(**kw)
    elif api.startswith("torchmetrics.text.BLEUScore"):
        m = tm.BLEUScore(**kw)
    elif "sacre_bleu_score" in api:
        return tm.sacre_bleu_score(hyps, refs, **kw)
    else:
        return tm.bleu_score(hyps, refs, **kw)
    m.update(hyps, refs)
    return m.compute()


@pytest.mark.parametrize("rec", _corpus(), ids=lambda r: r["id"])
def test_corpus(rec: dict[str, Any]) -> None:
    hyps, refs = api_inputs(rec)
    if "error" in rec:
        with pytest.raises(FlavorError) as ei:
            _score(rec, hyps, refs)
        assert isinstance(ei.value, ValueError)
        return
    got = _score(rec, hyps, refs)
    assert isinstance(got, np.float32)
    assert same_f32(got, rec["score"]), (got, rec["score"])
    if "functional_sacre_bleu_score" in rec:
        kw = _kwargs(options(rec))
        f = tm.sacre_bleu_score(hyps, refs, **kw)
        assert same_f32(f, rec["functional_sacre_bleu_score"])


@pytest.mark.parametrize("rec", list(records("torchmetrics/sentence.jsonl")), ids=lambda r: r["id"])
def test_sentence(rec: dict[str, Any]) -> None:
    lo, hi = rec["line_range"]
    hyps = list(read_lines(rec["hyp"]))[lo:hi]
    streams = [list(read_lines(p))[lo:hi] for p in rec["refs"]]
    fn: Any = tm.sacre_bleu_score if "sacre_bleu_score" in rec["api"] else tm.bleu_score
    kw = _kwargs(options(rec))
    got = [fn([hyps[i]], [[s[i] for s in streams]], **kw) for i in range(len(hyps))]
    for g, want in zip(got, rec["segment_scores"]):
        assert same_f32(g, want), (g, want)


def test_module_accumulates_like_one_call() -> None:
    m = tm.BLEUScore()
    m.update(["the cat sat on the mat"], [["the cat sat on a mat"]])
    first = m(["a b c d e"], [["a b c d f"]])
    assert first == tm.bleu_score(["a b c d e"], [["a b c d f"]])
    both = tm.bleu_score(
        ["the cat sat on the mat", "a b c d e"], [["the cat sat on a mat"], ["a b c d f"]]
    )
    assert m.compute() == both
    m.reset()
    assert m.compute() == np.float32(0.0)


def _golden_cases() -> Iterator[tuple[str, Callable[[], np.float32], float]]:
    """Every golden float32 comparison: (id, how parbleu computes it, recorded score)."""
    for rec in _corpus():
        if "error" in rec:
            continue
        hyps, refs = api_inputs(rec)
        yield rec["id"], lambda rec=rec, h=hyps, r=refs: _score(rec, h, r), rec["score"]
        if "functional_sacre_bleu_score" in rec:
            kw = _kwargs(options(rec))
            yield (
                rec["id"] + "#functional",
                lambda h=hyps, r=refs, kw=kw: tm.sacre_bleu_score(h, r, **kw),
                rec["functional_sacre_bleu_score"],
            )
    for rec in records("torchmetrics/sentence.jsonl"):
        lo, hi = rec["line_range"]
        hyps = list(read_lines(rec["hyp"]))[lo:hi]
        streams = [list(read_lines(p))[lo:hi] for p in rec["refs"]]
        fn: Any = tm.sacre_bleu_score if "sacre_bleu_score" in rec["api"] else tm.bleu_score
        kw = _kwargs(options(rec))
        for i, want in enumerate(rec["segment_scores"]):
            refs_i = [s[i] for s in streams]
            yield (
                f"{rec['id']}[{i}]",
                lambda fn=fn, h=hyps[i], r=refs_i, kw=kw: fn([h], [r], **kw),
                want,
            )


def _differing(monkeypatch: pytest.MonkeyPatch, compute: Any) -> list[tuple[str, int]]:
    monkeypatch.setattr(tm.BleuState, "compute", compute)
    out = []
    n = 0
    for cid, score, want in _golden_cases():
        n += 1
        got = score()
        assert isinstance(got, np.float32)
        if got != np.float32(want):
            out.append((cid, ulps(got, want)))
    assert n == 3525
    return out


def test_without_torch_last_bit_differences(monkeypatch: pytest.MonkeyPatch) -> None:
    # parbleu's own float32 path (correctly rounded log/exp), whether or not torch is here.
    differ = _differing(monkeypatch, lambda self, w, smooth: self.compute_f32(w, smooth))
    assert all(u <= 2 for _, u in differ), differ
    assert len(differ) <= WITHOUT_TORCH_DIFFER, len(differ)


def _torch_log(x: np.float32) -> np.float32:
    torch = tm._torch()
    return np.float32(torch.log(torch.tensor(x, dtype=torch.float32)).item())


def _torch_exp(x: np.float32) -> np.float32:
    torch = tm._torch()
    return np.float32(torch.exp(torch.tensor(x, dtype=torch.float32)).item())


@needs_torch
def test_float32_arithmetic_with_torch_log_exp_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    # parbleu's float32 arithmetic with torch's log/exp put in: every golden score bit-exact,
    # so the differences above come from log/exp alone (MKL's, on torch's CPU build).
    differ = _differing(
        monkeypatch,
        lambda self, w, smooth: self.compute_f32(w, smooth, _torch_log, _torch_exp),
    )
    assert differ == []


@needs_mkl
def test_float32_arithmetic_with_mkl_log_exp_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    # MKL's vmsLn/vmsExp from the mkl wheel, called as torch calls them: every golden score
    # bit-exact, without torch. No cap: not one comparison may differ.
    assert MKL is not None
    differ = _differing(
        monkeypatch,
        lambda self, w, smooth: self.compute_f32(w, smooth, MKL.log32, MKL.exp32),
    )
    assert differ == []


@needs_mkl
def test_public_api_uses_mkl_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    # Corpus scores that correctly rounded log/exp get wrong come out right through the public
    # API once torch is out of the way: parbleu uses MKL then.
    monkeypatch.setattr(tm, "_TORCH", [None])
    checked = 0
    for rec in _corpus():
        if "error" in rec or "numerator" not in rec:
            continue
        state = tm.BleuState(len(rec["numerator"]))
        state.numerator = [int(x) for x in rec["numerator"]]
        state.denominator = [int(x) for x in rec["denominator"]]
        state.preds_len, state.target_len = int(rec["preds_len"]), int(rec["target_len"])
        opts = options(rec)
        n = len(rec["numerator"])
        weights = opts.get("weights") or [1.0 / n] * n
        if state.compute_f32(weights, bool(opts.get("smooth"))) == np.float32(rec["score"]):
            continue
        hyps, refs = api_inputs(rec)
        assert _score(rec, hyps, refs) == np.float32(rec["score"]), rec["id"]
        checked += 1
    assert checked == 11


_WORDS = st.sampled_from(["a", "b", "c", "d", "e", "the", "cat", ",", "."])
_LINE = st.lists(_WORDS, min_size=0, max_size=14).map(" ".join)


@needs_torch
@settings(max_examples=150, deadline=None)
@given(
    data=st.lists(
        st.tuples(_LINE, st.lists(_LINE, min_size=1, max_size=3)), min_size=1, max_size=6
    ),
    n_gram=st.integers(1, 4),
    smooth=st.booleans(),
    sacre=st.booleans(),
)
def test_live_torchmetrics(
    data: list[tuple[str, list[str]]], n_gram: int, smooth: bool, sacre: bool
) -> None:
    from torchmetrics.functional.text import bleu_score, sacre_bleu_score

    preds = [p for p, _ in data]
    target = [t for _, t in data]
    kw = {"n_gram": n_gram, "smooth": smooth}
    want = float((sacre_bleu_score if sacre else bleu_score)(preds, target, **kw))
    fn: Any = tm.sacre_bleu_score if sacre else tm.bleu_score
    assert fn(preds, target, **kw) == np.float32(want)
    st_ = tm._sacre_stats(preds, target, n_gram, "13a", False) if sacre else None
    state = tm.BleuState(n_gram)
    state.add(st_ if st_ is not None else tm.split_stats(preds, target, n_gram))
    w = [1.0 / n_gram] * n_gram
    assert state.compute_f32(w, smooth, _torch_log, _torch_exp) == np.float32(want)
    assert ulps(state.compute_f32(w, smooth), want) <= 2


@needs_mkl
def test_without_mkl_random_inputs_stay_within_the_documented_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/flavors.md: without torch or MKL, random corpora differ from the exact (MKL) scores
    # by up to 4 float32 ulps, 3.5e-7 relative (measured on 10,000 corpora of this generator).
    import random

    rng = random.Random(2)
    vocab = [f"w{i}" for i in range(40)]

    def line() -> str:
        return " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 40)))

    worst_ulps, worst_rel, differ = 0, 0.0, 0
    for _ in range(1000):
        n = rng.randint(1, 6)
        hyps = [line() for _ in range(n)]
        refs = [[line() for _ in range(rng.randint(1, 2))] for _ in range(n)]
        kw = {"n_gram": rng.choice([1, 2, 3, 4]), "smooth": rng.random() < 0.5}
        monkeypatch.setattr(tm.BleuState, "compute", _EXACT_COMPUTE)
        exact = tm.bleu_score(hyps, refs, **kw)
        monkeypatch.setattr(tm.BleuState, "compute", lambda self, w, s: self.compute_f32(w, s))
        plain = tm.bleu_score(hyps, refs, **kw)
        if plain != exact:
            differ += 1
            worst_ulps = max(worst_ulps, ulps(plain, float(exact)))
            worst_rel = max(worst_rel, abs(float(plain) - float(exact)) / float(exact))
    assert differ > 0
    assert worst_ulps <= 4 and worst_rel <= 3.6e-7, (worst_ulps, worst_rel)


_EXACT_COMPUTE = tm.BleuState.compute
