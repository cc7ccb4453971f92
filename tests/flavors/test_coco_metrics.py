"""pycocoevalcap 1.2's CIDEr-D, ROUGE-L and BLEU against the live package, compared with ``==``.

Oracle: ``pycocoevalcap`` (extra ``coco``; skipped without it, failing under
``PARBLEU_REQUIRE=coco``), on the COCO captions of the test data (``data/captions``) and on
random small caption sets (hypothesis). The Java parts (METEOR, the PTB tokenizer, COCOEvalCap)
are in ``test_coco_java.py``; bad input, for which the original raises, in
``test_coco_errors.py``. pycocoevalcap ships no unit tests of its own (its wheel and sdist hold
the package, an example script and the jars), so there is nothing to run through an alias.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import SHARED, require, requires_shared

require("pycocoevalcap", extra="coco")

from pycocoevalcap.bleu.bleu import Bleu as OrigBleu  # noqa: E402
from pycocoevalcap.cider.cider import Cider as OrigCider  # noqa: E402
from pycocoevalcap.rouge.rouge import Rouge as OrigRouge  # noqa: E402

from parbleu.errors import FlavorError  # noqa: E402
from parbleu.flavors import coco  # noqa: E402

Captions = dict[Any, list[str]]

#: (name, hypotheses file, references file) under data/captions: COCO val and train captions,
#: leave-one-out (a human caption against the other four) and mismatched (another image's).
SETS = [
    *(
        (
            f"{split}-{kind}",
            *(f"derived/{split}2017.{kind}.{side}.json" for side in ("hyp", "refs")),
        )
        for split in ("val", "train")
        for kind in ("loo", "mismatch")
    ),
    ("debug", *(f"tylin-coco-caption-debug/debug.{side}.json" for side in ("hypo", "ref"))),
]


def _load(rel: str) -> Any:
    return json.loads((SHARED / "data" / "captions" / rel).read_text(encoding="utf-8"))


def _variants(gts: Captions, res: Captions) -> list[tuple[str, Captions, Captions]]:
    """The set as stored, and as COCO's PTB tokenizer roughly leaves it (lower case, no
    trailing period), so both raw and tokenized-looking captions are covered."""

    def low(d: Captions) -> Captions:
        return {k: [c.lower().rstrip(" .") for c in v] for k, v in d.items()}

    return [("raw", gts, res), ("lower", low(gts), low(res))]


def _caption_sets() -> list[Any]:
    out = []
    if not (SHARED / "data" / "captions").is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="no caption test data"))]
    for name, hyp, ref in SETS:
        res, gts = _load(hyp), _load(ref)
        if isinstance(res, list):  # the debug file: [{"image_id": ..., "caption": ...}]
            res = {r["image_id"]: [r["caption"]] for r in res}
        for variant, g, r in _variants(gts, res):
            out.append(pytest.param((g, r), id=f"{name}-{variant}"))
    return out


def _same(got: tuple[Any, Any], want: tuple[Any, Any]) -> None:
    """``(mean, per image)`` equal to the bit, with the original's types."""
    assert type(got[0]) is type(want[0])
    assert got[0] == want[0] or (np.isnan(got[0]) and np.isnan(want[0]))
    assert isinstance(got[1], np.ndarray) and got[1].dtype == want[1].dtype
    assert got[1].tolist() == want[1].tolist()


def _orig_bleu(gts: Captions, res: Captions, n: int = 4) -> Any:
    with contextlib.redirect_stdout(io.StringIO()):
        return OrigBleu(n).compute_score(gts, res, verbose=0)


@requires_shared
@pytest.mark.parametrize("data", _caption_sets())
def test_cider_rouge_bleu_exact_on_coco_captions(data: tuple[Captions, Captions]) -> None:
    gts, res = data
    _same(coco.Cider().compute_score(gts, res), OrigCider().compute_score(gts, res))
    _same(coco.Rouge().compute_score(gts, res), OrigRouge().compute_score(gts, res))
    assert coco.Bleu(4).compute_score(gts, res, verbose=0) == _orig_bleu(gts, res)


