"""Word-level counts of a report (``parbleu.reporting._words``) against naive Counter code."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu.reporting._analysis import bucket_labels
from parbleu.reporting._words import highlight, ngram_set, word_stats

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "<x>", "é"]), max_size=9)


def _ngrams(toks: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(toks[j : j + n]) for j in range(len(toks) - n + 1))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(WORDS, min_size=n, max_size=n),
        st.lists(st.lists(WORDS, min_size=n, max_size=n), min_size=1, max_size=3),
    )
), st.integers(1, 4))  # fmt: skip
def test_clipped_matches_equal_counters(
    data: tuple[list[list[str]], list[list[list[str]]]], max_order: int
) -> None:
    ref, systems = data
    ws = word_stats(ref, systems, max_order)
    for n in range(1, max_order + 1):
        order = ws.orders[n - 1]
        ref_total: Counter[tuple[str, ...]] = Counter()
        for r in ref:
            ref_total.update(_ngrams(r, n))
        texts = [tuple(ws.ngram_text(n, k).split(" ")) for k in range(len(order.ref_ngrams))]
        assert sorted(texts) == sorted(ref_total)
        assert dict(zip(texts, order.ref_counts.tolist())) == dict(ref_total)
        for s, hyps in enumerate(systems):
            clipped: Counter[tuple[str, ...]] = Counter()
            for h, r in zip(hyps, ref):
                clipped.update(_ngrams(h, n) & _ngrams(r, n))
            got = {t: c for t, c in zip(texts, order.matched[s].tolist()) if c}
            assert got == dict(clipped)
    for s, hyps in enumerate(systems):
        assert ws.seg_hyp_len[s].tolist() == [len(h) for h in hyps]
        assert ws.seg_matched[s].tolist() == [
            sum((_ngrams(h, 1) & _ngrams(r, 1)).values()) for h, r in zip(hyps, ref)
        ]
    assert ws.seg_ref_len.tolist() == [len(r) for r in ref]


def test_highlight_marks_the_longest_reference_ngram() -> None:
    ref = ["the", "cat", "sat", "on", "the", "mat"]
    hyp = ["a", "cat", "sat", "on", "a", "mat", "the"]
    assert highlight(hyp, ngram_set(ref, 4), 4) == [0, 3, 3, 3, 0, 1, 1]


def test_bucket_labels() -> None:
    assert bucket_labels((1, 2, 3, 5, 10), zero=True) == ["0", "1", "2", "3-4", "5-9", ">=10"]
    assert bucket_labels((10, 20), zero=False) == ["<10", "10-19", ">=20"]
