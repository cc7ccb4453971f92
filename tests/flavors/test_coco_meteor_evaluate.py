"""The native METEOR's one-call path (``MeteorScorer.evaluate``) against the former composition.

``compute_score`` hands the whole batch to the core, which prepares the hypotheses, scores every
image and sums the corpus statistics. These tests pin it to what the Python layer computed
before, call by call: the checks, ``str.replace`` on each hypothesis, ``MeteorScorer.stats``,
one ``score`` per image and the jar's ``EVAL`` sum written out in Python here. Errors must be
the same, message for message, and in the same order of precedence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import require
from parbleu.errors import InvalidTextError, ParbleuError

STATS = 23
LINE_BREAK = (
    "coco: METEOR: {side}[{img!r}] holds a line break ({c!r}); the jar reads lines, so the "
    "original pairs every later score with the wrong image. Tokenize first (the PTB tokenizer "
    "replaces line breaks) or remove them"
)


def _meteor() -> Any:
    require("pycocoevalcap", extra="coco")
    from parbleu.metrics.caption.meteor import Meteor

    return Meteor(backend="native", workers=2)


def _python_corpus_stats(rows: Sequence[Sequence[float]]) -> list[float]:
    """The jar's ``EVAL`` sum as the Python layer computed it before the core did."""
    total = [0.0] * STATS
    for r in rows:
        for k, v in enumerate(r):
            total[k] += v
        if r[20] == 1 and r[21] == r[0] and r[22] == r[1]:
            total[20] -= 1
    return total


def _former(m: Any, gts: dict[Any, list[str]], res: dict[Any, list[str]]) -> Any:
    """``compute_score`` composed in Python, as before ``evaluate``."""
    from parbleu.metrics.caption import meteor as mm
    from parbleu.metrics.caption.checks import captions

    ids, hyps, refs = captions(gts, res, "METEOR")
    mm._check_lines(ids, hyps, refs)
    mm._check_surrogates(ids, hyps, refs)
    mm._check_native(ids, hyps, refs)
    tests = [h.replace("|||", "").replace("  ", " ") for h in hyps]
    flat = m.native.stats(tests, [list(r) for r in refs], m.workers)
    rows = [flat[k : k + STATS] for k in range(0, len(flat), STATS)]
    return m.native.score(_python_corpus_stats(rows)), [m.native.score(r) for r in rows]


