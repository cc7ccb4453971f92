"""parbleu.ROUGE against live rouge-score 0.1.2: means, sentence scores, bootstrap, errors.

rouge-score's corpus number is ``BootstrapAggregator``'s: a mean of per-pair scores (its ``mid``
is the median of bootstrap means). ``ROUGE.corpus_score`` gives the mean itself (checked against
``np.mean`` of rouge-score's per-pair scores, as its aggregator averages a sample) and, with
``n_bootstrap``, the aggregator's low/mid/high.
"""

from __future__ import annotations

import logging
import random

import numpy as np
import pytest

from helpers import require

require("rouge_score", "rouge")

from rouge_score import rouge_scorer, scoring  # noqa: E402

import parbleu  # noqa: E402
from parbleu.errors import (  # noqa: E402
    EmptyInputError,
    InvalidOptionError,
    LengthMismatchError,
    MissingDependencyError,
)
from parbleu.metrics.rouge import ROUGE  # noqa: E402

TYPES = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")
#: Words with stemmable suffixes, digits, punctuation and non-ASCII letters.
WORDS = (
    "the cat sat on mat running runs ran runner quickly quick brown fox jumped jumps over",
    "lazy dog dogs generously generous connection connected 2024 3.5 U.S. isn't Café naïve",
)

_VOCAB = " ".join(WORDS).split()


def _text(rng: random.Random) -> str:
    sents = []
    for _ in range(rng.randint(1, 4)):
        sents.append(" ".join(rng.choice(_VOCAB) for _ in range(rng.randint(0, 12))) + ".")
    return "\n".join(sents)


