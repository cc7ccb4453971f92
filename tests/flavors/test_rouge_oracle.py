"""parbleu's ROUGE against live ``rouge-score==0.1.2`` (the ``rouge`` extra): bit-exact.

Summary-like data made from the WMT21 text in tests/data (documents of 1-8 consecutive
sentences, newline-separated, a system output as prediction and one or two references), the
non-Latin WMT21 sides, hypothesis inputs, empty strings and multiple references; every rouge
type, with and without the stemmer; ``BootstrapAggregator`` after the same numpy seed.
Skipped without rouge-score; fails instead with ``PARBLEU_REQUIRE=rouge``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import SHARED, require, require_reproduced_nltk
from parbleu.flavors.rouge_score import engine
from parbleu.flavors.rouge_score import rouge_scorer as ours
from parbleu.flavors.rouge_score import scoring as our_scoring

require("rouge_score", extra="rouge")
from rouge_score import rouge_scorer as theirs  # noqa: E402
from rouge_score import scoring as their_scoring  # noqa: E402

WMT21 = SHARED / "data" / "wmt21"
ALL = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]


def _lines(name: str) -> list[str]:
    return (WMT21 / name).read_text(encoding="utf-8").split("\n")[:-1]


def _documents(pair: str, lang: str, system: str, n_docs: int, seed: int) -> list[list[str]]:
    """``[prediction, ref A, ref B?]`` documents of 1-8 consecutive sentences."""
    refs = sorted(WMT21.glob(f"references/newstest2021.{pair}.ref.*.{lang}"))
    hyp = _lines(f"system-outputs/newstest2021.{pair}.hyp.{system}.{lang}")
    ref_lines = [_lines(f"references/{r.name}") for r in refs]
    rng = random.Random(seed)
    docs = []
    for _ in range(n_docs):
        k = rng.randint(1, 8)
        i = rng.randrange(0, len(hyp) - k)
        docs.append(["\n".join(hyp[i : i + k])] + ["\n".join(r[i : i + k]) for r in ref_lines])
    return docs


def _check(
    docs: list[list[str]], types: list[str], stem: bool, theirs_scorer: Callable[..., object]
) -> None:
    if stem:
        require_reproduced_nltk()  # rouge-score stems with NLTK's PorterStemmer
    scorer = theirs_scorer(types, use_stemmer=stem)
    expected = [scorer.score_multi(d[1:], d[0]) for d in docs]  # type: ignore[attr-defined]
    batch = engine.score_batch([d[0] for d in docs], [d[1:] for d in docs], types, use_stemmer=stem)
    got = batch.score_dicts()
    assert len(got) == len(expected)  # (zip's strict= needs Python 3.10)
    for i, (e, g) in enumerate(zip(expected, got)):
        for t in types:
            assert tuple(e[t]) == g[t], (i, t, docs[i], e[t], g[t])


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize(
    ("pair", "system"),
    [("de-en", "Online-B"), ("ru-en", "Facebook-AI"), ("cs-en", "CUNI-DocTransformer")],
)
def test_wmt21_english_summaries(pair: str, system: str, stem: bool) -> None:
    hyps = sorted(WMT21.glob(f"system-outputs/newstest2021.{pair}.hyp.*.en"))
    name = f"newstest2021.{pair}.hyp.{system}.en"
    if not (WMT21 / "system-outputs" / name).exists():
        system = hyps[0].name.split(".hyp.")[1].rsplit(".", 1)[0]
    docs = _documents(pair, "en", system, 120, seed=len(pair) + stem)
    _check(docs, ALL, stem, theirs.RougeScorer)


@pytest.mark.parametrize(
    "lang_pair", ["en-cs", "en-de", "en-ru", "en-zh", "en-ja", "bn-hi", "zu-xh"]
)
def test_wmt21_other_scripts(lang_pair: str) -> None:
    lang = lang_pair.split("-")[1]
    test = "florestest2021" if lang_pair in ("bn-hi", "zu-xh") else "newstest2021"
    hyps = sorted(WMT21.glob(f"system-outputs/{test}.{lang_pair}.hyp.*.{lang}"))
    refs = sorted(WMT21.glob(f"references/{test}.{lang_pair}.ref.*.{lang}"))
    hyp, ref = _lines(f"system-outputs/{hyps[0].name}"), _lines(f"references/{refs[0].name}")
    docs = [["\n".join(hyp[i : i + 3]), "\n".join(ref[i : i + 3])] for i in range(0, 240, 3)]
    _check(docs, ["rouge1", "rouge2", "rougeL", "rougeLsum"], True, theirs.RougeScorer)


EDGE = [
    ("", ""),
    ("", "a"),
    ("a", ""),
    ("/", "w1 w2"),
    ("\n\n", "a\n\nb"),
    ("The Cat", "the cat"),
    ("İstanbul \u212aelvin ΣΑΣ", "i stanbul kelvin"),
    ("a a a a b", "a b b b b"),
    ("one two\nthree", "three\none two"),
    ("x " * 50, "x " * 49 + "\n" + "x"),
]


@pytest.mark.parametrize(("target", "prediction"), EDGE)
@pytest.mark.parametrize("stem", [False, True])
def test_edge_cases(target: str, prediction: str, stem: bool) -> None:
    assert ours.RougeScorer(ALL, use_stemmer=stem).score(target, prediction) == (
        theirs.RougeScorer(ALL, use_stemmer=stem).score(target, prediction)
    )


def test_multiple_references_ties_and_choice() -> None:
    targets = ["a b c", "c b a", "a b c", "a x", ""]
    for pred in ["a b c", "c b a", "a", "", "b c a b"]:
        for k in range(1, len(targets) + 1):
            t = targets[:k]
            assert ours.RougeScorer(ALL).score_multi(t, pred) == (
                theirs.RougeScorer(ALL).score_multi(t, pred)
            )


TEXT = st.text(
    alphabet=st.sampled_from(
        [*"abcdeinorstuy", " ", " ", "\n", ".", ",", "-", "1", "É", "ß", "İ", "Σ", "中", "ж"]
    ),
    max_size=60,
)
WORDS = (
    "the cats running ran runs connection connected happiness happy skies dying news "
    "relational generalization a an of 2024"
)
WORDY = st.lists(st.sampled_from([*WORDS.split(), "x\n"]), max_size=25).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(TEXT, WORDY),
    st.lists(st.one_of(TEXT, WORDY), min_size=1, max_size=3),
    st.booleans(),
)
def test_hypothesis_inputs(prediction: str, targets: list[str], stem: bool) -> None:
    assert ours.RougeScorer(ALL, use_stemmer=stem).score_multi(targets, prediction) == (
        theirs.RougeScorer(ALL, use_stemmer=stem).score_multi(targets, prediction)
    )


@pytest.mark.parametrize(("ci", "n"), [(0.95, 1000), (0.9, 50), (0.0, 10), (1.0, 7)])
def test_bootstrap_aggregator_same_numpy_seed(ci: float, n: int) -> None:
    docs = _documents("de-en", "en", "Online-B", 60, seed=3)
    scorer = theirs.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    scores = [scorer.score(d[1], d[0]) for d in docs]
    results = []
    for mod in (their_scoring, our_scoring):
        np.random.seed(1234)
        agg = mod.BootstrapAggregator(confidence_interval=ci, n_samples=n)
        for s in scores:
            agg.add_scores(s)
        results.append(agg.aggregate())
        results.append(np.random.random())  # the global RNG is left where rouge-score leaves it
    assert results[0] == results[2]
    assert results[1] == results[3]


def test_custom_tokenizer_object() -> None:
    class Chars:
        def tokenize(self, text: str) -> list[str]:
            return [c for c in text if not c.isspace()]

    for t, p in [("abc\ncab", "cba\nabc"), ("", "x"), ("ab ba", "ba\n\nab")]:
        assert ours.RougeScorer(ALL, tokenizer=Chars()).score(t, p) == (
            theirs.RougeScorer(ALL, tokenizer=Chars()).score(t, p)
        )


def test_split_summaries_uses_nltk_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    # NLTK's punkt data is not installed here: replace nltk.sent_tokenize for both (rouge-score
    # looks it up at each call, as the engine does), with sentences that hold newlines.
    import nltk

    def fake(text: str) -> list[str]:
        return [s + "." for s in text.split(". ") if s] + ["", "x\ny"]

    monkeypatch.setattr(nltk, "sent_tokenize", fake)
    t, p = "one two. three four\nfive. six", "three four. one\ntwo. six five"
    types = ["rouge1", "rougeLsum", "rougeL"]
    assert ours.RougeScorer(types, split_summaries=True).score(t, p) == (
        theirs.RougeScorer(types, split_summaries=True).score(t, p)
    )


def test_private_helpers_match() -> None:
    ref, cans = [1, 2, 3, 4, 5], [[1, 2, 6, 7, 8], [1, 3, 8, 9, 5], []]
    assert ours._summary_level_lcs([ref], cans) == theirs._summary_level_lcs([ref], cans)
    assert ours._score_lcs(ref, cans[1]) == theirs._score_lcs(ref, cans[1])
    assert ours._union_lcs(ref, cans) == theirs._union_lcs(ref, cans)


def test_drop_in_loop_on_long_documents_and_long_sentences() -> None:
    # The drop-in's one-pair path (`_core.RougePairScorer`) on 40-sentence documents, and on
    # sentences of more than 64 tokens (several words per bit-parallel LCS row).
    hyp = _lines("system-outputs/newstest2021.de-en.hyp.Online-B.en")
    ref = _lines("references/newstest2021.de-en.ref.A.en")
    pairs = [("\n".join(ref[i : i + 40]), "\n".join(hyp[i : i + 40])) for i in range(0, 80, 40)]
    pairs += [
        (
            "\n".join(" ".join(ref[j : j + 4]) for j in range(i, i + 12, 4)),
            "\n".join(" ".join(hyp[j : j + 4]) for j in range(i, i + 12, 4)),
        )
        for i in range(500, 548, 12)
    ]
    for stem in (False, True):
        mine, theirs_ = (
            ours.RougeScorer(ALL, use_stemmer=stem),
            theirs.RougeScorer(ALL, use_stemmer=stem),
        )
        for target, prediction in pairs:
            assert mine.score(target, prediction) == theirs_.score(target, prediction)


def test_drop_in_pickles_and_follows_changed_types() -> None:
    import pickle

    scorer = ours.RougeScorer(["rouge1"], use_stemmer=True)
    scorer.score("the cats ran", "a cat runs")  # builds the core's one-pair scorer
    again = pickle.loads(pickle.dumps(scorer))
    want = theirs.RougeScorer(["rouge1", "rougeL"], use_stemmer=True).score("a b c", "c b a")
    again.rouge_types = ["rouge1", "rougeL"]  # an attribute callers may change
    assert again.score("a b c", "c b a") == want