def _outcome(f: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "value", f(*args)
    except ParbleuError as e:
        return type(e).__name__, str(e)


# Words that match in every module (exact, stem, synonym, paraphrase) and the separators the
# preparation touches; rarely a character that some check refuses.
_WORDS = ["a", "dog", "dogs", "hound", "the", "big", "large", "runs", "ran", "café", ".", ","]
_WORDS += ["|||", "||", "|", "", " ", "sun", "set", "sunset", "over", "x" * 9]
_BAD = ["\n", "\r", "\0", "\ud800", "é" * 7, "a\r\nb"]
_caption = st.lists(st.sampled_from(_WORDS), max_size=9).map(" ".join)


@st.composite
def _batch(draw: st.DrawFn, odd: bool) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Images with one hypothesis and 1-3 references; ``odd``: up to two captions made bad."""
    n = draw(st.integers(1, 6))
    gts: dict[int, list[str]] = {}
    res: dict[int, list[str]] = {}
    for img in range(n):
        h = draw(_caption)
        # Often a reference equal to the hypothesis: one chunk, the EVAL sum's special case.
        ref = st.one_of(_caption, st.just(h))
        if not odd:  # '|||' in a reference is refused; in a hypothesis it is dropped
            ref = ref.filter(lambda c: "|||" not in c)
        gts[img], res[img] = draw(st.lists(ref, min_size=1, max_size=3)), [h]
    for _ in range(draw(st.integers(0, 2)) if odd else 0):
        img = draw(st.integers(0, n - 1))
        side = draw(st.sampled_from([res, gts]))
        k = draw(st.integers(0, len(side[img]) - 1))
        c = side[img][k]
        at = draw(st.integers(0, len(c)))
        side[img][k] = c[:at] + draw(st.sampled_from(_BAD)) + c[at:]
    return gts, res


@settings(max_examples=150, deadline=None)
@given(_batch(odd=False))
def test_scores_are_the_former_compositions(batch: Any) -> None:
    m = _meteor()
    gts, res = batch
    got = m.compute_score(gts, res)
    assert got == _former(m, gts, res)
    assert all(type(x) is float for x in got[1]) and type(got[0]) is float


@settings(max_examples=150, deadline=None)
@given(_batch(odd=True), st.sampled_from([20, 100_000]))
def test_odd_captions_give_the_former_outcome(batch: Any, max_chars: int) -> None:
    # Line breaks, NUL, lone surrogates, '|||' and long captions (the limit lowered to 20
    # code points, where 'é' * 7 is 14 bytes but 7 code points): the same error, word for
    # word, or the same scores.
    from parbleu.metrics.caption import meteor as mm

    m = _meteor()
    gts, res = batch
    with mock.patch.object(mm, "MAX_CHARS", max_chars):
        assert _outcome(m.compute_score, gts, res) == _outcome(_former, m, gts, res)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=STATS, max_size=STATS), max_size=30))
def test_core_corpus_sum_is_the_former_python_sum(rows: list[list[int]]) -> None:
    from parbleu.metrics.caption.meteor import corpus_stats

    assert corpus_stats(rows) == _python_corpus_stats(rows)
    # The case the rule is about, whatever the draw: a whole match in one chunk.
    whole = [3, 3, 0, 0, 3, 3, *([0] * 14), 1, 3, 3]
    assert corpus_stats([*rows, whole]) == _python_corpus_stats([*rows, whole])


def test_corpus_stats_refuses_a_short_row() -> None:
    from parbleu.metrics.caption.meteor import corpus_stats

    with pytest.raises(ParbleuError, match="23"):
        corpus_stats([[0.0] * 22])


@pytest.mark.parametrize(
    ("gts", "res", "kind", "message"),
    [
        (
            {1: ["a dog"]},
            {1: ["a\ndog"]},
            "MeteorError",
            LINE_BREAK.format(side="res", img=1, c="a\ndog"),
        ),
        (
            {7: ["a\rdog"]},
            {7: ["a dog"]},
            "MeteorError",
            LINE_BREAK.format(side="gts", img=7, c="a\rdog"),
        ),
        (
            {"x": ["a dog", "a ||| dog"]},
            {"x": ["a dog"]},
            "InvalidTextError",
            "METEOR: gts['x'] holds '|||', the jar's field separator ('a ||| dog'); the original "
            "splits it into more references. Remove it",
        ),
        (
            {1: ["a dog"]},
            {1: ["a\0dog"]},
            "InvalidTextError",
            "METEOR: res[1] holds a NUL character ('a\\x00dog')",
        ),
        (
            {1: ["a dog"]},
            {1: ["a \ud800 dog"]},
            "InvalidTextError",
            "coco: METEOR: res[1] (image 1) holds a lone surrogate U+D800 at position 2, not "
            "UTF-8 text",
        ),
        (
            {1: ["a dog"]},
            {1: ["é" * 100_001]},
            "InvalidTextError",
            "METEOR: res[1] is 100001 characters long (at most 100000)",
        ),
    ],
    ids=["line-break-res", "cr-gts", "separator-gts", "nul", "surrogate", "too-long"],
)
def test_each_refusal_is_the_former_message(
    gts: dict[Any, list[str]], res: dict[Any, list[str]], kind: str, message: str
) -> None:
    m = _meteor()
    assert _outcome(m.compute_score, gts, res) == (kind, message)


def test_precedence_lines_then_native_checks_over_all_images() -> None:
    # Image 1 holds a NUL, image 2 a line break: the line check runs over every image first.
    m = _meteor()
    gts = {1: ["a dog"], 2: ["a cat"]}
    res = {1: ["a\0dog"], 2: ["a\ncat"]}
    assert _outcome(m.compute_score, gts, res) == (
        "MeteorError",
        LINE_BREAK.format(side="res", img=2, c="a\ncat"),
    )
    # A lone surrogate (refused by captions()) comes before a line break in an earlier image.
    res = {1: ["a\ndog"], 2: ["a \udfff cat"]}
    kind, message = _outcome(m.compute_score, gts, res)
    assert (kind, message.split(" holds")[0]) == (
        "InvalidTextError",
        "coco: METEOR: res[2] (image 2)",
    )
    # Within the native checks, a caption's hypothesis before its references.
    gts = {1: ["a ||| dog"]}
    res = {1: ["a\0dog"]}
    assert _outcome(m.compute_score, gts, res)[1].startswith("METEOR: res[1] holds a NUL")


def test_a_refused_caption_in_a_later_block_is_refused_before_scoring() -> None:
    # The core scores 4096 images per block: the check covers all of them first.
    m = _meteor()
    n = 4100
    gts = {k: ["a dog runs"] for k in range(n)}
    res = {k: ["a dog ran"] for k in range(n)}
    gts[n - 1] = ["a dog", "a ||| dog"]
    with pytest.raises(InvalidTextError, match=r"gts\[4099\] holds '\|\|\|'"):
        m.compute_score(gts, res)
    del gts[n - 1], res[n - 1]
    corpus, scores = m.compute_score(gts, res)
    assert len(scores) == n - 1 and len(set(scores)) == 1 and corpus == scores[0]


def test_long_non_ascii_caption_counts_code_points_not_bytes() -> None:
    # 'é' * 60,000 is 120,000 bytes but 60,000 code points: under the limit, so scored.
    m = _meteor()
    gts, res = {1: ["é" * 60_000]}, {1: ["é" * 60_000]}
    assert m.compute_score(gts, res) == _former(m, gts, res)


class _Str(str):
    """A str subclass: the core takes only exact strs, so these go the former way."""


def test_str_subclasses_go_the_former_way() -> None:
    m = _meteor()
    gts = {1: [_Str("a big dog runs")], 2: ["the sun set"]}
    res = {1: [_Str("a large  dog ||| ran")], 2: ["sunset"]}
    assert m.native.evaluate([res[1][0]], [gts[1]], 100, 1) is None
    assert m.compute_score(gts, res) == _former(m, gts, res)