def _corpus(n: int, n_refs: int, seed: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    hyps = [_text(rng) for _ in range(n)]
    streams = [[_text(rng) for _ in range(n)] for _ in range(n_refs)]
    hyps[0] = ""  # empty prediction: all zeros in rouge-score
    streams[0][1] = ""  # empty reference
    return hyps, streams


def _oracle(
    hyps: list[str], streams: list[list[str]], types: tuple[str, ...], stem: bool
) -> list[dict[str, scoring.Score]]:
    sc = rouge_scorer.RougeScorer(list(types), use_stemmer=stem)
    refs = [list(r) for r in zip(*streams)]
    return [sc.score_multi(r, h) if len(r) > 1 else sc.score(r[0], h) for h, r in zip(hyps, refs)]


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("n_refs", [1, 3])
def test_corpus_mean_and_sentences_equal_rouge_score(stem: bool, n_refs: int) -> None:
    hyps, streams = _corpus(60, n_refs, seed=n_refs + 10 * stem)
    per = _oracle(hyps, streams, TYPES, stem)
    metric = ROUGE(TYPES, use_stemmer=stem)
    got = metric.corpus_score(hyps, streams)
    assert got.n_pairs == len(hyps)
    for t in TYPES:
        want = np.mean(np.vstack([tuple(p[t]) for p in per]), axis=0).tolist()
        assert list(got.mean[t]) == want, t
    assert got.score == 100 * got.mean["rouge1"].fmeasure
    # sentence_score and the batch sentence_scores: each pair's own numbers.
    for i in (0, 1, 7):
        one = metric.sentence_score(hyps[i], [s[i] for s in streams])
        for t in TYPES:
            assert tuple(one.mean[t]) == tuple(per[i][t]), (i, t)
    batch = metric.sentence_scores(hyps, streams)
    assert batch.tolist() == [100 * p["rouge1"].fmeasure for p in per]
    # The statistics API: rows add, and a summed row finalizes to the corpus mean.
    rows = metric.extract_stats(hyps, streams)
    assert rows.shape == (len(hyps), 3 * len(TYPES) + 1)
    assert metric.score_from_stats(rows).mean == got.mean


def test_rouge_is_exported_and_defaults_as_rouge_score() -> None:
    assert parbleu.ROUGE is ROUGE
    m = parbleu.ROUGE()
    assert m.rouge_types == ("rouge1", "rouge2", "rougeL", "rougeLsum")
    s = m.corpus_score(["the cat sat"], [["the cat sat down"]])
    assert (
        s.fmeasures()["rouge1"]
        == rouge_scorer.RougeScorer(["rouge1"])
        .score("the cat sat down", "the cat sat")["rouge1"]
        .fmeasure
    )


def test_bootstrap_rouge_score_compat_is_bit_equal_for_a_seed() -> None:
    hyps, streams = _corpus(40, 1, seed=5)
    per = _oracle(hyps, streams, TYPES, False)
    np.random.seed(77)
    agg = scoring.BootstrapAggregator(n_samples=200)
    for p in per:
        agg.add_scores(p)
    want = agg.aggregate()
    np.random.seed(1)
    before = np.random.get_state()[1].copy()
    got = ROUGE(TYPES, bootstrap="rouge-score", seed=77).corpus_score(
        hyps, streams, n_bootstrap=200
    )
    assert got.aggregate is not None
    for t in TYPES:
        assert tuple(map(tuple, got.aggregate[t])) == tuple(map(tuple, want[t])), t
    # The seed is used for the draw only: numpy's global RNG is given back as it was.
    assert (np.random.get_state()[1] == before).all()
    sig = ROUGE(TYPES, bootstrap="rouge-score", seed=77)
    sig.corpus_score(hyps, streams, n_bootstrap=200)
    text = sig.get_signature().format()
    assert "bs:200" in text and "seed:77" in text and "boot:rouge-score" in text


def test_bootstrap_parbleu_does_not_depend_on_threads() -> None:
    hyps, streams = _corpus(50, 2, seed=9)
    one = ROUGE(TYPES, seed=3).corpus_score(hyps, streams, n_bootstrap=100, workers=1)
    many = ROUGE(TYPES, seed=3).corpus_score(hyps, streams, n_bootstrap=100, workers=4)
    assert one.aggregate == many.aggregate
    assert one.aggregate is not None
    for t in TYPES:
        low, mid, high = one.aggregate[t]
        assert low.fmeasure <= mid.fmeasure <= high.fmeasure


def test_signature_records_every_option() -> None:
    m = ROUGE(("rouge2", "rougeL"), use_stemmer=True, tokenize="unicode")
    m.corpus_score(["a b"], [["a b"], ["a c"]])
    text = m.get_signature().format()
    for part in ("nrefs:2", "types:rouge2+rougeL", "tok:unicode", "stem:yes", "split:no"):
        assert part in text, (part, text)
    assert text.endswith(f"version:parbleu-{parbleu.__version__}")


def test_streaming_accumulator_equals_corpus_score() -> None:
    hyps, streams = _corpus(30, 1, seed=2)
    m = ROUGE(TYPES)
    acc = m.accumulator()
    for lo in range(0, 30, 7):
        acc.update(hyps[lo : lo + 7], [s[lo : lo + 7] for s in streams])
    whole = m.corpus_score(hyps, streams)
    got = acc.result()
    for t in TYPES:  # floats added block by block: equal to the last bits, not beyond
        assert got.mean[t] == pytest.approx(whole.mean[t], rel=1e-12, abs=1e-15)
    total = None
    for lo in range(0, 30, 7):
        total = m.add_rows(
            total, m.extract_stats(hyps[lo : lo + 7], [s[lo : lo + 7] for s in streams])
        )
    assert total is not None
    assert m.score_row(total).mean == whole.mean  # add_rows: index order, bit-equal


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda m: m.corpus_score([], [[]]), EmptyInputError, "hypotheses"),
        (lambda m: m.corpus_score(["a", "b"], [["a"]]), LengthMismatchError, "references"),
        (lambda m: m.sentence_score("a", []), Exception, "references"),
    ],
)
def test_bad_input_is_one_clear_error(call, error, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as info:
        call(ROUGE())
    assert words in str(info.value)


@pytest.mark.parametrize("types", [("rouge0",), ("rouge10",), ("rougeX",), ("ROUGE1",), ()])
def test_absurd_rouge_types_raise(types: tuple[str, ...]) -> None:
    with pytest.raises(InvalidOptionError):
        ROUGE(types)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"tokenize": "bogus"}, "tokenize"),
        ({"bootstrap": "scipy"}, "bootstrap"),
        ({"confidence_interval": 1.5}, "confidence_interval"),
        ({"use_stemmer": "yes"}, "use_stemmer"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_options_name_the_argument(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidOptionError, match=name):
        ROUGE(**kwargs)  # type: ignore[arg-type]


def test_split_summaries_without_punkt_is_a_clear_error() -> None:
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab")
        pytest.skip("NLTK's punkt data is installed here")
    except LookupError:
        pass
    with pytest.raises(MissingDependencyError, match="punkt"):
        ROUGE(("rougeLsum",), split_summaries=True).corpus_score(["a. b."], [["a. b."]])


def test_non_latin_input_warns_once_naming_the_unicode_tokenizer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hyps = ["Кошка сидит на ковре.", "Собака спит."]
    refs = [["Кошка сидела на ковре.", "Собака спала."]]
    m = ROUGE()
    with caplog.at_level(logging.WARNING, logger="parbleu"):
        m.corpus_score(hyps, refs)
        m.corpus_score(hyps, refs)
    warned = [r for r in caplog.records if 'tokenize="unicode"' in r.getMessage()]
    assert len(warned) == 1
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="parbleu"):
        ROUGE().corpus_score(["The cat sat."], [["The cat sat down."]])
        ROUGE(tokenize="unicode").corpus_score(hyps, refs)
    assert not [r for r in caplog.records if "unicode" in r.getMessage()]