def _cider_as_original(gts: Captions, res: Captions, n: int = 4, sigma: float = 6.0) -> None:
    """Our Cider gives the original's result, or raises where it raises (as a FlavorError that
    is also the original's exception class)."""
    try:
        want = OrigCider(n=n, sigma=sigma).compute_score(gts, res)
    except (ValueError, IndexError) as e:
        with pytest.raises(FlavorError) as ei:
            coco.Cider(n=n, sigma=sigma).compute_score(gts, res)
        assert isinstance(ei.value, type(e)), (ei.value, e)
    else:
        _same(coco.Cider(n=n, sigma=sigma).compute_score(gts, res), want)


@requires_shared
@pytest.mark.parametrize(
    ("n", "sigma"), [(1, 6.0), (2, 6.0), (3, 0.5), (4, 100.0), (5, 6.0), (9, 6.0), (4, 6)]
)
def test_cider_options_as_original(n: int, sigma: float) -> None:
    # The original counts 1- to 4-grams whatever n is: n < 4 fails on longer captions,
    # n > 4 averages zeros for the orders above 4.
    res, gts = _load(SETS[0][1]), _load(SETS[0][2])
    _cider_as_original(gts, res, n, sigma)
    short = {k: [" ".join(v[0].split()[:n])] for k, v in res.items()}
    _cider_as_original({k: [" ".join(r.split()[:n]) for r in v] for k, v in gts.items()}, short, n)


@requires_shared
def test_threads_do_not_change_the_bits() -> None:
    res, gts = _load(SETS[1][1]), _load(SETS[1][2])
    for metric in (coco.Cider, coco.Rouge):
        one = metric(workers=1).compute_score(gts, res)
        _same(metric(workers=4).compute_score(gts, res), one)


def test_rouge_calc_score_exact() -> None:
    for cand, refs in [
        (["a dog runs"], ["a dog runs fast", "the dog"]),
        (["a  dog"], ["a dog", " a dog "]),
        ([""], ["a"]),
        (["x y z"], ["z y x", "y"]),
    ]:
        assert coco.Rouge().calc_score(cand, refs) == OrigRouge().calc_score(cand, refs)


def test_method_names() -> None:
    for ours, orig in [(coco.Cider(), OrigCider()), (coco.Rouge(), OrigRouge())]:
        assert ours.method() == orig.method()


# Captions from a small vocabulary (so n-grams repeat and document frequencies vary), with the
# spacing oddities the originals treat differently: split() for CIDEr, split(" ") for ROUGE-L.
_word = st.sampled_from(["a", "dog", "cat", "runs", "on", "the", "grass", "red", "two"])
_caption = st.builds(
    lambda words, sep, pad: pad + sep.join(words) + pad,
    st.lists(_word, min_size=0, max_size=12),
    st.sampled_from([" ", "  ", " \t"]),
    st.sampled_from(["", " "]),
)
_images = st.dictionaries(
    st.integers(0, 10**6),
    st.tuples(_caption, st.lists(_caption, min_size=1, max_size=5)),
    min_size=1,
    max_size=12,
)


@given(images=_images, n=st.integers(1, 5))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_caption_sets_exact(images: dict[int, tuple[str, list[str]]], n: int) -> None:
    res = {k: [h] for k, (h, _) in images.items()}
    gts = {k: rs for k, (_, rs) in images.items()}
    _cider_as_original(gts, res, n)
    _same(coco.Rouge().compute_score(gts, res), OrigRouge().compute_score(gts, res))
    try:
        want = _orig_bleu(gts, res, n)
    except IndexError:  # n > 4: the original counts 4 orders only
        with pytest.raises(FlavorError, match="IndexError") as ei:
            coco.Bleu(n).compute_score(gts, res, verbose=0)
        assert isinstance(ei.value, IndexError)
    else:
        assert coco.Bleu(n).compute_score(gts, res, verbose=0) == want
