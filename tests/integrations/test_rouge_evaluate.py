"""parbleu's offline ``rouge`` evaluate module against the hub module's code on live rouge-score."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import require, requires_shared
from rouge_support import summaries

require("rouge_score", "rouge")

from rouge_score import rouge_scorer, scoring  # noqa: E402

import parbleu  # noqa: E402
from parbleu.integrations import evaluate as pe  # noqa: E402


class _Tokenizer:
    """The hub module's wrapper of a tokenizer callable."""

    def __init__(self, fn):  # type: ignore[no-untyped-def]
        self.fn = fn

    def tokenize(self, text):  # type: ignore[no-untyped-def]
        return self.fn(text)


def _hub_rouge(  # type: ignore[no-untyped-def]
    predictions,
    references,
    rouge_types=None,
    use_aggregator=True,
    use_stemmer=False,
    tokenizer=None,
):
    """huggingface/evaluate metrics/rouge ``_compute``, on rouge-score 0.1.2."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    if tokenizer is not None:
        tokenizer = _Tokenizer(tokenizer)
    scorer = rouge_scorer.RougeScorer(
        rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer
    )
    aggregator = scoring.BootstrapAggregator()
    scores = []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        if use_aggregator:
            aggregator.add_scores(score)
        else:
            scores.append(score)
    if use_aggregator:
        result = aggregator.aggregate()
        return {key: result[key].mid.fmeasure for key in result}
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}


def _both(seed: int, *args, **kwargs):  # type: ignore[no-untyped-def]
    np.random.seed(seed)
    want = _hub_rouge(*args, **kwargs)
    np.random.seed(seed)
    got = pe.compute("rouge", *args, **kwargs)
    return got, want


def test_hub_docstring_example() -> None:
    rouge = parbleu.evaluate_load("rouge")
    preds = ["hello there", "general kenobi"]
    assert rouge.compute(predictions=preds, references=preds) == {
        "rouge1": 1.0,
        "rouge2": 1.0,
        "rougeL": 1.0,
        "rougeLsum": 1.0,
    }
    assert "rouge" in pe.MODULES
    assert pe.module_path("rouge").endswith("evaluate_modules/rouge")


@requires_shared
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_rouge_module_equals_the_hub_module(stem: bool, lang: str) -> None:
    preds, refs = summaries(lang, n=60)
    single = [r[0] for r in refs]
    for references in (single, refs):
        got, want = _both(11, preds, references, use_stemmer=stem)
        assert got == want
        got, want = _both(0, preds, references, use_stemmer=stem, use_aggregator=False)
        assert got == want
    types = ["rouge3", "rougeL", "rouge1", "rougeL"]  # repeated: one key, as the hub module
    got, want = _both(5, preds, refs, rouge_types=types)
    assert got == want and list(got) == list(want)


@requires_shared
def test_rouge_module_with_a_tokenizer_callable() -> None:
    preds, refs = summaries("zh", n=40)

    def chars(text: str) -> list[str]:
        return [c for c in text if not c.isspace()]

    for agg in (False, True):
        got, want = _both(3, preds, refs, tokenizer=chars, use_aggregator=agg, use_stemmer=True)
        assert got == want
    # A tokenizer whose tokens hold spaces and newlines: ids, not re-split text.
    got, want = _both(4, ["a b\nc d", "x"], ["a b c\nd", "x y"], tokenizer=lambda t: t.split("\n"))
    assert got == want


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"predictions": [], "references": []}, parbleu.EmptyInputError, "predictions"),
        ({"predictions": ["a", "b"], "references": ["a"]}, parbleu.LengthMismatchError, "2"),
        ({"predictions": ["a"], "references": [[]]}, parbleu.EmptyInputError, "references"),
        ({"predictions": "a", "references": ["a"]}, parbleu.InputTypeError, "predictions"),
        (
            {"predictions": ["a"], "references": ["a"], "rouge_types": ["rouge10"]},
            parbleu.InvalidOptionError,
            "rouge10",
        ),
        (
            {"predictions": ["a"], "references": ["a"], "use_bootstrap": True},
            parbleu.InvalidOptionError,
            "use_bootstrap",
        ),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, error, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=words):
        pe.compute("rouge", **kwargs)


def test_add_batch_then_compute_equals_one_call() -> None:
    m = parbleu.evaluate_load("rouge", use_aggregator=False)
    m.add_batch(predictions=["the cat sat"], references=[["the cat sat down", "a cat"]])
    m.add(prediction="a dog", reference="the dog")
    assert m.compute() == pe.compute(
        "rouge",
        ["the cat sat", "a dog"],
        [["the cat sat down", "a cat"], "the dog"],
        use_aggregator=False,
    )


@requires_shared
def test_evaluate_load_offline_module_path() -> None:
    require("evaluate", "evaluate")
    import evaluate

    preds, refs = summaries("en", n=20)
    module = evaluate.load(pe.module_path("rouge"))
    np.random.seed(2)
    got = module.compute(predictions=preds, references=refs)
    np.random.seed(2)
    assert got == _hub_rouge(preds, refs)