def test_pairwise_modes_rouge_does_not_declare_say_so() -> None:
    m = ROUGE()
    assert parbleu.pairwise(["a b", "a c"], metric=m).tolist() == [[100.0, 50.0], [50.0, 100.0]]
    with pytest.raises(InvalidOptionError, match=r"^aggregate=True: .* not ROUGE"):
        parbleu.mbr(["a b", "a c"], metric=m, aggregate=True)


def test_each_rouge_type_is_a_resampled_column() -> None:
    from parbleu.significance import compare_all, confidence_interval

    hyps, streams = _corpus(60, 1, seed=3)
    other = hyps[::-1]
    whole = ROUGE().corpus_score(hyps, streams)
    cols = ROUGE().columns()
    assert [c.title for c in cols] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for c in cols:
        t = c.title
        score = c.corpus_score(hyps, streams)
        assert score.name == t and score.score == 100 * whole.mean[t].fmeasure
        ci = confidence_interval(c, hyps, streams, n=50, seed=1)
        assert ci.score == score.score and ci.low <= score.score <= ci.high
    comp = compare_all(ROUGE(), {"a": hyps, "b": other}, streams, n=50)
    assert [mc.metric for mc in comp.metrics] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def test_newline_marks_sentence_breaks_in_one_line_summaries() -> None:
    hyps, streams = _corpus(20, 1, seed=4)
    flat_h = [h.replace("\n", " <n> ") for h in hyps]
    flat_r = [[r.replace("\n", " <n> ") for r in s] for s in streams]
    got = ROUGE(TYPES, newline="<n>").corpus_score(flat_h, flat_r)
    want = ROUGE(TYPES).corpus_score(
        [h.replace("\n", " \n ") for h in hyps],
        [[r.replace("\n", " \n ") for r in s] for s in streams],
    )
    assert got.mean == want.mean
    sig = ROUGE(newline="<n>")
    sig.corpus_score(["a"], [["a"]])
    assert "nl:<n>" in sig.get_signature().format()
    with pytest.raises(InvalidOptionError, match="newline"):
        ROUGE(newline="")
