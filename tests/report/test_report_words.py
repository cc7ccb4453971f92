"""Word-level counts of a report (``parbleu.reporting._words``) against naive Counter code."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu.reporting._analysis import bucket_labels
from parbleu.reporting._words import WordStats, highlight, ngram_set, word_stats
from parbleu.tokenizers import PythonTokenizer, get_tokenizer

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
    ws = word_stats(
        [" ".join(r) for r in ref],
        [[" ".join(h) for h in hyps] for hyps in systems],
        get_tokenizer("none"),
        False,
        max_order,
    )
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
        # Types in the lexicographic order of their token ids (the n-gram table's tie order).
        keys = [ws.ref_ids[f : f + n].tolist() for f in order.first.tolist()]
        assert keys == sorted(keys) and len(set(map(tuple, keys))) == len(keys)
    for s, hyps in enumerate(systems):
        assert ws.seg_hyp_len[s].tolist() == [len(h) for h in hyps]
        assert ws.seg_matched[s].tolist() == [
            sum((_ngrams(h, 1) & _ngrams(r, 1)).values()) for h, r in zip(hyps, ref)
        ]
    assert ws.seg_ref_len.tolist() == [len(r) for r in ref]
    for i, r in enumerate(ref):
        assert ws.ref_tokens(i) == r
        for s, hyps in enumerate(systems):
            assert ws.sys_tokens(s, i) == hyps[i]


class _Lower13a(PythonTokenizer):
    """13a run from Python: the path MeCab and SentencePiece take."""

    def signature(self) -> str:
        return "py-13a"

    def __call__(self, line: str) -> str:
        return get_tokenizer("13a")(line)


def _arrays(ws: WordStats) -> list[list[int]]:
    out = [ws.ref_ids.tolist(), ws.seg_ref_len.tolist()]
    out += [a.tolist() for a in (*ws.seg_matched, *ws.seg_hyp_len, *ws.hyp_word_ids)]
    for o in ws.orders:
        out += [o.ref_ngrams.tolist(), o.ref_counts.tolist(), o.first.tolist()]
        out += [m.tolist() for m in o.matched]
    return out


def test_python_tokenizers_count_as_the_core_tokenizer() -> None:
    ref = ["The cat, sat.  ", "Über   DEN Fluss!", "", "a a a"]
    hyps = [["the cat sat.", "über den Fluss", "x", "A a"], ["Cat sat", "", "y", "a a a a"]]
    core = word_stats(ref, hyps, get_tokenizer("13a"), True, 4, workers=1)
    py = word_stats(ref, hyps, _Lower13a(), True, 4, workers=2)
    assert core.vocab == py.vocab
    assert _arrays(core) == _arrays(py)
    assert core.ref_tokens(1) == ["über", "den", "fluss", "!"]


def test_highlight_marks_the_longest_reference_ngram() -> None:
    ref = ["the", "cat", "sat", "on", "the", "mat"]
    hyp = ["a", "cat", "sat", "on", "a", "mat", "the"]
    assert highlight(hyp, ngram_set(ref, 4), 4) == [0, 3, 3, 3, 0, 1, 1]


def test_bucket_labels() -> None:
    assert bucket_labels((1, 2, 3, 5, 10), zero=True) == ["0", "1", "2", "3-4", "5-9", ">=10"]
    assert bucket_labels((10, 20), zero=False) == ["<10", "10-19", ">=20"]
